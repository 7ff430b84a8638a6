"""House-rule values: one validation (``battles.campaigns.house_rules.house_rules_clean``)
behind every door — the campaign form, the API, the services (and so the organisers' admin)."""

from __future__ import annotations

import json

import pytest
from django.conf import settings
from django.core.exceptions import ValidationError
from django.test import Client
from django.urls import reverse
from django.utils import translation
from rest_framework.test import APIClient

from battles.battlelog.scenarios import campaign_scenarios
from battles.campaigns import services
from battles.campaigns.forms import CampaignForm
from battles.campaigns.house_rules import house_rules_clean
from battles.models import Campaign
from tests.battles.factories import *  # noqa: F403 - the campaign fixtures
from tests.battles.factories import quick_user

pytestmark = pytest.mark.django_db

VALID_FORM = {
    "name": "Liga de Fornost", "preset": "raid", "points_win": 3, "points_draw": 1,
    "points_loss": 0, "points_bye": 3,
}  # fmt: skip
BAD_VALUES = [
    ("starting_treasury", -1),
    ("starting_treasury", 100_001),
    ("rating_cap", 0),
    ("max_fighter_type_copies", 100),
    ("points_win", 100),
    ("points_loss", -100),
    ("points_bye", 150),
    ("points_draw", 10**12),
    ("table_size", "x" * 41),
    ("tables", {"nonsense": []}),
    ("tables", {"henchman_injuries": [{"min": 3, "max": 1, "result": "dead"}]}),
]


def domain_message(field: str, value) -> str:
    with pytest.raises(ValidationError) as error:
        house_rules_clean({field: value})
    return error.value.message_dict[field]


def test_the_domain_checks_only_the_values_given_and_allows_no_limit():
    assert house_rules_clean({}) == {}
    clean = house_rules_clean(
        {"rating_cap": None, "max_fighter_type_copies": "2", "optional_rules": ["challenges"] * 2}
    )
    assert clean == {
        "rating_cap": None,
        "max_fighter_type_copies": 2,
        "optional_rules": ["challenges"],
    }
    assert house_rules_clean({"tables": None}) == {"tables": {}}


def test_the_domain_lists_every_wrong_field_at_once():
    with pytest.raises(ValidationError) as error:
        house_rules_clean(
            {
                "points_win": 0,
                "points_draw": 1,
                "points_loss": 2,
                "starting_treasury": None,
                "optional_rules": ["x"],
            }
        )
    assert set(error.value.message_dict) == {"points_win", "starting_treasury", "optional_rules"}
    assert error.value.message_dict["points_win"] == [
        "A win cannot be worth fewer points than a loss."
    ]


@pytest.mark.parametrize(("field", "value"), BAD_VALUES)
def test_the_same_bad_value_gets_the_same_message_through_every_door(league_content, field, value):
    organiser = quick_user("arnor")
    with translation.override("en"):
        expected = domain_message(field, value)
        form = CampaignForm(
            {**VALID_FORM, field: json.dumps(value) if field == "tables" else value}
        )
        assert not form.is_valid()
        assert form.errors[field] == expected
        with pytest.raises(ValidationError) as error:
            services.campaign_create(organiser=organiser, name="Liga", house_rules={field: value})
        assert error.value.message_dict[field] == expected
    api = APIClient()
    api.force_authenticate(organiser)
    response = api.post(
        "/api/v1/campaigns/",
        {"name": "Liga de Fornost", field: value},
        format="json",
        HTTP_ACCEPT_LANGUAGE="en",
    )
    assert response.status_code == 400
    assert response.json()["error"]["fields"][field] == expected
    assert Campaign.objects.count() == 0


def test_points_are_bounded_through_the_organisers_admin_too(league):
    client = Client()
    client.cookies[settings.LANGUAGE_COOKIE_NAME] = "en"
    client.force_login(league.organiser)
    campaign = league.campaign
    url = reverse("organisers:battles_campaign_change", args=[campaign.pk])
    form = {
        "name": campaign.name, "description": "", "preset": campaign.preset,
        "starting_treasury": 500, "rating_cap": "", "max_fighter_type_copies": "",
        "points_win": 300, "points_draw": 1, "points_loss": 0, "points_bye": 3,
        "optional_rules": "[]", "tables": "{}", "table_size": "", "game_length": "",
        "memberships-TOTAL_FORMS": 0, "memberships-INITIAL_FORMS": 0,
        "rounds-TOTAL_FORMS": 0, "rounds-INITIAL_FORMS": 0,
    }  # fmt: skip
    response = client.post(url, form)
    assert response.status_code == 200
    assert "Points must be a whole number from -99 to 99." in response.content.decode()
    campaign.refresh_from_db()
    assert campaign.points_win == 3


def test_a_campaign_may_list_its_own_scenarios_for_the_battle_log():
    scenarios = [
        {"name": "Asalto a Amon Sûl", "attacker_defender": True},
        {"name": "Niebla en las Quebradas"},
    ]
    clean = house_rules_clean({"tables": {"scenarios": scenarios}})
    campaign = Campaign(tables=clean["tables"])
    assert campaign_scenarios(campaign) == [
        {"name": "Asalto a Amon Sûl", "attacker_defender": True},
        {"name": "Niebla en las Quebradas", "attacker_defender": False},
    ]


@pytest.mark.parametrize(
    "scenarios",
    [[], "Escaramuza", [{"name": ""}], [{"name": "x" * 121}], [{"name": "a", "attacker": 1}]],
)
def test_a_malformed_scenario_list_is_refused(scenarios):
    with pytest.raises(ValidationError) as refused:
        house_rules_clean({"tables": {"scenarios": scenarios}})
    assert "tables" in refused.value.message_dict
