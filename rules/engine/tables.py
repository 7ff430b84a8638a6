"""Default tables as data (to hit, to wound, shooting, saves, injuries, the campaign's), their
lookups, and a JSON view of all of them.

Tables are plain tuples of dicts (``{"min": 2, "max": 5, "result": "skill"}``; ``"max": None``
means "and above"), so a campaign's content pack can pass its own rows to the post-battle
functions. :func:`tables_as_dict` is what ``GET /api/v1/rules/tables/`` serves.
"""

from __future__ import annotations

import copy
from collections.abc import Mapping, Sequence
from typing import Any

from rules.engine.equipment import weapons_as_dict
from rules.engine.errors import RulesError
from rules.engine.i18n import gettext_noop as _
from rules.engine.profile import Profile

Row = Mapping[str, Any]

# docs/rules-tables.md › To hit in close combat ----------------------------------------------------


def melee_to_hit_needed(attacker_ws: int, defender_ws: int) -> int | None:
    """D6 needed to hit in close combat (Tabla para impactar); ``None``: hits automatically.

    Attacker's HA higher → 3+; defender's HA more than double the attacker's → 5+; else 4+.
    A defender with HA 0 cannot defend himself and is hit automatically.
    """
    if defender_ws == 0:
        return None
    if attacker_ws > defender_ws:
        return 3
    if defender_ws > 2 * attacker_ws:
        return 5
    return 4


MELEE_TO_HIT: tuple[tuple[int | None, ...], ...] = tuple(
    tuple(melee_to_hit_needed(a, d) for d in range(1, 11)) for a in range(1, 11)
)
"""``MELEE_TO_HIT[a - 1][d - 1]``: attacker HA ``a`` (rows) against defender HA ``d``."""

# docs/rules-tables.md › To wound ------------------------------------------------------------------


def to_wound_needed(strength: int, toughness: int) -> int | None:
    """D6 needed to wound (Tirada para herir), ``None`` when it cannot wound ("–")."""
    difference = strength - toughness
    if difference >= 2:
        return 2
    if difference == 1:
        return 3
    if difference == 0:
        return 4
    if difference == -1:
        return 5
    if difference >= -3:
        return 6
    return None


TO_WOUND: tuple[tuple[int | None, ...], ...] = tuple(
    tuple(to_wound_needed(s, t) for t in range(1, 11)) for s in range(1, 11)
)
"""``TO_WOUND[s - 1][t - 1]``: Fuerza ``s`` (rows) against Resistencia ``t``."""

# docs/rules-tables.md › Shooting ------------------------------------------------------------------

SHOOTING_TO_HIT: dict[int, int] = {bs: 7 - bs for bs in range(1, 11)}
"""HP → D6 needed before modifiers (values below 2 only absorb negative modifiers)."""

SHOOTING_MODIFIERS: dict[str, int] = {"cover": -1, "long_range": -1, "moved": -1, "large": 1}

# docs/rules-tables.md › Armour saves --------------------------------------------------------------

SAVE_MODIFIER_BY_STRENGTH: dict[int, int] = {s: -min(6, max(0, s - 3)) for s in range(1, 11)}
"""Fuerza → modifier to the armour save: F1-3 0, F4 −1 … F9+ −6."""


def strength_save_modifier(strength: int) -> int:
    return -min(6, max(0, strength - 3))


# docs/rules-tables.md › Injuries, Critical hits ---------------------------------------------------

KNOCKED_DOWN = "knocked_down"
STUNNED = "stunned"
OUT_OF_ACTION = "out_of_action"

INJURY_TABLE: tuple[Row, ...] = (
    {"min": 1, "max": 2, "result": KNOCKED_DOWN},
    {"min": 3, "max": 4, "result": STUNNED},
    {"min": 5, "max": None, "result": OUT_OF_ACTION},
)
CONCUSSION_INJURY_TABLE: tuple[Row, ...] = (
    {"min": 1, "max": 1, "result": KNOCKED_DOWN},
    {"min": 2, "max": 4, "result": STUNNED},
    {"min": 5, "max": None, "result": OUT_OF_ACTION},
)
CRITICAL_TABLE: tuple[Row, ...] = (
    {"min": 1, "max": 2, "result": "vital", "wounds": 2, "armour_save": True, "injury_bonus": 0},
    {"min": 3, "max": 4, "result": "exposed", "wounds": 2, "armour_save": False, "injury_bonus": 0},
    {"min": 5, "max": 6, "result": "master", "wounds": 2, "armour_save": False, "injury_bonus": 2},
)

