"""Requests that once answered 500 (found by fuzzing the OpenAPI schema): now 400/404 in the one
error shape, with nothing written."""

import json

import pytest

from battles.models import Campaign
from tests.battles.factories import *  # noqa: F403 - league fixtures
from tests.battles.factories import first_battle

pytestmark = pytest.mark.django_db

HUGE = 10**30


def shaped(response, *statuses):
    assert response.status_code in statuses, (response.status_code, response.content[:300])
    body = json.loads(response.content)
    assert set(body["error"]) == {"code", "message", "fields"}
    return body["error"]


@pytest.fixture
def organiser_client(league, api_client):
    api_client.force_authenticate(league.organiser)
    return api_client


@pytest.mark.parametrize(
    "path",
    [
        "/api/v1/battles/AAA/",
        "/api/v1/battles/AAA/events/",
        "/api/v1/warbands/AAA/sheet/",
        f"/api/v1/warbands/{HUGE}/fighters/1/",
        f"/api/v1/warbands/{HUGE}/groups/1/",
        "/api/v1/warbands/1/fighters/²/",
    ],
)
def test_malformed_or_huge_ids_in_urls_are_404(organiser_client, path):
    shaped(organiser_client.get(path), 404)


def test_huge_ids_in_bodies_are_400(organiser_client, league):
    battle = first_battle(league)
    error = shaped(
        organiser_client.post(
            f"/api/v1/battles/{battle.pk}/report/",
            {"winners": [HUGE], "participants": [{"warband": 1, "fighters": [HUGE]}]},
            format="json",
        ),
        400,
    )
    assert error["fields"]


def test_huge_or_infinite_versions_are_400(organiser_client, league, api_client):
    warband = league.warband(0)
    owner = api_client
    owner.force_authenticate(league.user(0))
    fighter = warband.fighters.first()
    for version in (HUGE, "1e400", -1):
        response = owner.post(
            f"/api/v1/warbands/{warband.pk}/fighters/{fighter.pk}/retire/",
            data=f'{{"version": {version}}}',
            content_type="application/json",
        )
        shaped(response, 400)
    fighter.refresh_from_db()
    assert fighter.status == "active"


def test_deeply_nested_json_is_a_parse_error(api_client):
    body = '{"expression": ' + "[" * 3000 + "]" * 3000 + "}"
    shaped(api_client.post("/api/v1/rules/roll/", data=body, content_type="application/json"), 400)


def test_superscript_digits_are_not_ids(organiser_client, league):
    response = organiser_client.get(
        f"/api/v1/campaigns/{league.campaign.slug}/standings/?round=%C2%B2"
    )
    assert response.status_code == 200  # an unknown round means "overall"
    shaped(organiser_client.post("/api/v1/campaigns/%C2%B2/rounds/1/resolve/"), 404)


@pytest.mark.parametrize(
    ("kind", "payload", "field"),
    [
        ("attribute", {"value": 4, "attribute": 0}, "attribute"),
        ("charge", {"movement_cm": 1e308}, "movement_cm"),
        ("run", {"movement_cm": -1}, "movement_cm"),
    ],
)
def test_odd_check_parameters_are_400(api_client, kind, payload, field):
    error = shaped(api_client.post(f"/api/v1/rules/checks/{kind}/", payload, format="json"), 400)
    assert field in error["fields"]


def test_malformed_campaign_tables_are_refused(organiser_client, league):
    response = organiser_client.patch(
        f"/api/v1/campaigns/{league.campaign.slug}/",
        {"tables": {"hero_advances": {"x": []}}},
        format="json",
    )
    shaped(response, 400)
    response = organiser_client.patch(
        f"/api/v1/campaigns/{league.campaign.slug}/",
        {"tables": {"henchman_injuries": [{"min": 3, "max": 1, "result": "dead"}]}},
        format="json",
    )
    assert "tables" in shaped(response, 400)["fields"]
    assert Campaign.objects.get(pk=league.campaign.pk).tables == {}


def test_a_malformed_if_match_on_a_battle_is_400(organiser_client, league):
    battle = first_battle(league)
    response = organiser_client.put(
        f"/api/v1/battles/{battle.pk}/pairing/",
        {"warbands": [league.warband(0).pk, league.warband(1).pk]},
        format="json",
        HTTP_IF_MATCH="x",
    )
    assert "version" in shaped(response, 400)["fields"]


