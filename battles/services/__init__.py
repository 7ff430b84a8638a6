"""Every write of the campaigns: typed, keyword-only, atomic; each checks who may do it.

Services raise ``ValidationError`` (bad input, a message a player understands),
``PermissionDenied`` (not allowed) or ``annuminas.errors.Conflict`` (a stale ``version`` or a
state clash, e.g. reporting a battle that is already confirmed). Locks: campaign writes lock the
campaign row, battle writes lock the battle row (``select_for_update``).

One module per part of a campaign; callers import this package (``services.battle_report``):

- ``campaigns``: create, update the house rules, transitions, archive, join code;
- ``membership``: join (and the campaign's starting treasury), co-organisers, withdrawal;
- ``rounds``: rounds, pairings drawn or set by hand;
- ``reports``: report, confirm, dispute, settle, correct — checked by the pure
  ``report_check`` (report + facts → a plan to write);
- ``standings``: the standings the services and pages read;
- ``_common``: the locks and the checks every write starts with.
"""

from ..house_rules import HOUSE_RULE_FIELDS, HOUSE_RULE_KEYS
from .campaigns import (
    CAMPAIGN_FIELDS,
    TRANSITIONS,
    campaign_archive,
    campaign_create,
    campaign_new_join_code,
    campaign_transition,
    campaign_update,
)
from .membership import campaign_add_organiser, campaign_join, membership_withdraw
from .report_check import EventReport, ParticipantReport, Report
from .reports import battle_confirm, battle_correct, battle_dispute, battle_report, battle_settle
from .rounds import (
    MAX_PARTICIPANTS,
    pairing_create,
    pairing_delete,
    pairing_edit,
    pairings_generate,
    round_close,
    round_open,
)
from .standings import points_scheme, standings_compute

__all__ = [
    "CAMPAIGN_FIELDS",
    "HOUSE_RULE_FIELDS",
    "HOUSE_RULE_KEYS",
    "MAX_PARTICIPANTS",
    "TRANSITIONS",
    "EventReport",
    "ParticipantReport",
    "Report",
    "battle_confirm",
    "battle_correct",
    "battle_dispute",
    "battle_report",
    "battle_settle",
    "campaign_add_organiser",
    "campaign_archive",
    "campaign_create",
    "campaign_join",
    "campaign_new_join_code",
    "campaign_transition",
    "campaign_update",
    "membership_withdraw",
    "pairing_create",
    "pairing_delete",
    "pairing_edit",
    "pairings_generate",
    "points_scheme",
    "round_close",
    "round_open",
    "standings_compute",
]
