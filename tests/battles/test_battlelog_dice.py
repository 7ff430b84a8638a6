"""Dice the table can follow, and a log whose cost does not grow: the plan of a proposed entry,
typed dice short of or beyond what it needs (400, naming the step), a log's bound (409), an
append at 2,000 entries reading and writing what one at 10 does, and the rules API refusing
unknown keys."""

from __future__ import annotations

import re

import pytest
from django.db import connection
from django.test.utils import CaptureQueriesContext
from rest_framework.test import APIClient

from battles.battlelog import services
from battles.models import BattleLogEntry, BattleSetup
from tests.battles.test_battlelog_api import Table
from tests.battles.test_battlelog_api import _table as _table  # noqa: F401 - the fixtures
from tests.battles.test_battlelog_api import table as table

pytestmark = pytest.mark.django_db


def charged(table: Table) -> tuple[int, int]:
    """Turn 1: A's captain charges B's captain; the two of them."""
    a, b = table.fighters(table.a)[0], table.fighters(table.b)[0]
    table.post(table.phone_a, "turn", payload={"turn": 1, "side": table.a.pk})
    table.post(table.phone_a, "charge", payload={"charger": a, "targets": [b]})
    return a, b


def test_the_plan_says_which_dice_next_and_in_which_words(table):
    a, b = charged(table)
    plan = table.phone_a.post(
        f"{table.url}log/plan/", {"kind": "close-combat", "payload": {"fighter": a}}, format="json"
    ).json()
    assert plan["complete"] is False and plan["done"] == []
    assert plan["next"]["purpose"] == "to hit" and plan["next"]["rolls"] == 1
    assert plan["next"]["scope"] == f"{a}>{b}"
    assert plan["next"]["purpose_label"] == "para impactar"  # in the reader's language
    assert "to wound" in plan["stages"]
    # A hit: the captain's 4 (HA4 against HA4: 4+); next his to-wound die.
    plan = table.phone_a.post(
        f"{table.url}log/plan/",
        {"kind": "close-combat", "payload": {"fighter": a}, "faces": [4]},
        format="json",
    ).json()
    assert [s["purpose"] for s in plan["done"]] == ["to hit"]
    assert plan["next"]["purpose"] == "to wound"
    assert table.phone_a.post(
        f"{table.url}log/plan/", {"kind": "note", "payload": {"text": "x"}}, format="json"
    ).json()["complete"]


def test_typed_dice_short_or_beyond_the_need_are_refused_naming_the_step(table):
    a, b = charged(table)
    before = BattleLogEntry.objects.filter(battle=table.battle).count()
    # 4 hits, 5 wounds: the injury die is missing.
    short = table.post(
        table.phone_a, "close-combat", expect=400, payload={"fighter": a}, faces=[4, 5]
    )["error"]
    assert list(short["fields"]) == ["faces"] and "herida" in short["message"]
    # Both miss: two dice are all it takes; a third is too many.
    surplus = table.post(
        table.phone_a, "close-combat", expect=400, payload={"fighter": a}, faces=[1, 1, 6]
    )["error"]
    assert list(surplus["fields"]) == ["faces"] and "Sobran dados: 1" in surplus["message"]
    note = table.post(table.phone_a, "note", expect=400, payload={"text": "x"}, faces=[3])
    assert "faces" in note["error"]["fields"]
    assert BattleLogEntry.objects.filter(battle=table.battle).count() == before
    table.post(table.phone_a, "close-combat", payload={"fighter": a}, faces=[1, 1])


def test_unknown_keys_are_refused_in_nested_payloads(table):
    a, b = charged(table)
    error = table.post(
        table.phone_a,
        "close-combat",
        expect=400,
        payload={"fighter": a, "blows": [{"attacker": a, "target": b, "atacks": 2}]},
    )["error"]
    assert list(error["fields"]) == ["payload.blows.0.atacks"]


def test_a_log_takes_at_most_its_bound(table, monkeypatch):
    monkeypatch.setattr(services, "MAX_ENTRIES", 3)
    table.post(table.phone_a, "note", payload={"text": "uno"})
    table.post(table.phone_a, "note", payload={"text": "dos"})
    full = table.post(table.phone_a, "note", expect=409, payload={"text": "tres"})["error"]
    assert "lleno" in full["message"] and full["code"] == "log_full"


