"""Post-battle tables (secuencia posterior a la batalla): injuries, experience, advances,
exploration, selling finds and the warband rating.

Each function takes its table as a parameter (defaults from :mod:`rules.engine.tables`), so a
campaign's content pack can pass its own rows. Results carry machine-readable ``effects`` for the
post-battle services to apply, and ``pending_choices`` where a player must decide (a new skill,
HA or HP…). Rolling again on a table because its text says so ("re-roll Dead, Captured and
Multiple injuries", "re-roll if at the racial maximum") makes new rolls; seed 003's "never
re-roll more than once" governs rule re-rolls (hatred, parry), not these table instructions.
"""

from __future__ import annotations

from collections import Counter
from collections.abc import Mapping, Sequence
from dataclasses import dataclass, field
from typing import Any

from rules.engine.dice import Dice
from rules.engine.errors import RulesError, SpecError
from rules.engine.explain import Explainer, Step, explained_dict, jsonable
from rules.engine.i18n import gettext_noop as _
from rules.engine.profile import CHARACTERISTICS, SPANISH_NAMES, Profile
from rules.engine.tables import (
    ARM_WOUND_TABLE,
    BITTER_ENMITY_TABLE,
    CAPTURED_SALE_MULTIPLIER,
    EXPLORATION_FINDS_TABLE,
    EXPLORATION_MAX_DICE,
    HENCHMAN_ADVANCE_TABLE,
    HENCHMAN_INJURY_TABLE,
    HENCHMAN_THRESHOLDS,
    HERO_ADVANCE_TABLE,
    HERO_THRESHOLDS,
    LEG_WOUND_MOVEMENT_CM,
    MADNESS_TABLE,
    MULTIPLE_INJURIES_REROLL,
    PIT_FIGHT_WIN_GOLD,
    PIT_FIGHT_WIN_ON,
    PIT_FIGHT_WIN_XP,
    RACIAL_MAXIMUMS,
    RATING_PER_LARGE_CREATURE,
    RATING_PER_WARRIOR,
    SELL_FINDS_COLUMNS,
    SELL_FINDS_TABLE,
    SERIOUS_INJURY_LABELS,
    SERIOUS_INJURY_TABLE,
    SMASHED_LEG_TABLE,
    UNDERDOG_TABLE,
    Row,
    lookup,
    subroll_result,
)

MAX_TABLE_REROLLS = 100
"""Guard against a custom table where no result can ever be kept."""
RACIAL_MAXIMUM_POLICIES = ("reroll", "choose")
MULTIPLE_NAMES = {2: "doubles", 3: "triples", 4: "quadruples", 5: "quintuples", 6: "sextuples"}


@dataclass(frozen=True)
class TableResult:
    """A post-battle result: ``outcome`` code, ``effects`` to apply, ``pending_choices`` for the
    player, ``details`` (sub-results, totals), with its ``steps`` and ``rolls``."""

    kind: str
    outcome: str
    effects: tuple[dict[str, Any], ...] = ()
    pending_choices: tuple[dict[str, Any], ...] = ()
    details: dict[str, Any] = field(default_factory=dict, hash=False)
    steps: tuple[Step, ...] = ()
    rolls: tuple[Any, ...] = ()

    def to_dict(self) -> dict[str, Any]:
        return {
            "kind": self.kind,
            "outcome": self.outcome,
            "effects": jsonable(list(self.effects)),
            "pending_choices": jsonable(list(self.pending_choices)),
            "details": jsonable(self.details),
            **explained_dict(self.steps, self.rolls),
        }


def _result(
    kind: str,
    ex: Explainer,
    outcome: str,
    effects: Sequence[dict[str, Any]] = (),
    pending: Sequence[dict[str, Any]] = (),
    **details: Any,
) -> TableResult:
    return TableResult(
        kind, outcome, tuple(effects), tuple(pending), details, tuple(ex.steps), ex.rolls()
    )


