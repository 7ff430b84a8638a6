"""Every write of a campaign: typed, keyword-only, atomic; each checks who may do it.

Services raise ``ValidationError`` (bad input, a message a player understands),
``PermissionDenied`` (not allowed) or ``annuminas.errors.Conflict`` (a stale ``version`` or a
state clash, e.g. closing a round twice). Campaign writes lock the campaign row, pairing edits
the battle row (``select_for_update``), through ``battles.common.writes``.

One module per part of a campaign; callers import this package (``services.campaign_join``):

- ``campaigns``: create, update the house rules, transitions, archive, join code;
- ``membership``: join (and the campaign's starting treasury), co-organisers, withdrawal;
- ``rounds``: rounds, pairings drawn or set by hand;
- ``schedule``: a round's start day and deadline.

The standings they read (``standings_compute``) are the campaign's scoring
(``battles.campaigns.scoring``); the battle reports are ``battles.reports.services``.
"""

from ..scoring import standings_compute
from .campaigns import (
    TRANSITIONS,
    campaign_archive,
    campaign_create,
    campaign_new_join_code,
    campaign_transition,
    campaign_update,
)
from .membership import campaign_add_organiser, campaign_join, membership_withdraw
from .rounds import (
    MAX_PARTICIPANTS,
    pairing_create,
    pairing_delete,
    pairing_edit,
    pairings_generate,
    round_close,
    round_open,
)
from .schedule import round_dates_check, round_open_scheduled, round_schedule

__all__ = [
    "MAX_PARTICIPANTS",
    "TRANSITIONS",
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
    "round_close",
    "round_dates_check",
    "round_open",
    "round_open_scheduled",
    "round_schedule",
    "standings_compute",
]
