"""Battle day through the API: setup, a whole battle logged at the table, the report it fills."""

from __future__ import annotations

import uuid

import pytest
from django.db import connection
from django.test.utils import CaptureQueriesContext
from rest_framework.test import APIClient

from battles.models import Battle, BattleEvent, BattleLogEntry, Campaign
from tests.battles.factories import build_league, first_battle
from warbands.models import Fighter

pytestmark = pytest.mark.django_db


def client_for(user) -> APIClient:
    client = APIClient()
    client.force_authenticate(user)
    return client


def uid() -> str:
    return str(uuid.uuid4())


class Table:
    """Two players at the table, each with his phone (an API client)."""

    def __init__(self, league, battle: Battle):
        self.battle = battle
        self.url = f"/api/v1/battles/{battle.pk}/"
        self.a = league.warband(0)
        self.b = league.warband(1)
        self.phone_a = client_for(league.user(0))
        self.phone_b = client_for(league.user(1))
        self.sent: list[tuple[APIClient, dict]] = []

    def fighters(self, warband) -> list[int]:
        return list(
            Fighter.objects.filter(warband=warband)
            .order_by("-is_leader", "pk")
            .values_list("pk", flat=True)
        )

    def post(self, phone: APIClient, kind: str, expect: int = 201, **body):
        data = {"client_id": uid(), "kind": kind, **body}
        response = phone.post(f"{self.url}log/", data, format="json")
        assert response.status_code == expect, response.json()
        if expect in (200, 201):
            self.sent.append((phone, data))
        return response.json()

    def state(self) -> dict:
        return self.phone_b.get(f"{self.url}state/").json()


@pytest.fixture(scope="module")
def _table(module_transaction):
    """A battle set up at the table (built once per module)."""
    with module_transaction:
        league = build_league(prefix="t-", henchmen=5, max_fighter_type_copies=None)
        battle = first_battle(league)
        table = Table(league, battle)
        response = table.phone_a.post(
            f"{table.url}setup/",
            {"client_id": uid(), "first": table.a.pk, "scenario": "Escaramuza"},
            format="json",
        )
        assert response.status_code == 201, response.json()
        return league, battle


@pytest.fixture
def table(_table, fresh) -> Table:
    return Table(*fresh(_table))


def test_setup_lists_who_fights_and_the_rout_thresholds(table):
    state = table.state()
    assert state["set_up"] is True
    sides = {side["warband"]: side for side in state["sides"]}
    assert len(sides[table.a.pk]["fighters"]) == 6
    assert sides[table.a.pk]["rout_threshold"] == 2  # a quarter of 6, rounded up
    assert state["next"] == {"turn": 1, "side": table.a.pk}
    again = table.phone_b.post(f"{table.url}setup/", {"client_id": uid()}, format="json")
    assert again.status_code == 409


def test_setup_excludes_fighters_who_miss_the_battle(make_league):
    league = make_league(henchmen=3)
    battle = first_battle(league)
    injured = Fighter.objects.filter(warband=league.warband(0), is_leader=False).first()
    injured.status = Fighter.Status.MISSES_NEXT
    injured.save(update_fields=["status"])
    phone = client_for(league.user(0))
    options = phone.get(f"/api/v1/battles/{battle.pk}/setup/").json()
    mine = next(w for w in options["warbands"] if w["warband"] == league.warband(0).pk)
    assert [x["id"] for x in mine["excluded"]] == [injured.pk]
    assert "herida" in mine["excluded"][0]["reason"]  # Spanish by default
    refused = phone.post(
        f"/api/v1/battles/{battle.pk}/setup/",
        {"client_id": uid(), "fighters": {str(league.warband(0).pk): [injured.pk]}},
        format="json",
    )
    assert refused.status_code == 400
    assert refused.json()["error"]["fields"]["fighters"]
    assert not BattleLogEntry.objects.filter(battle=battle).exists()


