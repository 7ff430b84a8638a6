"""What answering any pending decision shares: the row locked, only by its warband's owner, once.

The post-battle decisions (``battles.postbattle.decisions``) and the hired swords' upkeep
(``battles.postbattle.upkeep``) each bring the handlers of their kinds; a handler applies the
choice and says whether it declined.
"""

from __future__ import annotations

from collections.abc import Callable, Mapping
from typing import Any

from django.core.exceptions import PermissionDenied
from django.utils import timezone
from django.utils.translation import gettext as _

from annuminas.errors import Conflict
from battles.models import PendingDecision

Handler = Callable[[PendingDecision, Any], bool]


def decision_settle(
    *, decision: PendingDecision, user, choice: Any, handlers: Mapping[str, Handler]
) -> PendingDecision:
    """Lock ``decision``, check that ``user`` owns its warband and that it is still open, let
    the handler of its kind apply ``choice``, and record the answer (declined if the handler
    says so). The caller holds the transaction."""
    decision = (
        PendingDecision.objects.select_for_update(of=("self",))
        .select_related("warband", "fighter", "group")
        .get(pk=decision.pk)
    )
    if decision.warband.owner_id != getattr(user, "pk", None):
        raise PermissionDenied(
            _("Only the owner of %(warband)s decides this.") % {"warband": decision.warband.name}
        )
    if decision.status != PendingDecision.Status.OPEN:
        raise Conflict(_("This decision was already taken."), code="already_decided")
    declined = handlers[decision.kind](decision, choice)
    decision.choice = choice
    decision.status = (
        PendingDecision.Status.DECLINED if declined else PendingDecision.Status.ANSWERED
    )
    decision.answered_at = timezone.now()
    decision.save(update_fields=["choice", "status", "answered_at"])
    return decision