def test_a_warband_cannot_be_paired_with_itself(organiser_client, league):
    battle = first_battle(league)
    own = league.warband(0).pk
    response = organiser_client.put(
        f"/api/v1/battles/{battle.pk}/pairing/", {"warbands": [own, own]}, format="json"
    )
    shaped(response, 400)
    battle.refresh_from_db()
    assert battle.participants.count() == 2 and not battle.is_bye


NUL_API_URLS = [
    "/api/v1/catalogue/equipment/%00/",
    "/api/v1/campaigns/a%00b/",
    "/api/v1/decisions/?status=%00",
    "/api/v1/warbands/?search=a%00",
]


@pytest.mark.parametrize("path", NUL_API_URLS)
def test_a_nul_byte_in_an_api_address_is_400(organiser_client, path):
    error = shaped(organiser_client.get(path), 400)
    assert error["code"] == "bad_request"


@pytest.mark.parametrize("path", NUL_API_URLS)
def test_a_nul_byte_is_400_for_anonymous_callers_and_writes_too(api_client, path):
    shaped(api_client.get(path), 400)
    shaped(api_client.post(path, {}, format="json"), 400)


@pytest.mark.parametrize(
    "path", ["/share/abc%00def/", "/campaigns/a%00b/", "/warbands/?q=%00", "/rules/?x=%00"]
)
def test_a_nul_byte_in_a_page_address_is_400(client, league, path):
    client.force_login(league.organiser)
    response = client.get(path)
    assert response.status_code == 400
    assert "NUL" in response.content.decode()


def test_a_nul_byte_in_a_page_form_is_400(client, league):
    client.force_login(league.organiser)
    response = client.post("/campaigns/new/", {"name": "Liga\x00", "description": "x"})
    assert response.status_code == 400
    assert "NUL" in response.content.decode()


@pytest.mark.parametrize("content_type", ["json", "multipart", "form"])
def test_a_nul_in_any_body_field_is_a_400_naming_it_and_forms_are_415(content_type):
    """Schema fuzzing found a NUL in a looked-up slug (the stash's ``item``, multipart) reaching
    PostgreSQL, which refuses it (500). Every parser refuses a NUL anywhere, naming the field."""
    from django.contrib.auth import get_user_model
    from rest_framework.test import APIClient

    from warbands.content_loader import content_pack_load
    from warbands.models import WarbandType
    from warbands.services import warband_create

    content_pack_load()
    owner = get_user_model().objects.create(username="nul-probe")
    warband = warband_create(
        owner=owner,
        warband_type=WarbandType.objects.get(slug="mercenarios-de-rhovanion"),
        name="Sonda",
    )
    api = APIClient()
    api.force_authenticate(owner)
    url = f"/api/v1/warbands/{warband.pk}/stash/"
    body = {"item": "dag\x00a", "version": str(warband.version)}
    if content_type == "json":
        response = api.post(url, body, format="json")
    elif content_type == "multipart":
        response = api.post(url, body, format="multipart")
    else:
        response = api.post(
            url,
            "item=dag%00a&version=1",
            content_type="application/x-www-form-urlencoded",
        )
    if content_type != "json":
        # Request bodies are JSON only: a form is refused before it is read.
        assert response.status_code == 415, response.content[:300]
        assert response.json()["error"]["code"] == "unsupported_media_type"
        assert not warband.equipment_items.exists()
        return
    assert response.status_code == 400, response.content[:300]
    error = response.json()["error"]
    assert "NUL" in " ".join(error["fields"]["item"])  # refused as such, before any lookup
    assert not warband.equipment_items.exists()


def test_a_form_with_too_many_fields_is_refused_in_the_error_shape(
    organiser_client, client, league
):
    """Schema fuzzing posted the import as a form of 1,000+ fields: Django refuses it before
    any view (TooManyFieldsSent), and the API answered with Django's HTML 400 page."""
    fields = "&".join(f"groups=name{i}" for i in range(1100))
    response = organiser_client.post(
        "/api/v1/warbands/import/", fields, content_type="application/x-www-form-urlencoded"
    )
    shaped(response, 415)  # a form is not read at all: bodies are JSON
    assert response.json()["error"]["code"] == "unsupported_media_type"
    # A page keeps Django's own 400 page.
    client.force_login(league.organiser)
    page = client.post("/campaigns/new/", fields, content_type="application/x-www-form-urlencoded")
    assert page.status_code == 400 and not page["Content-Type"].startswith("application/json")
