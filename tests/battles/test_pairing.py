"""Pairing properties: everyone exactly once per round, no rematch when avoidable, byes rotate."""

from itertools import combinations

from hypothesis import given, settings
from hypothesis import strategies as st

from battles.campaigns.pairing import pair_in_order, rating_pairings, swiss_pairings


def _perfect_matching_without_rematch(players, played) -> bool:
    """Brute force oracle: is there any pairing of ``players`` with no rematch?"""
    if not players:
        return True
    first, rest = players[0], players[1:]
    for index, other in enumerate(rest):
        if frozenset((first, other)) in played:
            continue
        if _perfect_matching_without_rematch(rest[:index] + rest[index + 1 :], played):
            return True
    return False


def _avoidable(order, played, byes) -> bool:
    if len(order) % 2 == 0:
        return _perfect_matching_without_rematch(list(order), played)
    fewest = min(byes.get(p, 0) for p in order)
    return any(
        _perfect_matching_without_rematch([p for p in order if p != bye], played)
        for bye in order
        if byes.get(bye, 0) == fewest
    )


players_st = st.integers(min_value=2, max_value=10).map(lambda n: list(range(1, n + 1)))


@st.composite
def situations(draw):
    players = draw(st.permutations(draw(players_st)))
    pairs = list(combinations(sorted(players), 2))
    played = draw(st.sets(st.sampled_from(pairs), max_size=len(pairs))) if pairs else set()
    byes = draw(st.dictionaries(st.sampled_from(players), st.integers(0, 2)))
    return players, {frozenset(p) for p in played}, byes


def _check_round(order, played, byes, result):
    seen = [p for pair in result.pairs for p in pair]
    if result.bye is not None:
        seen.append(result.bye)
    assert sorted(seen) == sorted(order), "every player exactly once"
    assert all(a != b for a, b in result.pairs)
    if len(order) % 2:
        fewest = min(byes.get(p, 0) for p in order)
        assert byes.get(result.bye, 0) == fewest, "the bye goes to one with the fewest byes"
    else:
        assert result.bye is None
    rematches = sum(frozenset(pair) in played for pair in result.pairs)
    assert rematches == result.rematches
    if _avoidable(order, played, byes):
        assert rematches == 0, "no rematch when a pairing without one exists"


@settings(max_examples=300, deadline=None)
@given(situations())
def test_swiss_round_properties(situation):
    order, played, byes = situation
    _check_round(order, played, byes, swiss_pairings(order, played=played, byes=byes))


@settings(max_examples=200, deadline=None)
@given(situations(), st.data())
def test_rating_round_properties(situation, data):
    order, played, byes = situation
    ratings = {p: data.draw(st.integers(0, 400)) for p in order}
    _check_round(order, played, byes, rating_pairings(ratings, played=played, byes=byes))


@settings(max_examples=100, deadline=None)
@given(st.integers(min_value=3, max_value=11).filter(lambda n: n % 2), st.randoms())
def test_byes_rotate_over_a_season(count, rnd):
    """Round after round nobody gets a second bye before everyone had one; rematches only when
    no pairing of that round avoids them."""
    players = list(range(count))
    played: set[frozenset] = set()
    byes: dict[int, int] = {}
    for _round in range(count):
        order = players[:]
        rnd.shuffle(order)
        result = swiss_pairings(order, played=played, byes=byes)
        _check_round(order, played, byes, result)
        byes[result.bye] = byes.get(result.bye, 0) + 1
        assert max(byes.values()) - min(byes.get(p, 0) for p in players) <= 1
        played.update(frozenset(pair) for pair in result.pairs)
    assert all(byes.get(p) == 1 for p in players)


def test_swiss_pairs_neighbours_in_the_standings():
    result = swiss_pairings([1, 2, 3, 4, 5, 6])
    assert result.pairs == ((1, 2), (3, 4), (5, 6))
    assert result.bye is None


def test_swiss_moves_down_to_avoid_a_rematch():
    result = swiss_pairings([1, 2, 3, 4], played={frozenset((1, 2))})
    assert result.pairs == ((1, 3), (2, 4))


def test_bye_goes_to_the_lowest_without_a_bye():
    result = swiss_pairings([1, 2, 3, 4, 5], byes={5: 1})
    assert result.bye == 4


def test_rating_pairs_nearest_ratings():
    result = rating_pairings({"a": 100, "b": 300, "c": 110, "d": 290})
    assert set(map(frozenset, result.pairs)) == {frozenset("bd"), frozenset("ac")}


def test_unavoidable_rematch_is_minimised():
    # Three players who have all met: with a bye, the other two must meet again.
    played = {frozenset(p) for p in combinations([1, 2, 3], 2)}
    result = pair_in_order([1, 2, 3], played=played)
    assert result.rematches == 1


def test_large_field_stays_fast():
    players = list(range(60))
    played = {frozenset((p, p + 1)) for p in range(0, 59)}
    result = swiss_pairings(players, played=played)
    assert result.rematches == 0


def test_a_bottom_group_that_has_all_met_moves_up_without_a_rematch():
    """The bottom 14 of 64 have all met each other: each of them must meet someone above, and
    a matching finds that at once (the old backtracking search took seconds for 12, then fell
    back to a pairing with 7 rematches)."""
    players = list(range(64))
    bottom = players[-14:]
    played = {frozenset(pair) for pair in combinations(bottom, 2)}
    played |= {frozenset((p, p + 1)) for p in range(0, 49, 2)}  # the top half met round 1
    result = swiss_pairings(players, played=played, points={p: 64 - p for p in players})
    assert result.rematches == 0
    assert all(not {a, b} <= set(bottom) for a, b in result.pairs)


def test_a_big_league_with_a_bottom_group_that_has_all_met():
    players = list(range(513))
    bottom = players[-15:]
    played = {frozenset(pair) for pair in combinations(bottom, 2)}
    result = swiss_pairings(players, played=played, byes=dict.fromkeys(players[:-1], 1))
    assert result.rematches == 0
    assert result.bye == players[-1]


def test_swiss_keeps_score_groups_together():
    # 1 and 2 have met; 3 has their points, 4 fewer: 1 meets 3 rather than 4.
    points = {1: 6, 2: 6, 3: 6, 4: 3, 5: 3, 6: 3}
    result = swiss_pairings([1, 2, 3, 4, 5, 6], played={frozenset((1, 2))}, points=points)
    assert (1, 3) in result.pairs and result.rematches == 0


def test_an_unavoidable_rematch_in_a_big_league_is_one_rematch():
    # The leader has met everyone, and only the last warband may have the bye.
    players = list(range(101))
    played = {frozenset((0, p)) for p in players[1:]}
    byes = dict.fromkeys(players[:-1], 1)
    result = swiss_pairings(players, played=played, byes=byes)
    assert result.rematches == 1 and result.bye == 100
    assert (0, 1) in result.pairs  # the rematch is with his nearest neighbour
