"""The organisers' site (/organisers/): scoped querysets and permissions, actions, history."""

from __future__ import annotations

import pytest
from django.conf import settings
from django.test import Client
from django.urls import reverse

from battles.campaigns import services
from battles.models import Battle, Campaign, Round
from battles.reports import services as reports
from tests.battles.factories import build_league, first_battle, quick_user, simple_report

pytestmark = pytest.mark.django_db


@pytest.fixture
def two_leagues(make_league):
    mine = make_league()
    theirs = build_league(name="Liga de Bree", prefix="x")
    return mine, theirs


def admin_client(user) -> Client:
    client = Client()
    client.cookies[settings.LANGUAGE_COOKIE_NAME] = "en"
    client.force_login(user)
    return client


def test_organisers_use_the_organisers_site_without_staff(two_leagues):
    mine, _theirs = two_leagues
    assert not mine.organiser.is_staff and not mine.organiser.is_superuser
    client = admin_client(mine.organiser)
    index = client.get(reverse("organisers:index"))
    assert index.status_code == 200
    assert reverse("organisers:battles_campaign_changelist") in index.content.decode()
    assert "warbands" not in index.content.decode(), "the catalogue is not on this site"
    assert client.get(reverse("admin:index")).status_code == 302, "no staff admin"


@pytest.mark.parametrize("model", ["campaign", "membership", "round", "battle"], ids=lambda m: m)
def test_changelists_show_only_own_campaigns(two_leagues, model):
    mine, theirs = two_leagues
    first_battle(mine)
    first_battle(theirs)
    page = admin_client(mine.organiser).get(reverse(f"organisers:battles_{model}_changelist"))
    assert page.status_code == 200
    result_list = page.context["cl"].result_list
    campaigns = {obj if model == "campaign" else obj.campaign for obj in result_list}
    assert campaigns == {mine.campaign}


def test_cannot_open_another_organisers_objects(two_leagues):
    mine, theirs = two_leagues
    battle = first_battle(theirs)
    client = admin_client(mine.organiser)
    for url in (
        reverse("organisers:battles_campaign_change", args=[theirs.campaign.pk]),
        reverse("organisers:battles_battle_change", args=[battle.pk]),
        reverse("organisers:battles_campaign_history", args=[theirs.campaign.pk]),
        reverse("organisers:battles_battle_history", args=[battle.pk]),
    ):
        response = client.get(url)
        assert response.status_code in (302, 403, 404), url
        if response.status_code == 302:
            assert response["Location"] == reverse("organisers:index")


def test_players_and_strangers_have_no_admin(two_leagues):
    mine, _theirs = two_leagues
    player = mine.user(0)
    assert admin_client(player).get(reverse("admin:index")).status_code == 302
    page = admin_client(player).get(reverse("organisers:index"), follow=True)
    assert page.status_code == 403, "signed in, organises nothing: refused, not asked to log in"
    staff_without_campaigns = quick_user("staff", is_staff=True)
    page = admin_client(staff_without_campaigns).get(
        reverse("organisers:battles_campaign_changelist"), follow=True
    )
    assert page.status_code == 403
    anonymous = Client().get(reverse("organisers:index"), follow=True)
    assert anonymous.redirect_chain[-1][0].startswith(reverse("account_login"))


def test_change_house_rules_through_the_service(two_leagues):
    mine, _theirs = two_leagues
    campaign = mine.campaign
    client = admin_client(mine.organiser)
    url = reverse("organisers:battles_campaign_change", args=[campaign.pk])
    form = {
        "name": campaign.name, "description": "Nueva", "preset": campaign.preset,
        "starting_treasury": 500, "rating_cap": 1, "max_fighter_type_copies": "",
        "points_win": 3, "points_draw": 1, "points_loss": 0, "points_bye": 3,
        "optional_rules": "[]", "tables": "{}", "table_size": "", "game_length": "",
        "memberships-TOTAL_FORMS": 0, "memberships-INITIAL_FORMS": 0,
        "rounds-TOTAL_FORMS": 0, "rounds-INITIAL_FORMS": 0,
    }  # fmt: skip
    response = client.post(url, form)
    assert response.status_code == 200, "the cap would exclude current members"
    assert "Banda 1" in response.content.decode()
    campaign.refresh_from_db()
    assert campaign.rating_cap == 250
    form["rating_cap"] = 300
    response = client.post(url, form)
    assert response.status_code == 302
    campaign.refresh_from_db()
    assert (campaign.rating_cap, campaign.description) == (300, "Nueva")
    history = client.get(reverse("organisers:battles_campaign_history", args=[campaign.pk]))
    assert history.status_code == 200


def test_admin_actions_generate_confirm_export(two_leagues):
    mine, theirs = two_leagues
    organiser = mine.organiser
    client = admin_client(organiser)
    round = services.round_open(campaign=mine.campaign, by=organiser)
    their_round = services.round_open(campaign=theirs.campaign, by=theirs.organiser)
    client.post(
        reverse("organisers:battles_round_changelist"),
        {"action": "generate_swiss", "_selected_action": [round.pk, their_round.pk]},
    )
    assert round.battles.count() == 1
    assert their_round.battles.count() == 0, "another organiser's round is out of reach"

    battle = round.battles.get()
    reports.battle_report(
        battle=battle, reporter=mine.user(0), report=simple_report(battle, mine.warband(0))
    )
    client.post(
        reverse("organisers:battles_battle_changelist"),
        {"action": "confirm", "_selected_action": [battle.pk]},
    )
    battle.refresh_from_db()
    assert battle.status == Battle.Status.CONFIRMED
    history = client.get(reverse("organisers:battles_battle_history", args=[battle.pk]))
    assert history.status_code == 200 and "Confirmed" in history.content.decode()

    export = client.post(
        reverse("organisers:battles_campaign_changelist"),
        {"action": "export_standings", "_selected_action": [mine.campaign.pk]},
    )
    assert export["Content-Type"].startswith("text/csv")
    assert "Banda 1" in export.content.decode()


def test_open_next_round_action(two_leagues):
    mine, _theirs = two_leagues
    admin_client(mine.organiser).post(
        reverse("organisers:battles_campaign_changelist"),
        {"action": "open_next_round", "_selected_action": [mine.campaign.pk]},
    )
    assert Round.objects.filter(campaign=mine.campaign, number=1).exists()
    assert Campaign.objects.count() == 2


def test_the_organisers_campaign_form_lists_warband_types_as_checkboxes(league):
    """No two-box filter: its search icons carry aria-labels on elements without a role."""
    from django.test import Client

    client = Client()
    client.force_login(league.organiser)
    response = client.get(f"/organisers/battles/campaign/{league.campaign.pk}/change/")
    html = response.content.decode()
    assert response.status_code == 200
    assert "selectfilter" not in html and "search-label-icon" not in html
    assert 'type="checkbox" name="allowed_warband_types"' in html
