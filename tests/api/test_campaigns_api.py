"""The campaigns API: permission matrix, lists scoped to the caller, versions, query budgets."""

from __future__ import annotations

import json

import pytest
from rest_framework.test import APIClient

from battles.campaigns import services
from battles.models import Battle
from battles.reports import services as reports
from tests.battles.factories import *  # noqa: F403 - the campaign fixtures
from tests.battles.factories import (
    build_league,
    build_world,
    new_warband,
    quick_user,
    simple_report,
)

pytestmark = pytest.mark.django_db

ROLES = ("anonymous", "stranger", "participant", "opponent", "organiser", "other_organiser")
API = "/api/v1"


@pytest.fixture(scope="module")
def _world(module_transaction):
    with module_transaction:
        return build_world()


@pytest.fixture
def world(_world, fresh):
    return fresh(_world)


def _name(w, role: str) -> str:
    return w["users"][role].username


def client_for(user) -> APIClient:
    client = APIClient()
    if user is not None:
        client.force_authenticate(user)
    return client


def _campaign_url(world, suffix=""):
    return f"{API}/campaigns/{world['league'].campaign.slug}/{suffix}"


def _battle_url(world, suffix=""):
    return f"{API}/battles/{world['battle'].pk}/{suffix}"


READ = {"anonymous": 401, "stranger": 404, "other_organiser": 404}
READS = [
    lambda w: _campaign_url(w),
    lambda w: _campaign_url(w, "members/"),
    lambda w: _campaign_url(w, "rounds/"),
    lambda w: _campaign_url(w, "rounds/1/"),
    lambda w: _campaign_url(w, "rounds/1/pairings/"),
    lambda w: _campaign_url(w, "standings/"),
    lambda w: _campaign_url(w, "standings/?format=csv"),
    lambda w: _battle_url(w),
    lambda w: _battle_url(w, "events/"),
]


@pytest.mark.parametrize("role", ROLES)
@pytest.mark.parametrize("url", READS, ids=lambda f: "read")
def test_read_matrix(world, role, url):
    response = client_for(world["users"][role]).get(url(world))
    assert response.status_code == READ.get(role, 200), response.content[:300]
    if response.status_code != 200:
        assert set(json.loads(response.content)["error"]) == {"code", "message", "fields"}


def _membership_of(world, index):
    league = world["league"]
    return league.campaign.memberships.get(user=league.user(index)).pk


def _report_body(world):
    battle = world["battle"]
    winner = battle.participants.order_by("id").first().warband_id
    return {"winners": [winner], "scenario": "Escaramuza"}


def _reported(world):
    reports.battle_report(
        battle=world["battle"],
        reporter=world["users"]["participant"],
        report=simple_report(world["battle"], world["league"].warband(0)),
    )


def _confirmed(world):
    _reported(world)
    reports.battle_confirm(battle=world["battle"], by=world["users"]["opponent"])