def play_battle(table: Table) -> None:
    """Turn 1: A's leader charges and their combat is fought in each turn (seeded dice), B takes
    two of A's out of action; turn 2: A's rout test fails."""
    a, b = table.fighters(table.a), table.fighters(table.b)
    table.post(table.phone_a, "turn", payload={"turn": 1, "side": table.a.pk})
    table.post(table.phone_a, "charge", payload={"charger": a[0], "targets": [b[1]]})
    table.post(table.phone_a, "close-combat", payload={"fighter": a[0]}, seed=3)
    table.post(table.phone_b, "turn", payload={"turn": 1, "side": table.b.pk})
    if table.state()["combats"]:
        table.post(table.phone_b, "close-combat", payload={"fighter": b[1]}, seed=4)
    table.post(
        table.phone_b,
        "status",
        payload={"fighter": a[1], "status": "out_of_action", "by": b[0], "weapon": "espada"},
    )
    table.post(
        table.phone_b,
        "status",
        payload={"fighter": a[2], "status": "out_of_action", "by": b[0], "weapon": "espada"},
    )
    table.post(table.phone_b, "note", payload={"text": "Niebla en el puente"})
    table.post(table.phone_a, "turn", payload={"turn": 2, "side": table.a.pk})
    due = table.state()["checks_due"]
    assert {"check": "rout", "side": table.a.pk, "required": True} in due
    check = table.post(
        table.phone_a, "check", payload={"check": "rout", "side": table.a.pk}, faces=[6, 6]
    )
    assert check["payload"]["result"]["outcome"] == "routed"
    assert check["dice"]["record"][0]["faces"] == [6, 6]
    # A failed rout test ends the battle by itself: the finish is logged, the report filled.
    finish = table.phone_b.get(f"{table.url}log/?after={check['seq']}").json()["results"]
    assert [(e["kind"], e["payload"]) for e in finish] == [
        ("finish", {"reason": "rout", "automatic": True})
    ]
    table.post(table.phone_a, "finish", expect=409, payload={})


def test_a_whole_battle_logged_through_the_api_fills_the_report(table):
    play_battle(table)
    battle = Battle.objects.get(pk=table.battle.pk)
    assert battle.status == Battle.Status.REPORTED
    results = {p.warband_id: p for p in battle.participants.all()}
    assert results[table.a.pk].result == "loss" and results[table.a.pk].routed
    assert not results[table.a.pk].voluntary_rout
    assert results[table.b.pk].result == "win" and not results[table.b.pk].routed
    a, b = table.fighters(table.a), table.fighters(table.b)
    out = [
        (e.turn, e.actor_id, e.target_id, e.weapon)
        for e in battle.events.filter(kind=BattleEvent.Kind.OUT_OF_ACTION).order_by("id")
    ]
    fights = BattleLogEntry.objects.filter(battle=battle, kind="close-combat").order_by("seq")
    expected = [
        (1, blow["attacker"], blow["target"], _weapon(fight, blow["attacker"]))
        for fight in fights
        for blow in fight.payload["result"]["blows"]
        if blow["result"]["outcome"] == "out_of_action"
    ]
    expected += [(1, b[0], a[1], "espada"), (1, b[0], a[2], "espada")]
    assert out == expected
    assert battle.events.filter(kind="rout", actor_warband=table.a, voluntary=False).count() == 1
    assert sorted(results[table.a.pk].fighters.values_list("pk", flat=True)) == sorted(a)
    # The close combat went through the engine: its outcome shows in the fighters' state.
    last = fights.last().payload["result"]["fighters"]
    states = {f["id"]: f for side in table.state()["sides"] for f in side["fighters"]}
    for fighter_id, after in last.items():
        now = states[int(fighter_id)]["status"]
        assert now == {"standing": "in_play"}.get(after["status"], after["status"])
    assert fights.first().dice["seed"] == 3 and fights.first().dice["record"]
    # The opponent only confirms.
    confirm = table.phone_b.post(
        f"/api/v1/battles/{battle.pk}/confirm/", {"version": battle.version}, format="json"
    )
    assert confirm.status_code == 200, confirm.json()


def _weapon(fight: BattleLogEntry, attacker: int) -> str:
    """The weapon the report names for a blow: the striker's main weapon, from the dice
    audit's to-hit steps (the phase's result names each blow's weapon in its steps)."""
    for blow in fight.payload["result"]["blows"]:
        if blow["attacker"] == attacker:
            for step in blow["result"]["steps"]:
                if step["code"] == "melee.weapon":
                    weapon = step["params"]["weapon"]
                    return "" if weapon == "arma-de-mano" else weapon
    return ""


def test_replaying_the_same_queue_twice_changes_nothing(table):
    play_battle(table)
    count = BattleLogEntry.objects.filter(battle=table.battle).count()
    state = table.state()
    for phone, data in list(table.sent):
        response = phone.post(f"{table.url}log/", data, format="json")
        assert response.status_code == 200, response.json()
        assert response.json()["client_id"] == data["client_id"]
    assert BattleLogEntry.objects.filter(battle=table.battle).count() == count
    assert table.state() == state


