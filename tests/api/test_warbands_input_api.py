"""Bounded input (free text, names, imports), through the API: the same bounds and
the same import check as the pages, in the error shape, and nothing written."""

import json

import pytest
from rest_framework.test import APIClient

from tests.battles.factories import *  # noqa: F403 - the campaign fixtures
from tests.battles.factories import first_battle
from tests.warbands.fixtures import *  # noqa: F403 - the warband fixtures
from tests.warbands.fixtures import fighter_type
from tests.warbands.test_input_bounds import BAD_IMPORTS, BIG_NOTES, INVISIBLE_NAMES, snapshot
from warbands import services
from warbands.limits import NOTES_MAX_LENGTH
from warbands.models import Warband

pytestmark = [pytest.mark.django_db, pytest.mark.usefixtures("english")]


@pytest.fixture
def client(user):
    api = APIClient(HTTP_ACCEPT_LANGUAGE="en")
    api.force_authenticate(user)
    return api


def assert_error(response, status, code=None):
    assert response.status_code == status, response.content
    body = response.json()
    assert set(body) == {"error"} and {"code", "message", "fields"} <= set(body["error"])
    if code:
        assert body["error"]["code"] == code
    return body["error"]


def url(warband):
    return f"/api/v1/warbands/{warband.pk}/"


def test_patch_with_big_notes_is_400_and_changes_nothing(client, warband):
    before = snapshot()
    response = client.patch(
        url(warband), {"notes": BIG_NOTES, "version": warband.version}, format="json"
    )
    assert "notes" in assert_error(response, 400)["fields"]
    assert snapshot() == before
    ok = client.patch(
        url(warband), {"notes": "n" * NOTES_MAX_LENGTH, "version": warband.version}, format="json"
    )
    assert ok.status_code == 200 and len(ok.json()["notes"]) == NOTES_MAX_LENGTH


@pytest.mark.parametrize("name", INVISIBLE_NAMES)
def test_invisible_names_are_required_in_the_api(client, warband, name):
    before = snapshot()
    created = client.post(
        "/api/v1/warbands/",
        {"name": name, "warband_type": "mercenarios-de-rhovanion"},
        format="json",
    )
    assert "name" in assert_error(created, 400)["fields"]
    renamed = client.patch(url(warband), {"name": name, "version": warband.version}, format="json")
    assert "name" in assert_error(renamed, 400)["fields"]
    hired = client.post(
        f"{url(warband)}fighters/",
        {"fighter_type": "capitan-mercenario", "name": name, "version": warband.version},
        format="json",
    )
    assert "name" in assert_error(hired, 400)["fields"]
    assert snapshot() == before


@pytest.fixture
def exported(warband):
    services.fighter_hire(
        warband=warband, fighter_type=fighter_type("capitan-mercenario"), name="Bardo"
    )
    return services.warband_export(warband=warband)


@pytest.mark.parametrize("mutation", BAD_IMPORTS.values(), ids=BAD_IMPORTS.keys())
def test_bad_imports_are_400_and_write_nothing(client, exported, mutation):
    mutation(exported)
    before = snapshot()
    body = json.dumps(exported)  # as sent over the wire (a lone surrogate escaped)
    response = client.post("/api/v1/warbands/import/", body, content_type="application/json")
    assert_error(response, 400)
    assert snapshot() == before


def test_a_100000_deep_import_is_400(client, warband):
    before = snapshot()
    body = "[" * 100_000 + "]" * 100_000
    response = client.post("/api/v1/warbands/import/", body, content_type="application/json")
    assert_error(response, 400)
    assert snapshot() == before


def test_an_import_names_the_field_at_fault(client, exported):
    exported["fighters"][0]["name"] = 123
    fields = assert_error(client.post("/api/v1/warbands/import/", exported, format="json"), 400)[
        "fields"
    ]
    assert list(fields) == ["fighters.0.name"]


def test_a_good_import_still_works(client, exported):
    response = client.post(
        "/api/v1/warbands/import/", json.loads(json.dumps(exported)), format="json"
    )
    assert response.status_code == 201, response.content
    assert Warband.objects.get(pk=response.json()["id"]).imported


def test_deleting_a_warband_that_joined_a_campaign_is_409(make_league):
    league = make_league()
    battle = first_battle(league)
    for index in (0, 1):
        warband = league.warband(index)
        api = APIClient(HTTP_ACCEPT_LANGUAGE="en")
        api.force_authenticate(league.user(index))
        error = assert_error(api.delete(url(warband)), 409, "warband_on_record")
        assert "cannot be deleted" in error["message"]
        assert Warband.objects.filter(pk=warband.pk).exists()
    assert battle.participants.count() == 2


def test_deleting_a_fresh_warband_still_works(client, warband):
    assert client.delete(url(warband)).status_code == 204
    assert not Warband.objects.filter(pk=warband.pk).exists()
