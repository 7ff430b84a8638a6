import json
import random

import pytest
from hypothesis import given, settings
from hypothesis import strategies as st

from rules.engine import Dice, DiceError, parse_expression
from rules.engine.dice import MAX_DICE


@pytest.mark.parametrize(
    ("expression", "count", "sides", "canonical"),
    [
        ("D6", 1, 6, "D6"),
        ("d6", 1, 6, "D6"),
        ("1D6", 1, 6, "D6"),
        ("2D6", 2, 6, "2D6"),
        ("5D6", 5, 6, "5D6"),
        ("8D6", 8, 6, "8D6"),
        ("D3", 1, 3, "D3"),
        ("D66", 1, 66, "D66"),
        (" 3 D 6 ", 3, 6, "3D6"),
        ("100D6", 100, 6, "100D6"),
    ],
)
def test_parse_valid_expressions(expression, count, sides, canonical):
    spec = parse_expression(expression)
    assert (spec.count, spec.sides, spec.expression) == (count, sides, canonical)


@pytest.mark.parametrize(
    "expression", ["5D", "D0", "0D6", "D7x", "D7", "2D66", "101D6", "", "D", "6", "2D6+1", "-1D6"]
)
def test_parse_rejects_bad_expressions(expression):
    with pytest.raises(DiceError):
        parse_expression(expression)


def test_parse_rejects_non_text():
    with pytest.raises(DiceError):
        parse_expression(6)


def test_dice_error_is_value_error_with_template_and_params():
    with pytest.raises(ValueError) as info:
        parse_expression("D7x")
    error = info.value
    assert error.code == "dice.expression"
    assert error.params == {"expression": "D7x"}
    assert "%(expression)s" in error.template
    assert error.to_dict()["params"]["expression"] == "D7x"


def test_seeded_dice_record_every_roll():
    dice = Dice(42)
    two = dice.roll("2D6", "leadership test")
    d66 = dice.roll("D66", "serious injury")
    d3 = dice.roll("D3", "falling hits")
    assert dice.seed == 42
    assert [roll.expression for roll in dice.record] == ["2D6", "D66", "D3"]
    assert two.total == sum(two.faces) and len(two.faces) == 2
    assert d66.total == d66.faces[0] * 10 + d66.faces[1]
    assert 1 <= d3.total <= 3
    assert dice.record[0].purpose == "leadership test"
    assert [roll.index for roll in dice.record] == [0, 1, 2]


def test_seed_matches_random_random_sequence():
    rng = random.Random(7)
    expected = [rng.randint(1, 6) for _ in range(5)]
    dice = Dice(7)
    assert dice.roll("5D6").faces == tuple(expected)


def test_dice_without_seed_pick_and_expose_one():
    dice = Dice()
    assert isinstance(dice.seed, int) and 0 <= dice.seed < 2**31
    first = dice.roll("5D6").faces
    assert Dice(dice.seed).roll("5D6").faces == first


def test_given_faces_are_consumed_in_order():
    dice = Dice(faces=[3, 4, 1, 6, 2])
    assert dice.seed is None
    assert dice.roll("2D6").faces == (3, 4)
    assert dice.roll("D66").total == 16
    assert dice.roll("D3").total == 2
    assert dice.remaining_faces == 0


def test_given_faces_running_out_raise():
    dice = Dice(faces=[3])
    dice.roll("D6")
    with pytest.raises(DiceError, match="ran out"):
        dice.roll("D6", "injury")


@pytest.mark.parametrize(("expression", "face"), [("D6", 7), ("D6", 0), ("D3", 4), ("D66", 7)])
def test_given_face_outside_the_die_raises(expression, face):
    with pytest.raises(DiceError, match="cannot show"):
        Dice(faces=[face, 1]).roll(expression)


@pytest.mark.parametrize("bad", [[1.5], ["3"], [True]])
def test_given_faces_must_be_integers(bad):
    with pytest.raises(DiceError):
        Dice(faces=bad)


@pytest.mark.parametrize("seed", [-1, 1.5, "7", True])
def test_bad_seeds_are_refused(seed):
    with pytest.raises(DiceError):
        Dice(seed)


def test_seed_and_faces_together_are_refused():
    with pytest.raises(DiceError):
        Dice(1, faces=[1])


def test_reroll_rerolls_all_dice_of_a_sum_once_and_is_marked():
    dice = Dice(faces=[6, 5, 1, 2])
    first = dice.roll("2D6", "leadership test")
    second = dice.reroll(first)
    assert second.faces == (1, 2) and second.total == 3
    assert second.reroll_of == first.index and second.is_reroll
    assert second.purpose == "leadership test"
    with pytest.raises(DiceError, match="more than once"):
        dice.reroll(first)
    with pytest.raises(DiceError, match="more than once"):
        dice.reroll(second)


def test_reroll_of_a_foreign_roll_is_refused():
    other = Dice(1).roll("D6")
    with pytest.raises(DiceError):
        Dice(2).reroll(other)


def test_roll_to_dict_is_json():
    dice = Dice(faces=[2, 5])
    dice.roll("2D6", "rally")
    data = json.loads(json.dumps(dice.to_dict()))
    assert data == {
        "seed": None,
        "source": "faces",
        "record": [
            {
                "index": 0,
                "expression": "2D6",
                "faces": [2, 5],
                "total": 7,
                "purpose": "rally",
                "reroll_of": None,
            }
        ],
    }


def test_roll_is_frozen():
    roll = Dice(1).roll("D6")
    with pytest.raises(AttributeError):
        roll.total = 3


@settings(max_examples=50, deadline=None)
@given(
    seed=st.integers(0, 2**31 - 1),
    expressions=st.lists(
        st.sampled_from(["D6", "2D6", "D3", "D66", "5D6"]), min_size=1, max_size=8
    ),
)
def test_same_seed_replays_identically(seed, expressions):
    first = Dice(seed)
    second = Dice(seed)
    a = [first.roll(expression).faces for expression in expressions]
    b = [second.roll(expression).faces for expression in expressions]
    assert a == b


@settings(max_examples=50, deadline=None)
@given(
    seed=st.integers(0, 2**31 - 1),
    expressions=st.lists(
        st.sampled_from(["D6", "2D6", "D3", "D66", "8D6"]), min_size=1, max_size=8
    ),
)
def test_given_faces_reproduce_a_seeded_run(seed, expressions):
    seeded = Dice(seed)
    totals = [seeded.roll(expression).total for expression in expressions]
    replay = Dice.replay(seeded.record)
    assert [replay.roll(expression).total for expression in expressions] == totals
    typed = Dice(faces=seeded.faces_used())
    assert [typed.roll(expression).total for expression in expressions] == totals


@settings(max_examples=30, deadline=None)
@given(count=st.integers(1, MAX_DICE), seed=st.integers(0, 10**6))
def test_totals_stay_within_bounds(count, seed):
    roll = Dice(seed).roll(f"{count}D6")
    assert count <= roll.total <= 6 * count