@pytest.mark.parametrize(
    ("kind", "payload", "field"),
    [
        ("attack", {"attacker": 10**6, "target": "B1", "mode": "melee"}, "payload.attacker"),
        ("status", {"fighter": "A1", "status": "stunned"}, "payload.fighter"),
        ("attack", {"attacker": "A1", "target": "B1", "mode": "melee"}, "payload.attacker"),
        ("check", {"check": "rout", "side": "A"}, "payload.check"),
        ("turn", {"turn": 3, "side": "A"}, "payload.turn"),
        ("correction", {"corrects": 999}, "payload.corrects"),
    ],
)
def test_bad_entries_are_400_and_write_nothing(table, kind, payload, field):
    a, b = table.fighters(table.a), table.fighters(table.b)
    names = {"A1": a[1], "B1": b[1], "A": table.a.pk}
    table.post(table.phone_a, "turn", payload={"turn": 1, "side": table.a.pk})
    table.post(
        table.phone_a, "status", payload={"fighter": a[1], "status": "out_of_action", "by": b[0]}
    )
    before = table.state()
    body = {k: names.get(v, v) if isinstance(v, str) else v for k, v in payload.items()}
    error = table.post(table.phone_a, kind, expect=400, payload=body)["error"]
    assert field in error["fields"], error
    assert error["message"]
    assert table.state() == before


def test_a_stale_entry_touching_the_same_warrior_is_a_conflict(table):
    a, b = table.fighters(table.a), table.fighters(table.b)
    first = table.post(table.phone_a, "turn", payload={"turn": 1, "side": table.a.pk})
    seen = first["seq"]
    table.post(table.phone_a, "status", payload={"fighter": b[1], "status": "stunned", "by": a[0]})
    # B's phone has not seen that yet: the same warrior → 409; another warrior → accepted.
    conflict = table.post(
        table.phone_b,
        "status",
        expect=409,
        payload={"fighter": b[1], "status": "knocked_down", "by": a[0]},
        base_seq=seen,
    )
    assert conflict["error"]["code"] == "log_moved_on"
    assert conflict["error"]["last_seq"] > seen
    table.post(
        table.phone_b,
        "status",
        payload={"fighter": b[2], "status": "knocked_down", "by": a[0]},
        base_seq=seen,
    )


def test_only_players_and_organisers_write_others_read_public_campaigns(table, make_user):
    stranger = client_for(make_user("mirón"))
    body = {"client_id": uid(), "kind": "note", "payload": {"text": "hola"}}
    assert stranger.post(f"{table.url}log/", body, format="json").status_code == 404
    Campaign.objects.filter(pk=table.battle.campaign_id).update(public=True)
    assert stranger.get(f"{table.url}log/").status_code == 200
    refused = stranger.post(f"{table.url}log/", body, format="json")
    assert refused.status_code == 403
    assert refused.json()["error"]["code"]
    organiser = client_for(table.battle.campaign.memberships.get(role="organiser").user)
    assert organiser.post(f"{table.url}log/", body, format="json").status_code == 201


def test_anonymous_visitors_read_a_public_log_but_writing_asks_for_a_login(table):
    Campaign.objects.filter(pk=table.battle.campaign_id).update(public=True)
    anonymous = APIClient()
    body = {"client_id": uid(), "kind": "note", "payload": {"text": "hola"}}
    assert anonymous.get(f"{table.url}log/").status_code == 200
    for path in ("log/", "setup/"):
        refused = anonymous.post(f"{table.url}{path}", body, format="json")
        assert refused.status_code == 401
        assert refused.json()["error"]["code"] == "not_authenticated"
    assert anonymous.put(f"{table.url}lineup/", {}, format="json").status_code == 401


def test_a_write_costs_the_same_few_queries_whatever_the_logs_length(
    table, django_assert_max_num_queries
):
    """The participants' owners (may the caller see it?), the battle locked with its
    campaign's archived flag, then under the lock its setup with the folded state and whether
    the client_id was posted before, its participants again, the insert, the state's update
    (and the test's savepoint pair): the log itself is never read. A player is one of the
    owners; an organiser who does not play in it costs two queries more (the campaign's
    visibility, his role)."""
    table.post(table.phone_a, "turn", payload={"turn": 1, "side": table.a.pk})
    with django_assert_max_num_queries(8):
        table.post(table.phone_a, "note", payload={"text": "corta"})
    for number in range(40):
        table.post(table.phone_a, "note", payload={"text": f"nota {number}"})
    with django_assert_max_num_queries(8):
        table.post(table.phone_a, "note", payload={"text": "larga"})
    organiser = client_for(table.battle.campaign.memberships.get(role="organiser").user)
    with django_assert_max_num_queries(10):
        table.post(organiser, "note", payload={"text": "del organizador"})


def test_a_battle_the_caller_may_not_see_is_a_404_before_any_lock(table, make_user):
    """Nobody outside a private campaign holds its battles' rows, even for a moment."""
    if connection.vendor != "postgresql":
        pytest.skip("row locks need PostgreSQL (SQLite has no SELECT … FOR UPDATE)")
    stranger = client_for(make_user("mirón"))
    body = {"client_id": uid(), "kind": "note", "payload": {"text": "hola"}}
    with CaptureQueriesContext(connection) as queries:
        assert stranger.post(f"{table.url}log/", body, format="json").status_code == 404
    assert not [q for q in queries.captured_queries if "FOR UPDATE" in q["sql"]]


