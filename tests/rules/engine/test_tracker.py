"""The battle tracker decides, from the log alone, the state and which checks are due (Reglas ›
El turno, Liderazgo y psicología)."""

import pytest

from rules.engine import Dice
from rules.engine.tracker import (
    FLEEING,
    IN_PLAY,
    KNOCKED_DOWN,
    OUT_OF_ACTION,
    STUNNED,
    TrackerError,
    fold,
    roll_check,
    rout_threshold,
    start,
)

A, B = 1, 2


def warband(side: int, size: int, *, leader_ld: int = 8, ld: int = 7, rules=None) -> dict:
    fighters = [
        {
            "id": side * 100 + n,
            "name": f"W{side}-{n}",
            "profile": {"ld": leader_ld if n == 1 else ld, "w": 1, "ws": 3, "t": 3},
            "leader": n == 1,
            "hero": n <= 2,
            "rules": (rules or {}).get(n, []),
            "equipment": ["espada", "hacha", "arco"],
        }
        for n in range(1, size + 1)
    ]
    return {"warband": side, "name": f"Banda {side}", "fighters": fighters}


def setup(size_a=12, size_b=6, **kwargs) -> dict:
    return {"scenario": "Escaramuza", "sides": [warband(A, size_a, **kwargs), warband(B, size_b)]}


class Log:
    """A log written entry by entry, as the service does (validate, roll, append)."""

    def __init__(self, setup_payload: dict) -> None:
        self.entries = [{"seq": 1, "kind": "setup", "payload": setup_payload}]
        self.state = start(setup_payload)

    def add(self, kind: str, **payload):
        seq = self.state.last_seq + 1
        self.state.append(seq, kind, payload)
        self.entries.append({"seq": seq, "kind": kind, "payload": payload})
        return self.state

    def check(self, dice: Dice, **payload):
        result = roll_check(self.state, payload, dice=dice)
        return self.add("check", **payload, result=result)

    def ooa(self, target: int, by: int | None = None):
        return self.add("status", fighter=target, status=OUT_OF_ACTION, by=by, weapon="espada")

    def turns(self, *pairs):
        for turn, side in pairs:
            self.add("turn", turn=turn, side=side)


def due(state) -> set[tuple]:
    return {(c["check"], c.get("fighter"), c["required"]) for c in state.checks_due()}


def test_rout_threshold_is_a_quarter_rounded_up():
    assert [rout_threshold(n) for n in (1, 4, 5, 6, 12, 13)] == [1, 1, 2, 2, 3, 4]


def test_twelve_warriors_test_for_rout_at_three_out_of_action():
    log = Log(setup())
    log.turns((1, A), (1, B))
    log.ooa(102, by=201)
    log.ooa(103, by=201)
    log.turns((2, A))
    assert ("rout", None, True) not in due(log.state)
    assert ("voluntary-rout", None, False) in due(log.state)  # two out: he may withdraw
    log.add("turn", turn=2, side=B)
    log.ooa(104, by=202)
    assert log.state.out_of_action_count(A) == 3
    assert log.state.checks_due() == []  # not A's turn
    log.add("turn", turn=3, side=A)
    assert ("rout", None, True) in due(log.state)


def test_rout_test_comes_first_and_cannot_be_skipped():
    log = Log(setup(size_a=4))
    log.turns((1, A), (1, B))
    log.ooa(101, by=201)
    log.add("turn", turn=2, side=A)
    with pytest.raises(TrackerError) as error:
        log.add("attack", attacker=102, target=201, mode="melee", result={"outcome": "unharmed"})
    assert error.value.code == "entry.rout_test_due"
    with pytest.raises(TrackerError) as error:
        log.add("turn", turn=2, side=B)
    assert error.value.code == "entry.checks_pending"


def test_leader_stunned_the_next_best_leadership_takes_the_rout_test():
    """El chequeo de retirada: the leader out of action or stunned → the highest L of the others
    who are neither. 104 (L10) is out of action, so 103 (L9) tests; recovery follows the test."""
    payload = setup(size_a=4)
    payload["sides"][0]["fighters"][2]["profile"]["ld"] = 9
    payload["sides"][0]["fighters"][3]["profile"]["ld"] = 10
    log = Log(payload)
    log.turns((1, A), (1, B))
    log.ooa(104, by=201)
    log.add("status", fighter=101, status=STUNNED, by=201)
    log.add("turn", turn=2, side=A)
    assert ("rout", None, True) in due(log.state)
    assert log.state.fighters[101].status == STUNNED
    log.check(Dice(faces=[5, 4]), check="rout", side=A)
    result = log.entries[-1]["payload"]["result"]
    assert result["details"]["leadership_used"] == 9
    assert result["outcome"] == "stands"
    assert log.state.fighters[101].status == KNOCKED_DOWN


