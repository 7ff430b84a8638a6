"""Fear, all alone and charged while fleeing (Reglas › Liderazgo y psicología): the tracker
offers each when the log shows it may be due; the table confirms what it alone sees."""

import pytest

from rules.engine import Dice
from rules.engine.tracker import FLEEING, IN_PLAY, TrackerError, fold, roll_check
from tests.rules.engine.test_tracker import A, B, Log, setup


def prompts(state, check: str) -> list[dict]:
    return [c for c in state.checks_due() if c["check"] == check]


def melee(log: Log, attacker: int, target: int, outcome: str = "unharmed"):
    return log.add(
        "attack", attacker=attacker, target=target, mode="melee", result={"outcome": outcome}
    )


def test_all_alone_is_offered_once_he_fights_two_enemies():
    log = Log(setup(size_a=4, size_b=4))
    log.turns((1, A))
    melee(log, 201, 101)
    assert prompts(log.state, "all-alone") == []  # one enemy: not alone
    log.add("attack", attacker=102, target=202, mode="shooting", result={"outcome": "unharmed"})
    assert prompts(log.state, "all-alone") == []  # shooting is not a fight hand to hand
    melee(log, 101, 202)
    assert prompts(log.state, "all-alone") == [
        {"check": "all-alone", "side": A, "fighter": 101, "enemies": [201, 202], "required": False}
    ]
    # Optional: the table knows whether a friend stands within 15 cm; the turn may go on.
    log.add("turn", turn=1, side=B)
    assert prompts(log.state, "all-alone") == []  # a new combat phase


def test_all_alone_from_the_prompt_rolls_with_the_enemies_of_the_log():
    log = Log(setup(size_a=4, size_b=4))
    log.turns((1, A))
    melee(log, 201, 101)
    log.add("status", fighter=202, status="knocked_down", by=101)  # a blow logged by hand
    assert [c["enemies"] for c in prompts(log.state, "all-alone")] == [[201, 202]]
    log.check(Dice(faces=[6, 5, 1, 1, 1, 1, 2]), check="all-alone", fighter=101)
    result = log.entries[-1]["payload"]["result"]
    assert result["outcome"] == "flees"
    assert result["details"] == {"automatic_hits": 2, "flee_cm": 6}
    assert log.state.fighters[101].status == FLEEING
    assert prompts(log.state, "all-alone") == []


def test_all_alone_is_not_offered_against_enemies_out_of_the_fight():
    log = Log(setup(size_a=4, size_b=4))
    log.turns((1, A))
    melee(log, 101, 201, outcome="out_of_action")
    melee(log, 202, 101)
    assert prompts(log.state, "all-alone") == []
    with pytest.raises(TrackerError) as error:
        log.state.validate("check", {"check": "all-alone", "fighter": 101})
    assert error.value.code == "entry.check_not_due"
    # The table saw more than the log: it may say how many he fights.
    log.check(Dice(faces=[1, 1]), check="all-alone", fighter=101, params={"enemies": 3})
    assert log.entries[-1]["payload"]["result"]["outcome"] == "holds"


def test_a_fleeing_warrior_may_be_charged_by_the_side_to_move():
    log = Log(setup(size_a=4, size_b=4))
    log.turns((1, A))
    melee(log, 201, 101)
    melee(log, 202, 101)
    log.check(Dice(faces=[6, 6, 1, 1, 1, 1, 1]), check="all-alone", fighter=101)
    assert log.state.fighters[101].status == FLEEING
    assert prompts(log.state, "charged-while-fleeing") == []  # his own side moves
    with pytest.raises(TrackerError) as error:
        log.state.validate("check", {"check": "charged-while-fleeing", "fighter": 101})
    assert error.value.code == "entry.check_not_due"
    log.add("turn", turn=1, side=B)
    assert prompts(log.state, "charged-while-fleeing") == [
        {"check": "charged-while-fleeing", "side": A, "fighter": 101, "required": False}
    ]
    log.check(Dice(faces=[6, 6, 6, 6, 6]), check="charged-while-fleeing", fighter=101)
    assert log.entries[-1]["payload"]["result"]["details"]["flee_cm"] == 30
    assert log.state.fighters[101].status == FLEEING
    assert prompts(log.state, "charged-while-fleeing") == []


