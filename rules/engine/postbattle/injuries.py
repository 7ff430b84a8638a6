"""Injuries after a battle (Heridas graves of heroes, injuries of henchmen) and the two rules
that bound what an injury takes."""

from __future__ import annotations

import copy
from collections.abc import Callable, Sequence
from dataclasses import dataclass, field
from typing import Any, cast

from rules.engine.dice import Dice
from rules.engine.errors import RulesError
from rules.engine.explain import Explainer
from rules.engine.i18n import gettext_noop as _
from rules.engine.postbattle._common import (
    MAX_TABLE_REROLLS,
    TableResult,
    table_result,
)
from rules.engine.tables import (
    ARM_WOUND_TABLE,
    BITTER_ENMITY_TABLE,
    CAPTURED_SALE_MULTIPLIER,
    HENCHMAN_INJURY_TABLE,
    LEG_WOUND_MOVEMENT_CM,
    MADNESS_TABLE,
    MULTIPLE_INJURIES_REROLL,
    PIT_FIGHT_WIN_GOLD,
    PIT_FIGHT_WIN_ON,
    PIT_FIGHT_WIN_XP,
    SERIOUS_INJURY_LABELS,
    SERIOUS_INJURY_TABLE,
    SMASHED_LEG_TABLE,
    Row,
    lookup,
)
from rules.engine.vocabulary import FEAR, IMMUNE_FEAR

# Injuries ----------------------------------------------------------------------------------------


def henchman_injury(*, dice: Dice, table: Sequence[Row] = HENCHMAN_INJURY_TABLE) -> TableResult:
    """Secuaces fuera de combate: D6, 1-2 dead (removed with his equipment), 3-6 fine."""
    ex = Explainer(dice)
    roll = dice.roll("D6", "henchman injury")
    result = lookup(table, roll.total, table="henchman injury")["result"]
    ex.add(
        "henchman_injury.rolled",
        _("Henchman injury: %(face)d, %(result)s."),
        face=roll.total,
        result=result,
    )
    effects = [{"type": "dead"}, {"type": "lose_equipment"}] if result == "dead" else []
    return table_result("henchman-injury", ex, result, effects)


def serious_injury(
    *,
    dice: Dice,
    table: Sequence[Row] = SERIOUS_INJURY_TABLE,
    pit_fight_won: bool | None = None,
) -> TableResult:
    """Heridas graves of a hero put out of action: D66 (tens die, then units) with its sub-rolls.

    ``pit_fight_won``: the result of the pit fight on "sold to the pits" if it was played out
    (e.g. with :func:`rules.engine.simulate.simulate_duel`); when ``None`` a D6 decides it, the
    hero winning on 4+ (a documented simplification).
    """
    ex = Explainer(dice)
    code, effects, pending, details = _serious_injury_entry(ex, dice, table, pit_fight_won, ())
    return table_result("serious-injury", ex, code, effects, pending, **details)


def _roll_serious(
    ex: Explainer,
    dice: Dice,
    table: Sequence[Row],
    purpose: str,
    refuse: tuple[str, ...],
    low: int = 11,
    high: int = 66,
) -> tuple[int, str]:
    for _attempt in range(MAX_TABLE_REROLLS):
        roll = dice.roll("D66", purpose)
        code = lookup(table, roll.total, table="serious injury")["result"]
        if code in refuse or not low <= roll.total <= high:
            ex.add(
                "serious_injury.reroll",
                _("D66 %(value)d (%(result)s) is rolled again."),
                value=roll.total,
                result=code,
            )
            continue
        return roll.total, code
    raise RulesError(_("The table never gave a result that can be kept."), code="table.no_result")


@dataclass
class _Entry:
    """What one serious-injury result does: its effects, the choices it leaves, its details."""

    effects: list[dict[str, Any]] = field(default_factory=list)
    pending: list[dict[str, Any]] = field(default_factory=list)
    details: dict[str, Any] = field(default_factory=dict)


