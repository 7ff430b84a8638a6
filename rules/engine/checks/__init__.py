"""Checks and movement rules of the rulebook (and flee and pursuit), one function per rule.

Every function takes keyword parameters (plain JSON-able values) and, when it rolls, a ``dice``;
it returns a :class:`CheckResult` that explains itself. :data:`CHECKS` maps the API's kind names
to these functions; :func:`run_check` validates a parameter dict and calls one.

Modules: :mod:`._common` (result, validators, the shared rolls) · :mod:`.leadership`
(characteristic, Leadership, rally and rout tests) · :mod:`.psychology` (all alone, fleeing from
combat, fear, frenzy, hatred, stupidity) · :mod:`.movement` (run, charge, spotting, terrain) ·
:mod:`.falls` (falls, jumps, climbing, gaps, edges) · :mod:`.pursuit` (flee and pursuit) ·
:mod:`.registry` (the kind names and :func:`run_check`).
"""

from rules.engine.checks._common import (
    ATTRIBUTES,
    MAX_DISTANCE_CM,
    TERRAINS,
    WARRIOR_STATUSES,
    CheckResult,
)
from rules.engine.checks.falls import (
    DIVING_CHARGE_REACH_CM,
    EDGE_RANGE_CM,
    JUMP_STEP_CM,
    MAX_JUMP_CM,
    climb,
    diving_charge,
    edge_fall,
    falling,
    falling_strength,
    jump_down,
    jump_gap,
)
from rules.engine.checks.leadership import (
    LEADER_RANGE_CM,
    attribute_check,
    effective_leadership,
    leadership_test,
    rally_test,
    rout_test,
)
from rules.engine.checks.movement import (
    RUN_BLOCK_RANGE_CM,
    UNSEEN_CHARGE_RANGE_CM,
    charge,
    detect_unseen_enemy,
    run,
    spot_hidden,
    terrain_movement,
)
from rules.engine.checks.psychology import (
    ALL_ALONE_RANGE_CM,
    all_alone_test,
    charged_while_fleeing,
    fear_test,
    flee_from_combat,
    frenzy,
    hatred,
    stupidity_test,
)
from rules.engine.checks.pursuit import (
    FAST_FLEE_DICE,
    FAST_MOVER_CM,
    FLEE_DICE,
    flee_and_pursuit,
    flee_dice,
)
from rules.engine.checks.registry import (
    BATTLE_CHECKS,
    CHECKS,
    DECLARED,
    LABELS,
    Check,
    check_parameters,
    run_check,
)

__all__ = [
    "ALL_ALONE_RANGE_CM",
    "ATTRIBUTES",
    "BATTLE_CHECKS",
    "CHECKS",
    "DECLARED",
    "DIVING_CHARGE_REACH_CM",
    "EDGE_RANGE_CM",
    "FAST_FLEE_DICE",
    "FAST_MOVER_CM",
    "FLEE_DICE",
    "JUMP_STEP_CM",
    "LABELS",
    "LEADER_RANGE_CM",
    "MAX_DISTANCE_CM",
    "MAX_JUMP_CM",
    "RUN_BLOCK_RANGE_CM",
    "TERRAINS",
    "UNSEEN_CHARGE_RANGE_CM",
    "WARRIOR_STATUSES",
    "Check",
    "CheckResult",
    "all_alone_test",
    "attribute_check",
    "charge",
    "charged_while_fleeing",
    "check_parameters",
    "climb",
    "detect_unseen_enemy",
    "diving_charge",
    "edge_fall",
    "effective_leadership",
    "falling",
    "falling_strength",
    "fear_test",
    "flee_and_pursuit",
    "flee_dice",
    "flee_from_combat",
    "frenzy",
    "hatred",
    "jump_down",
    "jump_gap",
    "leadership_test",
    "rally_test",
    "rout_test",
    "run",
    "run_check",
    "spot_hidden",
    "stupidity_test",
    "terrain_movement",
]