def _count(name: str, value: Any, high: int = 10_000) -> int:
    if isinstance(value, bool) or not isinstance(value, int) or not 0 <= value <= high:
        raise SpecError(
            _("%(field)s must be a whole number from 0 to %(high)d."), field=name, high=high
        )
    return value


def _profile(name: str, value: Any) -> Profile:
    if isinstance(value, Profile):
        return value
    if isinstance(value, str):
        if value not in RACIAL_MAXIMUMS:
            raise SpecError(
                _("%(race)s is not a known race; use one of %(choices)s."),
                field=name,
                race=value,
                choices=", ".join(RACIAL_MAXIMUMS),
            )
        return RACIAL_MAXIMUMS[value]
    if isinstance(value, Mapping):
        return Profile.from_dict(dict(value))
    raise SpecError(_("%(field)s must be a profile."), field=name)


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
    return _result("henchman-injury", ex, result, effects)


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
    return _result("serious-injury", ex, code, effects, pending, **details)


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
    effects: list[dict[str, Any]] = []
    pending: list[dict[str, Any]] = []
    details: dict[str, Any] = {"d66": value}
    if code == "dead":
        effects += [{"type": "dead"}, {"type": "lose_equipment"}]
    elif code == "multiple_injuries":
        count = dice.roll("D6", "multiple injuries").total
        ex.add(
            "serious_injury.multiple", _("Multiple injuries: %(count)d more rolls."), count=count
        )
        subs = []
        for _n in range(count):
            sub_code, sub_effects, sub_pending, sub_details = _serious_injury_entry(
                ex, dice, table, pit_fight_won, MULTIPLE_INJURIES_REROLL
            )
            effects += sub_effects
            pending += sub_pending
            subs.append({"outcome": sub_code, **sub_details})
        details["injuries"] = subs
    elif code == "leg_wound":
        effects.append({"type": "characteristic", "field": "m", "delta": -LEG_WOUND_MOVEMENT_CM})
    elif code == "arm_wound":
        sub = _subroll(ex, dice, ARM_WOUND_TABLE, "arm wound")
        details["arm_wound"] = sub
        effects.append(
            {"type": "special_rule", "rule": "arm_lost"}
            if sub == "arm_lost"
            else {"type": "misses_battles", "count": 1}
        )
    elif code == "madness":
        sub = _subroll(ex, dice, MADNESS_TABLE, "madness")
        details["madness"] = sub
        effects.append({"type": "special_rule", "rule": sub})
    elif code == "smashed_leg":
        sub = _subroll(ex, dice, SMASHED_LEG_TABLE, "smashed leg")
        details["smashed_leg"] = sub
        effects.append(
            {"type": "special_rule", "rule": "cannot_run"}
            if sub == "cannot_run"
            else {"type": "misses_battles", "count": 1}
        )
    elif code == "chest_wound":
        effects.append({"type": "characteristic", "field": "t", "delta": -1})
    elif code == "blinded_in_one_eye":
        effects += [
            {"type": "characteristic", "field": "bs", "delta": -1},
            {"type": "special_rule", "rule": "blinded_in_one_eye", "second_time": "retires"},
        ]
    elif code == "old_battle_wound":
        effects.append({"type": "special_rule", "rule": "old_battle_wound"})
    elif code == "nervous_condition":
        effects.append({"type": "characteristic", "field": "i", "delta": -1})
    elif code == "hand_injury":
        effects.append({"type": "characteristic", "field": "ws", "delta": -1})
    elif code == "deep_wound":
        battles = dice.roll("D3", "deep wound").total
        ex.add(
            "serious_injury.deep_wound",
            _("Deep wound: misses the next %(count)d battles."),
            count=battles,
        )
        effects.append({"type": "misses_battles", "count": battles})
    elif code == "robbed":
        effects.append({"type": "lose_equipment"})
    elif code == "bitter_enmity":
        sub = _subroll(ex, dice, BITTER_ENMITY_TABLE, "bitter enmity")
        details["hatred_of"] = sub
        effects.append({"type": "special_rule", "rule": "hatred", "target": sub})
    elif code == "captured":
        sale = dice.roll("D6", "captured sale value").total * CAPTURED_SALE_MULTIPLIER
        ex.add(
            "serious_injury.captured",
            _("Captured: the captor may sell him for %(gold)d co."),
            gold=sale,
        )
        effects.append({"type": "captured", "sale_value": sale})
        pending.append(
            {"type": "captive", "options": ["ransom", "exchange", "sell"], "sale_value": sale}
        )
    elif code == "hardened":
        effects.append({"type": "special_rule", "rule": "immune_to_fear"})
    elif code == "horrible_scars":
        effects.append({"type": "special_rule", "rule": "causes_fear"})
    elif code == "sold_to_the_pits":
        won = pit_fight_won
        if won is None:
            face = dice.roll("D6", "pit fight").total
            won = face >= PIT_FIGHT_WIN_ON
            ex.add("serious_injury.pit_roll", _("Pit fight decided by a D6: %(face)d."), face=face)
        details["pit_fight_won"] = won
        if won:
            ex.add(
                "serious_injury.pit_won",
                _("He wins the pit fight: +%(gold)d co, +%(xp)d XP."),
                gold=PIT_FIGHT_WIN_GOLD,
                xp=PIT_FIGHT_WIN_XP,
            )
            effects += [
                {"type": "gold", "amount": PIT_FIGHT_WIN_GOLD},
                {"type": "experience", "amount": PIT_FIGHT_WIN_XP},
            ]
        else:
            ex.add(
                "serious_injury.pit_lost",
                _("He loses the pit fight: D66 on 11-35, thrown out without his gear."),
            )
            sub_code, sub_effects, sub_pending, sub_details = _serious_injury_entry(
                ex, dice, table, pit_fight_won, (), low=11, high=35
            )
            effects += [{"type": "lose_equipment"}, *sub_effects]
            pending += sub_pending
            details["pit_injury"] = {"outcome": sub_code, **sub_details}
    elif code == "survives_against_the_odds":
        effects.append({"type": "experience", "amount": 1})
    return code, effects, pending, details


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
    return result