def test_the_log_after_a_seq_in_a_constant_number_of_queries(table, django_assert_max_num_queries):
    table.post(table.phone_a, "turn", payload={"turn": 1, "side": table.a.pk})
    with django_assert_max_num_queries(3):
        short = table.phone_b.get(f"{table.url}log/?after=0").json()
    for number in range(40):
        table.post(table.phone_a, "note", payload={"text": f"nota {number}"})
    with django_assert_max_num_queries(3):
        long = table.phone_b.get(f"{table.url}log/?after=0").json()
    assert len(short["results"]) == 2 and len(long["results"]) == 42
    assert [e["seq"] for e in long["results"]] == list(range(1, 43))
    tail = table.phone_b.get(f"{table.url}log/?after=40").json()
    assert [e["seq"] for e in tail["results"]] == [41, 42]
    assert tail["last_seq"] == 42


def _seqs(page: dict) -> list[int]:
    return [entry["seq"] for entry in page["results"]]


def test_the_log_pages_as_every_list_with_next_and_previous_links(table):
    """count, next, previous, results (and last_seq): ``next`` walks forwards by ``?after=``,
    ``previous`` backwards by ``?before=``, both absolute and keeping the page size."""
    table.post(table.phone_a, "turn", payload={"turn": 1, "side": table.a.pk})
    for number in range(5):
        table.post(table.phone_a, "note", payload={"text": f"nota {number}"})  # seqs 1..7
    first = table.phone_b.get(f"{table.url}log/?page_size=3").json()
    assert list(first) == ["count", "next", "previous", "results", "last_seq"]
    assert first["count"] == 7 and _seqs(first) == [1, 2, 3] and first["last_seq"] == 3
    assert first["previous"] is None
    assert first["next"].startswith("http://testserver/api/v1/battles/")
    forwards, page = [first], first
    while page["next"]:
        assert "page_size=3" in page["next"]
        page = table.phone_b.get(page["next"]).json()
        forwards.append(page)
    assert [_seqs(p) for p in forwards] == [[1, 2, 3], [4, 5, 6], [7]]
    assert forwards[-1]["last_seq"] == 7 and forwards[-1]["count"] == 7
    backwards = [page]
    while page["previous"]:
        assert page["previous"].startswith("http://testserver/") and "before=" in page["previous"]
        page = table.phone_b.get(page["previous"]).json()
        backwards.append(page)
    assert [_seqs(p) for p in backwards] == [[7], [4, 5, 6], [1, 2, 3]]
    middle = table.phone_b.get(f"{table.url}log/?before=7&page_size=3").json()
    assert _seqs(middle) == [4, 5, 6] and middle["last_seq"] == 6
    assert table.phone_b.get(middle["next"]).json()["results"][0]["seq"] == 7
    # A phone that has read everything polls ?after=<last_seq>: nothing new, and the way back.
    polled = table.phone_b.get(f"{table.url}log/?after=7").json()
    assert polled["results"] == [] and polled["next"] is None and polled["last_seq"] == 7
    assert _seqs(table.phone_b.get(polled["previous"]).json()) == list(range(1, 8))


def test_a_page_of_the_log_keeps_its_etag_and_refuses_two_cursors(table):
    table.post(table.phone_a, "turn", payload={"turn": 1, "side": table.a.pk})
    page = table.phone_b.get(f"{table.url}log/?after=1")
    etag = page["ETag"]
    assert table.phone_b.get(f"{table.url}log/?after=2", HTTP_IF_NONE_MATCH=etag).status_code == 304
    table.post(table.phone_a, "note", payload={"text": "nueva"})
    fresh = table.phone_b.get(f"{table.url}log/?after=2", HTTP_IF_NONE_MATCH=etag)
    assert fresh.status_code == 200 and _seqs(fresh.json()) == [3]
    both = table.phone_b.get(f"{table.url}log/?after=1&before=3")
    assert both.status_code == 400 and "before" in both.json()["error"]["fields"]
    assert table.phone_b.get(f"{table.url}log/?before=-1").status_code == 400
    assert table.phone_b.get(f"{table.url}log/?before=%C2%B2").status_code == 400
    # A page size the lists would not take is the default, as for the lists.
    for size in ("0", "x", "²", "9" * 5000):
        lenient = table.phone_b.get(f"{table.url}log/", {"page_size": size})
        assert lenient.status_code == 200 and _seqs(lenient.json()) == [1, 2, 3], size
