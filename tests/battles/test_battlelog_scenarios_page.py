"""The campaign's scenario list, edited on its own page by the organisers (not as raw JSON):
saved through the house rules, offered at the battle setup, other tables left alone."""

from __future__ import annotations

import pytest

from battles.models import Campaign
from tests.battles.factories import first_battle
from tests.battles.test_battlelog_api import client_for
from tests.battles.test_battlelog_pages import browser

pytestmark = pytest.mark.django_db

UNDERDOG = [{"min": 0, "max": 10, "result": 0}, {"min": 11, "max": None, "result": 7}]


def url(league) -> str:
    return f"/campaigns/{league.campaign.slug}/scenarios/"


def rows(*items, blank: int = 1) -> dict:
    data = {"rows": str(len(items) + blank)}
    for index, (name, sides) in enumerate(items):
        data[f"name-{index}"] = name
        if sides:
            data[f"ad-{index}"] = "1"
    return data


def test_only_organisers_edit_the_scenarios(league):
    assert browser(league.user(0)).get(url(league)).status_code == 403
    page = browser(league.organiser).get(url(league))
    assert page.status_code == 200
    text = page.content.decode()
    assert 'data-testid="uses-default"' in text and 'value="Escaramuza"' in text


def test_an_organiser_saves_the_list_and_the_setup_offers_it(league):
    Campaign.objects.filter(pk=league.campaign.pk).update(tables={"underdog_bonus": UNDERDOG})
    organiser = browser(league.organiser)
    response = organiser.post(
        url(league), rows(("El vado  de Sarn", False), ("", True), ("Asalto a la torre", True))
    )
    assert response.status_code == 302
    campaign = Campaign.objects.get(pk=league.campaign.pk)
    assert campaign.tables == {
        "underdog_bonus": UNDERDOG,
        "scenarios": [
            {"name": "El vado de Sarn", "attacker_defender": False},
            {"name": "Asalto a la torre", "attacker_defender": True},
        ],
    }
    battle = first_battle(league)
    options = client_for(league.user(0)).get(f"/api/v1/battles/{battle.pk}/setup/").json()
    assert [s["name"] for s in options["scenarios"]] == ["El vado de Sarn", "Asalto a la torre"]
    # Back to the default list: the other tables stay.
    organiser.post(url(league), {"op": "default"})
    assert Campaign.objects.get(pk=league.campaign.pk).tables == {"underdog_bonus": UNDERDOG}


def test_a_bad_list_shows_why_and_saves_nothing(league):
    organiser = browser(league.organiser)
    response = organiser.post(url(league), rows(("x" * 121, False)))
    assert response.status_code == 200
    assert 'data-testid="scenario-errors"' in response.content.decode()
    assert not (Campaign.objects.get(pk=league.campaign.pk).tables or {}).get("scenarios")
    too_many = rows(*[(f"Escenario {n}", False) for n in range(51)])
    response = organiser.post(url(league), too_many)
    assert 'data-testid="scenario-errors"' in response.content.decode()
    assert not (Campaign.objects.get(pk=league.campaign.pk).tables or {}).get("scenarios")


def test_the_setup_page_links_organisers_to_the_list(league):
    battle = first_battle(league)
    table = f"/battles/{battle.pk}/table/"
    assert url(league) in browser(league.organiser).get(table).content.decode()
    assert url(league) not in browser(league.user(0)).get(table).content.decode()


def test_the_campaign_page_links_organisers_to_the_list(league):
    page = f"/campaigns/{league.campaign.slug}/"
    assert url(league) in browser(league.organiser).get(page).content.decode()
    assert url(league) not in browser(league.user(0)).get(page).content.decode()


def test_the_report_form_suggests_the_campaigns_own_scenarios(league):
    """The report by hand suggests what the battle's setup offers: the campaign's own list when
    it has one; else the default list in the reader's language."""
    battle = first_battle(league)
    player = browser(league.user(0))
    report = f"/battles/{battle.pk}/report/"
    page = player.get(report).content.decode()
    assert '<option value="Skirmish">' in page and "El vado de Sarn" not in page
    browser(league.organiser).post(url(league), rows(("El vado de Sarn", False)))
    page = player.get(report).content.decode()
    assert '<option value="El vado de Sarn">' in page and "Skirmish" not in page
