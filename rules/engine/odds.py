"""Exact odds of a phase (probabilidades exactas), with :class:`fractions.Fraction`.

The model is the one of :func:`rules.engine.combat.resolve_plan` (same :class:`PhasePlan`), so
Monte Carlo runs of the dice converge on these numbers (the tests check it). The computation is a
dynamic programme, never an enumeration of 6^N faces:

* to hit: over the attacks, the state is (main-hand hits, off-hand hits, highest hit value and
  its weapon group) — enough to resolve the single parry against the highest hit exactly;
* to wound: over the remaining hits in order, the state is (critical already used, wounds lost
  capped at H, worst injury so far); "roll each injury and apply the highest" is a running
  maximum, so it folds into the state. A second accumulator carries the expected wounds.
"""

from __future__ import annotations

from collections import defaultdict
from dataclasses import dataclass
from fractions import Fraction
from functools import lru_cache
from typing import Any

from rules.engine.combat import (
    DEFAULT_RULES,
    OUTCOMES,
    SEVERITY,
    SEVERITY_NAMES,
    AttackerSpec,
    DefenderSpec,
    PhasePlan,
    RuleOptions,
    ShooterSpec,
    ToHit,
    WoundProfile,
    injury_result,
    melee_plan,
    shooting_plan,
)
from rules.engine.explain import Step
from rules.engine.tables import CRITICAL_TABLE, KNOCKED_DOWN, OUT_OF_ACTION, STUNNED, lookup

ZERO = Fraction(0)
ONE = Fraction(1)
SIXTH = Fraction(1, 6)
OOA = SEVERITY[OUT_OF_ACTION]


@dataclass(frozen=True)
class OddsResult:
    """Exact odds of one phase.

    ``outcomes``: probability of each end state of the defender (``unharmed``: no wound lost;
    ``wounded``: lost H but still standing; ``knocked_down``, ``stunned``, ``out_of_action``),
    summing to exactly 1. ``per_attack``: for a single attack alone, the chance its to-hit roll
    succeeds (``hit``), that the hit is then ``parried``, that it is not parried and its wound
    roll succeeds (``wound``), and that it costs at least one wound (``unsaved``).
    ``expected_wounds``: mean number of unsaved wounds in the phase (critical hits count 2; not
    capped at the defender's H, as excess wounds matter in challenges).
    """

    kind: str
    attacks: int
    outcomes: dict[str, Fraction]
    per_attack: dict[str, Fraction]
    expected_wounds: Fraction
    steps: tuple[Step, ...] = ()

    def to_dict(self) -> dict[str, Any]:
        def pair(value: Fraction) -> dict[str, Any]:
            return {"fraction": str(value), "probability": float(value)}

        return {
            "kind": self.kind,
            "attacks": self.attacks,
            "outcomes": {name: pair(value) for name, value in self.outcomes.items()},
            "per_attack": {name: pair(value) for name, value in self.per_attack.items()},
            "expected_wounds": pair(self.expected_wounds),
            "steps": [step.to_dict() for step in self.steps],
            "rolls": [],
        }


# To hit ----------------------------------------------------------------------------------------


@lru_cache(maxsize=1024)
def hit_distribution(to_hit: ToHit) -> tuple[tuple[int, Fraction], ...]:
    """Modified to-hit value → probability, for the values that hit (misses are the rest)."""
    if to_hit.automatic:
        return ((7, ONE),)
    first: dict[int, Fraction] = defaultdict(Fraction)
    miss = ZERO
    if to_hit.needed is None and not to_hit.sixes_only:
        return ()
    for face in range(1, 7):
        value = to_hit.value(face)
        if value is None:
            miss += SIXTH
        else:
            first[value] += SIXTH
    if to_hit.reroll_misses and miss:
        again = dict(first)
        for value, chance in again.items():
            first[value] += miss * chance
    return tuple(sorted(first.items()))


