"""Free text inside JSON is bounded and storable: campaign table overrides
and scenario names, typed dice and post-battle options go through ``json_check``; the API
answers 400 in the error shape and writes nothing (PostgreSQL's jsonb refused a NUL: a 500)."""

from __future__ import annotations

import json

import pytest
from django.utils import translation
from rest_framework.test import APIClient

from battles.models import Campaign, Job, PostBattleRun
from battles.postbattle.jobs import MAX_TYPED_FACES
from tests.battles.factories import *  # noqa: F403 - the campaign fixtures
from tests.battles.test_postbattle import fight, leader, out_of_action
from warbands.campaign_tables import TABLES_MAX_BYTES

pytestmark = pytest.mark.django_db

API = "/api/v1"


@pytest.fixture(autouse=True)
def _english():
    with translation.override("en"):
        yield


def client_for(user) -> APIClient:
    api = APIClient(HTTP_ACCEPT_LANGUAGE="en")
    api.force_authenticate(user)
    return api


def post_json(api: APIClient, method: str, url: str, body) -> object:
    """The body as sent over the wire (``json.dumps`` escapes a NUL as ``\\u0000``)."""
    return getattr(api, method)(url, json.dumps(body), content_type="application/json")


def assert_400(response, field: str) -> str:
    assert response.status_code == 400, response.content[:300]
    error = response.json()["error"]
    assert set(error) == {"code", "message", "fields"}
    assert field in error["fields"], error
    return " ".join(error["fields"][field])


ROW = {"min": 1, "max": 6, "result": "fine"}
BAD_TABLES = {
    "NUL in a scenario name": {"scenarios": [{"name": "Emboscada\x00"}]},
    "NUL in a row's result": {"henchman_injuries": [{**ROW, "result": "dead\x00"}]},
    "NUL in a row's key": {"henchman_injuries": [{**ROW, "note\x00": "x"}]},
    "a long text in a row": {"henchman_injuries": [{**ROW, "note": "x" * 5000}]},
    "too many rows": {"exploration": [ROW] * (TABLES_MAX_BYTES // 30)},
    "nested too deeply": {"hero_advances": [{**ROW, "options": [[[[["s"]]]]]}]},
}


@pytest.mark.parametrize("tables", BAD_TABLES.values(), ids=BAD_TABLES.keys())
def test_bad_table_overrides_are_400_and_write_nothing(league, tables):
    organiser = client_for(league.organiser)
    url = f"{API}/campaigns/{league.campaign.slug}/"
    assert_400(post_json(organiser, "patch", url, {"tables": tables}), "tables")
    assert Campaign.objects.get(pk=league.campaign.pk).tables == league.campaign.tables
    created = post_json(organiser, "post", f"{API}/campaigns/", {"name": "Liga", "tables": tables})
    assert_400(created, "tables")
    assert not Campaign.objects.filter(name="Liga").exists()


def test_good_table_overrides_still_save(league):
    tables = {
        "scenarios": [{"name": "Emboscada", "attacker_defender": True}],
        "henchman_injuries": [{"min": 1, "max": 2, "result": "dead"}, {**ROW, "min": 3}],
    }
    url = f"{API}/campaigns/{league.campaign.slug}/"
    response = post_json(client_for(league.organiser), "patch", url, {"tables": tables})
    assert response.status_code == 200, response.content[:300]
    assert Campaign.objects.get(pk=league.campaign.pk).tables == tables


@pytest.fixture
def battle(league):
    a, b = league.warband(0), league.warband(1)
    return fight(league, events=[out_of_action(leader(a), leader(b))])


def bad_resolves(league) -> dict[str, tuple[dict, str]]:
    own, other = str(league.warband(0).pk), str(league.warband(1).pk)
    return {
        "NUL in a faces key": ({"faces": {f"{own}\x00": [6]}}, "faces"),
        "a warband not in the battle": ({"faces": {"999999": [6]}}, "faces"),
        "a long faces key": ({"faces": {"1" * 5000: [6]}}, "faces"),
        "too many faces": ({"faces": {own: [3] * (MAX_TYPED_FACES + 1), other: [3]}}, "faces"),
        "NUL in a bonus key": ({"scenario_bonus": {"12\x00": 1}}, "scenario_bonus"),
        "a bonus key that is no id": ({"scenario_bonus": {"lider": 1}}, "scenario_bonus"),
    }


@pytest.mark.parametrize(
    "case",
    [
        "NUL in a faces key",
        "a warband not in the battle",
        "a long faces key",
        "too many faces",
        "NUL in a bonus key",
        "a bonus key that is no id",
    ],
)
def test_bad_resolve_inputs_are_400_and_write_nothing(league, battle, case):
    body, field = bad_resolves(league)[case]
    response = post_json(
        client_for(league.organiser), "post", f"{API}/battles/{battle.pk}/resolve/", body
    )
    assert_400(response, field)
    assert not PostBattleRun.objects.exists()
    assert not Job.objects.exists()
    battle.refresh_from_db()
    assert battle.status == "confirmed"


def test_typed_faces_for_both_warbands_still_resolve(
    league, battle, django_capture_on_commit_callbacks
):
    own, other = str(league.warband(0).pk), str(league.warband(1).pk)
    body = {"faces": {own: [3] * 40, other: [4] * 40}, "scenario_bonus": {"group:1": 1}}
    with django_capture_on_commit_callbacks(execute=True):
        response = post_json(
            client_for(league.organiser), "post", f"{API}/battles/{battle.pk}/resolve/", body
        )
    assert response.status_code == 202, response.content[:300]
    assert PostBattleRun.objects.get().faces == body["faces"]
