"""The campaign form's hired-swords house rule: organisers forbid every hired
sword or some of them, on creating a campaign and on editing its rules; the values are checked by
``house_rules_clean`` (the API's message), and a refused change writes nothing."""

from __future__ import annotations

import pytest
from django.conf import settings
from django.urls import reverse
from django.utils import translation

from battles.models import Campaign
from tests.battles.factories import quick_user
from warbands.models import HiredSword
from warbands.services.hired_swords import hired_sword_hire

pytestmark = pytest.mark.django_db

RANGER = "montaraz-errante"
SCOUT = "batidor-de-bree"
NEW_CAMPAIGN = {
    "name": "Liga de Imladris",
    "preset": "raid",
    "points_win": 3,
    "points_draw": 1,
    "points_loss": 0,
    "points_bye": 3,
}


@pytest.fixture
def organiser(client, league_content):
    client.cookies[settings.LANGUAGE_COOKIE_NAME] = "en"
    client.force_login(quick_user("elrond"))
    return client


def edit_data(client, url) -> dict:
    """What the edit page's form holds, as it would be posted back."""
    form = client.get(url).context["form"]
    data = {
        name: value
        for name, value in form.initial.items()
        if value is not None and name != "allowed_warband_types"
    }
    data.update({"optional_rules": [], "tables": ""})
    return data


def test_the_form_offers_none_or_each_sword_by_name(organiser):
    html = organiser.get(reverse("campaign-create")).content.decode()
    assert 'data-testid="hired-swords-forbidden"' in html
    assert 'value="all"' in html and "No hired swords" in html
    with translation.override("en"):  # the page's language: each sword by its English name
        names = [sword.display_name for sword in HiredSword.objects.select_related("fighter_type")]
    assert "Wandering Ranger" in names
    for name in names:
        assert name in html


@pytest.mark.parametrize(
    ("checked", "stored"),
    [
        (["all"], "all"),
        ([RANGER, SCOUT], [RANGER, SCOUT]),
        ([RANGER, "all"], "all"),  # "no hired swords" wins over the names
        ([], []),
    ],
)
def test_creating_a_campaign_with_the_rule(organiser, checked, stored):
    response = organiser.post(
        reverse("campaign-create"), {**NEW_CAMPAIGN, "hired_swords_forbidden": checked}
    )
    assert response.status_code == 302, response.content.decode()[:2000]
    assert Campaign.objects.get().hired_swords_forbidden == stored


def test_an_unknown_sword_is_the_domains_error_and_writes_nothing(organiser):
    response = organiser.post(
        reverse("campaign-create"), {**NEW_CAMPAIGN, "hired_swords_forbidden": [RANGER, "nadie"]}
    )
    assert response.status_code == 200
    assert "Unknown hired swords: nadie." in response.content.decode()
    assert not Campaign.objects.exists()


def test_editing_the_rule(client, league):
    campaign = league.campaign
    client.cookies[settings.LANGUAGE_COOKIE_NAME] = "en"
    client.force_login(league.organiser)
    url = reverse("campaign-edit", args=[campaign.slug])
    data = edit_data(client, url)
    assert data["hired_swords_forbidden"] == []
    response = client.post(url, {**data, "hired_swords_forbidden": [RANGER]})
    assert response.status_code == 302, response.content.decode()[:2000]
    campaign.refresh_from_db()
    assert campaign.hired_swords_forbidden == [RANGER]
    page = client.get(url)
    assert page.context["form"].initial["hired_swords_forbidden"] == [RANGER]
    assert f'value="{RANGER}" id="id_hired_swords_forbidden_' in page.content.decode()
    assert "checked" in page.content.decode().split(f'value="{RANGER}"')[1].split(">")[0]
    client.post(url, {**edit_data(client, url), "hired_swords_forbidden": ["all"]})
    campaign.refresh_from_db()
    assert campaign.hired_swords_forbidden == "all"
    assert client.get(url).context["form"].initial["hired_swords_forbidden"] == ["all"]
    client.post(url, {**edit_data(client, url), "hired_swords_forbidden": []})
    campaign.refresh_from_db()
    assert campaign.hired_swords_forbidden == []


def test_forbidding_a_sword_a_member_has_is_refused_and_writes_nothing(client, league):
    campaign = league.campaign
    hired_sword_hire(
        warband=league.warband(0), hired_sword=HiredSword.objects.get(fighter_type__slug=RANGER)
    )
    client.cookies[settings.LANGUAGE_COOKIE_NAME] = "en"
    client.force_login(league.organiser)
    url = reverse("campaign-edit", args=[campaign.slug])
    before = campaign.history.count()
    response = client.post(url, {**edit_data(client, url), "hired_swords_forbidden": ["all"]})
    html = response.content.decode()
    assert response.status_code == 200
    assert "does not allow the hired sword Wandering Ranger" in html  # the page's language
    campaign.refresh_from_db()
    assert campaign.hired_swords_forbidden == [] and campaign.history.count() == before


def test_a_bad_value_on_edit_writes_nothing(client, league):
    campaign = league.campaign
    client.cookies[settings.LANGUAGE_COOKIE_NAME] = "en"
    client.force_login(league.organiser)
    url = reverse("campaign-edit", args=[campaign.slug])
    before = campaign.history.count()
    response = client.post(url, {**edit_data(client, url), "hired_swords_forbidden": ["nadie"]})
    assert response.status_code == 200
    assert "Unknown hired swords: nadie." in response.content.decode()
    campaign.refresh_from_db()
    assert campaign.hired_swords_forbidden == [] and campaign.history.count() == before


@pytest.mark.parametrize(
    ("rule", "shown"),
    [("all", "todos"), ([RANGER, SCOUT], "Batidor de Bree, Montaraz errante"), ([], "ninguno")],
)
def test_the_campaign_page_lists_the_hired_swords_rule(league, client, rule, shown):
    Campaign.objects.filter(pk=league.campaign.pk).update(hired_swords_forbidden=rule)
    client.force_login(league.user(0))
    page = client.get(reverse("campaign-detail", args=[league.campaign.slug]))
    assert page.status_code == 200
    text = page.content.decode()
    start = text.index('data-testid="hired-swords-forbidden-rule">') + len(
        'data-testid="hired-swords-forbidden-rule">'
    )
    assert text[start : text.index("</dd>", start)].strip() == shown
