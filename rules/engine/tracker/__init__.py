"""The battle at the table: its state as a fold over the log, the checks due, and their rolls.

* :mod:`~rules.engine.tracker.setup` — ``setup_from_dict``, ``rout_threshold``,
  ``BattleSetupData``.
* :mod:`~rules.engine.tracker.state` — ``fold(entries)``, ``start(setup)``, ``BattleState``
  (``append``, ``validate``, ``checks_due``, ``to_dict``, ``report``).
* :mod:`~rules.engine.tracker.rolls` — ``roll_check(state, payload, dice=...)``.
"""

from rules.engine.tracker.errors import TrackerError
from rules.engine.tracker.rolls import check_params, roll_check
from rules.engine.tracker.setup import (
    BattleSetupData,
    FighterSetup,
    SideSetup,
    rout_threshold,
    setup_from_dict,
)
from rules.engine.tracker.state import (
    ATTACK_MODES,
    CHECK_KINDS,
    FLEEING,
    IN_PLAY,
    KINDS,
    KNOCKED_DOWN,
    OUT_OF_ACTION,
    STATUSES,
    STUNNED,
    BattleState,
    FighterState,
    fold,
    start,
)

__all__ = [
    "ATTACK_MODES",
    "CHECK_KINDS",
    "FLEEING",
    "IN_PLAY",
    "KINDS",
    "KNOCKED_DOWN",
    "OUT_OF_ACTION",
    "STATUSES",
    "STUNNED",
    "BattleSetupData",
    "BattleState",
    "FighterSetup",
    "FighterState",
    "SideSetup",
    "TrackerError",
    "check_params",
    "fold",
    "roll_check",
    "rout_threshold",
    "setup_from_dict",
    "start",
]