# docs/rules-tables.md › Post-battle sequence ------------------------------------------------------

HENCHMAN_INJURY_TABLE: tuple[Row, ...] = (
    {"min": 1, "max": 2, "result": "dead"},
    {"min": 3, "max": 6, "result": "fine"},
)

SERIOUS_INJURY_TABLE: tuple[Row, ...] = (
    {"min": 11, "max": 15, "result": "dead"},
    {"min": 16, "max": 21, "result": "multiple_injuries"},
    {"min": 22, "max": 22, "result": "leg_wound"},
    {"min": 23, "max": 23, "result": "arm_wound"},
    {"min": 24, "max": 24, "result": "madness"},
    {"min": 25, "max": 25, "result": "smashed_leg"},
    {"min": 26, "max": 26, "result": "chest_wound"},
    {"min": 31, "max": 31, "result": "blinded_in_one_eye"},
    {"min": 32, "max": 32, "result": "old_battle_wound"},
    {"min": 33, "max": 33, "result": "nervous_condition"},
    {"min": 34, "max": 34, "result": "hand_injury"},
    {"min": 35, "max": 35, "result": "deep_wound"},
    {"min": 36, "max": 36, "result": "robbed"},
    {"min": 41, "max": 55, "result": "full_recovery"},
    {"min": 56, "max": 56, "result": "bitter_enmity"},
    {"min": 61, "max": 61, "result": "captured"},
    {"min": 62, "max": 63, "result": "hardened"},
    {"min": 64, "max": 64, "result": "horrible_scars"},
    {"min": 65, "max": 65, "result": "sold_to_the_pits"},
    {"min": 66, "max": 66, "result": "survives_against_the_odds"},
)
SERIOUS_INJURY_LABELS: dict[str, str] = {
    "dead": _("Dead"),
    "multiple_injuries": _("Multiple injuries"),
    "leg_wound": _("Leg wound"),
    "arm_wound": _("Arm wound"),
    "madness": _("Madness"),
    "smashed_leg": _("Smashed leg"),
    "chest_wound": _("Chest wound"),
    "blinded_in_one_eye": _("Blinded in one eye"),
    "old_battle_wound": _("Old battle wound"),
    "nervous_condition": _("Nervous condition"),
    "hand_injury": _("Hand injury"),
    "deep_wound": _("Deep wound"),
    "robbed": _("Robbed"),
    "full_recovery": _("Full recovery"),
    "bitter_enmity": _("Bitter enmity"),
    "captured": _("Captured"),
    "hardened": _("Hardened"),
    "horrible_scars": _("Horrible scars"),
    "sold_to_the_pits": _("Sold to the pits"),
    "survives_against_the_odds": _("Survives against the odds"),
}
MULTIPLE_INJURIES_REROLL = ("dead", "captured", "multiple_injuries")
"""Results re-rolled while rolling the extra injuries of "multiple injuries"."""

ARM_WOUND_TABLE: tuple[Row, ...] = (
    {"min": 1, "max": 1, "result": "arm_lost"},
    {"min": 2, "max": 6, "result": "misses_next_battle"},
)
MADNESS_TABLE: tuple[Row, ...] = (
    {"min": 1, "max": 3, "result": "stupidity"},
    {"min": 4, "max": 6, "result": "frenzy"},
)
SMASHED_LEG_TABLE: tuple[Row, ...] = (
    {"min": 1, "max": 1, "result": "cannot_run"},
    {"min": 2, "max": 6, "result": "misses_next_battle"},
)
BITTER_ENMITY_TABLE: tuple[Row, ...] = (
    {"min": 1, "max": 3, "result": "the_injurer"},
    {"min": 4, "max": 4, "result": "that_leader"},
    {"min": 5, "max": 5, "result": "that_warband"},
    {"min": 6, "max": 6, "result": "every_warband_of_that_type"},
)
PIT_FIGHT_WIN_ON = 4
"""Default pit fight when its result is not given: the hero wins on a D6 of 4+ (documented
simplification; a real fight can be resolved with :func:`rules.engine.simulate.simulate_duel`
and passed in as ``pit_fight_won``)."""
PIT_FIGHT_WIN_GOLD = 50
PIT_FIGHT_WIN_XP = 2
CAPTURED_SALE_MULTIPLIER = 5
LEG_WOUND_MOVEMENT_CM = 2.5
"""−1 M (one Mordheim inch) converted to cm."""
MOVEMENT_ADVANCE_CM = 2.5
"""+1 M (one Mordheim inch) converted to cm: an advance in M adds this much, not 1 cm."""
NOT_LASTING_INJURIES = frozenset({"full_recovery", "fine", "multiple_injuries"})
"""Injury results that leave nothing on the sheet themselves ("multiple injuries" leaves the
injuries it rolled)."""
RARE_ITEM_ROLL = "2D6"
"""Each hero not put out of action rolls this to find rare items: every item of his warband's
lists whose rarity is at most the total is found."""

