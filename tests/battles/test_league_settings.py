"""League settings declared once (``battles.campaigns.league_settings``): every door shows and
checks every declared setting, and ``max_warriors`` — added as a newcomer would add a house
rule — works through the page, the API, the organisers' admin, the presets, the summary and the
roster checks (at join and at hire)."""

from __future__ import annotations

import inspect
from types import SimpleNamespace

import pytest
from django import forms
from django.core.exceptions import FieldDoesNotExist, ValidationError
from django.test import Client
from django.urls import reverse
from django.utils import translation
from django.utils.module_loading import import_string
from drf_spectacular.generators import SchemaGenerator
from rest_framework import serializers
from rest_framework.test import APIClient

from battles.admin import CampaignAdminForm
from battles.campaigns import league_settings, services
from battles.campaigns.forms import SETTING_FIELDS, CampaignForm
from battles.campaigns.house_rules import house_rules_clean
from battles.campaigns.league_settings import Kind, Setting
from battles.campaigns.presets import PRESETS
from battles.campaigns.serializers import (
    CampaignSerializer,
    CampaignWriteSerializer,
    setting_field,
)
from battles.campaigns.summary import house_rules_summary, shown
from battles.models import Campaign
from rules.engine.optional_rules import OPTIONAL_RULE_KEYS as ENGINE_OPTIONAL_RULES
from tests.battles.factories import *  # noqa: F403 - the campaign fixtures
from tests.battles.factories import build_league, new_warband, quick_user
from warbands import services as warband_services

pytestmark = pytest.mark.django_db

# What a campaign is besides its settings; a column of ``Campaign`` not named here must be
# declared (a newcomer who adds a column and forgets the declaration is told so).
OWN_COLUMNS = {
    "id", "name", "slug", "description", "state", "archived", "public", "join_code", "preset",
    "created_by", "created_at", "updated_at",
    # The content pack version: not a setting a form sets, it moves only through
    # ``campaign_pack_move`` after the organiser has seen what it does to each warband.
    "pack_version",
}  # fmt: skip


def _schema() -> dict:
    return SchemaGenerator().get_schema(request=None, public=True)


def _door(problems: list[str], door: str, check) -> None:
    """Run one door's check; a failure or a crash is a problem named after the door."""
    try:
        if not check():
            problems.append(door)
    except Exception as error:  # noqa: BLE001 - any crash of a door is what we report
        problems.append(f"{door} ({type(error).__name__}: {error})")


def _model_agrees(setting: Setting) -> bool:
    field = Campaign._meta.get_field(setting.key)
    if setting.kind == Kind.TYPES:
        return field.many_to_many
    default = field.default() if callable(field.default) else field.default
    return field.null == setting.no_limit and (
        setting.default is None or default == setting.default
    )


def _applied(setting: Setting) -> bool:
    if setting.check is not None:
        return callable(setting.check)
    if setting.applied_by:
        return setting.key in inspect.getsource(import_string(setting.applied_by))
    return setting.guidance


def _validated(setting: Setting) -> bool:
    if setting.kind == Kind.NUMBER:
        low, high = setting.bounds
        with pytest.raises(ValidationError) as error:
            house_rules_clean({setting.key: high + 1})
        return str(high) in error.value.message_dict[setting.key][0]
    if setting.kind == Kind.TEXT:
        with pytest.raises(ValidationError):
            house_rules_clean({setting.key: "x" * (setting.max_length + 1)})
        return True
    if setting.kind == Kind.TYPES:
        return True  # slugs of the catalogue, checked by the API's field and the form's choices
    wrong = {"no-such-table": []} if setting.kind == Kind.TABLES else ["no-such-thing"]
    with pytest.raises(ValidationError):
        house_rules_clean({setting.key: wrong})
    return True


