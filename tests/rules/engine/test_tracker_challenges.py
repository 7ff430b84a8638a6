"""Challenges (Personajes y combate › Desafíos) in the battle log, and the finish a rout writes
by itself."""

import pytest

from rules.engine import Dice
from rules.engine.tracker import OUT_OF_ACTION, TrackerError, resolve_challenge, roll_check
from tests.rules.engine.test_tracker import A, B, Log, setup


def challenge_log(**kwargs) -> Log:
    payload = setup(size_a=4, size_b=4, **kwargs)
    payload["optional_rules"] = ["challenges"]
    log = Log(payload)
    log.turns((1, A))
    return log


def refused(log: Log, kind: str, **payload) -> TrackerError:
    before = log.state.to_dict()
    with pytest.raises(TrackerError) as error:
        log.state.validate(kind, payload)
    assert log.state.to_dict() == before
    return error.value


def test_challenges_are_refused_when_the_campaign_does_not_use_them():
    log = Log(setup(size_a=4, size_b=4))
    log.turns((1, A))
    error = refused(log, "challenge", step="issue", fighter=101)
    assert (error.code, error.field) == ("entry.challenges_off", "kind")


def test_only_heroes_challenge_and_the_active_player_decides_first():
    log = challenge_log()
    assert refused(log, "challenge", step="issue", fighter=103).code == (
        "entry.challenge_not_allowed"
    )  # 103 is a henchman
    error = refused(log, "challenge", step="issue", fighter=201)
    assert "active_player_first" in str(error)
    result = resolve_challenge(
        log.state,
        {"step": "issue", "fighter": 201, "params": {"active_player_declined": True}},
    )
    assert result.outcome == "allowed"


def test_an_accepted_challenge_is_a_duel_nobody_else_joins():
    log = challenge_log()
    log.add("challenge", step="issue", fighter=101)
    assert [c["check"] for c in log.state.checks_due()] == ["challenge"]
    assert refused(log, "turn", turn=1, side=B).code == "entry.checks_pending"
    log.add("challenge", step="accept", fighter=202)
    assert log.state.to_dict()["duels"][0] == {
        "seq": 3,
        "challenger": 101,
        "side": A,
        "challenged": 202,
        "status": "accepted",
    }
    # Nobody else attacks the duellists, and they fight each other only.
    error = refused(log, "attack", attacker=102, target=202)
    assert (error.code, error.field) == ("entry.in_challenge", "target")
    assert refused(log, "attack", attacker=101, target=201).code == "entry.in_challenge"
    assert refused(log, "challenge", step="issue", fighter=101).code == (
        "entry.challenge_not_allowed"
    )  # one challenge at a time
    log.add("attack", attacker=101, target=202, result={"outcome": OUT_OF_ACTION})
    assert log.state.to_dict()["duels"][0]["status"] == "over"
    log.add("attack", attacker=102, target=201, result={"outcome": "stunned"})


def test_a_refused_challenge_keeps_the_hero_out_of_the_fight_and_his_leadership_unused():
    log = challenge_log()
    log.add("challenge", step="issue", fighter=102)
    error = refused(log, "challenge", step="refuse", fighter=201, params={"can_step_back": False})
    assert (error.code, error.field) == ("entry.must_accept", "params.can_step_back")
    log.add("challenge", step="refuse", fighter=201)
    assert log.state.to_dict()["refused_challenge"] == [201]
    error = refused(log, "status", fighter=101, status="stunned", by=201)
    assert (error.code, error.field) == ("entry.refused_challenge", "by")
    log.add("status", fighter=101, status="stunned", by=202)
    # Next turn the refusal is over.
    log.turns((1, B))
    log.add("status", fighter=102, status="stunned", by=201)


def test_a_leader_who_refused_lends_no_leadership_this_turn():
    log = challenge_log(rules={3: ["fear"]})
    fear = {"check": "fear", "fighter": 203, "against": 103, "params": {"leader_distance_cm": 5}}
    lent = roll_check(log.state, fear, dice=Dice(faces=[3, 3]))
    assert lent["details"]["leadership_used"] == 8  # B's leader, L8, within 15 cm
    log.add("challenge", step="issue", fighter=102)
    log.add("challenge", step="refuse", fighter=201)  # B's leader
    alone = roll_check(log.state, fear, dice=Dice(faces=[3, 3]))
    assert alone["details"]["leadership_used"] == 7


def test_a_failed_rout_test_or_a_voluntary_rout_calls_for_the_finish():
    log = Log(setup(size_a=4, size_b=4))
    log.turns((1, A), (1, B))
    assert log.state.finish_due() is None
    log.ooa(101, by=201)
    log.ooa(102, by=201)
    log.turns((2, A))
    log.check(Dice(faces=[6, 6]), check="rout", side=A)
    assert log.state.finish_due() == {"reason": "rout", "automatic": True}
    log.add("finish", **log.state.finish_due())
    assert log.state.finished and log.state.winners == [B]
    assert log.state.finish_due() is None

    log = Log(setup(size_a=4, size_b=4))
    log.turns((1, A), (1, B))
    log.ooa(103, by=201)
    log.ooa(104, by=201)
    log.turns((2, A))
    log.check(Dice(faces=[1, 1]), check="rout", side=A)
    log.add("rout", side=A)
    assert log.state.finish_due() == {"reason": "voluntary-rout", "automatic": True}
