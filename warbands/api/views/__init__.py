"""REST API for the catalogue (read-only, anonymous allowed) and the rosters (owner only).

Views parse input, call one service or selector, and answer. Every write answers the warband's
new state; its ``version`` (also the ``ETag``) is what the next write must send, in the body as
``version`` or as ``If-Match`` (the rule: ``annuminas.api.versioning``). A stale one answers 409
in the error shape.

``catalogue``: the catalogue; ``warbands``: the warband and its sheet, ledger, export, import,
hiring and stash; ``fighters``: one hero or group; ``equipment``: items; ``_common``: shared.
"""

from .catalogue import (
    CatalogueRootView,
    EquipmentListViewSet,
    EquipmentViewSet,
    FighterTypeViewSet,
    RaceViewSet,
    SkillListViewSet,
    SkillViewSet,
    SpecialRuleViewSet,
    WarbandTypeViewSet,
)
from .equipment import HolderEquipmentView, item_action_view
from .fighters import FighterDetailView, FighterRetireView, GroupDetailView
from .warbands import WarbandViewSet

__all__ = [
    "CatalogueRootView",
    "EquipmentListViewSet",
    "EquipmentViewSet",
    "FighterDetailView",
    "FighterRetireView",
    "FighterTypeViewSet",
    "GroupDetailView",
    "HolderEquipmentView",
    "RaceViewSet",
    "SkillListViewSet",
    "SkillViewSet",
    "SpecialRuleViewSet",
    "WarbandTypeViewSet",
    "WarbandViewSet",
    "item_action_view",
]