def parity_problems(setting: Setting, *, campaign, schema: dict, page: str, request) -> list:
    """The doors ``setting`` is missing from (empty: it is everywhere)."""
    problems: list[str] = []
    answer = CampaignSerializer(campaign, context={"request": request})
    names = SETTING_FIELDS[setting.kind].names(setting)
    components = schema["components"]["schemas"]
    _door(problems, "model", lambda: _model_agrees(setting))
    _door(problems, "form", lambda: set(names) <= set(CampaignForm().fields))
    _door(problems, "page", lambda: f'name="{names[0]}"' in page)
    _door(problems, "admin", lambda: setting.key in CampaignAdminForm.base_fields)
    _door(problems, "API write", lambda: setting.key in CampaignWriteSerializer().fields)
    _door(problems, "API answer", lambda: setting.key in answer.data)
    _door(
        problems,
        "schema",
        lambda: (
            setting.key in components["CampaignWriteRequest"]["properties"]
            and setting.key in components["Campaign"]["properties"]
        ),
    )
    _door(
        problems,
        "summary",
        lambda: any(setting.key in line.keys for line in house_rules_summary(campaign)),
    )
    _door(problems, "enforcement", lambda: _applied(setting))
    _door(problems, "validation", lambda: _validated(setting))
    _door(
        problems,
        "presets",
        lambda: not setting.presets or set(setting.presets) == {p.slug for p in PRESETS},
    )
    return problems


@pytest.fixture(scope="module")
def _doors(module_transaction):
    """What the parity check reads: a campaign, the schema, the creation page (built once)."""
    with module_transaction:
        league = build_league(prefix="d-")
        client = Client()
        client.force_login(league.organiser)
        page = client.get(reverse("campaign-create")).content.decode()
        return {"league": league, "schema": _schema(), "page": page}


@pytest.fixture
def doors(_doors, fresh, rf):
    """The above, and a request from the campaign's organiser (the schema and the page are
    only read: the league alone is copied)."""
    league = fresh(_doors["league"])
    request = rf.get("/")
    request.user = league.organiser
    return {
        "campaign": league.campaign,
        "schema": _doors["schema"],
        "page": _doors["page"],
        "request": request,
    }


@pytest.mark.parametrize("setting", league_settings.SETTINGS, ids=lambda s: s.key)
def test_every_declared_setting_is_behind_every_door(setting, doors):
    assert parity_problems(setting, **doors) == []


def test_a_setting_declared_but_not_stored_nor_enforced_is_caught(doors, monkeypatch):
    """A newcomer declares a rule and stops there: the parity check names what is missing."""
    scratch = Setting(
        "scratch_limit",
        Kind.NUMBER,
        "Scratch limit",
        league_settings.LIMITS,
        bounds=(1, 9),
        no_limit=True,
    )
    monkeypatch.setattr(league_settings, "SETTINGS", (*league_settings.SETTINGS, scratch))
    problems = parity_problems(scratch, **{**doors, "schema": _schema()})
    doors = {problem.split(" (")[0] for problem in problems}
    assert {"model", "admin", "API answer", "schema", "summary", "enforcement"} <= doors
    # The doors built from the declarations at each use have it already.
    assert {"form", "API write", "validation"}.isdisjoint(doors)


def test_every_column_of_a_campaign_is_its_own_or_a_declared_setting():
    declared = {setting.key for setting in league_settings.SETTINGS}
    columns = {field.name for field in Campaign._meta.concrete_fields}
    columns |= {field.name for field in Campaign._meta.many_to_many}
    assert columns - OWN_COLUMNS - declared == set()
    assert declared - columns == set()


def test_a_column_without_a_declaration_is_caught():
    with pytest.raises(FieldDoesNotExist):
        Campaign._meta.get_field("scratch_limit")


def test_the_optional_rules_are_the_engines_and_each_has_words():
    assert [rule.key for rule in league_settings.OPTIONAL_RULES] == list(ENGINE_OPTIONAL_RULES)
    with translation.override("en"):
        for rule in league_settings.OPTIONAL_RULES:
            assert str(rule.label) != rule.key and str(rule.help)
            assert "seed" not in str(rule.label).lower()
    with translation.override("es"):
        labels = {rule.key: str(rule.label) for rule in league_settings.OPTIONAL_RULES}
    assert labels["challenges"] == "Desafíos"


def test_an_unknown_optional_rule_is_refused_with_the_engines_list():
    with pytest.raises(ValidationError) as error, translation.override("en"):
        house_rules_clean({"optional_rules": ["duels"]})
    assert error.value.message_dict["optional_rules"] == [
        "Unknown optional rule; choose from: " + ", ".join(ENGINE_OPTIONAL_RULES) + "."
    ]


def test_each_limit_has_its_own_message():
    with translation.override("en"):
        messages = {
            key: _message(key, -1)
            for key in ("starting_treasury", "rating_cap", "max_fighter_type_copies")
        }
        warriors = _message("max_warriors", 100)
    assert "copies" not in warriors and "Maximum warriors in a warband" in warriors
    assert warriors.endswith("from 1 to 99, or empty for no limit.")
    assert len(set(messages.values()) | {warriors}) == 4


