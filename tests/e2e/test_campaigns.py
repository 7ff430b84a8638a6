"""A league in a real browser: an organiser creates a campaign, two players join with their
warbands, round 1 is paired, one player reports, the other confirms, the standings show it."""

import re

import pytest
from playwright.sync_api import expect

from battles.models import Battle, Campaign
from tests.battles.factories import new_warband
from warbands.content_loader import content_pack_load

pytestmark = [pytest.mark.e2e, pytest.mark.django_db(transaction=True)]


def _logout(page):
    page.get_by_test_id("nav-logout").click()
    expect(page.get_by_test_id("nav-login")).to_be_visible()


def test_campaign_from_creation_to_standings(page, login, make_user):
    content_pack_load()
    organiser = make_user("arvedui")
    player_a, player_b = make_user("araphor"), make_user("argeleb")
    wolves = new_warband(player_a, "Lobos de Fornost", henchmen=2)
    crows = new_warband(player_b, "Cuervos de Rhudaur", henchmen=2)

    # The organiser creates the campaign from a preset, opens it and reads the join code.
    login(organiser)
    page.goto("/campaigns/")
    page.get_by_test_id("campaign-create").click()
    expect(page.get_by_test_id("preset-table")).to_be_visible()
    page.fill("input[name=name]", "Liga de Arnor")
    page.select_option("select[name=preset]", "skirmish")
    page.check("input[name=optional_rules][value=challenges]")
    page.get_by_test_id("campaign-save").click()
    expect(page.get_by_test_id("campaign-name")).to_have_text("Liga de Arnor")
    expect(page.get_by_test_id("house-rules")).to_contain_text("150")
    page.get_by_test_id("to-open").click()
    expect(page.get_by_test_id("campaign-state")).to_have_text(re.compile("Abierta|Open"))
    code = page.get_by_test_id("join-code").inner_text().strip()
    _logout(page)

    # Two players join with their warbands.
    for player, warband in ((player_a, wolves), (player_b, crows)):
        login(player)
        page.goto("/campaigns/join/")
        page.fill("input[name=join_code]", code)
        page.select_option("select[name=warband]", str(warband.pk))
        page.get_by_test_id("join-submit").click()
        expect(page.get_by_test_id("members-table")).to_contain_text(warband.name)
        _logout(page)

    # The organiser starts the campaign, opens round 1 and pairs it.
    login(organiser)
    campaign = Campaign.objects.get()
    page.goto(f"/campaigns/{campaign.slug}/")
    page.get_by_test_id("to-running").click()
    page.get_by_test_id("open-round").click()
    page.get_by_test_id("generate-form").locator("select[name=method]").select_option("swiss")
    page.get_by_test_id("generate").click()
    expect(page.get_by_test_id("battle-row")).to_have_count(1)
    battle = Battle.objects.get()
    _logout(page)

    # One player reports a win with an enemy put out of action.
    login(player_a)
    page.goto(f"/campaigns/{campaign.slug}/")
    page.get_by_test_id("battle-link").click()
    page.get_by_test_id("report-link").click()
    page.fill("input[name=scenario]", "Escaramuza")
    page.get_by_label("Lobos de Fornost", exact=True).check()
    row = page.get_by_test_id("event-row").first
    row.locator("input[name$=turn]").fill("2")
    row.locator("select[name$=kind]").select_option("out_of_action")
    leader = wolves.fighters.get(is_leader=True)
    row.locator("select[name$=actor]").select_option(f"f{leader.pk}")
    row.locator("select[name$=target]").select_option(f"w{crows.pk}")
    row.locator("input[name$=weapon]").fill("espada")
    page.get_by_test_id("report-submit").click()
    expect(page.get_by_test_id("battle-status")).to_have_text(re.compile("Informada|Reported"))
    _logout(page)

    # The other confirms.
    login(player_b)
    page.goto(f"/battles/{battle.pk}/")
    expect(page.get_by_test_id("events")).to_contain_text(re.compile("Espada|Sword"))
    page.get_by_test_id("confirm").click()
    expect(page.get_by_test_id("battle-status")).to_have_text(re.compile("Confirmada|Confirmed"))

    # The standings show the result and the rating chart.
    page.goto(f"/campaigns/{campaign.slug}/standings/")
    first = page.get_by_test_id("standings-row").first
    expect(first).to_contain_text("Lobos de Fornost")
    expect(first.get_by_test_id("points")).to_have_text("3")
    expect(page.get_by_test_id("rating-chart").locator("svg polyline")).to_have_count(2)
    expect(page.get_by_test_id("rating-chart")).to_contain_text("Cuervos de Rhudaur")
    battle.refresh_from_db()
    assert battle.status == Battle.Status.CONFIRMED