# Experience --------------------------------------------------------------------------------------


def underdog_bonus(
    *, own_rating: int, enemy_rating: int, table: Sequence[Row] = UNDERDOG_TABLE
) -> int:
    """XP for each surviving warrior of the lower-rated warband, by the rating gap."""
    gap = _count("enemy_rating", enemy_rating, 100_000) - _count("own_rating", own_rating, 100_000)
    if gap <= 0:
        return 0
    return int(lookup(table, gap, table="underdog")["result"])


def battle_experience(
    *,
    hero: bool,
    survived: bool,
    leader: bool = False,
    won: bool = False,
    enemies_out_of_action: int = 0,
    scenario_bonus: int = 0,
    own_rating: int | None = None,
    enemy_rating: int | None = None,
    underdog_table: Sequence[Row] = UNDERDOG_TABLE,
) -> TableResult:
    """Experiencia of one hero or henchman group after a battle: +1 for surviving, +1 for the
    winning leader, heroes +1 per enemy put out of action, the scenario's bonus, and the underdog
    bonus (when both ratings are given) for survivors of the lower-rated warband."""
    ex = Explainer()
    _count("enemies_out_of_action", enemies_out_of_action, 100)
    _count("scenario_bonus", scenario_bonus, 100)
    parts: dict[str, int] = {}
    if survived:
        parts["survived"] = 1
    if leader and won:
        parts["winning_leader"] = 1
    if hero and enemies_out_of_action:
        parts["enemies_out_of_action"] = enemies_out_of_action
    if scenario_bonus:
        parts["scenario"] = scenario_bonus
    if survived and own_rating is not None and enemy_rating is not None:
        bonus = underdog_bonus(
            own_rating=own_rating, enemy_rating=enemy_rating, table=underdog_table
        )
        if bonus:
            parts["underdog"] = bonus
    total = sum(parts.values())
    for reason, amount in parts.items():
        ex.add(
            "experience." + reason, _("+%(amount)d XP: %(reason)s."), amount=amount, reason=reason
        )
    effects = [{"type": "experience", "amount": total}] if total else []
    return _result(
        "experience", ex, "gained" if total else "none", effects, experience=total, breakdown=parts
    )