def _serious_injury_entry(
    ex: Explainer,
    dice: Dice,
    table: Sequence[Row],
    pit_fight_won: bool | None,
    refuse: tuple[str, ...],
    *,
    low: int = 11,
    high: int = 66,
) -> tuple[str, list[dict[str, Any]], list[dict[str, Any]], dict[str, Any]]:
    value, code = _roll_serious(ex, dice, table, "serious injury", refuse, low, high)
    ex.add(
        "serious_injury.rolled",
        _("Serious injury D66 %(value)d: %(label)s."),
        value=value,
        label=SERIOUS_INJURY_LABELS.get(code, code),
        result=code,
    )
    entry = _Entry(details={"d66": value})
    if code in _FIXED_EFFECTS:
        entry.effects += copy.deepcopy(_FIXED_EFFECTS[code])
    elif code in _ROLLED_EFFECTS:
        _ROLLED_EFFECTS[code](ex, dice, table, pit_fight_won, entry)
    return code, entry.effects, entry.pending, entry.details


def _sub_entry(
    ex: Explainer,
    dice: Dice,
    table: Sequence[Row],
    pit_fight_won: bool | None,
    entry: _Entry,
    refuse: tuple[str, ...],
    **bounds: int,
) -> dict[str, Any]:
    """Roll another serious injury for ``entry``; its effects and choices join the entry's."""
    code, effects, pending, details = _serious_injury_entry(
        ex, dice, table, pit_fight_won, refuse, **bounds
    )
    entry.effects += effects
    entry.pending += pending
    return {"outcome": code, **details}


def _multiple_injuries(
    ex: Explainer, dice: Dice, table: Sequence[Row], pit_fight_won: bool | None, entry: _Entry
) -> None:
    count = dice.roll("D6", "multiple injuries").total
    ex.add("serious_injury.multiple", _("Multiple injuries: %(count)d more rolls."), count=count)
    entry.details["injuries"] = [
        _sub_entry(ex, dice, table, pit_fight_won, entry, MULTIPLE_INJURIES_REROLL)
        for _n in range(count)
    ]


def _rule_or_one_battle(
    sub_table: Sequence[Row], purpose: str, detail: str, rule: str
) -> Callable[..., None]:
    """A sub-roll that either gives the special ``rule`` or costs the next battle."""

    def handler(
        ex: Explainer, dice: Dice, table: Sequence[Row], pit_fight_won: bool | None, entry: _Entry
    ) -> None:
        sub = _subroll(ex, dice, sub_table, purpose)
        entry.details[detail] = sub
        entry.effects.append(
            {"type": "special_rule", "rule": rule}
            if sub == rule
            else {"type": "misses_battles", "count": 1}
        )

    return handler


def _madness(
    ex: Explainer, dice: Dice, table: Sequence[Row], pit_fight_won: bool | None, entry: _Entry
) -> None:
    sub = _subroll(ex, dice, MADNESS_TABLE, "madness")
    entry.details["madness"] = sub
    entry.effects.append({"type": "special_rule", "rule": sub})


def _deep_wound(
    ex: Explainer, dice: Dice, table: Sequence[Row], pit_fight_won: bool | None, entry: _Entry
) -> None:
    battles = dice.roll("D3", "deep wound").total
    ex.add(
        "serious_injury.deep_wound",
        _("Deep wound: misses the next %(count)d battles."),
        count=battles,
    )
    entry.effects.append({"type": "misses_battles", "count": battles})


def _bitter_enmity(
    ex: Explainer, dice: Dice, table: Sequence[Row], pit_fight_won: bool | None, entry: _Entry
) -> None:
    sub = _subroll(ex, dice, BITTER_ENMITY_TABLE, "bitter enmity")
    entry.details["hatred_of"] = sub
    entry.effects.append({"type": "special_rule", "rule": "hatred", "target": sub})


def _captured(
    ex: Explainer, dice: Dice, table: Sequence[Row], pit_fight_won: bool | None, entry: _Entry
) -> None:
    sale = dice.roll("D6", "captured sale value").total * CAPTURED_SALE_MULTIPLIER
    ex.add(
        "serious_injury.captured",
        _("Captured: the captor may sell him for %(gold)d co."),
        gold=sale,
    )
    entry.effects.append({"type": "captured", "sale_value": sale})
    entry.pending.append(
        {"type": "captive", "options": ["ransom", "exchange", "sell"], "sale_value": sale}
    )