HERO_ADVANCE_TABLE: tuple[Row, ...] = (
    {"min": 2, "max": 5, "result": "skill"},
    {"min": 6, "max": 6, "result": "subroll", "options": (("1-3", "s"), ("4-6", "a"))},
    {"min": 7, "max": 7, "result": "choice", "options": ("ws", "bs")},
    {"min": 8, "max": 8, "result": "subroll", "options": (("1-3", "i"), ("4-6", "ld"))},
    {"min": 9, "max": 9, "result": "subroll", "options": (("1-3", "w"), ("4-6", "t"))},
    {"min": 10, "max": 12, "result": "skill"},
)
HENCHMAN_ADVANCE_TABLE: tuple[Row, ...] = (
    {"min": 2, "max": 4, "result": "characteristic", "options": ("i",)},
    {"min": 5, "max": 5, "result": "characteristic", "options": ("s",)},
    {"min": 6, "max": 7, "result": "choice", "options": ("ws", "bs")},
    {"min": 8, "max": 8, "result": "characteristic", "options": ("a",)},
    {"min": 9, "max": 9, "result": "characteristic", "options": ("ld",)},
    {"min": 10, "max": 12, "result": "lads_got_talent"},
)
HERO_THRESHOLDS: tuple[int, ...] = (
    2,
    4,
    6,
    8,
    11,
    14,
    17,
    20,
    24,
    28,
    32,
    36,
    41,
    46,
    51,
    57,
    63,
    69,
    76,
    83,
    90,
)
HENCHMAN_THRESHOLDS: tuple[int, ...] = (2, 5, 9, 14)

UNDERDOG_TABLE: tuple[Row, ...] = (
    {"min": 0, "max": 50, "result": 0},
    {"min": 51, "max": 75, "result": 1},
    {"min": 76, "max": 100, "result": 2},
    {"min": 101, "max": 150, "result": 3},
    {"min": 151, "max": 300, "result": 4},
    {"min": 301, "max": None, "result": 5},
)
EXPLORATION_FINDS_TABLE: tuple[Row, ...] = (
    {"min": 1, "max": 5, "result": 1},
    {"min": 6, "max": 11, "result": 2},
    {"min": 12, "max": 17, "result": 3},
    {"min": 18, "max": 24, "result": 4},
    {"min": 25, "max": 30, "result": 5},
    {"min": 31, "max": 35, "result": 6},
    {"min": 36, "max": None, "result": 7},
)
EXPLORATION_MAX_DICE = 6

SELL_FINDS_COLUMNS: tuple[Row, ...] = (
    {"min": 1, "max": 3},
    {"min": 4, "max": 6},
    {"min": 7, "max": 9},
    {"min": 10, "max": 12},
    {"min": 13, "max": 15},
    {"min": 16, "max": None},
)
SELL_FINDS_TABLE: dict[int, tuple[int, ...]] = {
    1: (45, 40, 35, 30, 30, 25),
    2: (60, 55, 50, 45, 40, 35),
    3: (75, 70, 65, 60, 55, 50),
    4: (90, 80, 70, 65, 60, 55),
    5: (110, 100, 90, 80, 70, 65),
    6: (120, 110, 100, 90, 80, 70),
    7: (145, 130, 120, 110, 100, 90),
    8: (155, 140, 130, 120, 110, 100),
}
"""Finds (8 means 8 or more) → co by warband size column (:data:`SELL_FINDS_COLUMNS`)."""

RATING_PER_WARRIOR = 5
RATING_PER_LARGE_CREATURE = 20