def _after_to_hit(plan: PhasePlan) -> dict[tuple[int, ...], Fraction]:
    """Distribution of hit counts per group after the to-hit rolls and the parry."""
    groups = plan.groups
    start = (tuple(0 for _g in groups), 0, -1)
    states: dict[tuple[tuple[int, ...], int, int], Fraction] = {start: ONE}
    for index, (count, to_hit, _profile) in enumerate(groups):
        distribution = hit_distribution(to_hit)
        hit_total = sum((chance for _v, chance in distribution), ZERO)
        for _n in range(count):
            nxt: dict[tuple[tuple[int, ...], int, int], Fraction] = defaultdict(Fraction)
            for (counts, best, best_group), chance in states.items():
                if hit_total != ONE:
                    nxt[(counts, best, best_group)] += chance * (ONE - hit_total)
                for value, p in distribution:
                    new_counts = counts[:index] + (counts[index] + 1,) + counts[index + 1 :]
                    if value > best:
                        nxt[(new_counts, value, index)] += chance * p
                    else:
                        nxt[(new_counts, best, best_group)] += chance * p
            states = nxt
    result: dict[tuple[int, ...], Fraction] = defaultdict(Fraction)
    for (counts, best, best_group), chance in states.items():
        parry = _parry_chance(plan, best, best_group)
        if parry:
            reduced = counts[:best_group] + (counts[best_group] - 1,) + counts[best_group + 1 :]
            result[reduced] += chance * parry
        result[counts] += chance * (ONE - parry)
    return result


def _parry_chance(plan: PhasePlan, best: int, best_group: int) -> Fraction:
    if plan.parry == "none" or best_group < 0 or best >= 6:
        return ZERO
    if not plan.groups[best_group][2].parryable:
        return ZERO
    single = Fraction(6 - best, 6)
    return 1 - (1 - single) ** 2 if plan.parry == "reroll" else single


# To wound ---------------------------------------------------------------------------------------

State = tuple[bool, int, int, bool]
"""(critical used, wounds lost capped at H, worst injury severity so far, lucky charm used)."""


@lru_cache(maxsize=64)
def _injury_distribution(
    bonus: int, concussion: bool, hardy: bool = False
) -> tuple[tuple[int, Fraction], ...]:
    out: dict[int, Fraction] = defaultdict(Fraction)
    for face in range(1, 7):
        result = injury_result(face + bonus, concussion=concussion, hard_to_kill=hardy)
        out[SEVERITY[result]] += SIXTH
    return tuple(sorted(out.items()))


@lru_cache(maxsize=4096)
def _apply_wounds(
    lost: int,
    worst: int,
    wounds: int,
    bonus: int,
    concussion: bool,
    max_wounds: int,
    kd: bool,
    hardy: bool = False,
) -> tuple[tuple[int, int, Fraction], ...]:
    """(lost, worst, probability) after ``wounds`` unsaved wounds."""
    states: dict[tuple[int, int], Fraction] = {(lost, worst): ONE}
    for _w in range(wounds):
        nxt: dict[tuple[int, int], Fraction] = defaultdict(Fraction)
        for (now_lost, now_worst), chance in states.items():
            new_lost = min(now_lost + 1, max_wounds)
            if new_lost < max_wounds:
                nxt[(new_lost, now_worst)] += chance
            elif kd:
                nxt[(new_lost, OOA)] += chance
            else:
                for severity, p in _injury_distribution(bonus, concussion, hardy):
                    nxt[(new_lost, max(now_worst, severity))] += chance * p
        states = nxt
    return tuple((k[0], k[1], v) for k, v in states.items())


@lru_cache(maxsize=1024)
def _critical_rows(bonus: int = 0) -> tuple[tuple[Fraction, int, bool, int], ...]:
    """(probability, wounds, armour save allowed, injury bonus) of each critical result, the
    die read with ``bonus`` added (hunting arrows, web of steel; never above 6)."""
    out: dict[tuple[int, bool, int], Fraction] = defaultdict(Fraction)
    for face in range(1, 7):
        row = lookup(CRITICAL_TABLE, min(6, face + bonus), table="critical")
        out[(row["wounds"], row["armour_save"], row["injury_bonus"])] += SIXTH
    return tuple((p, wounds, saveable, b) for (wounds, saveable, b), p in out.items())


