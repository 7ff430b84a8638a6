"""Nothing decisive by accident: the entry that finished a battle (a failed rout test, a
voluntary rout, the players' finish) can be struck out while the report waits for the
opponent; it voids the automatic finish with it and the battle goes on (Reglas › Retirada)."""

import pytest

from rules.engine import Dice
from rules.engine.tracker import IN_PLAY, OUT_OF_ACTION, TrackerError, decisive_of, fold
from tests.rules.engine.test_tracker import A, B, Log, setup


def finished_by_rout_test() -> Log:
    """Four warriors a side; one out of action, the rout test failed (seq 6), the automatic
    finish after it (seq 7), as the service writes it."""
    log = Log(setup(size_a=4))
    log.turns((1, A), (1, B))
    log.ooa(103, by=201)  # seq 4
    log.add("turn", turn=2, side=A)  # seq 5
    log.check(Dice(faces=[6, 6]), check="rout", side=A)  # seq 6
    log.add("finish", **log.state.finish_due())  # seq 7
    return log


def test_the_rout_test_that_finished_the_battle_is_its_decisive_entry():
    log = finished_by_rout_test()
    assert log.state.finished and log.state.winners == [B]
    assert log.state.decisive_seq() == 6
    assert fold(log.entries).decisive_seq() == 6


def test_striking_out_the_failed_rout_test_voids_the_automatic_finish_and_reopens():
    log = finished_by_rout_test()
    log.add("correction", corrects=6)  # seq 8
    state = log.state
    assert not state.finished and not state.ended
    assert state.winners == [] and state.routed == {}
    assert state.corrected == {6: 8, 7: 8}
    assert state.decisive_seq() is None
    # The rout test is due again, and the battle takes entries again.
    assert any(c["check"] == "rout" and c["required"] for c in state.checks_due())
    log.check(Dice(faces=[1, 2]), check="rout", side=A)  # seq 9: passed this time
    assert not log.state.ended
    log.add("status", fighter=201, status=OUT_OF_ACTION, by=101)
    # Folding the same log again gives the same state (corrections fold deterministically).
    assert fold(log.entries).to_dict() == log.state.to_dict()


def test_a_replacement_of_the_decisive_entry_voids_the_automatic_finish_too():
    log = finished_by_rout_test()
    rolled = log.entries[5]["payload"]["result"]
    passed = {**rolled, "outcome": "passed", "total": 3, "faces": [1, 2]}
    log.add("correction", corrects=6, replacement={"check": "rout", "side": A, "result": passed})
    assert not log.state.finished
    assert log.state.corrected == {6: 8, 7: 8}
    assert log.state.finish_due() is None


def test_striking_out_a_voluntary_rout_reopens_the_battle():
    log = Log(setup(size_a=12))
    log.turns((1, A), (1, B))
    log.ooa(102, by=201)
    log.ooa(103, by=201)
    log.add("turn", turn=2, side=A)  # seq 6
    log.add("rout", side=A, voluntary=True)  # seq 7
    log.add("finish", **log.state.finish_due())  # seq 8
    log.add("note", text="Se retiran")  # seq 9: notes after the finish change nothing
    assert log.state.decisive_seq() == 7
    log.add("correction", corrects=7)
    assert not log.state.finished and log.state.routed == {}
    assert log.state.corrected == {7: 10, 8: 10}
    assert log.state.fighters[101].status == IN_PLAY
    log.add("status", fighter=201, status=OUT_OF_ACTION, by=101)  # the battle goes on


def test_the_players_finish_is_the_decisive_entry_and_only_struck_out():
    log = Log(setup())
    log.turns((1, A), (1, B))
    log.add("finish", winner=A, reason="agreed")  # seq 4
    assert log.state.decisive_seq() == 4
    with pytest.raises(TrackerError) as error:
        log.state.validate("correction", {"corrects": 4, "replacement": {"winner": B}})
    assert error.value.code == "entry.bad_correction"
    log.add("correction", corrects=4)
    assert not log.state.finished and log.state.winners == []
    assert log.state.corrected == {4: 5}
    log.add("turn", turn=2, side=A)
    assert log.state.turn == 2


def test_other_corrections_of_a_finished_battle_stay_refused():
    log = finished_by_rout_test()
    for seq in (4, 5):
        with pytest.raises(TrackerError) as error:
            log.state.validate("correction", {"corrects": seq})
        assert error.value.code == "entry.finished"
        assert "dispute the report" in error.value.template
    with pytest.raises(TrackerError) as error:  # the automatic finish itself is not an entry
        log.state.validate("correction", {"corrects": 7})
    assert error.value.code == "entry.not_correctable"


def test_the_struck_out_decisive_entry_is_not_struck_twice():
    log = finished_by_rout_test()
    log.add("correction", corrects=6)
    with pytest.raises(TrackerError) as error:
        log.state.validate("correction", {"corrects": 6})
    assert error.value.code == "entry.not_correctable"


def test_a_finish_that_followed_a_correction_has_no_decisive_entry():
    entries = [
        (5, "turn", {"turn": 2, "side": A}),
        (6, "correction", {"corrects": 4}),
        (7, "finish", {"reason": "rout", "automatic": True}),
    ]
    assert decisive_of(entries, {4: 6}) is None
    assert decisive_of([*entries[:1], entries[2]], {}) == 5
    assert decisive_of(entries[:1], {}) is None