def advances_earned(
    *, old_xp: int, new_xp: int, hero: bool, thresholds: Sequence[int] | None = None
) -> list[int]:
    """Advance thresholds crossed going from ``old_xp`` to ``new_xp`` (each earns an advance)."""
    _count("old_xp", old_xp)
    _count("new_xp", new_xp)
    if thresholds is None:
        thresholds = HERO_THRESHOLDS if hero else HENCHMAN_THRESHOLDS
    return [t for t in thresholds if old_xp < t <= new_xp]


# Advances ----------------------------------------------------------------------------------------


def _characteristic_effect(name: str) -> dict[str, Any]:
    return {"type": "characteristic", "field": name, "delta": 1}


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
    current = _profile("profile", profile)
    cap = _profile("maximum", maximum)
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
            return _result("hero-advance", ex, "skill", (), [{"type": "skill"}], roll=roll.total)
        if kind == "subroll":
            face = dice.roll("D6", "hero advance characteristic").total
            options = [subroll_result(row["options"], face)]
        else:
            options = list(row["options"])
        open_options = [name for name in options if getattr(current, name) < getattr(cap, name)]
        ex.add(
            "advance.characteristic",
            _("Advance %(total)d: %(options)s."),
            total=roll.total,
            options=" / ".join(SPANISH_NAMES[name] for name in options),
        )
        if len(open_options) == 1:
            return _result(
                "hero-advance",
                ex,
                "characteristic",
                [_characteristic_effect(open_options[0])],
                (),
                roll=roll.total,
                field=open_options[0],
            )
        if len(open_options) > 1:
            return _result(
                "hero-advance",
                ex,
                "choice",
                (),
                [{"type": "characteristic", "options": open_options}],
                roll=roll.total,
            )
        ex.add("advance.at_maximum", _("Already at the racial maximum."))
        if policy == "choose":
            others = [name for name in table_fields if getattr(current, name) < getattr(cap, name)]
            if others:
                return _result(
                    "hero-advance",
                    ex,
                    "choice",
                    (),
                    [{"type": "characteristic", "options": others}],
                    roll=roll.total,
                )
            return _result("hero-advance", ex, "skill", (), [{"type": "skill"}], roll=roll.total)
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
    current = _profile("profile", profile)
    cap = _profile("maximum", maximum)
    gained = dict(increases or {})
    ex = Explainer(dice)
    for _attempt in range(MAX_TABLE_REROLLS):
        roll = dice.roll("2D6", "henchman advance")
        row = lookup(table, roll.total, table="henchman advance")
        kind = row["result"]
        if kind == "lads_got_talent":
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
            ex.add(
                "advance.talent",
                _("%(total)d: the lad's got talent! One of them becomes a hero."),
                total=roll.total,
            )
            pending = [
                {"type": "choose_member"},
                {"type": "skill_lists", "count": 2},
                {"type": "hero_advance"},
            ]
            return _result(
                "henchman-advance",
                ex,
                "lads_got_talent",
                [{"type": "promotion"}],
                pending,
                roll=roll.total,
            )
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
        ex.add(
            "advance.characteristic",
            _("Advance %(total)d: %(options)s."),
            total=roll.total,
            options=" / ".join(SPANISH_NAMES[n] for n in options),
        )
        if len(options) == 1:
            return _result(
                "henchman-advance",
                ex,
                "characteristic",
                [_characteristic_effect(options[0])],
                (),
                roll=roll.total,
                field=options[0],
            )
        return _result(
            "henchman-advance",
            ex,
            "choice",
            (),
            [{"type": "characteristic", "options": options}],
            roll=roll.total,
        )
    raise RulesError(_("The table never gave a result that can be kept."), code="table.no_result")