@lru_cache(maxsize=4096)
def _hit_outcomes(
    profile: WoundProfile, critical_available: bool, special_save: int | None = None
) -> tuple[tuple[Fraction, int, int, bool], ...]:
    """What one hit does: (probability, unsaved wounds, injury bonus, critical used)."""
    if profile.needed is None:
        return ((ONE, 0, 0, False),)
    save = ZERO if profile.save is None else Fraction(7 - profile.save, 6)
    ward = ZERO if special_save is None else Fraction(7 - special_save, 6)
    out: dict[tuple[int, int, bool], Fraction] = defaultdict(Fraction)
    out[(0, 0, False)] += Fraction(profile.needed - 1, 6)
    normal = Fraction(7 - profile.needed - (1 if critical_available else 0), 6)
    kept = normal * (1 - save)
    out[(0, 0, False)] += normal * save + kept * ward
    out[(1, profile.injury_bonus, False)] += kept * (1 - ward)
    if critical_available:
        for p_row, wounds, saveable, bonus in _critical_rows(profile.critical_bonus):
            chance = SIXTH * p_row
            if saveable:
                out[(0, 0, True)] += chance * save
                chance = chance * (1 - save)
            out[(0, 0, True)] += chance * ward
            out[(wounds, bonus + profile.injury_bonus, True)] += chance * (1 - ward)
    return tuple((p, k, b, used) for (k, b, used), p in out.items() if p)


def _hit_step(
    states: dict[State, list[Fraction]], profile: WoundProfile, plan: PhasePlan
) -> dict[State, list[Fraction]]:
    """Fold one hit into the wound-stage states (each maps to [probability, wound mass])."""
    if profile.needed is None:
        return states
    nxt: dict[State, list[Fraction]] = {}
    charm = ZERO if plan.first_wound_save is None else Fraction(7 - plan.first_wound_save, 6)
    for (used, lost, worst, spent), (chance, mass) in states.items():
        available = profile.criticals and not (plan.one_critical and used)
        for p, wounds, bonus, crit in _hit_outcomes(profile, available, plan.special_save):
            new_used = used or (crit and plan.one_critical)
            if wounds == 0:
                _accumulate(nxt, (new_used, lost, worst, spent), chance * p, mass * p)
                continue
            if plan.first_wound_save is not None and not spent:
                # The lucky charm: the first wound he suffers is ignored on its roll.
                _accumulate(
                    nxt, (new_used, lost, worst, True), chance * p * charm, mass * p * charm
                )
                p, spent_now = p * (1 - charm), True
            else:
                spent_now = spent
            for new_lost, new_worst, q in _apply_wounds(
                lost,
                worst,
                wounds,
                bonus,
                profile.concussion,
                plan.wounds,
                plan.knocked_down_mode,
                plan.hard_to_kill,
            ):
                pq = p * q
                _accumulate(
                    nxt,
                    (new_used, new_lost, new_worst, spent_now),
                    chance * pq,
                    (mass + chance * wounds) * pq,
                )
    return nxt


def _accumulate(
    states: dict[State, list[Fraction]], key: State, chance: Fraction, mass: Fraction
) -> None:
    slot = states.get(key)
    if slot is None:
        states[key] = [chance, mass]
    else:
        slot[0] += chance
        slot[1] += mass


def plan_odds(plan: PhasePlan) -> tuple[dict[str, Fraction], Fraction]:
    """Outcome probabilities and expected wounds of a plan."""
    outcomes = dict.fromkeys(OUTCOMES, ZERO)
    if plan.attacks and plan.auto_out_of_action:
        outcomes[OUT_OF_ACTION] = ONE
        return outcomes, ZERO
    hit_counts = _after_to_hit(plan)
    start: dict[State, list[Fraction]] = {(False, 0, 0, False): [ONE, ZERO]}
    final: dict[State, list[Fraction]] = defaultdict(lambda: [ZERO, ZERO])
    _fold_groups(plan, hit_counts, start, 0, (), final)
    expected = ZERO
    helmet = ZERO if plan.helmet_save is None else Fraction(7 - plan.helmet_save, 6)
    for (_used, lost, worst, _spent), (chance, mass) in final.items():
        expected += mass
        if worst == 0:
            outcomes["wounded" if lost else "unharmed"] += chance
            continue
        if worst == SEVERITY[STUNNED] and plan.stun_to_knockdown:
            worst = SEVERITY[KNOCKED_DOWN]  # lembas, thick skull: whatever the helmet says
        if worst == SEVERITY[STUNNED] and helmet:
            _add_outcome(outcomes, SEVERITY[KNOCKED_DOWN], plan, chance * helmet)
            chance = chance * (1 - helmet)
        _add_outcome(outcomes, worst, plan, chance)
    return outcomes, expected


