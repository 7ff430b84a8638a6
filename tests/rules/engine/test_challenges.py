import pytest

from rules.engine import (
    Dice,
    SpecError,
    challenge_allowed,
    challenge_overkill,
    killing_blow_wounds,
    leadership_test,
    refuse_challenge,
)


def test_only_engaged_heroes_may_challenge_when_the_rule_is_on():
    assert (
        challenge_allowed(rule_enabled=True, is_hero=True, in_base_contact=True).outcome
        == "allowed"
    )
    refused = challenge_allowed(
        rule_enabled=False, is_hero=False, in_base_contact=False, challenge_in_progress=True
    )
    assert refused.details["reasons"] == [
        "rule_disabled",
        "not_a_hero",
        "not_in_base_contact",
        "challenge_in_progress",
    ]


def test_the_active_player_decides_first():
    waiting = challenge_allowed(
        rule_enabled=True, is_hero=True, in_base_contact=True, active_player=False
    )
    assert waiting.details["reasons"] == ["active_player_first"]
    after = challenge_allowed(
        rule_enabled=True,
        is_hero=True,
        in_base_contact=True,
        active_player=False,
        active_player_declined=True,
    )
    assert after.passed is True


def test_refusing_a_challenge():
    result = refuse_challenge()
    assert result.details == {"may_fight": False, "leadership_usable": False, "lasts": "this_turn"}
    assert refuse_challenge(can_step_back=False).outcome == "must_accept"
    # his side may not use his Leadership this turn
    test = leadership_test(
        leadership=6,
        leader_leadership=9,
        leader_distance_cm=5,
        leader_refused_challenge=True,
        dice=Dice(faces=[4, 4]),
    )
    assert test.details["leadership_used"] == 6


@pytest.mark.parametrize(
    ("caused", "left", "inflicted", "bonus"),
    [(5, 2, 2, 3), (1, 2, 1, 0), (10, 1, 1, 5), (0, 1, 0, 0)],
)
def test_acobardamiento(caused, left, inflicted, bonus):
    result = challenge_overkill(wounds_caused=caused, wounds_remaining=left)
    assert result.details["inflicted"] == inflicted
    assert result.details["combat_resolution_bonus"] == bonus


def test_killing_blow_ordering():
    result = killing_blow_wounds(unsaved=[False, True, True, False], wounds_remaining=3)
    assert result.details == {"inflicted": 3, "excess": 3, "combat_resolution_bonus": 3}
    plain = killing_blow_wounds(unsaved=[False, False, False], wounds_remaining=2)
    assert plain.details == {"inflicted": 2, "excess": 1, "combat_resolution_bonus": 1}
    with pytest.raises(SpecError):
        killing_blow_wounds(unsaved=[1], wounds_remaining=1)