def _message(key: str, value) -> str:
    with pytest.raises(ValidationError) as error:
        house_rules_clean({key: value})
    return error.value.message_dict[key][0]


# --- max_warriors, door by door -----------------------------------------------------------------
def test_presets_set_the_warriors_limit(league_content):
    organiser = quick_user("arnor")
    skirmish = services.campaign_create(organiser=organiser, name="Liga", preset="skirmish")
    legends = services.campaign_create(organiser=organiser, name="Liga 2", preset="legends")
    assert (skirmish.max_warriors, legends.max_warriors) == (10, None)
    mine = services.campaign_create(
        organiser=organiser, name="Liga 3", preset="skirmish", house_rules={"max_warriors": None}
    )
    assert mine.max_warriors is None


def test_the_page_sets_shows_and_lifts_the_warriors_limit(league_content):
    organiser = quick_user("arnor")
    client = Client()
    client.force_login(organiser)
    form = {"name": "Liga de Arnor", "preset": "raid", "max_warriors": "8", "tables": ""}
    response = client.post(reverse("campaign-create"), form)
    campaign = Campaign.objects.get(name="Liga de Arnor")
    assert response.status_code == 302 and campaign.max_warriors == 8
    page = client.get(reverse("campaign-detail", args=[campaign.slug])).content.decode()
    assert 'data-testid="max-warriors-rule">8</dd>' in page
    edit = reverse("campaign-edit", args=[campaign.slug])
    assert client.get(edit).context["form"].initial["max_warriors"] == 8
    client.post(edit, {**form, "max_warriors": "", "no_max_warriors": "on"})
    campaign.refresh_from_db()
    assert campaign.max_warriors is None
    page = client.get(reverse("campaign-detail", args=[campaign.slug])).content.decode()
    assert 'data-testid="max-warriors-rule">sin límite</dd>' in page
    response = client.post(edit, {**form, "max_warriors": "0"})
    assert "Máximo de guerreros en una banda" in response.context["form"].errors["max_warriors"][0]


def test_the_api_reads_writes_and_bounds_the_warriors_limit(league_content):
    organiser = quick_user("arnor")
    api = APIClient()
    api.force_authenticate(organiser)
    created = api.post("/api/v1/campaigns/", {"name": "Liga", "max_warriors": 9}, format="json")
    assert created.status_code == 201 and created.json()["max_warriors"] == 9
    url = f"/api/v1/campaigns/{created.json()['slug']}/"
    refused = api.patch(url, {"max_warriors": 0}, format="json", HTTP_ACCEPT_LANGUAGE="en")
    assert refused.status_code == 400
    assert refused.json()["error"]["fields"]["max_warriors"] == [
        "Maximum warriors in a warband: a whole number from 1 to 99, or empty for no limit."
    ]
    lifted = api.patch(url, {"max_warriors": None}, format="json")
    assert lifted.status_code == 200 and lifted.json()["max_warriors"] is None
    properties = _schema()["components"]["schemas"]["CampaignWriteRequest"]["properties"]
    assert (
        properties["max_warriors"]["minimum"] == 1 and properties["max_warriors"]["maximum"] == 99
    )


def test_the_organisers_admin_sets_the_warriors_limit(league):
    client = Client()
    client.force_login(league.organiser)
    campaign = league.campaign
    url = reverse("organisers:battles_campaign_change", args=[campaign.pk])
    form = {
        "name": campaign.name, "description": "", "preset": campaign.preset, "max_warriors": 5,
        "memberships-TOTAL_FORMS": 0, "memberships-INITIAL_FORMS": 0,
        "rounds-TOTAL_FORMS": 0, "rounds-INITIAL_FORMS": 0,
    }  # fmt: skip
    assert client.post(url, form).status_code == 302
    campaign.refresh_from_db()
    assert campaign.max_warriors == 5
    assert campaign.starting_treasury == 500 and campaign.points_win == 3  # not sent: unchanged


def test_a_warband_over_the_limit_cannot_join(make_league):
    league = make_league(state=Campaign.State.OPEN, players=0, max_warriors=3)
    player = quick_user("bree")
    warband = new_warband(player, "Los de Bree", henchmen=3)
    with pytest.raises(ValidationError) as error, translation.override("en"):
        services.campaign_join(
            campaign=league.campaign,
            user=player,
            warband=warband,
            join_code=league.campaign.join_code,
        )
    assert error.value.messages == [
        "Los de Bree would field 4 warriors; the campaign Liga de Fornost allows at most 3 "
        "in a warband."
    ]
    assert not league.campaign.memberships.filter(warband=warband).exists()