def _append_statements(table: Table) -> list[str]:
    with CaptureQueriesContext(connection) as queries:
        table.post(table.phone_a, "note", payload={"text": "medida"})
    return [
        re.sub(r'"s\d+_x\d+"', "SAVEPOINT", re.split(" WHERE | VALUES | SET ", q["sql"])[0])
        for q in queries.captured_queries
    ]


def test_an_append_at_two_thousand_entries_reads_and_writes_what_one_at_ten_does(table):
    """The folded state is kept beside the setup: an append reads no entry of the log."""
    charged(table)
    for number in range(6):
        table.post(table.phone_a, "note", payload={"text": f"nota {number}"})
    short = _append_statements(table)
    last = BattleLogEntry.objects.filter(battle=table.battle).order_by("-seq").first().seq
    BattleLogEntry.objects.bulk_create(
        [
            BattleLogEntry(
                battle=table.battle, seq=seq, kind="note", payload={"text": f"nota {seq}"}
            )
            for seq in range(last + 1, 2001)
        ]
    )
    state = services.log_state_complete(table.battle)
    BattleSetup.objects.filter(battle=table.battle).update(
        state=state.to_snapshot(), state_seq=state.last_seq
    )
    long = _append_statements(table)
    assert long == short
    assert not any(
        "battles_battlelogentry" in sql and sql.startswith("SELECT")
        for sql in long
        if "EXISTS" not in sql
    )
    assert table.state()["last_seq"] == 2001


def test_a_log_written_before_the_snapshot_is_folded_once_then_kept(table):
    """A battle under way when the snapshot came: its setup has none; the first append folds
    the whole log and keeps it."""
    a, b = charged(table)
    BattleSetup.objects.filter(battle=table.battle).update(state=None, state_seq=0)
    assert table.state()["combats"][0]["fighters"] == sorted([a, b])
    table.post(table.phone_a, "note", payload={"text": "de vuelta"})
    setup = BattleSetup.objects.get(battle=table.battle)
    assert setup.state is not None and setup.state_seq == table.state()["last_seq"]


def test_the_state_shows_each_fighters_turn_states_and_the_combats(table):
    a, b = charged(table)
    state = table.state()
    mine = next(f for side in state["sides"] for f in side["fighters"] if f["id"] == a)
    assert mine["states"] == ["charged", "first_round"] and mine["combat"] == 1
    (combat,) = state["combats"]
    assert combat == {
        "id": 1,
        "fighters": sorted([a, b]),
        "pairs": [sorted([a, b])],
        "rounds": {str(a): 0, str(b): 0},
        "fought": False,
    }
    assert {
        "check": "close-combat",
        "side": table.a.pk,
        "combat": 1,
        "fighters": sorted([a, b]),
        "required": True,
    } in state["checks_due"]


@pytest.mark.parametrize("endpoint", ["odds", "attack"])
def test_the_rules_api_refuses_a_typo_instead_of_ignoring_it(endpoint):
    body = {
        "kind": "melee",
        "attacker": {"ws": 3, "s": 3, "hatrde": True},
        "defender": {"ws": 3, "t": 3},
    }
    response = APIClient().post(f"/api/v1/rules/{endpoint}/", body, format="json")
    assert response.status_code == 400
    assert "attacker.hatrde" in response.json()["error"]["fields"]
    top = APIClient().post(f"/api/v1/rules/{endpoint}/", {**body, "modifers": {}}, format="json")
    assert top.status_code == 400 and "modifers" in top.json()["error"]["fields"]


def test_a_later_round_drops_the_flails_bonus_in_the_odds():
    """Mangual: +1 F in the first round only. F4 against R3 wounds on 3+, F3 on 4+."""
    body = {
        "kind": "melee",
        "attacker": {"ws": 3, "s": 3, "weapon": "mangual", "first_round": True},
        "defender": {"ws": 3, "t": 3},
    }
    first = APIClient().post("/api/v1/rules/odds/", body, format="json").json()
    body["attacker"]["first_round"] = False
    later = APIClient().post("/api/v1/rules/odds/", body, format="json").json()
    wound = "per_attack"
    assert first[wound]["wound"]["exact"] == "1/3" and later[wound]["wound"]["exact"] == "1/4"
