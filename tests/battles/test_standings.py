"""Standings from results match a hand-worked table, tie-breakers included."""

from battles.campaigns.standings import (
    BYE,
    DRAW,
    LOSS,
    WIN,
    Competitor,
    Outcome,
    PointsScheme,
    Result,
    compute_standings,
)

SCHEME = PointsScheme(win=3, draw=1, loss=0, bye=3)
A, B, C, D, E = "A", "B", "C", "D", "E"
COMPETITORS = [
    Competitor(A, "Arthedain", 120),
    Competitor(B, "Cardolan", 140),
    Competitor(C, "Rhudaur", 130),
    Competitor(D, "Angmar", 150),
    Competitor(E, "Carn Dûm", 150),
]
# Round 1: A beats B (A puts 2 out of action, B 1); C draws D (1 each); E bye.
# Round 2: A beats C (OOA 1–0); B beats E (OOA 3–2); D bye.
OUTCOMES = [
    Outcome(1, (Result(A, WIN, 2), Result(B, LOSS, 1))),
    Outcome(1, (Result(C, DRAW, 1), Result(D, DRAW, 1))),
    Outcome(1, (Result(E, BYE),)),
    Outcome(2, (Result(A, WIN, 1), Result(C, LOSS, 0))),
    Outcome(2, (Result(B, WIN, 3), Result(E, LOSS, 2))),
    Outcome(2, (Result(D, BYE),)),
]


def test_hand_worked_standings_after_two_rounds():
    # Points: A 6; B 3; C 1; D 1 + 3 = 4; E 3 + 0 = 3.
    # Opponents' points: A = B 3 + C 1 = 4; B = A 6 + E 3 = 9; C = D 4 + A 6 = 10;
    #   D = C 1 = 1 (a bye has no opponent); E = B 3 = 3.
    # B and E tie on 3 points: B ahead on opponents' points (9 vs 3).
    rows = compute_standings(COMPETITORS, OUTCOMES, SCHEME)
    table = [
        (r.rank, r.competitor_id, r.points, r.opponents_points, r.enemies_out_of_action)
        for r in rows
    ]
    assert table == [
        (1, A, 6, 4, 3),
        (2, D, 4, 1, 1),
        (3, B, 3, 9, 4),
        (4, E, 3, 3, 2),
        (5, C, 1, 10, 1),
    ]
    a = rows[0]
    assert (a.played, a.wins, a.draws, a.losses, a.byes) == (2, 2, 0, 0, 0)
    d = rows[1]
    assert (d.played, d.draws, d.byes) == (1, 1, 1)


def test_standings_after_round_one_only():
    # Round 1 only: A 3 (opp B 0), E 3 (bye, no opponents), C 1, D 1, B 0.
    # A and E tie on points; A ahead on opponents' points? both 0 → enemies OOA: A 2 vs E 0.
    # C and D tie on points (1), opponents' points (1 each) and OOA (1 each): rating D 150 > C.
    rows = compute_standings(COMPETITORS, OUTCOMES, SCHEME, up_to_round=1)
    assert [(r.rank, r.competitor_id, r.points) for r in rows] == [
        (1, A, 3),
        (2, E, 3),
        (3, D, 1),
        (4, C, 1),
        (5, B, 0),
    ]


def test_full_tie_shares_the_rank():
    competitors = [Competitor(1, "Beta", 100), Competitor(2, "Alfa", 100)]
    outcomes = [Outcome(1, (Result(1, DRAW, 1), Result(2, DRAW, 1)))]
    rows = compute_standings(competitors, outcomes, SCHEME)
    assert [(r.rank, r.name) for r in rows] == [(1, "Alfa"), (1, "Beta")]


def test_multiplayer_battle_counts_every_opponent():
    competitors = [Competitor(i, str(i), 100) for i in (1, 2, 3)]
    outcomes = [Outcome(1, (Result(1, WIN, 2), Result(2, LOSS), Result(3, LOSS, 1)))]
    rows = {r.competitor_id: r for r in compute_standings(competitors, outcomes, SCHEME)}
    assert rows[1].points == 3
    assert rows[2].opponents_points == 3  # only 1 scored
    assert rows[1].played == rows[3].played == 1


def test_house_points_scheme():
    scheme = PointsScheme(win=2, draw=1, loss=1, bye=1)
    competitors = [Competitor(1, "x"), Competitor(2, "y")]
    rows = compute_standings(competitors, [Outcome(1, (Result(1, WIN), Result(2, LOSS)))], scheme)
    assert [(r.competitor_id, r.points) for r in rows] == [(1, 2), (2, 1)]