HIDDEN = {"anonymous": 401, "stranger": 404, "other_organiser": 404}
ORGANISER_ONLY = {**HIDDEN, "participant": 403, "opponent": 403}
# (name, method, url, body, setup, expected codes by role (default: the organiser's code))
WRITES = [
    ("edit", "patch", lambda w: _campaign_url(w), lambda w: {"description": "x"}, None,
     {**ORGANISER_ONLY, "organiser": 200}),
    # The organiser passes the permission check and meets the state rules.
    ("transition", "post", lambda w: _campaign_url(w, "transition/"),
     lambda w: {"state": "finished"}, None, {**ORGANISER_ONLY, "organiser": 400}),
    ("archive", "post", lambda w: _campaign_url(w, "archive/"), lambda w: {}, None,
     {**ORGANISER_ONLY, "organiser": 409}),
    ("co-organiser", "post", lambda w: _campaign_url(w, "organisers/"),
     lambda w: {"username": _name(w, "stranger")}, None, {**ORGANISER_ONLY, "organiser": 201}),
    ("withdraw", "delete", lambda w: _campaign_url(w, f"members/{_membership_of(w, 1)}/"),
     lambda w: None, None, {**ORGANISER_ONLY, "opponent": 204, "organiser": 204}),
    ("open round", "post", lambda w: _campaign_url(w, "rounds/"), lambda w: {}, None,
     {**ORGANISER_ONLY, "organiser": 409}),
    ("close round", "post", lambda w: _campaign_url(w, "rounds/1/close/"), lambda w: {}, None,
     {**ORGANISER_ONLY, "organiser": 400}),
    ("generate", "post", lambda w: _campaign_url(w, "rounds/1/pairings/"),
     lambda w: {"method": "rating"}, None, {**ORGANISER_ONLY, "organiser": 201}),
    ("add battle", "post", lambda w: _campaign_url(w, "battles/"),
     lambda w: {"warbands": [w["league"].warband(0).pk, w["league"].warband(1).pk]}, None,
     {**ORGANISER_ONLY, "organiser": 201}),
    ("edit pairing", "put", lambda w: _battle_url(w, "pairing/"),
     lambda w: {"warbands": [w["league"].warband(1).pk, w["league"].warband(0).pk]}, None,
     {**ORGANISER_ONLY, "organiser": 200}),
    ("delete pairing", "delete", lambda w: _battle_url(w), lambda w: None, None,
     {**ORGANISER_ONLY, "organiser": 204}),
    ("report", "post", lambda w: _battle_url(w, "report/"), _report_body, None,
     {**HIDDEN, "participant": 200, "opponent": 200, "organiser": 200}),
    ("confirm", "post", lambda w: _battle_url(w, "confirm/"), lambda w: {}, _reported,
     {**HIDDEN, "participant": 403, "opponent": 200, "organiser": 200}),
    ("dispute", "post", lambda w: _battle_url(w, "dispute/"), lambda w: {"reason": "No"},
     _reported, {**HIDDEN, "participant": 403, "opponent": 200, "organiser": 403}),
    ("settle", "post", lambda w: _battle_url(w, "settle/"), lambda w: {"reason": "Visto"},
     _reported, {**ORGANISER_ONLY, "organiser": 200}),
    ("correct", "post", lambda w: _battle_url(w, "correct/"),
     lambda w: {"reason": "Era empate", "report": {"is_draw": True}}, _confirmed,
     {**ORGANISER_ONLY, "organiser": 200}),
]  # fmt: skip


@pytest.mark.parametrize("role", ROLES)
@pytest.mark.parametrize("write", WRITES, ids=[w[0] for w in WRITES])
def test_write_matrix(world, role, write):
    _name, method, url, body, setup, expected = write
    if setup:
        setup(world)
    battle_before = Battle.objects.filter(pk=world["battle"].pk).values().first()
    response = getattr(client_for(world["users"][role]), method)(
        url(world), body(world), format="json"
    )
    assert response.status_code == expected[role], response.content[:400]
    if response.status_code >= 400:
        assert set(response.json()["error"]) == {"code", "message", "fields"}
        assert Battle.objects.filter(pk=world["battle"].pk).values().first() == battle_before


# --- lists show only what the caller may see ------------------------------------------------------
def test_lists_are_scoped(world):
    league, other = world["league"], world["other"]
    users = world["users"]

    def campaigns(role):
        return [
            c["slug"] for c in client_for(users[role]).get(f"{API}/campaigns/").json()["results"]
        ]

    def battles(role):
        return [b["id"] for b in client_for(users[role]).get(f"{API}/battles/").json()["results"]]

    assert campaigns("stranger") == []
    assert campaigns("participant") == [league.campaign.slug]
    assert campaigns("organiser") == [league.campaign.slug]
    assert campaigns("other_organiser") == [other.campaign.slug]
    assert battles("stranger") == battles("other_organiser") == []
    assert battles("opponent") == [world["battle"].pk]
    # Public campaigns are listed to anyone logged in once they are open.
    services.campaign_update(campaign=other.campaign, by=other.organiser, changes={"public": True})
    assert campaigns("stranger") == [other.campaign.slug]


def test_join_code_is_shown_to_organisers_only(world):
    users = world["users"]
    organiser_view = client_for(users["organiser"]).get(_campaign_url(world)).json()
    player_view = client_for(users["participant"]).get(_campaign_url(world)).json()
    assert organiser_view["join_code"] == world["league"].campaign.join_code
    assert player_view["join_code"] is None
    assert organiser_view["organisers"] == [users["organiser"].username]


