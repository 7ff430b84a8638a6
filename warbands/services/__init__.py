"""Every write to the rosters: hire, buy, sell, stash, dismiss, retire, ledger.

Each public function is keyword-only and atomic. It locks the warband row
(``select_for_update``), checks ``expected_version`` when given (a stale one raises
``annuminas.errors.Conflict`` → 409), validates with a message a player understands, writes,
records a ``LedgerEntry`` for any change of treasury or finds, refreshes rating and advances
due, bumps ``version``, then runs the registered house-rule ``constraints`` (a failing one
rolls it all back). A passed-in ``Warband`` instance is refreshed with the new values on return.

The modules, by responsibility (callers write ``services.fighter_hire``):

- ``unit``: the unit of work (lock, version check, ``roster_batch``, finish);
- ``ledger``: treasury and finds; ``rating``: rating and advances due of a roster;
- ``warbands``: create, update, delete; ``hiring``: who is in the roster;
- ``equipment``; ``injuries``: status, death, serious injuries;
- ``advancement``: experience, profile changes, advances, skills;
- ``interchange``: export and import;
- ``snapshots``: a roster's snapshot and its exact restore; ``undo``: the last change undone.
"""

from .advancement import (
    fighter_add_advance,
    fighter_add_experience,
    fighter_add_skill,
    fighter_apply_profile_change,
)
from .equipment import (
    equipment_assign,
    equipment_buy,
    equipment_price,
    equipment_sell,
    equipment_stash,
    item_copies,
    item_sale_value,
    sale_value,
)
from .hired_swords import fighter_or_sword_dismiss
from .hiring import (
    fighter_dismiss,
    fighter_hire,
    fighter_hire_price,
    fighter_make_leader,
    fighter_retire,
    fighter_update,
    group_dismiss,
    group_update,
)
from .injuries import fighter_add_injury, fighter_kill, fighter_set_status
from .interchange import EXPORT_FORMAT, EXPORT_FORMAT_VERSION, warband_export, warband_import
from .ledger import ledger_record
from .undo import undo_offer, undo_point_text, warband_undo
from .unit import IN_ROSTER, RosterBatch, roster_batch
from .warbands import (
    UPDATABLE_WARBAND_FIELDS,
    warband_create,
    warband_delete,
    warband_rating_refresh,
    warband_rename,
    warband_update,
)

__all__ = [
    "EXPORT_FORMAT",
    "EXPORT_FORMAT_VERSION",
    "IN_ROSTER",
    "UPDATABLE_WARBAND_FIELDS",
    "RosterBatch",
    "equipment_assign",
    "equipment_buy",
    "equipment_price",
    "equipment_sell",
    "equipment_stash",
    "fighter_add_advance",
    "fighter_add_experience",
    "fighter_add_injury",
    "fighter_add_skill",
    "fighter_apply_profile_change",
    "fighter_dismiss",
    "fighter_hire",
    "fighter_hire_price",
    "fighter_kill",
    "fighter_make_leader",
    "fighter_retire",
    "fighter_set_status",
    "fighter_or_sword_dismiss",
    "fighter_update",
    "undo_offer",
    "undo_point_text",
    "warband_undo",
    "group_dismiss",
    "group_update",
    "item_copies",
    "item_sale_value",
    "sale_value",
    "ledger_record",
    "roster_batch",
    "warband_create",
    "warband_delete",
    "warband_export",
    "warband_import",
    "warband_rating_refresh",
    "warband_rename",
    "warband_update",
]