def test_a_hire_over_the_limit_is_refused_and_changes_nothing(make_league):
    league = make_league(henchmen=1, max_warriors=3)
    warband = league.warband(0)
    soldier = warband.warband_type.fighter_types.filter(role="henchman").order_by("cost").first()
    treasury = warband.treasury
    with pytest.raises(ValidationError) as error:
        warband_services.fighter_hire(warband=warband, fighter_type=soldier, name="Más", count=2)
    assert "3" in error.value.messages[0]
    warband.refresh_from_db()
    assert (warband.treasury, warband.fighters.count()) == (treasury, 2)
    warband_services.fighter_hire(warband=warband, fighter_type=soldier, name="Uno", count=1)
    assert warband.fighters.count() == 3


def test_a_yes_or_no_setting_has_its_doors_ready():
    """A yes-or-no house rule (``Kind.FLAG``) is a checkbox on the page (unchecked: no), a
    boolean in the API, a strict cleaner and a yes/no in the summary."""
    flag = Setting("scratch_flag", Kind.FLAG, "Scratch flag", league_settings.ROSTERS)
    fields = SETTING_FIELDS[Kind.FLAG].fields(flag)
    assert isinstance(fields["scratch_flag"], forms.BooleanField)
    assert SETTING_FIELDS[Kind.FLAG].value(flag, {}, creating=False) is False
    assert isinstance(setting_field(flag), serializers.BooleanField)
    assert flag.cleaner()(flag, True) is True
    with pytest.raises(ValidationError), translation.override("en"):
        flag.cleaner()(flag, "yes")
    with translation.override("es"):
        assert shown(flag, SimpleNamespace(scratch_flag=True)) == "sí"
        assert shown(flag, SimpleNamespace(scratch_flag=False)) == "no"


# --- a warband in two running campaigns -------------------------------------------------------


def _second_league(make_league, **house_rules):
    """Another league, open, taking warbands (its organiser is someone else)."""
    return make_league(
        players=0, state=Campaign.State.OPEN, name="Liga de Bree", prefix="b-", **house_rules
    )


def test_a_warband_in_a_running_campaign_cannot_join_another_by_default(league, make_league):
    player, warband = league.players[0]
    other = _second_league(make_league)
    assert other.campaign.warbands_in_other_campaigns is False

    client = Client()
    client.force_login(player)
    page = client.post(
        reverse("campaign-join"), {"join_code": other.campaign.join_code, "warband": warband.pk}
    )
    assert page.status_code == 200
    assert "Liga de Fornost" in page.content.decode()  # names the running campaign
    api = APIClient()
    api.force_authenticate(player)
    answer = api.post(
        "/api/v1/campaigns/join/",
        {"join_code": other.campaign.join_code, "warband": warband.pk},
        format="json",
    )
    assert answer.status_code == 409
    assert answer.json()["error"]["code"] == "warband_in_running_campaign"
    assert not other.campaign.memberships.filter(warband=warband).exists()

    # another warband of his, in no running campaign, may join
    fresh = new_warband(player, "Banda nueva")
    joined = api.post(
        "/api/v1/campaigns/join/",
        {"join_code": other.campaign.join_code, "warband": fresh.pk},
        format="json",
    )
    assert joined.status_code == 201, joined.content


def test_the_house_rule_lets_a_warband_play_in_two_running_campaigns(league, make_league):
    player, warband = league.players[0]
    other = _second_league(make_league, warbands_in_other_campaigns=True)
    api = APIClient()
    api.force_authenticate(player)
    answer = api.post(
        "/api/v1/campaigns/join/",
        {"join_code": other.campaign.join_code, "warband": warband.pk},
        format="json",
    )
    assert answer.status_code == 201, answer.content
    with translation.override("en"):
        lines = {key: line for line in house_rules_summary(other.campaign) for key in line.keys}
    assert "warbands_in_other_campaigns" in lines


def test_a_campaign_that_is_not_running_does_not_hold_its_warbands(make_league):
    waiting = make_league(state=Campaign.State.OPEN, players=1)
    player, warband = waiting.players[0]
    other = _second_league(make_league)
    membership = services.campaign_join(
        campaign=other.campaign, user=player, warband=warband, join_code=other.campaign.join_code
    )
    assert membership.warband_id == warband.pk
