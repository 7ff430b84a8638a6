"""Challenges (Personajes y combate › Desafíos) in the log where the campaign uses them, issued
in a combat before its blows; a rout finishes the battle."""

from __future__ import annotations

import pytest

from battles.models import Battle, BattleLogEntry
from tests.battles.factories import first_battle
from tests.battles.test_battlelog_api import Table, uid

pytestmark = pytest.mark.django_db


def set_up(league) -> Table:
    table = Table(league, first_battle(league))
    response = table.phone_a.post(
        f"{table.url}setup/", {"client_id": uid(), "first": table.a.pk}, format="json"
    )
    assert response.status_code == 201, response.json()
    table.post(table.phone_a, "turn", payload={"turn": 1, "side": table.a.pk})
    return table


def test_a_campaign_without_challenges_refuses_them(make_league):
    table = set_up(make_league(henchmen=3))
    leader = table.fighters(table.a)[0]
    before = table.state()
    error = table.post(
        table.phone_a, "challenge", expect=400, payload={"step": "issue", "fighter": leader}
    )["error"]
    assert "payload.kind" in error["fields"] and "desafíos" in error["message"]
    assert table.state() == before


def test_a_challenge_issued_accepted_and_fought_to_the_end(make_league):
    table = set_up(make_league(henchmen=3, optional_rules=["challenges"]))
    a, b = table.fighters(table.a), table.fighters(table.b)
    assert table.state()["challenges"] is True
    # A hero out of any fight may not challenge anyone.
    table.post(table.phone_a, "challenge", expect=400, payload={"step": "issue", "fighter": a[0]})
    # A's leader charges B's leader and a henchman; another of A's joins against B's leader.
    table.post(table.phone_a, "charge", payload={"charger": a[0], "targets": [b[0], b[1]]})
    table.post(table.phone_a, "charge", payload={"charger": a[1], "targets": [b[0]]})
    issued = table.post(table.phone_a, "challenge", payload={"step": "issue", "fighter": a[0]})
    assert issued["payload"]["result"]["outcome"] == "allowed"
    due = table.state()["checks_due"]
    assert {
        "check": "challenge",
        "side": table.a.pk,
        "fighter": a[0],
        "issued": issued["seq"],
        "required": True,
    } in due
    # No blow before the answer; a henchman cannot answer it; the enemy leader accepts.
    table.post(table.phone_a, "close-combat", expect=400, payload={"fighter": a[0]}, seed=1)
    table.post(table.phone_b, "challenge", expect=400, payload={"step": "accept", "fighter": b[1]})
    table.post(table.phone_b, "challenge", payload={"step": "accept", "fighter": b[0]})
    duel = table.state()["duels"][0]
    assert (duel["challenger"], duel["challenged"], duel["status"]) == (a[0], b[0], "accepted")
    # Nobody else attacks a duellist: 400 and nothing written.
    count = BattleLogEntry.objects.filter(battle=table.battle).count()
    error = table.post(
        table.phone_a,
        "close-combat",
        expect=400,
        payload={"fighter": a[0], "blows": [{"attacker": a[1], "target": b[0]}]},
    )["error"]
    assert "payload.blows" in error["fields"]
    assert BattleLogEntry.objects.filter(battle=table.battle).count() == count
    # The duellists fight each other only; the others in the fight have nobody to strike.
    fight = table.post(table.phone_a, "close-combat", payload={"fighter": a[0]}, seed=2)
    blows = fight["payload"]["result"]["blows"]
    assert {(blow["attacker"], blow["target"]) for blow in blows} <= {(a[0], b[0]), (b[0], a[0])}
    duel_blow = next(blow for blow in blows if blow["attacker"] == a[0])
    details = duel_blow["challenge"]["details"]
    assert details["combat_resolution_bonus"] == min(5, details["excess"])


def test_a_refused_challenge_keeps_the_hero_out_of_the_fight_this_turn(make_league):
    table = set_up(make_league(henchmen=3, optional_rules=["challenges"]))
    a, b = table.fighters(table.a), table.fighters(table.b)
    table.post(table.phone_a, "charge", payload={"charger": a[0], "targets": [b[0]]})
    table.post(table.phone_a, "challenge", payload={"step": "issue", "fighter": a[0]})
    cornered = table.post(
        table.phone_a,
        "challenge",
        expect=400,
        payload={"step": "refuse", "fighter": b[0], "params": {"can_step_back": False}},
    )["error"]
    assert "payload.params.can_step_back" in cornered["fields"]
    table.post(table.phone_a, "challenge", payload={"step": "refuse", "fighter": b[0]})
    assert table.state()["refused_challenge"] == [b[0]]
    table.post(
        table.phone_b,
        "status",
        expect=400,
        payload={"fighter": a[1], "status": "stunned", "by": b[0]},
    )
    # In the close-combat phase the coward does not strike.
    fight = table.post(table.phone_a, "close-combat", payload={"fighter": a[0]}, seed=3)
    assert all(blow["attacker"] != b[0] for blow in fight["payload"]["result"]["blows"])
    steps = [step["code"] for step in fight["payload"]["result"]["steps"]]
    assert "fight.idle" in steps


def test_a_voluntary_rout_finishes_the_battle_and_fills_the_report(make_league):
    table = set_up(make_league(henchmen=5, max_fighter_type_copies=None))
    a, b = table.fighters(table.a), table.fighters(table.b)
    table.post(table.phone_b, "turn", payload={"turn": 1, "side": table.b.pk})
    for victim in a[1:3]:
        table.post(
            table.phone_b,
            "status",
            payload={"fighter": victim, "status": "out_of_action", "by": b[0]},
        )
    table.post(table.phone_a, "turn", payload={"turn": 2, "side": table.a.pk})
    table.post(
        table.phone_a, "check", payload={"check": "rout", "side": table.a.pk}, faces=[1, 1]
    )  # 2 of 6 out: the test is due first, and passed
    rout = table.post(table.phone_a, "rout", payload={"side": table.a.pk})
    finish = BattleLogEntry.objects.get(battle=table.battle, seq=rout["seq"] + 1)
    assert (finish.kind, finish.payload) == (
        "finish",
        {"reason": "voluntary-rout", "automatic": True},
    )
    battle = Battle.objects.get(pk=table.battle.pk)
    assert battle.status == Battle.Status.REPORTED
    mine = battle.participants.get(warband=table.a)
    assert mine.routed and mine.voluntary_rout and mine.result == "loss"
    assert battle.participants.get(warband=table.b).result == "win"
    assert battle.events.filter(kind="rout", voluntary=True).count() == 1
    # Replaying the rout returns it and writes no second finish.
    phone, data = table.sent[-1]
    assert phone.post(f"{table.url}log/", data, format="json").status_code == 200
    assert BattleLogEntry.objects.filter(battle=battle, kind="finish").count() == 1
