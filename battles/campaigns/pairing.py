"""Pairing algorithms for campaign rounds, as plain functions over simple data.

Both methods take the players in preference order (Swiss: standings, best first; rating: warband
rating, highest first) with a score each (points; rating) and pair them by a minimum-cost
perfect matching (Edmonds' blossom algorithm, ``networkx.max_weight_matching``: polynomial,
O(n³) at worst). The costs are ordered so that each one only breaks ties of the one before:

1. rematches — a rematch happens only when no pairing of the round avoids it;
2. the bye — with an odd number of players one gets a bye, among those with the fewest byes so
   far, the lowest in the order (byes rotate);
3. the score gap between the two players of each battle (squared: two small gaps are better
   than one large one);
4. their distance in the order (squared: the leader meets the nearest player he has not met).

Neighbours in the order (1–2, 3–4…, the bye to the lowest who may have it) are that cheapest
pairing whenever they hold no rematch, and are taken at once. Otherwise a big league is matched
on a sparse graph first (each player linked to his neighbours in the order and to the nearest
players he has not met); while that leaves a rematch the graph doubles its reach, up to the
complete graph, which decides.
"""

from __future__ import annotations

from collections.abc import Collection, Hashable, Mapping, Sequence
from dataclasses import dataclass

SWISS = "swiss"
RATING = "rating"
METHODS = (SWISS, RATING)

# Up to this many players the complete graph is matched at once; above, a sparse graph first.
COMPLETE_UP_TO = 64
# The sparse graph's first reach: each player's neighbours in the order, and his nearest
# players not met; doubled while a rematch is left.
NEIGHBOURS = 8


@dataclass(frozen=True)
class Pairings:
    pairs: tuple[tuple[Hashable, Hashable], ...]
    bye: Hashable | None
    rematches: int


@dataclass(frozen=True)
class _Costs:
    """The weights that make each cost break only the ties of the one before it."""

    score: int  # per squared score gap
    bye: int  # per place above the bottom of the order
    rematch: int

    @classmethod
    def for_round(cls, count: int, widest_gap: int) -> _Costs:
        pairs = count // 2 + 1
        distances = pairs * count * count
        score = distances + 1
        scores = pairs * widest_gap * widest_gap * score
        bye = scores + distances + 1
        return cls(score=score, bye=bye, rematch=count * bye + scores + distances + 1)


class _Round:
    def __init__(self, order, played, byes, scores) -> None:
        self.order = order
        self.played = played
        self.scores = [scores.get(player, 0) for player in order]
        widest = max(self.scores, default=0) - min(self.scores, default=0)
        self.costs = _Costs.for_round(len(order), widest)
        self.bye_candidates: list[int] = []
        if len(order) % 2:
            fewest = min(byes.get(player, 0) for player in order)
            self.bye_candidates = [i for i, p in enumerate(order) if byes.get(p, 0) == fewest]

    def met(self, i: int, j: int) -> bool:
        return frozenset((self.order[i], self.order[j])) in self.played

    def cost(self, i: int, j: int) -> int:
        gap = self.scores[i] - self.scores[j]
        return self.costs.rematch * self.met(i, j) + self.costs.score * gap * gap + (j - i) ** 2

    def edges(self, reach: int) -> set[tuple[int, int]]:
        """Each player linked to the next ``reach`` players in the order, and to the nearest
        ``reach`` players he has not met above and below him: every pair when ``reach`` is the
        number of players."""
        count = len(self.order)
        if reach >= count:
            return {(i, j) for i in range(count) for j in range(i + 1, count)}
        edges = set()
        for i in range(count):
            edges.update((i, j) for j in range(i + 1, min(count, i + 1 + reach)))
            for step in (1, -1):
                found, j = 0, i + step
                while 0 <= j < count and found < reach:
                    if not self.met(i, j):
                        edges.add((min(i, j), max(i, j)))
                        found += 1
                    j += step
        return edges

    def neighbours(self) -> tuple[list[tuple[int, int]], int | None]:
        """1–2, 3–4…, the bye to the lowest who may have it: the cheapest pairing of all when
        it has no rematch (neighbours in an order sorted by score minimise every gap at once)."""
        bye = self.bye_candidates[-1] if self.bye_candidates else None
        rest = [i for i in range(len(self.order)) if i != bye]
        return list(zip(rest[::2], rest[1::2], strict=True)), bye

    def match(self, reach: int) -> tuple[list[tuple[int, int]], int | None]:
        """The cheapest perfect matching on the graph; the bye is a node of its own."""
        bye_node = len(self.order)
        weighted = [(i, j, self.cost(i, j)) for i, j in self.edges(reach)]
        weighted += [
            (c, bye_node, self.costs.bye * (len(self.order) - 1 - c)) for c in self.bye_candidates
        ]
        # Imported here: networkx takes about half a second to import, paid only by a pairing.
        import networkx as nx

        ceiling = max(cost for _i, _j, cost in weighted) + 1
        graph = nx.Graph()
        graph.add_weighted_edges_from((i, j, ceiling - cost) for i, j, cost in weighted)
        matching = nx.max_weight_matching(graph, maxcardinality=True)
        pairs, bye = [], None
        for a, b in matching:
            i, j = sorted((a, b))
            if j == bye_node:
                bye = i
            else:
                pairs.append((i, j))
        return sorted(pairs), bye


def pair_in_order(
    order: Sequence[Hashable],
    *,
    played: Collection[frozenset] = (),
    byes: Mapping[Hashable, int] | None = None,
    scores: Mapping[Hashable, int] | None = None,
) -> Pairings:
    """Pair ``order`` (best first), avoiding rematches when possible; a bye if the count is odd.

    ``played`` holds ``frozenset({a, b})`` for every pair that has already met; ``byes`` counts
    the byes each player has had; ``scores`` (points, or rating; highest first, as the order)
    pairs close scores together.
    """
    order = list(dict.fromkeys(order))
    if len(order) < 2:
        return Pairings((), order[0] if order else None, 0)
    round = _Round(order, set(played), byes or {}, scores or {})
    pairs, bye = round.neighbours()
    reach = len(order) if len(order) <= COMPLETE_UP_TO else NEIGHBOURS
    while any(round.met(i, j) for i, j in pairs):
        pairs, bye = round.match(reach)
        if reach >= len(order):
            break
        reach *= 2  # a rematch left: a wider graph may avoid it, the complete one decides
    return Pairings(
        tuple((order[i], order[j]) for i, j in pairs),
        None if bye is None else order[bye],
        sum(round.met(i, j) for i, j in pairs),
    )


def swiss_pairings(
    standings_order: Sequence[Hashable],
    *,
    played: Collection[frozenset] = (),
    byes: Mapping[Hashable, int] | None = None,
    points: Mapping[Hashable, int] | None = None,
) -> Pairings:
    """Swiss: players in standings order (leader first) meet the nearest player not yet met,
    within their score group when they can."""
    return pair_in_order(standings_order, played=played, byes=byes, scores=points)


def rating_pairings(
    ratings: Mapping[Hashable, int],
    *,
    played: Collection[frozenset] = (),
    byes: Mapping[Hashable, int] | None = None,
) -> Pairings:
    """Nearest warband rating: sort by rating (highest first, ties by id) and pair the nearest."""
    order = sorted(ratings, key=lambda player: (-ratings[player], str(player)))
    return pair_in_order(order, played=played, byes=byes, scores=ratings)
