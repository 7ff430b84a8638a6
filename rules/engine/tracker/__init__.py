"""The battle at the table: its state as a fold over the log, the checks due, and their rolls.

* :mod:`~rules.engine.tracker.setup` — ``setup_from_dict``, ``rout_threshold``,
  ``BattleSetupData``.
* :mod:`~rules.engine.tracker.state` — ``fold(entries)``, ``start(setup)``, ``BattleState``
  (``append``, ``validate``, ``checks_due``, ``finish_due``, ``to_dict``, ``report``).
* :mod:`~rules.engine.tracker.model` — the state's pieces (``FighterState``, statuses, kinds).
* :mod:`~rules.engine.tracker.entries`, :mod:`~rules.engine.tracker.checks`,
  :mod:`~rules.engine.tracker.duels` — what each kind of entry needs and changes (challenges:
  ``resolve_challenge``, ``challenge_overkill``).
* :mod:`~rules.engine.tracker.rolls` — ``roll_check(state, payload, dice=...)``.
"""

from rules.engine.tracker.duels import overkill as challenge_overkill
from rules.engine.tracker.duels import resolve as resolve_challenge
from rules.engine.tracker.errors import TrackerError
from rules.engine.tracker.model import (
    ATTACK_MODES,
    CHALLENGE_STEPS,
    CHECK_KINDS,
    CORRECTABLE,
    FLEEING,
    IN_PLAY,
    KINDS,
    KNOCKED_DOWN,
    OUT_OF_ACTION,
    STATUSES,
    STUNNED,
    FighterState,
)
from rules.engine.tracker.rolls import check_params, roll_check
from rules.engine.tracker.setup import (
    BattleSetupData,
    FighterSetup,
    SideSetup,
    rout_threshold,
    setup_from_dict,
)
from rules.engine.tracker.state import BattleState, fold, start

__all__ = [
    "ATTACK_MODES",
    "CHALLENGE_STEPS",
    "CHECK_KINDS",
    "CORRECTABLE",
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
    "challenge_overkill",
    "check_params",
    "fold",
    "resolve_challenge",
    "roll_check",
    "rout_threshold",
    "setup_from_dict",
    "start",
]
