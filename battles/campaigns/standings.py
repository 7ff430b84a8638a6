"""Campaign standings as a plain function over simple data.

Points: the campaign's points for a win, a draw, a loss and a bye, plus its bonus points for
each enemy put out of action and each scenario objective taken. Ties are broken by the
campaign's tie-breakers, in the order it chose (``TIE_BREAKERS``); the default order is
opponents' points, enemies put out of action, warband rating. Each tie-breaker only separates
warbands still level on everything before it — which is what makes head-to-head meaningful: it
counts the points won in battles among the warbands still tied. Warbands equal on everything
share a rank ("1, 2, 2, 4") and are listed by name.
"""

from __future__ import annotations

from collections.abc import Hashable, Iterable, Sequence
from dataclasses import dataclass, field

from django.utils.translation import gettext_lazy

WIN = "win"
DRAW = "draw"
LOSS = "loss"
BYE = "bye"

HEAD_TO_HEAD = "head_to_head"
OPPONENTS_POINTS = "opponents_points"
ENEMIES_OUT_OF_ACTION = "enemies_out_of_action"
WINS = "wins"
RATING_DIFFERENCE = "rating_difference"
RATING = "rating"
TIE_BREAKERS = (
    HEAD_TO_HEAD,
    OPPONENTS_POINTS,
    ENEMIES_OUT_OF_ACTION,
    WINS,
    RATING_DIFFERENCE,
    RATING,
)
DEFAULT_TIE_BREAKERS = (OPPONENTS_POINTS, ENEMIES_OUT_OF_ACTION, RATING)
TIE_BREAKER_CHOICES = (
    (HEAD_TO_HEAD, gettext_lazy("Head-to-head: points won among the warbands still tied")),
    (OPPONENTS_POINTS, gettext_lazy("Opponents' points")),
    (ENEMIES_OUT_OF_ACTION, gettext_lazy("Enemies put out of action")),
    (WINS, gettext_lazy("Most wins")),
    (
        RATING_DIFFERENCE,
        gettext_lazy("Rating difference: fought stronger warbands (ratings at the battle)"),
    ),
    (RATING, gettext_lazy("Highest warband rating")),
)
assert tuple(name for name, _label in TIE_BREAKER_CHOICES) == TIE_BREAKERS  # noqa: S101


@dataclass(frozen=True)
class PointsScheme:
    win: int = 3
    draw: int = 1
    loss: int = 0
    bye: int = 3
    per_out_of_action: int = 0
    per_objective: int = 0
    tie_breakers: tuple[str, ...] = DEFAULT_TIE_BREAKERS

    def points_for(self, result: str) -> int:
        return {WIN: self.win, DRAW: self.draw, LOSS: self.loss, BYE: self.bye}[result]

    def bonus_for(self, result: Result) -> int:
        return (
            self.per_out_of_action * result.enemies_out_of_action
            + self.per_objective * result.objectives
        )


@dataclass(frozen=True)
class Competitor:
    id: Hashable
    name: str
    rating: int = 0


@dataclass(frozen=True)
class Result:
    """One warband's result in one battle: ``win``/``draw``/``loss``, or ``bye``;
    ``rating`` is its rating when the battle was fought (``None``: not known)."""

    competitor_id: Hashable
    result: str
    enemies_out_of_action: int = 0
    objectives: int = 0
    rating: int | None = None


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
    bonus_points: int = 0
    opponents_points: int = 0
    enemies_out_of_action: int = 0
    objectives: int = 0
    # Sum over its battles of (the opponents' mean rating − its own), ratings at the battle:
    # more means it fought stronger warbands.
    rating_difference: int = 0
    # Points won against the warbands it was still tied with (set while ranking).
    head_to_head: int = 0
    opponents: list = field(default_factory=list, repr=False)


# competitor id → (result points, ids of the other warbands) for each battle it fought
Meetings = dict[Hashable, list[tuple[int, frozenset]]]


