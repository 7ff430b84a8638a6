"""Seeded Monte Carlo: many phases or whole duels rolled with :class:`~rules.engine.dice.Dice`.

The simulator rolls the very code that resolves a phase at the table, so its estimates are a
check on :mod:`rules.engine.odds` (the tests compare them within a confidence interval), and it
covers what the exact odds do not: fights over several rounds with recovery, strike order and
status changes.
"""

from __future__ import annotations

import math
from dataclasses import dataclass, replace
from typing import Any

from rules.engine.combat import (
    DEFAULT_RULES,
    OUTCOMES,
    STANDING,
    AttackerSpec,
    Combatant,
    DefenderSpec,
    PhasePlan,
    RuleOptions,
    ShooterSpec,
    melee_plan,
    resolve_phase,
    resolve_plan,
    shooting_plan,
    strike_order,
)
from rules.engine.dice import Dice
from rules.engine.errors import SpecError
from rules.engine.i18n import gettext_noop as _
from rules.engine.tables import KNOCKED_DOWN, OUT_OF_ACTION, STUNNED

MAX_TRIALS = 1_000_000


@dataclass(frozen=True)
class SimulationResult:
    """Counts and estimates of ``trials`` simulated phases (``seed`` replays them)."""

    trials: int
    seed: int
    counts: dict[str, int]
    wounds_total: int

    @property
    def estimates(self) -> dict[str, float]:
        return {name: count / self.trials for name, count in self.counts.items()}

    @property
    def mean_wounds(self) -> float:
        return self.wounds_total / self.trials

    def interval(self, outcome: str, z: float = 3.29) -> tuple[float, float]:
        """Wilson score interval for one outcome (z = 3.29: 99.9%)."""
        n = self.trials
        p = self.counts[outcome] / n
        centre = (p + z * z / (2 * n)) / (1 + z * z / n)
        half = z * math.sqrt(p * (1 - p) / n + z * z / (4 * n * n)) / (1 + z * z / n)
        return centre - half, centre + half

    def to_dict(self) -> dict[str, Any]:
        return {
            "trials": self.trials,
            "seed": self.seed,
            "counts": dict(self.counts),
            "estimates": self.estimates,
            "mean_wounds": self.mean_wounds,
        }


def _trials(trials: int) -> int:
    if isinstance(trials, bool) or not isinstance(trials, int) or not 1 <= trials <= MAX_TRIALS:
        raise SpecError(_("trials must be from 1 to %(max)d."), field="trials", max=MAX_TRIALS)
    return trials


def simulate_plan(plan: PhasePlan, *, trials: int, seed: int) -> SimulationResult:
    """Roll ``plan`` ``trials`` times with ``Dice(seed)``."""
    dice = Dice(seed)
    counts = dict.fromkeys(OUTCOMES, 0)
    wounds = 0
    for _n in range(_trials(trials)):
        result = resolve_plan(plan, dice=dice)
        counts[result.outcome] += 1
        wounds += result.wounds_lost
        dice.forget()
    return SimulationResult(trials, seed, counts, wounds)


def simulate_phase(
    attacker: AttackerSpec,
    defender: DefenderSpec,
    *,
    trials: int,
    seed: int,
    rules: RuleOptions = DEFAULT_RULES,
) -> SimulationResult:
    """Monte Carlo estimate of :func:`rules.engine.odds.melee_odds`."""
    return simulate_plan(melee_plan(attacker, defender, rules), trials=trials, seed=seed)


def simulate_shooting(
    shooter: ShooterSpec,
    target: DefenderSpec,
    *,
    trials: int,
    seed: int,
    rules: RuleOptions = DEFAULT_RULES,
) -> SimulationResult:
    """Monte Carlo estimate of :func:`rules.engine.odds.shooting_odds`."""
    return simulate_plan(shooting_plan(shooter, target, rules), trials=trials, seed=seed)


# Duels ------------------------------------------------------------------------------------------


