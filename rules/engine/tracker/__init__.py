"""The battle at the table: its state as a fold over the log, the combats, the checks due, and
the rolls of every entry.

* :mod:`~rules.engine.tracker.setup` — ``setup_from_dict``, ``rout_threshold``,
  ``BattleSetupData``, ``LOG_VERSION``.
* :mod:`~rules.engine.tracker.payloads` — every kind of entry and its payload (``KINDS``).
* :mod:`~rules.engine.tracker.model`, :mod:`~rules.engine.tracker.data` — the state's pieces
  (warriors, the side's turn, combats, duels) and :class:`~.data.BattleData`.
* :mod:`~rules.engine.tracker.due` — the checks and entries due now.
* :mod:`~rules.engine.tracker.turns`, :mod:`~rules.engine.tracker.checks`,
  :mod:`~rules.engine.tracker.melee`, :mod:`~rules.engine.tracker.shooting`,
  :mod:`~rules.engine.tracker.duels` — what each kind of entry needs and changes.
* :mod:`~rules.engine.tracker.specs` — a warrior as the combat engine sees him.
* :mod:`~rules.engine.tracker.state` — ``fold(entries)``, ``start(setup)``,
  ``resume(setup, snapshot)``, ``BattleState`` (``append``, ``validate``, ``checks_due``,
  ``finish_due``, ``decisive_seq``, ``to_dict``, ``report``, ``to_snapshot``), ``decisive_of``
  (the entry that finished a battle, which a correction may still strike out).
* :mod:`~rules.engine.tracker.rolls` — ``roll_entry(state, kind, payload, dice=...)``.
* :mod:`~rules.engine.tracker.plans` — ``dice_plan``: which dice an entry needs, in order.

The modules import downwards only (setup → model → data → due → entries → state → rolls →
plans): no module imports one that imports it.
"""

from rules.engine.checks import BATTLE_CHECKS as CHECK_KINDS
from rules.engine.tracker.due import DUE_KINDS
from rules.engine.tracker.duels import overkill as challenge_overkill
from rules.engine.tracker.duels import resolve as resolve_challenge
from rules.engine.tracker.errors import TrackerError
from rules.engine.tracker.model import (
    ATTACK_MODES,
    CHALLENGE_STEPS,
    CORRECTABLE,
    FLEEING,
    IN_PLAY,
    KNOCKED_DOWN,
    OUT_OF_ACTION,
    STATUSES,
    STUNNED,
    FighterState,
)
from rules.engine.tracker.payloads import KINDS, ROLLED_KINDS, WRITABLE_KINDS
from rules.engine.tracker.plans import DicePlan, dice_plan
from rules.engine.tracker.rolls import check_params, roll_check, roll_entry
from rules.engine.tracker.setup import (
    LOG_VERSION,
    BattleSetupData,
    FighterSetup,
    SideSetup,
    rout_threshold,
    setup_from_dict,
)
from rules.engine.tracker.state import BattleState, decisive_of, fold, resume, start

__all__ = [
    "ATTACK_MODES",
    "CHALLENGE_STEPS",
    "CHECK_KINDS",
    "CORRECTABLE",
    "DUE_KINDS",
    "FLEEING",
    "IN_PLAY",
    "KINDS",
    "KNOCKED_DOWN",
    "LOG_VERSION",
    "OUT_OF_ACTION",
    "ROLLED_KINDS",
    "STATUSES",
    "STUNNED",
    "WRITABLE_KINDS",
    "BattleSetupData",
    "BattleState",
    "DicePlan",
    "FighterSetup",
    "FighterState",
    "SideSetup",
    "TrackerError",
    "challenge_overkill",
    "check_params",
    "decisive_of",
    "dice_plan",
    "fold",
    "resolve_challenge",
    "resume",
    "roll_check",
    "roll_entry",
    "rout_threshold",
    "setup_from_dict",
    "start",
]