RACIAL_MAXIMUMS: dict[str, Profile] = {
    "human": Profile.from_inches(4, 6, 6, 4, 4, 3, 6, 4, 9),
    # Reglas › Atributos: "un ágil Elfo tiene una capacidad de movimiento de 12 centímetros"
    # (Mordheim's 5" would be 12.5 cm); the default content pack says 12 too.
    "elf": Profile(12, 7, 7, 4, 4, 3, 9, 4, 10),
    "dwarf": Profile.from_inches(3, 7, 6, 4, 5, 3, 5, 4, 10),
    "orc": Profile.from_inches(4, 6, 6, 4, 5, 3, 5, 4, 9),
    "goblin": Profile.from_inches(4, 5, 6, 4, 4, 3, 6, 4, 7),
    "ogre": Profile.from_inches(6, 6, 5, 5, 5, 5, 6, 5, 9),
}


def lookup(rows: Sequence[Row], value: int, *, table: str = "table") -> Row:
    """The row whose ``min``..``max`` holds ``value`` (``max: None`` = no upper bound)."""
    for row in rows:
        high = row.get("max")
        if row["min"] <= value and (high is None or value <= high):
            return row
    raise RulesError(
        _("%(value)d is not in the %(table)s table."), code="table.lookup", value=value, table=table
    )


def subroll_result(options: Sequence[Sequence[str]], face: int) -> str:
    """Resolve a ``("1-3", "s")`` style option list for a D6 ``face``."""
    for span, result in options:
        low, _sep, high = span.partition("-")
        if int(low) <= face <= int(high or low):
            return result
    raise RulesError(_("%(value)d is not in the sub-table."), code="table.lookup", value=face)


def _grid(grid: tuple[tuple[int | None, ...], ...]) -> list[list[int | None]]:
    return [list(row) for row in grid]


def tables_as_dict() -> dict[str, Any]:
    """Every default table, JSON-able (a deep copy: callers may change it freely)."""
    data = {
        "melee_to_hit": {
            "rows": "attacker_ws",
            "columns": "defender_ws",
            "grid": _grid(MELEE_TO_HIT),
        },
        "to_wound": {"rows": "strength", "columns": "toughness", "grid": _grid(TO_WOUND)},
        "shooting_to_hit": {str(bs): needed for bs, needed in SHOOTING_TO_HIT.items()},
        "shooting_modifiers": dict(SHOOTING_MODIFIERS),
        "save_modifier_by_strength": {str(s): m for s, m in SAVE_MODIFIER_BY_STRENGTH.items()},
        "injury": list(INJURY_TABLE),
        "injury_concussion": list(CONCUSSION_INJURY_TABLE),
        "critical": list(CRITICAL_TABLE),
        "henchman_injury": list(HENCHMAN_INJURY_TABLE),
        "serious_injury": list(SERIOUS_INJURY_TABLE),
        "serious_injury_labels": dict(SERIOUS_INJURY_LABELS),
        "arm_wound": list(ARM_WOUND_TABLE),
        "madness": list(MADNESS_TABLE),
        "smashed_leg": list(SMASHED_LEG_TABLE),
        "bitter_enmity": list(BITTER_ENMITY_TABLE),
        "hero_advance": [row_json(row) for row in HERO_ADVANCE_TABLE],
        "henchman_advance": [row_json(row) for row in HENCHMAN_ADVANCE_TABLE],
        "hero_thresholds": list(HERO_THRESHOLDS),
        "henchman_thresholds": list(HENCHMAN_THRESHOLDS),
        "underdog": list(UNDERDOG_TABLE),
        "exploration_finds": list(EXPLORATION_FINDS_TABLE),
        "exploration_max_dice": EXPLORATION_MAX_DICE,
        "sell_finds": {
            "columns": list(SELL_FINDS_COLUMNS),
            "rows": {str(finds): list(prices) for finds, prices in SELL_FINDS_TABLE.items()},
        },
        "rating": {
            "per_warrior": RATING_PER_WARRIOR,
            "per_large_creature": RATING_PER_LARGE_CREATURE,
        },
        "racial_maximums": {race: profile.to_dict() for race, profile in RACIAL_MAXIMUMS.items()},
        "equipment": weapons_as_dict(),
    }
    return copy.deepcopy(data)


def row_json(row: Row) -> dict[str, Any]:
    """A table row as JSON holds it (its options' tuples as lists)."""
    out = dict(row)
    if "options" in out:
        out["options"] = [list(o) if isinstance(o, tuple) else o for o in out["options"]]
    return out
