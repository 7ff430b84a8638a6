"""Campaign standings as a plain function over simple data.

Order: points, then the tie-breakers in this order: opponents' points (the sum of the final
points of every warband one has fought — a bye has no opponent), enemies put out of action,
warband rating (higher first). Warbands equal on all four share a rank ("1, 2, 2, 4") and are
listed by name.
"""

from __future__ import annotations

from collections.abc import Hashable, Iterable
from dataclasses import dataclass, field

WIN = "win"
DRAW = "draw"
LOSS = "loss"
BYE = "bye"


@dataclass(frozen=True)
class PointsScheme:
    win: int = 3
    draw: int = 1
    loss: int = 0
    bye: int = 3

    def points_for(self, result: str) -> int:
        return {WIN: self.win, DRAW: self.draw, LOSS: self.loss, BYE: self.bye}[result]


@dataclass(frozen=True)
class Competitor:
    id: Hashable
    name: str
    rating: int = 0


@dataclass(frozen=True)
class Result:
    """One warband's result in one battle: ``win``/``draw``/``loss``, or ``bye``."""

    competitor_id: Hashable
    result: str
    enemies_out_of_action: int = 0


@dataclass(frozen=True)
class Outcome:
    """A battle that counts for the standings (confirmed or resolved) or a bye."""

    round_number: int | None
    results: tuple[Result, ...]


@dataclass
class Row:
    competitor_id: Hashable
    name: str
    rating: int
    rank: int = 0
    played: int = 0
    wins: int = 0
    draws: int = 0
    losses: int = 0
    byes: int = 0
    points: int = 0
    opponents_points: int = 0
    enemies_out_of_action: int = 0
    opponents: list = field(default_factory=list, repr=False)

    def sort_key(self) -> tuple:
        return (-self.points, -self.opponents_points, -self.enemies_out_of_action, -self.rating)


def compute_standings(
    competitors: Iterable[Competitor],
    outcomes: Iterable[Outcome],
    scheme: PointsScheme,
    *,
    up_to_round: int | None = None,
) -> list[Row]:
    """The standings table; with ``up_to_round``, only battles of rounds ≤ that number count
    (battles outside any round count only in the overall table)."""
    rows = {c.id: Row(c.id, c.name, c.rating) for c in competitors}
    for outcome in outcomes:
        if up_to_round is not None and (
            outcome.round_number is None or outcome.round_number > up_to_round
        ):
            continue
        ids = [r.competitor_id for r in outcome.results if r.competitor_id in rows]
        for result in outcome.results:
            row = rows.get(result.competitor_id)
            if row is None:
                continue
            row.points += scheme.points_for(result.result)
            row.enemies_out_of_action += result.enemies_out_of_action
            if result.result == BYE:
                row.byes += 1
                continue
            row.played += 1
            row.wins += result.result == WIN
            row.draws += result.result == DRAW
            row.losses += result.result == LOSS
            row.opponents.extend(other for other in ids if other != result.competitor_id)
    for row in rows.values():
        row.opponents_points = sum(rows[other].points for other in row.opponents)
    ordered = sorted(
        rows.values(), key=lambda row: (row.sort_key(), row.name, str(row.competitor_id))
    )
    previous = None
    for position, row in enumerate(ordered, start=1):
        row.rank = previous.rank if previous and previous.sort_key() == row.sort_key() else position
        previous = row
    return ordered
