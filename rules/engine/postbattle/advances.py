"""Advances (Avances) of heroes and henchman groups, with the racial maximums."""

from __future__ import annotations

from collections.abc import Mapping, Sequence
from typing import Any

from rules.engine.dice import Dice
from rules.engine.errors import RulesError, SpecError
from rules.engine.explain import Explainer
from rules.engine.i18n import gettext_noop as _
from rules.engine.postbattle._common import (
    MAX_TABLE_REROLLS,
    TableResult,
    as_profile,
    table_result,
)
from rules.engine.profile import CHARACTERISTICS, SPANISH_NAMES, Profile
from rules.engine.tables import (
    HENCHMAN_ADVANCE_TABLE,
    HERO_ADVANCE_TABLE,
    MOVEMENT_ADVANCE_CM,
    Row,
    lookup,
    subroll_result,
)

RACIAL_MAXIMUM_POLICIES = ("reroll", "choose")


# Advances ----------------------------------------------------------------------------------------


def hero_advance(
    *,
    dice: Dice,
    profile: Profile | Mapping[str, Any],
    maximum: Profile | Mapping[str, Any] | str,
    policy: str = "reroll",
    table: Sequence[Row] = HERO_ADVANCE_TABLE,
) -> TableResult:
    """Avance de héroe, 2D6: 2-5 new skill · 6 D6 1-3 +1 F, 4-6 +1 A · 7 choose +1 HA or +1 HP ·
    8 D6 1-3 +1 I, 4-6 +1 L · 9 D6 1-3 +1 H, 4-6 +1 R · 10-12 new skill. A characteristic already
    at the racial ``maximum`` (a Profile, a dict or a race name): ``policy="reroll"`` (default)
    rolls the advance again; ``"choose"`` lets the player pick another characteristic of the
    table that is not at its maximum."""
    current = as_profile("profile", profile)
    cap = as_profile("maximum", maximum)
    if policy not in RACIAL_MAXIMUM_POLICIES:
        raise SpecError(_("policy must be reroll or choose."), field="policy")
    ex = Explainer(dice)
    table_fields = _table_characteristics(table)
    for _attempt in range(MAX_TABLE_REROLLS):
        roll = dice.roll("2D6", "hero advance")
        row = lookup(table, roll.total, table="hero advance")
        kind = row["result"]
        if kind == "skill":
            ex.add("advance.skill", _("Advance %(total)d: a new skill."), total=roll.total)
            return _skill("hero-advance", ex, roll.total)
        if kind == "subroll":
            face = dice.roll("D6", "hero advance characteristic").total
            options = [subroll_result(row["options"], face)]
        else:
            options = list(row["options"])
        open_options = [name for name in options if getattr(current, name) < getattr(cap, name)]
        _announce(ex, roll.total, options)
        if open_options:
            return _characteristic("hero-advance", ex, open_options, roll.total)
        ex.add("advance.at_maximum", _("Already at the racial maximum."))
        if policy == "choose":
            others = [name for name in table_fields if getattr(current, name) < getattr(cap, name)]
            if others:
                return _choice("hero-advance", ex, others, roll.total)
            return _skill("hero-advance", ex, roll.total)
    raise RulesError(_("The table never gave a result that can be kept."), code="table.no_result")


def _table_characteristics(table: Sequence[Row]) -> list[str]:
    names: list[str] = []
    for row in table:
        for option in row.get("options", ()):
            name = option[1] if isinstance(option, tuple | list) else option
            if name in CHARACTERISTICS and name not in names:
                names.append(name)
    return names


def henchman_advance(
    *,
    dice: Dice,
    profile: Profile | Mapping[str, Any],
    maximum: Profile | Mapping[str, Any] | str,
    increases: Mapping[str, int] | None = None,
    heroes_at_maximum: bool = False,
    table: Sequence[Row] = HENCHMAN_ADVANCE_TABLE,
) -> TableResult:
    """Avance de secuaces (the whole group), 2D6: 2-4 +1 I · 5 +1 F · 6-7 choose +1 HA or +1 HP ·
    8 +1 A · 9 +1 L · 10-12 "the lad's got talent" (one becomes a hero: picks two skill lists and
    rolls a hero advance at once). Each characteristic rises at most +1 ever for the group
    (``increases`` says which already did); a result that cannot be taken (that, the racial
    maximum, or the talent while the warband has its maximum of heroes) is rolled again."""
    current = as_profile("profile", profile)
    cap = as_profile("maximum", maximum)
    gained = dict(increases or {})
    ex = Explainer(dice)
    for _attempt in range(MAX_TABLE_REROLLS):
        roll = dice.roll("2D6", "henchman advance")
        row = lookup(table, roll.total, table="henchman advance")
        if row["result"] == "lads_got_talent":
            if heroes_at_maximum:
                ex.add(
                    "advance.no_room",
                    _(
                        "%(total)d: the lad's got talent, but there is no room for another hero: "
                        "roll again."
                    ),
                    total=roll.total,
                )
                continue
            return _lads_got_talent(ex, roll.total)
        options = [
            name
            for name in row["options"]
            if gained.get(name, 0) < 1 and getattr(current, name) < getattr(cap, name)
        ]
        if not options:
            ex.add(
                "advance.unavailable",
                _("%(total)d: that characteristic cannot rise again: roll again."),
                total=roll.total,
            )
            continue
        _announce(ex, roll.total, options)
        return _characteristic("henchman-advance", ex, options, roll.total)
    raise RulesError(_("The table never gave a result that can be kept."), code="table.no_result")


def _lads_got_talent(ex: Explainer, total: int) -> TableResult:
    ex.add(
        "advance.talent",
        _("%(total)d: the lad's got talent! One of them becomes a hero."),
        total=total,
    )
    pending: list[dict[str, Any]] = [
        {"type": "choose_member"},
        {"type": "skill_lists", "count": 2},
        {"type": "hero_advance"},
    ]
    return table_result(
        "henchman-advance", ex, "lads_got_talent", [{"type": "promotion"}], pending, roll=total
    )


def _announce(ex: Explainer, total: int, options: Sequence[str]) -> None:
    ex.add(
        "advance.characteristic",
        _("Advance %(total)d: %(options)s."),
        total=total,
        options=" / ".join(SPANISH_NAMES[name] for name in options),
    )


def characteristic_advance(field: str) -> float:
    """How much an advance raises a characteristic: +1, and M (in cm) one Mordheim inch."""
    return MOVEMENT_ADVANCE_CM if field == "m" else 1


def _characteristic(kind: str, ex: Explainer, options: list[str], total: int) -> TableResult:
    """One characteristic open: it rises by one advance; several: the player chooses."""
    if len(options) > 1:
        return _choice(kind, ex, options, total)
    effect = {
        "type": "characteristic",
        "field": options[0],
        "delta": characteristic_advance(options[0]),
    }
    return table_result(kind, ex, "characteristic", [effect], (), roll=total, field=options[0])


def _choice(kind: str, ex: Explainer, options: list[str], total: int) -> TableResult:
    pending = [{"type": "characteristic", "options": options}]
    return table_result(kind, ex, "choice", (), pending, roll=total)


def _skill(kind: str, ex: Explainer, total: int) -> TableResult:
    return table_result(kind, ex, "skill", (), [{"type": "skill"}], roll=total)