# --- flows -----------------------------------------------------------------------------------
def test_create_open_join_and_play_through_the_api(league_content):
    organiser, player_a, player_b = quick_user("arvedui"), quick_user("a"), quick_user("b")
    org = client_for(organiser)
    response = org.post(
        f"{API}/campaigns/",
        {"name": "Liga del Norte", "preset": "skirmish", "rating_cap": 200,
         "allowed_warband_types": ["mercenarios-de-rhovanion"], "optional_rules": ["flee_pursuit"]},
        format="json",
    )  # fmt: skip
    assert response.status_code == 201, response.json()
    body = response.json()
    assert (body["rating_cap"], body["max_fighter_type_copies"]) == (200, 2)
    assert body["allowed_warband_types"] == ["mercenarios-de-rhovanion"]
    slug, code = body["slug"], body["join_code"]
    assert org.post(f"{API}/campaigns/{slug}/transition/", {"state": "open"}).status_code == 200

    for player, name in ((player_a, "Águilas"), (player_b, "Cuervos")):
        warband = new_warband(player, name)
        response = client_for(player).post(
            f"{API}/campaigns/join/", {"join_code": code.lower(), "warband": warband.pk}
        )
        assert response.status_code == 201, response.json()
        assert response.json()["campaign"] == slug
    bad = client_for(quick_user("c")).post(
        f"{API}/campaigns/join/", {"join_code": "ZZZZ", "warband": 1}
    )
    assert bad.status_code == 400 and "join_code" in bad.json()["error"]["fields"]

    assert org.post(f"{API}/campaigns/{slug}/transition/", {"state": "running"}).status_code == 200
    assert org.post(f"{API}/campaigns/{slug}/rounds/").status_code == 201
    pairings = org.post(f"{API}/campaigns/{slug}/rounds/1/pairings/", {"method": "swiss"})
    assert pairings.status_code == 201
    battle = pairings.json()["results"][0]
    ids = {p["owner"]: p["warband"] for p in battle["participants"]}
    a_warband, b_warband = ids[player_a.pk], ids[player_b.pk]

    url = f"{API}/battles/{battle['id']}/"
    got = client_for(player_a).get(url)
    assert got["ETag"] == f'"battle-{battle["id"]}-v1"'
    assert got.json()["can"]["report"] is True
    assert client_for(player_a).get(url, HTTP_IF_NONE_MATCH=got["ETag"]).status_code == 304
    report = {
        "version": 1,
        "scenario": "Búsqueda de tesoros",
        "winners": [a_warband],
        "participants": [{"warband": b_warband, "routed": True}],
        "events": [{"turn": 3, "kind": "out_of_action", "actor_warband": a_warband,
                    "target_warband": b_warband, "weapon": "arco"}],
    }  # fmt: skip
    reported = client_for(player_a).post(url + "report/", report, format="json")
    assert reported.status_code == 200, reported.json()
    assert reported["ETag"] == f'"battle-{battle["id"]}-v2"'
    stale = client_for(player_b).post(url + "confirm/", {}, HTTP_IF_MATCH=got["ETag"])
    assert stale.status_code == 409
    assert stale.json()["error"]["code"] == "stale_version"
    assert stale.json()["error"]["version"] == 2
    confirmed = client_for(player_b).post(url + "confirm/", {"version": 2})
    assert confirmed.status_code == 200 and confirmed.json()["status"] == "confirmed"
    again = client_for(player_a).post(url + "report/", report, format="json")
    assert again.status_code == 409

    events = client_for(player_b).get(url + "events/").json()["results"]
    assert events[0]["weapon"] == "arco"
    standings = client_for(player_b).get(f"{API}/campaigns/{slug}/standings/").json()
    assert [
        (r["warband_name"], r["points"], r["enemies_out_of_action"]) for r in standings["results"]
    ] == [
        ("Águilas", 3, 1),
        ("Cuervos", 0, 0),
    ]
    csv = client_for(player_b).get(f"{API}/campaigns/{slug}/standings/?format=csv")
    assert csv["Content-Type"].startswith("text/csv")
    assert "Águilas" in csv.content.decode()


def test_bad_input_answers_400_in_the_error_shape(world):
    users = world["users"]
    response = client_for(users["participant"]).post(
        _battle_url(world, "report/"),
        {"winners": [], "events": [{"turn": 0, "kind": "nonsense"}]},
        format="json",
    )
    assert response.status_code == 400
    error = response.json()["error"]
    assert "events.0.turn" in error["fields"] and "events.0.kind" in error["fields"]
    response = client_for(users["participant"]).post(
        _battle_url(world, "report/"), {}, format="json"
    )
    assert response.status_code == 400
    assert "winners" in response.json()["error"]["fields"]
    response = client_for(users["organiser"]).patch(
        _campaign_url(world), {"optional_rules": ["duels"]}, format="json"
    )
    assert response.status_code == 400
    assert world["battle"].__class__.objects.get(pk=world["battle"].pk).status == "scheduled"


