"""Benchmark of the rules engine (pure Python, no Django).

Run from the project root:  .venv/bin/python bench/bench_engine.py
Prints a table: exact odds of one attack and of a four-attack phase with parry and criticals
(uncached: the result cache is bypassed, the small inner tables stay warm, as in a running
server), the same through the memoised public functions, and Monte Carlo phases per second.
"""

from __future__ import annotations

import pathlib
import sys
import timeit

sys.path.insert(0, str(pathlib.Path(__file__).resolve().parents[1]))

from rules.engine import AttackerSpec, DefenderSpec, melee_odds, simulate_phase  # noqa: E402
from rules.engine.combat import melee_plan  # noqa: E402
from rules.engine.odds import odds_uncached  # noqa: E402

ONE_ATTACKER = AttackerSpec()
ONE_DEFENDER = DefenderSpec()
FOUR_ATTACKER = AttackerSpec(ws=4, strength=4, attacks=2, frenzy=True, weapon="hacha")
FOUR_DEFENDER = DefenderSpec(
    ws=4,
    toughness=4,
    wounds=2,
    weapons=("espada",),
    armour=("escudo-pequeno", "armadura-ligera", "yelmo"),
)


def best_of(function, number: int, repeat: int = 5) -> float:
    """Best mean time per call in seconds over ``repeat`` runs of ``number`` calls."""
    return min(timeit.repeat(function, number=number, repeat=repeat)) / number


def main() -> None:
    one_plan = melee_plan(ONE_ATTACKER, ONE_DEFENDER)
    four_plan = melee_plan(FOUR_ATTACKER, FOUR_DEFENDER)
    odds_uncached(one_plan)
    odds_uncached(four_plan)
    rows = [
        ("exact odds, 1 attack (uncached)", best_of(lambda: odds_uncached(one_plan), 500)),
        (
            "exact odds, 1 attack incl. plan (uncached)",
            best_of(lambda: odds_uncached(melee_plan(ONE_ATTACKER, ONE_DEFENDER)), 500),
        ),
        (
            "exact odds, 4 attacks + parry + crits (uncached)",
            best_of(lambda: odds_uncached(four_plan), 50),
        ),
        (
            "melee_odds, 4 attacks (memoised)",
            best_of(lambda: melee_odds(FOUR_ATTACKER, FOUR_DEFENDER), 5000),
        ),
    ]
    trials = 20_000
    seconds = best_of(
        lambda: simulate_phase(FOUR_ATTACKER, FOUR_DEFENDER, trials=trials, seed=1), 1, repeat=3
    )
    print(f"{'measure':<52} {'per call':>12}")
    print("-" * 65)
    for name, value in rows:
        print(f"{name:<52} {value * 1e3:>9.3f} ms")
    print(f"{'Monte Carlo, 4-attack phases per second':<52} {trials / seconds:>12,.0f}")
    print(f"{'Monte Carlo, attacks per second':<52} {4 * trials / seconds:>12,.0f}")


if __name__ == "__main__":
    main()