# Exploration, selling, rating --------------------------------------------------------------------


def exploration(
    *,
    dice: Dice,
    heroes_not_out_of_action: int,
    won: bool = False,
    extra_dice: int = 0,
    table: Sequence[Row] = EXPLORATION_FINDS_TABLE,
    max_dice: int = EXPLORATION_MAX_DICE,
) -> TableResult:
    """Exploración: one D6 per hero not put out of action, +1 die for the winner, at most 6; the
    total gives the finds; doubles, triples… are flagged (a special location of their own)."""
    count = min(
        max_dice,
        _count("heroes_not_out_of_action", heroes_not_out_of_action, 20)
        + (1 if won else 0)
        + _count("extra_dice", extra_dice, 6),
    )
    ex = Explainer(dice)
    if count == 0:
        ex.add("exploration.no_dice", _("Nobody explores: no finds."))
        return _result("exploration", ex, "none", (), (), dice=0, total=0, finds=0, multiples=[])
    roll = dice.roll(f"{count}D6", "exploration")
    finds = int(lookup(table, roll.total, table="exploration")["result"])
    counts = Counter(roll.faces)
    multiples = [
        {"face": face, "count": n, "kind": MULTIPLE_NAMES.get(n, f"{n}x")}
        for face, n in sorted(counts.items())
        if n >= 2
    ]
    ex.add(
        "exploration.rolled",
        _("%(count)d dice, total %(total)d: %(finds)d finds."),
        count=count,
        total=roll.total,
        finds=finds,
    )
    for multiple in multiples:
        ex.add(
            "exploration.multiple",
            _("%(kind)s of %(face)d: a special location."),
            kind=multiple["kind"],
            face=multiple["face"],
        )
    effects = [{"type": "finds", "amount": finds}]
    return _result(
        "exploration",
        ex,
        "finds",
        effects,
        (),
        dice=count,
        faces=list(roll.faces),
        total=roll.total,
        finds=finds,
        multiples=multiples,
    )


def sell_finds(
    *,
    finds: int,
    warband_size: int,
    table: Mapping[int, Sequence[int]] = SELL_FINDS_TABLE,
    columns: Sequence[Row] = SELL_FINDS_COLUMNS,
) -> int:
    """Venta de hallazgos (one batch per post-battle): co by finds × warband size."""
    _count("finds", finds)
    _count("warband_size", warband_size, 1000)
    if finds == 0:
        return 0
    if warband_size == 0:
        raise SpecError(_("A warband without warriors cannot sell."), field="warband_size")
    row = table[min(finds, max(table))]
    for index, column in enumerate(columns):
        high = column.get("max")
        if column["min"] <= warband_size and (high is None or warband_size <= high):
            return int(row[index])
    raise SpecError(_("No column for that warband size."), field="warband_size")


def warband_rating(*, warriors: Sequence[Mapping[str, Any]]) -> int:
    """Valor de la banda: 5 per warrior (20 for a large creature) plus every point of experience.
    ``warriors``: ``{"experience": 4, "large": false}`` per warrior."""
    total = 0
    for warrior in warriors:
        total += RATING_PER_LARGE_CREATURE if warrior.get("large") else RATING_PER_WARRIOR
        total += _count("experience", warrior.get("experience", 0))
    return total


# Applying injuries ---------------------------------------------------------------------------


def injury_characteristic_change(*, field: str, current: float, delta: float) -> float:
    """How much an injury really takes: a characteristic never drops below 1 from an injury
    (M, in cm, may fall further: a crippled warrior still crawls)."""
    if field != "m" and current + delta < 1:
        return 1 - current
    return delta


def blindness_retires(*, eyes_lost_before: int) -> bool:
    """Ciego de un ojo: a warrior who loses his second eye retires (RULES-REFERENCE §5)."""
    return eyes_lost_before >= 1