def _criterion(name: str, group: list[Row], meetings: Meetings) -> dict[Hashable, int]:
    """The value of tie-breaker ``name`` for each row of ``group`` (more is better)."""
    if name == HEAD_TO_HEAD:
        ids = {row.competitor_id for row in group}
        return {
            row.competitor_id: sum(
                points for points, others in meetings.get(row.competitor_id, ()) if others & ids
            )
            for row in group
        }
    return {row.competitor_id: getattr(row, name) for row in group}


def _split(groups: list[list[Row]], name: str, meetings: Meetings) -> list[list[Row]]:
    split = []
    for group in groups:
        if len(group) == 1:
            split.append(group)
            continue
        values = _criterion(name, group, meetings)
        if name == HEAD_TO_HEAD:
            for row in group:
                row.head_to_head = values[row.competitor_id]
        ordered = sorted(group, key=lambda row: -values[row.competitor_id])
        current: list[Row] = []
        for row in ordered:
            if current and values[current[-1].competitor_id] != values[row.competitor_id]:
                split.append(current)
                current = []
            current.append(row)
        split.append(current)
    return split


def _ranked(rows: Iterable[Row], tie_breakers: Sequence[str], meetings: Meetings) -> list[Row]:
    by_points = sorted(rows, key=lambda row: -row.points)
    groups: list[list[Row]] = []
    for row in by_points:
        if groups and groups[-1][0].points == row.points:
            groups[-1].append(row)
        else:
            groups.append([row])
    for name in tie_breakers:
        groups = _split(groups, name, meetings)
    ordered = []
    for group in groups:
        rank = len(ordered) + 1
        for row in sorted(group, key=lambda row: (row.name, str(row.competitor_id))):
            row.rank = rank
            ordered.append(row)
    return ordered


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
    meetings: Meetings = {}
    for outcome in outcomes:
        if up_to_round is not None and (
            outcome.round_number is None or outcome.round_number > up_to_round
        ):
            continue
        ids = [r.competitor_id for r in outcome.results if r.competitor_id in rows]
        ratings = {r.competitor_id: r.rating for r in outcome.results}
        for result in outcome.results:
            row = rows.get(result.competitor_id)
            if row is None:
                continue
            points = scheme.points_for(result.result)
            bonus = scheme.bonus_for(result)
            row.points += points + bonus
            row.bonus_points += bonus
            row.enemies_out_of_action += result.enemies_out_of_action
            row.objectives += result.objectives
            if result.result == BYE:
                row.byes += 1
                continue
            others = [other for other in ids if other != result.competitor_id]
            row.played += 1
            row.wins += result.result == WIN
            row.draws += result.result == DRAW
            row.losses += result.result == LOSS
            row.opponents.extend(others)
            meetings.setdefault(row.competitor_id, []).append((points, frozenset(others)))
            known = [
                rating
                for other, rating in ratings.items()
                if other != result.competitor_id and rating is not None
            ]
            if known and result.rating is not None:
                row.rating_difference += sum(known) // len(known) - result.rating
    for row in rows.values():
        row.opponents_points = sum(rows[other].points for other in row.opponents)
    return _ranked(rows.values(), scheme.tie_breakers, meetings)


def points_after_each_round(
    outcomes: Iterable[Outcome], scheme: PointsScheme, numbers: Sequence[int], ids: Iterable
) -> dict[Hashable, list[int]]:
    """The points (bonus points included) of each competitor in ``ids`` after each round of
    ``numbers``, as ``compute_standings(up_to_round=n)`` counts them, in one pass over the
    outcomes."""
    wanted = set(ids)
    gained: dict[Hashable, dict[int, int]] = {competitor: {} for competitor in wanted}
    for outcome in outcomes:
        if outcome.round_number is None:
            continue
        for result in outcome.results:
            if result.competitor_id in wanted:
                by_round = gained[result.competitor_id]
                by_round[outcome.round_number] = (
                    by_round.get(outcome.round_number, 0)
                    + scheme.points_for(result.result)
                    + scheme.bonus_for(result)
                )
    points: dict[Hashable, list[int]] = {}
    for competitor, by_round in gained.items():
        total, points[competitor] = 0, []
        for number in numbers:
            total += by_round.get(number, 0)
            points[competitor].append(total)
    return points
