"""The battle-log endpoints answer what /api/v1/schema/ declares (schemathesis checks the same in
CI): entries, log pages, the state with its fighters and checks due, the pre-battle options,
and each error in the one error shape."""

from __future__ import annotations

import pytest
from rest_framework.test import APIClient

from battles.models import Campaign
from tests.api.test_schema_truth import assert_matches
from tests.api.test_schema_truth import schema as schema  # noqa: F401 - the fixture
from tests.battles.factories import first_battle
from tests.battles.test_battlelog_api import Table, client_for, uid
from warbands.models import Fighter

pytestmark = pytest.mark.django_db

BATTLE = "/api/v1/battles/{id}/"


def test_the_pre_battle_answers_match_the_schema(schema, make_league):
    league = make_league(henchmen=2)
    battle = first_battle(league)
    Fighter.objects.filter(warband=league.warband(0), is_leader=False).update(
        status=Fighter.Status.MISSES_NEXT
    )
    table = Table(league, battle)
    state = table.phone_a.get(f"{table.url}state/")
    assert state.json()["set_up"] is False
    assert_matches(schema, f"{BATTLE}state/", state)
    options = table.phone_a.get(f"{table.url}setup/")
    assert options.json()["warbands"][0]["excluded"]
    assert_matches(schema, f"{BATTLE}setup/", options)
    mine = table.fighters(table.a)[:1]
    lineup = table.phone_a.put(
        f"{table.url}lineup/", {"warband": table.a.pk, "fighters": mine}, format="json"
    )
    assert_matches(schema, f"{BATTLE}lineup/", lineup, "put")
    body = {"client_id": uid(), "first": table.a.pk}
    created = table.phone_a.post(f"{table.url}setup/", body, format="json")
    assert created.status_code == 201
    assert_matches(schema, f"{BATTLE}setup/", created, "post")
    replayed = table.phone_a.post(f"{table.url}setup/", body, format="json")
    assert replayed.status_code == 200
    assert_matches(schema, f"{BATTLE}setup/", replayed, "post")
    assert_matches(schema, f"{BATTLE}setup/", table.phone_a.get(f"{table.url}setup/"))


def test_the_log_and_the_state_match_the_schema(schema, make_league):
    league = make_league(henchmen=3, optional_rules=["challenges"])
    battle = first_battle(league)
    table = Table(league, battle)
    Fighter.objects.filter(warband=table.b, is_leader=True).update(special_rules=["fear"])
    table.phone_a.post(f"{table.url}setup/", {"client_id": uid()}, format="json")
    a, b = table.fighters(table.a), table.fighters(table.b)
    first = min(table.a.pk, table.b.pk)
    table.post(table.phone_a, "turn", payload={"turn": 1, "side": first})
    for enemy in b[1:4]:  # blows logged by hand: he fights three of B's
        table.post(
            table.phone_b, "status", payload={"fighter": a[1], "status": "in_play", "by": enemy}
        )
    table.post(
        table.phone_a, "status", payload={"fighter": b[2], "status": "out_of_action", "by": a[0]}
    )
    charge = {"client_id": uid(), "kind": "charge", "payload": {"charger": a[0], "targets": [b[1]]}}
    charged = table.phone_a.post(f"{table.url}log/", charge, format="json")
    assert_matches(schema, f"{BATTLE}log/", charged, "post")
    table.post(table.phone_a, "challenge", payload={"step": "issue", "fighter": a[0]})
    fear = {"check": "fear", "fighter": a[2], "against": b[0]}
    body = {"client_id": uid(), "kind": "check", "payload": fear}
    created = table.phone_a.post(f"{table.url}log/", {**body, "seed": 5}, format="json")
    assert created.status_code == 201, created.json()
    assert_matches(schema, f"{BATTLE}log/", created, "post")
    replayed = table.phone_a.post(f"{table.url}log/", body, format="json")
    assert replayed.status_code == 200
    assert_matches(schema, f"{BATTLE}log/", replayed, "post")
    page = table.phone_b.get(f"{table.url}log/?after=0")
    assert {e["kind"] for e in page.json()["results"]} >= {"setup", "turn", "status", "check"}
    assert_matches(schema, f"{BATTLE}log/", page)
    state = table.phone_b.get(f"{table.url}state/")
    checks = {c["check"] for c in state.json()["checks_due"]}
    assert {"fear", "all-alone", "challenge"} <= checks, checks
    assert state.json()["out_of_action_events"] and state.json()["duels"]
    assert state.json()["combats"] and state.json()["log_version"] == 2
    assert_matches(schema, f"{BATTLE}state/", state)


