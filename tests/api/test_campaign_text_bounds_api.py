"""Bounded text, campaign side: a battle report's notes, a dispute's reason and a
campaign's description are bounded by their models, so the API answers 400 and writes nothing."""

from __future__ import annotations

import pytest
from rest_framework.test import APIClient

from battles.models import Battle, BattleCorrection, Campaign
from tests.battles.factories import *  # noqa: F403 - the campaign fixtures
from tests.battles.factories import first_battle
from warbands.limits import DESCRIPTION_MAX_LENGTH, NOTES_MAX_LENGTH

pytestmark = pytest.mark.django_db

API = "/api/v1"
BIG = "x" * 2_400_000


def client_for(user) -> APIClient:
    api = APIClient(HTTP_ACCEPT_LANGUAGE="en")
    api.force_authenticate(user)
    return api


def report(battle, notes: str) -> dict:
    winner, loser = (p.warband_id for p in battle.participants.order_by("pk"))
    return {
        "version": battle.version,
        "winners": [winner],
        "participants": [{"warband": loser, "routed": True}],
        "notes": notes,
    }


def assert_error(response, status: int) -> dict:
    assert response.status_code == status, response.content[:300]
    return response.json()["error"]


def test_a_report_with_big_notes_is_400_and_leaves_the_battle_as_it_was(league):
    battle = first_battle(league)
    url = f"{API}/battles/{battle.pk}/report/"
    player = client_for(league.user(0))
    error = assert_error(player.post(url, report(battle, BIG), format="json"), 400)
    assert "notes" in error["fields"]
    fresh = Battle.objects.get(pk=battle.pk)
    assert (fresh.status, fresh.notes, fresh.version) == ("scheduled", "", battle.version)
    ok = player.post(url, report(battle, "n" * NOTES_MAX_LENGTH), format="json")
    assert ok.status_code == 200, ok.content[:300]


def test_a_big_dispute_reason_is_400(league):
    battle = first_battle(league)
    client_for(league.user(0)).post(
        f"{API}/battles/{battle.pk}/report/", report(battle, ""), format="json"
    )
    battle.refresh_from_db()
    response = client_for(league.user(1)).post(
        f"{API}/battles/{battle.pk}/dispute/",
        {"reason": BIG, "version": battle.version},
        format="json",
    )
    assert_error(response, 400)
    assert Battle.objects.get(pk=battle.pk).status == "reported"
    assert not BattleCorrection.objects.exists()


def test_a_big_campaign_description_is_400(league):
    url = f"{API}/campaigns/{league.campaign.slug}/"
    organiser = client_for(league.organiser)
    error = assert_error(organiser.patch(url, {"description": BIG}, format="json"), 400)
    assert "description" in error["fields"]
    assert Campaign.objects.get(pk=league.campaign.pk).description == league.campaign.description
    created = organiser.post(
        f"{API}/campaigns/", {"name": "Liga", "description": BIG}, format="json"
    )
    assert_error(created, 400)
    assert Campaign.objects.filter(name="Liga").count() == 0
    fits = organiser.patch(url, {"description": "d" * DESCRIPTION_MAX_LENGTH}, format="json")
    assert fits.status_code == 200, fits.content[:300]


@pytest.mark.parametrize(
    "name", ["\u200b\u200b", "\u3164", "\u034f\ufe0f", " \u2060\u180e ", "\u115f\uffa0"]
)
def test_a_campaign_name_of_invisible_characters_is_blank(league, name):
    organiser = client_for(league.organiser)
    created = organiser.post(f"{API}/campaigns/", {"name": name}, format="json")
    assert "name" in assert_error(created, 400)["fields"]
    assert Campaign.objects.count() == 1
    url = f"{API}/campaigns/{league.campaign.slug}/"
    error = assert_error(organiser.patch(url, {"name": name}, format="json"), 400)
    assert "name" in error["fields"]
    assert Campaign.objects.get(pk=league.campaign.pk).name == league.campaign.name


def test_a_campaign_name_loses_its_invisible_ends(league):
    organiser = client_for(league.organiser)
    created = organiser.post(f"{API}/campaigns/", {"name": "\u200bLiga\ufeff"}, format="json")
    assert created.status_code == 201, created.content[:300]
    assert created.json()["name"] == "Liga"
    assert Campaign.objects.filter(name="Liga").count() == 1