def _sold_to_the_pits(
    ex: Explainer, dice: Dice, table: Sequence[Row], pit_fight_won: bool | None, entry: _Entry
) -> None:
    won = pit_fight_won
    if won is None:
        face = dice.roll("D6", "pit fight").total
        won = face >= PIT_FIGHT_WIN_ON
        ex.add("serious_injury.pit_roll", _("Pit fight decided by a D6: %(face)d."), face=face)
    entry.details["pit_fight_won"] = won
    if won:
        ex.add(
            "serious_injury.pit_won",
            _("He wins the pit fight: +%(gold)d co, +%(xp)d XP."),
            gold=PIT_FIGHT_WIN_GOLD,
            xp=PIT_FIGHT_WIN_XP,
        )
        entry.effects += [
            {"type": "gold", "amount": PIT_FIGHT_WIN_GOLD},
            {"type": "experience", "amount": PIT_FIGHT_WIN_XP},
        ]
        return
    ex.add(
        "serious_injury.pit_lost",
        _("He loses the pit fight: D66 on 11-35, thrown out without his gear."),
    )
    entry.effects.append({"type": "lose_equipment"})
    entry.details["pit_injury"] = _sub_entry(
        ex, dice, table, pit_fight_won, entry, (), low=11, high=35
    )


_FIXED_EFFECTS: dict[str, list[dict[str, Any]]] = {
    "dead": [{"type": "dead"}, {"type": "lose_equipment"}],
    "leg_wound": [{"type": "characteristic", "field": "m", "delta": -LEG_WOUND_MOVEMENT_CM}],
    "chest_wound": [{"type": "characteristic", "field": "t", "delta": -1}],
    "blinded_in_one_eye": [
        {"type": "characteristic", "field": "bs", "delta": -1},
        {"type": "special_rule", "rule": "blinded_in_one_eye", "second_time": "retires"},
    ],
    "old_battle_wound": [{"type": "special_rule", "rule": "old_battle_wound"}],
    "nervous_condition": [{"type": "characteristic", "field": "i", "delta": -1}],
    "hand_injury": [{"type": "characteristic", "field": "ws", "delta": -1}],
    "robbed": [{"type": "lose_equipment"}],
    "hardened": [{"type": "special_rule", "rule": IMMUNE_FEAR}],
    "horrible_scars": [{"type": "special_rule", "rule": FEAR}],
    "survives_against_the_odds": [{"type": "experience", "amount": 1}],
}
"""Results whose effects need no further roll."""

_ROLLED_EFFECTS: dict[str, Callable[..., None]] = {
    "multiple_injuries": _multiple_injuries,
    "arm_wound": _rule_or_one_battle(ARM_WOUND_TABLE, "arm wound", "arm_wound", "arm_lost"),
    "madness": _madness,
    "smashed_leg": _rule_or_one_battle(
        SMASHED_LEG_TABLE, "smashed leg", "smashed_leg", "cannot_run"
    ),
    "deep_wound": _deep_wound,
    "bitter_enmity": _bitter_enmity,
    "captured": _captured,
    "sold_to_the_pits": _sold_to_the_pits,
}
"""Results that roll again (a sub-table, a count, the pit fight) to know their effects."""


def _subroll(ex: Explainer, dice: Dice, table: Sequence[Row], purpose: str) -> str:
    face = dice.roll("D6", purpose).total
    result = lookup(table, face, table=purpose)["result"]
    ex.add(
        "serious_injury.subroll",
        _("%(purpose)s: %(face)d, %(result)s."),
        purpose=purpose,
        face=face,
        result=result,
    )
    return cast(str, result)


# Applying injuries ---------------------------------------------------------------------------


def injury_characteristic_change(*, field: str, current: float, delta: float) -> float:
    """How much an injury really takes: a characteristic never drops below 1 from an injury
    (M, in cm, may fall further: a crippled warrior still crawls)."""
    if field != "m" and current + delta < 1:
        return 1 - current
    return delta


def blindness_retires(*, eyes_lost_before: int) -> bool:
    """Ciego de un ojo: a warrior who loses his second eye retires (the serious injuries
    table)."""
    return eyes_lost_before >= 1