@dataclass(frozen=True)
class Fighter:
    """One side of a duel: how he strikes (``attacker``), how he is struck (``defender``, with
    his H and starting status) and his Iniciativa."""

    name: str
    attacker: AttackerSpec
    defender: DefenderSpec
    initiative: int = 3


@dataclass(frozen=True)
class DuelResult:
    trials: int
    seed: int
    wins: dict[str, int]
    undecided: int
    mean_turns: float

    def to_dict(self) -> dict[str, Any]:
        return {
            "trials": self.trials,
            "seed": self.seed,
            "wins": dict(self.wins),
            "undecided": self.undecided,
            "win_rates": {name: count / self.trials for name, count in self.wins.items()},
            "mean_turns": self.mean_turns,
        }


@dataclass
class _State:
    wounds: int
    status: str
    frenzy: bool
    stood_up: bool = False


def duel(
    charger: Fighter,
    other: Fighter,
    *,
    dice: Dice,
    max_turns: int = 20,
    rules: RuleOptions = DEFAULT_RULES,
) -> tuple[str | None, int]:
    """Fight one duel: the winner's name (``None`` if undecided) and the turns it took.

    ``charger`` charges in turn 1 (his turn) and strikes first then. Turns alternate; in each
    side's recovery phase his stunned warrior becomes knocked down and a knocked-down one stands
    up (striking last that turn). Both fight in every close-combat phase, in strike order; a
    knocked-down or stunned fighter cannot strike; frenzy is lost once knocked down or stunned.
    """
    fighters = (charger, other)
    states = [_State(f.defender.wounds, f.defender.status, f.attacker.frenzy) for f in fighters]
    for turn in range(max_turns):
        active = turn % 2
        state = states[active]
        if turn:
            if state.status == STUNNED:
                state.status = KNOCKED_DOWN
            elif state.status == KNOCKED_DOWN:
                state.status, state.stood_up = STANDING, True
        order = _order(fighters, states, turn, dice)
        for index in order:
            striker, target = states[index], states[1 - index]
            if striker.status != STANDING:
                continue
            attack = replace(fighters[index].attacker, first_round=turn == 0, frenzy=striker.frenzy)
            defence = replace(
                fighters[1 - index].defender, wounds=target.wounds, status=target.status
            )
            result = resolve_phase(attack, defence, dice=dice, rules=rules)
            target.wounds = max(0, target.wounds - result.wounds_lost)
            if result.outcome == OUT_OF_ACTION:
                return fighters[index].name, turn + 1
            if result.outcome in (KNOCKED_DOWN, STUNNED):
                target.status, target.frenzy = result.outcome, False
        state.stood_up = False
    return None, max_turns


def _order(
    fighters: tuple[Fighter, Fighter], states: list[_State], turn: int, dice: Dice
) -> list[int]:
    combatants = [
        Combatant(
            name=str(index),
            initiative=fighter.initiative,
            charged=turn == 0 and index == 0,
            stood_up=states[index].stood_up,
            weapon=fighter.attacker.weapon,
            first_round=turn == 0,
        )
        for index, fighter in enumerate(fighters)
    ]
    return [int(name) for name in strike_order(combatants, dice=dice).order]


def simulate_duel(
    charger: Fighter,
    other: Fighter,
    *,
    trials: int,
    seed: int,
    max_turns: int = 20,
    rules: RuleOptions = DEFAULT_RULES,
) -> DuelResult:
    """Monte Carlo of whole duels (see :func:`duel`), replayable from ``seed``."""
    if charger.name == other.name:
        raise SpecError(_("The two fighters need different names."), field="name")
    dice = Dice(seed)
    wins = {charger.name: 0, other.name: 0}
    undecided = 0
    turns = 0
    for _n in range(_trials(trials)):
        winner, took = duel(charger, other, dice=dice, max_turns=max_turns, rules=rules)
        turns += took
        if winner is None:
            undecided += 1
        else:
            wins[winner] += 1
        dice.forget()
    return DuelResult(trials, seed, wins, undecided, turns / trials)