def test_fear_is_offered_against_an_enemy_that_causes_it():
    payload = setup(size_a=3, size_b=3)
    payload["sides"][1]["fighters"][0]["rules"] = ["fear"]
    payload["sides"][0]["fighters"][2]["rules"] = ["immune-fear"]
    log = Log(payload)
    log.turns((1, A))
    # A moves: whoever of A wants to charge the fear-causing 201 tests (103 is immune).
    assert prompts(log.state, "fear") == [
        {
            "check": "fear",
            "side": A,
            "against": 201,
            "fighters": [101, 102],
            "situation": "charging",
            "required": False,
        }
    ]
    log.check(Dice(faces=[6, 6]), check="fear", fighter=102, against=201)
    assert log.entries[-1]["payload"]["result"]["outcome"] == "cannot_charge"
    assert prompts(log.state, "fear")[0]["fighters"] == [101]
    log.add("turn", turn=1, side=B)
    # B moves: 201 charges; those he charges test, knocked down or not.
    log.add("status", fighter=101, status="knocked_down", by=202)
    (fear,) = prompts(log.state, "fear")
    assert (fear["situation"], fear["fighters"]) == ("charged", [101, 102])
    log.check(Dice(faces=[6, 5]), check="fear", fighter=101, against=201)
    assert log.entries[-1]["payload"]["result"]["outcome"] == "hits_only_on_6"


def test_no_fear_prompt_once_the_fear_causer_is_out_of_action():
    payload = setup(size_a=3, size_b=3)
    payload["sides"][1]["fighters"][1]["rules"] = ["fear"]
    log = Log(payload)
    log.turns((1, A))
    assert prompts(log.state, "fear")
    log.ooa(202, by=101)
    assert prompts(log.state, "fear") == []


def test_optional_prompts_wait_for_the_rout_test():
    payload = setup(size_a=4, size_b=4)
    payload["sides"][1]["fighters"][1]["rules"] = ["fear"]
    log = Log(payload)
    log.turns((1, A), (1, B))
    log.ooa(101, by=201)
    log.add("turn", turn=2, side=A)
    assert [c["check"] for c in log.state.checks_due()] == ["rout"]
    log.check(Dice(faces=[1, 1]), check="rout", side=A)
    assert [c["check"] for c in log.state.checks_due()] == ["fear"]


def test_flight_is_5d6_whatever_the_movement():
    """Solo ante el peligro: "corre otros 5D6 centímetros" after a failed rally or when charged
    while fleeing — not the mass battle's 8D6 above M 15 cm."""
    payload = setup(size_a=4, size_b=4)
    payload["sides"][0]["fighters"][1]["profile"]["m"] = 25
    log = Log(payload)
    log.turns((1, A))
    melee(log, 201, 102)
    melee(log, 202, 102)
    log.check(Dice(faces=[6, 6, 1, 1, 1, 1, 1]), check="all-alone", fighter=102)
    log.turns((1, B), (2, A))
    faces = [6, 6, 2, 2, 2, 2, 2, 6, 6, 6]
    log.check(Dice(faces=faces), check="rally", fighter=102)
    result = log.entries[-1]["payload"]["result"]
    assert result["outcome"] == "keeps_fleeing"
    assert result["details"]["flee_cm"] == 10  # five dice, not eight
    log.add("turn", turn=2, side=B)
    dice = Dice(faces=[3, 3, 3, 3, 3, 6, 6, 6])
    result = roll_check(log.state, {"check": "charged-while-fleeing", "fighter": 102}, dice=dice)
    assert result["details"]["flee_cm"] == 15
    assert len(result["rolls"][0]["faces"]) == 5


def test_the_fold_replays_the_prompts():
    payload = setup(size_a=4, size_b=4)
    payload["sides"][1]["fighters"][0]["rules"] = ["fear"]
    log = Log(payload)
    log.turns((1, A))
    melee(log, 201, 101)
    melee(log, 202, 101)
    log.check(Dice(faces=[1, 2]), check="fear", fighter=102, against=201)
    state = fold(log.entries)
    assert state.checks_due() == log.state.checks_due()
    assert {c["check"] for c in state.checks_due()} == {"all-alone", "fear"}
    assert state.fighters[101].status == IN_PLAY