def test_leader_standing_leads_the_rout_test():
    payload = setup(size_a=4)
    payload["sides"][0]["fighters"][2]["profile"]["ld"] = 9
    log = Log(payload)
    log.turns((1, A), (1, B))
    log.ooa(104, by=201)
    log.add("turn", turn=2, side=A)
    log.check(Dice(faces=[5, 4]), check="rout", side=A)
    result = log.entries[-1]["payload"]["result"]
    assert result["details"]["leadership_used"] == 8
    assert result["outcome"] == "routed"
    assert log.state.winners == [B]


def test_voluntary_rout_offered_at_two_and_ends_the_battle():
    log = Log(setup(size_a=12))
    log.turns((1, A), (1, B))
    log.ooa(102, by=201)
    log.add("turn", turn=2, side=A)
    with pytest.raises(TrackerError) as error:
        log.add("rout", side=A, voluntary=True)
    assert error.value.code == "entry.not_due"
    log.add("turn", turn=2, side=B)
    log.ooa(103, by=201)
    log.add("turn", turn=3, side=A)
    assert ("voluntary-rout", None, False) in due(log.state)
    log.add("rout", side=A, voluntary=True)
    assert log.state.ended and log.state.winners == [B]
    with pytest.raises(TrackerError):
        log.add("turn", turn=3, side=B)
    log.add("finish")
    report = log.state.report()
    assert report["winners"] == [B]
    assert report["sides"][0]["voluntary_rout"] is True
    assert [(e["actor"], e["target"], e["weapon"]) for e in report["out_of_action"]] == [
        (201, 102, "espada"),
        (201, 103, "espada"),
    ]
    assert report["heroes_out_of_action"] == [102]


def test_failed_rout_test_ends_the_battle():
    log = Log(setup(size_a=4))
    log.turns((1, A), (1, B))
    log.ooa(103, by=201)
    log.add("turn", turn=2, side=A)
    log.check(Dice(faces=[6, 6]), check="rout", side=A)
    assert log.state.routed == {A: False}
    assert log.state.ended
    assert log.state.winners == [B]


def test_recovery_phase_at_the_start_of_the_side_turn():
    log = Log(setup())
    log.turns((1, A))
    log.add("status", fighter=201, status=STUNNED, by=101)
    log.add("status", fighter=202, status=KNOCKED_DOWN, by=101)
    log.add("status", fighter=102, status=STUNNED, by=203)
    log.add("turn", turn=1, side=B)
    assert log.state.fighters[201].status == KNOCKED_DOWN
    assert log.state.fighters[202].status == IN_PLAY
    assert log.state.fighters[102].status == STUNNED  # A's recovery comes in A's turn
    log.add("turn", turn=2, side=A)
    assert log.state.fighters[102].status == KNOCKED_DOWN


def test_stupidity_due_at_turn_start_for_fighters_with_the_rule():
    log = Log(setup(size_a=4, rules={3: ["stupidity", "fear"]}))
    log.turns((1, A))
    assert {c for c in due(log.state) if c[2]} == {("stupidity", 103, True)}  # fear: optional
    with pytest.raises(TrackerError) as error:
        log.add("turn", turn=1, side=B)
    assert error.value.code == "entry.checks_pending"
    log.check(Dice(faces=[6, 6, 2]), check="stupidity", fighter=103)
    assert log.entries[-1]["payload"]["result"]["outcome"] == "moves_forward"
    with pytest.raises(TrackerError) as error:
        roll_check(log.state, {"check": "stupidity", "fighter": 103}, dice=Dice(faces=[1, 1]))
    assert error.value.code == "entry.check_not_due"
    log.add("turn", turn=1, side=B)


def test_all_alone_flees_then_rally_is_due():
    log = Log(setup())
    log.turns((1, A))
    with pytest.raises(TrackerError) as error:
        roll_check(
            log.state,
            {"check": "all-alone", "fighter": 102, "params": {"enemies": 1}},
            dice=Dice(faces=[1, 1]),
        )
    assert error.value.code == "entry.check_not_due"
    log.check(
        Dice(faces=[6, 6, 1, 2, 3, 4, 5]),
        check="all-alone",
        fighter=102,
        params={"enemies": 2},
    )
    assert log.state.fighters[102].status == FLEEING
    assert log.entries[-1]["payload"]["result"]["details"]["flee_cm"] == 15
    log.add("turn", turn=1, side=B)
    log.add("turn", turn=2, side=A)
    assert ("rally", 102, True) in due(log.state)
    log.check(Dice(faces=[6, 5, 1, 1, 1, 1, 1]), check="rally", fighter=102)
    result = log.entries[-1]["payload"]["result"]
    assert result["outcome"] == "keeps_fleeing" and result["details"]["flee_cm"] == 5
    assert log.state.fighters[102].status == FLEEING
    log.add("turn", turn=2, side=B)
    log.add("turn", turn=3, side=A)
    log.check(Dice(faces=[2, 2]), check="rally", fighter=102)
    assert log.state.fighters[102].status == IN_PLAY