def test_a_combat_its_phase_and_the_dice_plan_match_the_schema(schema, make_league):
    league = make_league(henchmen=3)
    table = Table(league, first_battle(league))
    table.phone_a.post(
        f"{table.url}setup/", {"client_id": uid(), "first": table.a.pk}, format="json"
    )
    a, b = table.fighters(table.a), table.fighters(table.b)
    table.post(table.phone_a, "turn", payload={"turn": 1, "side": table.a.pk})
    table.post(table.phone_a, "charge", payload={"charger": a[0], "targets": [b[1], b[2]]})
    proposal = {"kind": "close-combat", "payload": {"fighter": a[0]}}
    plan = table.phone_a.post(f"{table.url}log/plan/", proposal, format="json")
    assert plan.status_code == 400  # he fights two: say how he splits his attacks
    assert_matches(schema, f"{BATTLE}log/plan/", plan, "post")
    proposal["payload"]["blows"] = [{"attacker": a[0], "target": b[1]}]
    plan = table.phone_a.post(f"{table.url}log/plan/", {**proposal, "faces": [4]}, format="json")
    assert plan.status_code == 200, plan.json()
    assert_matches(schema, f"{BATTLE}log/plan/", plan, "post")
    body = {"client_id": uid(), **proposal, "seed": 9}
    fought = table.phone_a.post(f"{table.url}log/", body, format="json")
    assert fought.status_code == 201, fought.json()
    assert_matches(schema, f"{BATTLE}log/", fought, "post")
    state = table.phone_b.get(f"{table.url}state/")
    assert_matches(schema, f"{BATTLE}state/", state)
    assert_matches(schema, f"{BATTLE}log/", table.phone_b.get(f"{table.url}log/?after=0"))


def test_the_errors_match_the_schema(schema, make_league, make_user):
    league = make_league(henchmen=1)
    battle = first_battle(league)
    table = Table(league, battle)
    log = f"{table.url}log/"
    note = {"client_id": uid(), "kind": "note", "payload": {"text": "hola"}}
    not_set_up = table.phone_a.post(log, note, format="json")
    assert not_set_up.status_code == 409
    assert_matches(schema, f"{BATTLE}log/", not_set_up, "post")
    table.phone_a.post(f"{table.url}setup/", {"client_id": uid()}, format="json")
    bad = table.phone_a.post(log, {**note, "payload": {"text": "\x00"}}, format="json")
    assert bad.status_code == 400
    assert_matches(schema, f"{BATTLE}log/", bad, "post")
    anonymous = APIClient().get(log)
    assert anonymous.status_code == 401
    assert_matches(schema, f"{BATTLE}log/", anonymous)
    stranger = client_for(make_user("mirón"))
    hidden = stranger.get(f"{table.url}state/")
    assert hidden.status_code == 404
    assert_matches(schema, f"{BATTLE}state/", hidden)
    Campaign.objects.filter(pk=battle.campaign_id).update(public=True)
    forbidden = stranger.post(log, {**note, "client_id": uid()}, format="json")
    assert forbidden.status_code == 403
    assert_matches(schema, f"{BATTLE}log/", forbidden, "post")