def test_a_fighter_cannot_be_reported_taking_himself_out_of_action(world):
    """The API refuses what the report page refuses (one check, in the report's validator)."""
    battle = world["battle"]
    warband = battle.participants.order_by("id").first().warband
    fighter = warband.fighters.order_by("pk").first()
    report = {
        "winners": [warband.pk],
        "events": [{"turn": 2, "kind": "out_of_action", "actor": fighter.pk,
                    "target": fighter.pk}],
    }  # fmt: skip
    response = client_for(world["users"]["participant"]).post(
        _battle_url(world, "report/"), report, format="json"
    )
    assert response.status_code == 400, response.json()
    assert "a sí mismo" in response.json()["error"]["message"]  # Spanish by default
    battle.refresh_from_db()
    assert battle.status == "scheduled" and not battle.events.exists()


# --- query budgets ------------------------------------------------------------------------
def _paired_league(players):
    league = build_league(players=players, henchmen=2, prefix=f"q{players}-")
    round = services.round_open(campaign=league.campaign, by=league.organiser)
    battles = services.pairings_generate(round=round, by=league.organiser, method="swiss")
    for battle in battles:
        if battle.is_bye:
            continue
        winner = battle.participants.first().warband
        reports.battle_report(
            battle=battle, reporter=league.organiser, report=simple_report(battle, winner)
        )
        reports.battle_confirm(battle=battle, by=league.organiser)
    return league, [b for b in battles if not b.is_bye][0]


@pytest.fixture(scope="module")
def _paired_leagues(module_transaction):
    """A league of 2 and one of 9 with round 1 reported and confirmed (built once)."""
    with module_transaction:
        return {players: _paired_league(players) for players in (2, 9)}


@pytest.fixture
def paired_leagues(_paired_leagues, fresh):
    return fresh(_paired_leagues)


ENDPOINTS = [
    ("campaign list", lambda league, battle: f"{API}/campaigns/", 8),
    ("campaign", lambda league, battle: f"{API}/campaigns/{league.campaign.slug}/", 6),
    ("members", lambda league, battle: f"{API}/campaigns/{league.campaign.slug}/members/", 6),
    ("rounds", lambda league, battle: f"{API}/campaigns/{league.campaign.slug}/rounds/", 8),
    ("pairings", lambda league, battle: f"{API}/battles/?round=1&campaign={league.campaign.slug}",
     10),
    ("round pairings",
     lambda league, battle: f"{API}/campaigns/{league.campaign.slug}/rounds/1/pairings/", 12),
    ("standings", lambda league, battle: f"{API}/campaigns/{league.campaign.slug}/standings/", 10),
    ("battles", lambda league, battle: f"{API}/battles/", 10),
    ("battle", lambda league, battle: f"{API}/battles/{battle.pk}/", 12),
]  # fmt: skip


@pytest.mark.parametrize("players", [2, 9])
@pytest.mark.parametrize("endpoint", ENDPOINTS, ids=[e[0] for e in ENDPOINTS])
def test_query_budgets(paired_leagues, assert_max_queries, players, endpoint):
    _name, url, budget = endpoint
    league, battle = paired_leagues[players]
    client = client_for(league.organiser)
    with assert_max_queries(budget):
        response = client.get(url(league, battle))
    assert response.status_code == 200


def test_organisers_forbid_hired_swords_through_the_api(world):
    organiser = client_for(world["users"]["organiser"])
    campaign = world["league"].campaign
    url = _campaign_url(world)
    answer = organiser.patch(url, {"hired_swords_forbidden": "all"}, format="json")
    assert answer.status_code == 200, answer.json()
    assert answer.json()["hired_swords_forbidden"] == "all"
    for bad in (["nadie"], 7, {"a": 1}):
        refused = organiser.patch(url, {"hired_swords_forbidden": bad}, format="json")
        assert refused.status_code == 400
        assert "hired_swords_forbidden" in refused.json()["error"]["fields"]
    campaign.refresh_from_db()
    assert campaign.hired_swords_forbidden == "all"
