"""Pairing algorithms for campaign rounds, as plain functions over simple data.

Both methods walk a list of players in preference order (Swiss: standings, best first; rating:
warband rating, highest first) and pair each unpaired player with the nearest player after him
that he has not met yet. The search backtracks, so a rematch happens only when no pairing of the
round avoids it; when some rematch is unavoidable the search minimises how many there are.

With an odd number of players one gets a bye. Byes rotate: the bye goes to a player with the
fewest byes so far (among those, the lowest in the order), and only among those players do we
look for one whose bye leaves a pairing without rematches.
"""

from __future__ import annotations

from collections.abc import Collection, Hashable, Mapping, Sequence
from dataclasses import dataclass

SWISS = "swiss"
RATING = "rating"
METHODS = (SWISS, RATING)

# Past this many search steps we stop looking for the perfect answer and pair greedily: a league
# never gets near it (it would take dozens of players who have nearly all met each other).
SEARCH_STEP_LIMIT = 200_000


@dataclass(frozen=True)
class Pairings:
    pairs: tuple[tuple[Hashable, Hashable], ...]
    bye: Hashable | None
    rematches: int


class _SearchExhausted(Exception):
    pass


def _met(a: Hashable, b: Hashable, played: Collection[frozenset]) -> bool:
    return frozenset((a, b)) in played


def _match(
    players: Sequence[Hashable], played: Collection[frozenset], budget: int, steps: list[int]
) -> list[tuple[Hashable, Hashable]] | None:
    """Pair ``players`` (even count, in order) with at most ``budget`` rematches, or None."""
    failed: set[tuple[int, int]] = set()
    n = len(players)

    def search(mask: int, budget_left: int) -> list[tuple[Hashable, Hashable]] | None:
        if mask == (1 << n) - 1:
            return []
        if (mask, budget_left) in failed:
            return None
        steps[0] += 1
        if steps[0] > SEARCH_STEP_LIMIT:
            raise _SearchExhausted
        first = next(i for i in range(n) if not mask & (1 << i))
        for other in range(first + 1, n):
            if mask & (1 << other):
                continue
            cost = 1 if _met(players[first], players[other], played) else 0
            if cost > budget_left:
                continue
            rest = search(mask | (1 << first) | (1 << other), budget_left - cost)
            if rest is not None:
                return [(players[first], players[other]), *rest]
        failed.add((mask, budget_left))
        return None

    return search(0, budget)


def _greedy(players: Sequence[Hashable], played: Collection[frozenset]):
    remaining = list(players)
    pairs = []
    while remaining:
        first = remaining.pop(0)
        index = next((i for i, other in enumerate(remaining) if not _met(first, other, played)), 0)
        pairs.append((first, remaining.pop(index)))
    return pairs


def pair_in_order(
    order: Sequence[Hashable],
    *,
    played: Collection[frozenset] = (),
    byes: Mapping[Hashable, int] | None = None,
) -> Pairings:
    """Pair ``order`` (best first), avoiding rematches when possible; a bye if the count is odd.

    ``played`` holds ``frozenset({a, b})`` for every pair that has already met; ``byes`` counts
    the byes each player has had.
    """
    order = list(dict.fromkeys(order))
    byes = byes or {}
    played = set(played)
    if len(order) % 2 == 0:
        candidates: list[Hashable | None] = [None]
    else:
        fewest = min(byes.get(player, 0) for player in order)
        candidates = [p for p in reversed(order) if byes.get(p, 0) == fewest]

    steps = [0]
    try:
        for budget in range(len(order) // 2 + 1):
            for bye in candidates:
                rest = [p for p in order if p != bye]
                pairs = _match(rest, played, budget, steps)
                if pairs is not None:
                    rematches = sum(_met(a, b, played) for a, b in pairs)
                    return Pairings(tuple(pairs), bye, rematches)
    except _SearchExhausted:
        pass
    bye = candidates[0]
    pairs = _greedy([p for p in order if p != bye], played)
    return Pairings(tuple(pairs), bye, sum(_met(a, b, played) for a, b in pairs))


def swiss_pairings(
    standings_order: Sequence[Hashable],
    *,
    played: Collection[frozenset] = (),
    byes: Mapping[Hashable, int] | None = None,
) -> Pairings:
    """Swiss: players in standings order (leader first) meet the nearest player not yet met."""
    return pair_in_order(standings_order, played=played, byes=byes)


def rating_pairings(
    ratings: Mapping[Hashable, int],
    *,
    played: Collection[frozenset] = (),
    byes: Mapping[Hashable, int] | None = None,
) -> Pairings:
    """Nearest warband rating: sort by rating (highest first, ties by id) and pair neighbours."""
    order = sorted(ratings, key=lambda player: (-ratings[player], str(player)))
    return pair_in_order(order, played=played, byes=byes)