def test_fear_only_against_a_fear_causing_enemy():
    payload = setup(size_a=4)
    payload["sides"][1]["fighters"][0]["rules"] = ["fear"]
    log = Log(payload)
    log.turns((1, A))
    with pytest.raises(TrackerError) as error:
        roll_check(
            log.state, {"check": "fear", "fighter": 101, "against": 202}, dice=Dice(faces=[1, 1])
        )
    assert error.value.code == "entry.check_not_due"
    log.check(
        Dice(faces=[6, 6]), check="fear", fighter=101, against=201, params={"situation": "charging"}
    )
    assert log.entries[-1]["payload"]["result"]["outcome"] == "cannot_charge"


@pytest.mark.parametrize(
    ("kind", "payload", "code"),
    [
        (
            "attack",
            {"attacker": 999, "target": 201, "result": {"outcome": "unharmed"}},
            "entry.unknown_fighter",
        ),
        (
            "attack",
            {"attacker": 102, "target": 201, "result": {"outcome": "unharmed"}},
            "entry.out_of_action",
        ),
        ("status", {"fighter": 102, "status": "stunned"}, "entry.out_of_action"),
        ("turn", {"turn": 3, "side": A}, "entry.turn_order"),
        ("turn", {"turn": 1, "side": A}, "entry.turn_order"),
        (
            "check",
            {"check": "rout", "side": A, "result": {"outcome": "stands"}},
            "entry.check_not_due",
        ),
        (
            "attack",
            {"attacker": 103, "target": 104, "result": {"outcome": "stunned"}},
            "entry.same_side",
        ),
        ("kaboom", {}, "entry.kind"),
    ],
)
def test_bad_entries_are_refused_and_change_nothing(kind, payload, code):
    log = Log(setup())
    log.turns((1, A), (1, B))
    log.ooa(102, by=201)
    log.add("turn", turn=2, side=A)
    before = log.state.to_dict()
    with pytest.raises(TrackerError) as error:
        log.state.validate(kind, payload)
    assert error.value.code == code
    assert log.state.to_dict() == before


def test_attack_results_change_state_and_wounds():
    payload = setup(size_a=4)
    payload["sides"][1]["fighters"][0]["profile"]["w"] = 2
    log = Log(payload)
    log.turns((1, A))
    log.add(
        "attack",
        attacker=101,
        target=201,
        mode="melee",
        weapon="espada",
        result={"outcome": "wounded", "wounds_lost": 1},
    )
    assert log.state.fighters[201].wounds == 1
    with pytest.raises(TrackerError) as error:  # only a weapon he carries
        log.state.validate("attack", {"attacker": 102, "target": 201, "weapon": "alabarda"})
    assert (error.value.code, error.value.field) == ("entry.invalid", "weapon")
    log.add(
        "attack",
        attacker=102,
        target=201,
        mode="melee",
        weapon="hacha",
        result={"outcome": "out_of_action", "wounds_lost": 1},
    )
    assert log.state.fighters[201].status == OUT_OF_ACTION
    assert log.state.out_of_action[0].actor == 102
    assert log.state.out_of_action[0].weapon == "hacha"
    with pytest.raises(TrackerError) as error:
        log.add("attack", attacker=201, target=101, mode="melee", result={"outcome": "stunned"})
    assert error.value.code == "entry.out_of_action"
    with pytest.raises(TrackerError) as error:
        log.add("attack", attacker=202, target=101, mode="shooting", result={"outcome": "stunned"})
    assert error.value.code == "entry.not_your_turn"


def test_the_fold_replays_the_log_to_the_same_state():
    log = Log(setup())
    log.turns((1, A))
    log.add("status", fighter=201, status=STUNNED, by=101)
    log.add("attack", attacker=102, target=202, result={"outcome": "out_of_action"})
    log.add("note", text="Niebla en el puente")
    assert fold(log.entries).to_dict() == log.state.to_dict()


def test_a_correction_replaces_an_earlier_entry_and_the_log_is_refolded():
    log = Log(setup(size_a=4))
    log.turns((1, A), (1, B))
    log.ooa(103, by=201)  # seq 4: a mistake, he was only stunned
    log.add("turn", turn=2, side=A)
    assert ("rout", None, True) in due(log.state)
    log.add(
        "correction",
        corrects=4,
        replacement={"fighter": 103, "status": STUNNED, "by": 201},
    )
    assert log.state.fighters[103].status == KNOCKED_DOWN  # stunned, then recovered in turn 2
    assert log.state.checks_due() == []
    assert log.state.corrected == {4: 6}
    assert fold(log.entries).to_dict() == log.state.to_dict()
    with pytest.raises(TrackerError) as error:
        log.state.validate("correction", {"corrects": 4})
    assert error.value.code == "entry.not_correctable"


def test_a_correction_that_breaks_a_later_entry_is_refused():
    log = Log(setup(size_a=4))
    log.turns((1, A), (1, B))
    log.ooa(103, by=201)  # seq 4
    log.add("turn", turn=2, side=A)
    log.check(Dice(faces=[1, 1]), check="rout", side=A)  # seq 6: due because of seq 4
    with pytest.raises(TrackerError) as error:
        log.state.validate("correction", {"corrects": 4})
    assert error.value.code == "entry.bad_correction"