def _add_outcome(
    outcomes: dict[str, Fraction], worst: int, plan: PhasePlan, chance: Fraction
) -> None:
    outcomes[SEVERITY_NAMES[max(worst, plan.start_severity)]] += chance


def _fold_groups(
    plan: PhasePlan,
    hit_counts: dict[tuple[int, ...], Fraction],
    states: dict[State, list[Fraction]],
    index: int,
    prefix: tuple[int, ...],
    final: dict[State, list[Fraction]],
) -> None:
    """Hits of group 0 first, then group 1…; shared prefixes are folded once."""
    if index == len(plan.groups):
        chance = hit_counts.get(prefix, ZERO)
        if chance:
            for state, (p, mass) in states.items():
                slot = final[state]
                slot[0] += p * chance
                slot[1] += mass * chance
        return
    counts = {key[index] for key in hit_counts if key[:index] == prefix}
    profile = plan.groups[index][2]
    current = states
    most = max(counts, default=0)
    for hits in range(most + 1):
        if hits in counts:
            _fold_groups(plan, hit_counts, current, index + 1, (*prefix, hits), final)
        if hits < most:
            current = _hit_step(current, profile, plan)


def _single_attack_plan(plan: PhasePlan) -> PhasePlan:
    count, to_hit, profile = plan.groups[0]
    return PhasePlan(**{**plan.__dict__, "groups": ((1, to_hit, profile),)})


def _per_attack(plan: PhasePlan, outcomes: dict[str, Fraction]) -> dict[str, Fraction]:
    if not plan.groups:
        return {"hit": ZERO, "parried": ZERO, "wound": ZERO, "unsaved": ZERO}
    single = plan if plan.attacks == 1 else _single_attack_plan(plan)
    if single.auto_out_of_action:
        return {"hit": ONE, "parried": ZERO, "wound": ZERO, "unsaved": ZERO}
    raw = sum((p for _value, p in hit_distribution(single.groups[0][1])), ZERO)
    hits = _after_to_hit(single)
    kept = sum((p for counts, p in hits.items() if sum(counts)), ZERO)
    profile = single.groups[0][2]
    wound = ZERO if profile.needed is None else kept * Fraction(7 - profile.needed, 6)
    if single is not plan:
        outcomes, _expected = plan_odds(single)
    return {
        "hit": raw,
        "parried": raw - kept,
        "wound": wound,
        "unsaved": ONE - outcomes["unharmed"],
    }


def _odds(plan: PhasePlan) -> OddsResult:
    outcomes, expected = plan_odds(plan)
    return OddsResult(
        kind=plan.kind,
        attacks=plan.attacks,
        outcomes=outcomes,
        per_attack=_per_attack(plan, outcomes),
        expected_wounds=expected,
        steps=plan.notes,
    )


@lru_cache(maxsize=2048)
def melee_odds(
    attacker: AttackerSpec, defender: DefenderSpec, rules: RuleOptions = DEFAULT_RULES
) -> OddsResult:
    """Exact odds of a close-combat phase of ``attacker`` against ``defender``."""
    return _odds(melee_plan(attacker, defender, rules))


@lru_cache(maxsize=2048)
def shooting_odds(
    shooter: ShooterSpec, target: DefenderSpec, rules: RuleOptions = DEFAULT_RULES
) -> OddsResult:
    """Exact odds of a shooting phase of ``shooter`` at ``target``."""
    return _odds(shooting_plan(shooter, target, rules))


def odds_uncached(plan: PhasePlan) -> OddsResult:
    """Compute without the result cache (used by the benchmark; the inner tables stay cached)."""
    return _odds(plan)
