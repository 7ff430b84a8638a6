"""An organiser who plays in a battle: he reports it like any player, but
never confirms, settles or corrects it alone; the opponent or a co-organiser who does not play
confirms. Dice he types for his own battle are recorded as his and shown as such."""

from __future__ import annotations

import pytest
from django.conf import settings
from django.core.exceptions import PermissionDenied
from django.test import Client
from django.urls import reverse
from rest_framework.test import APIClient

from battles.campaigns.services import campaign_add_organiser
from battles.common import access
from battles.models import Battle, Job, PostBattleRun
from battles.reports import services
from tests.battles.factories import first_battle, simple_report

pytestmark = pytest.mark.django_db


@pytest.fixture
def playing(league):
    """Player 0 is also a co-organiser; ``league.organiser`` organises without playing."""
    campaign_add_organiser(
        campaign=league.campaign, by=league.organiser, username=league.user(0).username
    )
    battle = first_battle(league)
    return league, battle


def reported_by_organiser_player(league, battle) -> Battle:
    return services.battle_report(
        battle=battle, reporter=league.user(0), report=simple_report(battle, league.warband(0))
    )


def api_for(user) -> APIClient:
    api = APIClient()
    api.force_authenticate(user)
    return api


def page_client(user) -> Client:
    client = Client()
    client.cookies[settings.LANGUAGE_COOKIE_NAME] = "en"
    client.force_login(user)
    return client


def test_an_organiser_who_plays_cannot_confirm_his_own_report(playing):
    league, battle = playing
    organiser_player = league.user(0)
    assert access.is_organiser(organiser_player, league.campaign)
    battle = reported_by_organiser_player(league, battle)

    with pytest.raises(PermissionDenied, match="does not play"):
        services.battle_confirm(battle=battle, by=organiser_player)
    response = api_for(organiser_player).post(f"/api/v1/battles/{battle.pk}/confirm/", {})
    assert response.status_code == 403
    assert response.json()["error"]["code"] == "permission_denied"
    detail = api_for(organiser_player).get(f"/api/v1/battles/{battle.pk}/").json()
    assert detail["status"] == "reported"
    page = page_client(organiser_player).get(reverse("battle-detail", args=[battle.pk]))
    assert page.context["can_confirm"] is False
    battle.refresh_from_db()
    assert battle.status == Battle.Status.REPORTED


@pytest.mark.parametrize("confirmer", ["opponent", "co-organiser"])
def test_the_opponent_or_a_co_organiser_who_does_not_play_confirms(playing, confirmer):
    league, battle = playing
    battle = reported_by_organiser_player(league, battle)
    by = league.user(1) if confirmer == "opponent" else league.organiser
    battle = services.battle_confirm(battle=battle, by=by)
    assert battle.status == Battle.Status.CONFIRMED and battle.confirmed_by == by


def test_the_admin_confirm_action_refuses_him_too(playing):
    league, battle = playing
    reported_by_organiser_player(league, battle)
    page_client(league.user(0)).post(
        reverse("organisers:battles_battle_changelist"),
        {"action": "confirm", "_selected_action": [battle.pk]},
    )
    battle.refresh_from_db()
    assert battle.status == Battle.Status.REPORTED


def test_he_cannot_settle_or_correct_his_own_battle(playing):
    league, battle = playing
    organiser_player = league.user(0)
    battle = reported_by_organiser_player(league, battle)
    with pytest.raises(PermissionDenied, match="You play in this battle"):
        services.battle_settle(battle=battle, by=organiser_player, reason="Lo digo yo")
    battle = services.battle_settle(battle=battle, by=league.organiser, reason="Visto")
    assert battle.status == Battle.Status.CONFIRMED
    with pytest.raises(PermissionDenied, match="You play in this battle"):
        services.battle_correct(
            battle=battle,
            by=organiser_player,
            reason="Gané yo",
            report=simple_report(battle, league.warband(0)),
        )


def test_a_neutral_organiser_still_reports_and_confirms_alone(league):
    battle = first_battle(league)
    battle = services.battle_report(
        battle=battle, reporter=league.organiser, report=simple_report(battle, league.warband(0))
    )
    battle = services.battle_confirm(battle=battle, by=league.organiser)
    assert battle.status == Battle.Status.CONFIRMED


def _confirmed(league, battle) -> Battle:
    battle = reported_by_organiser_player(league, battle)
    return services.battle_confirm(battle=battle, by=league.user(1))


def test_his_typed_dice_for_his_own_battle_are_flagged_and_shown(playing):
    league, battle = playing
    organiser_player = league.user(0)
    battle = _confirmed(league, battle)
    faces = {str(league.warband(0).pk): [6, 6, 6, 6], str(league.warband(1).pk): [1, 1, 1, 1]}
    response = api_for(organiser_player).post(
        f"/api/v1/battles/{battle.pk}/resolve/", {"faces": faces}, format="json"
    )
    assert response.status_code == 202, response.content
    run = PostBattleRun.objects.get(battle=battle)
    assert (run.faces_typed_by, run.faces_typed_by_player) == (organiser_player, True)

    runs = api_for(league.user(1)).get(f"/api/v1/battles/{battle.pk}/postbattle/").json()["runs"]
    assert runs[0]["faces_typed_by"] == organiser_player.username
    assert runs[0]["faces_typed_by_player"] is True
    page = page_client(league.user(1)).get(reverse("battle-postbattle", args=[battle.pk]))
    html = page.content.decode()
    assert 'data-testid="typed-dice"' in html
    assert f"Dice typed at the table by {organiser_player.username}, who plays" in html


def test_a_neutral_organisers_typed_dice_are_recorded_without_the_flag(playing):
    league, battle = playing
    battle = _confirmed(league, battle)
    faces = {str(league.warband(0).pk): [3, 3, 3, 3], str(league.warband(1).pk): [4, 4, 4, 4]}
    response = api_for(league.organiser).post(
        f"/api/v1/battles/{battle.pk}/resolve/", {"faces": faces}, format="json"
    )
    assert response.status_code == 202, response.content
    run = PostBattleRun.objects.get(battle=battle)
    assert (run.faces_typed_by, run.faces_typed_by_player) == (league.organiser, False)
    html = page_client(league.user(1)).get(reverse("battle-postbattle", args=[battle.pk]))
    assert "who plays in this battle" not in html.content.decode()


def test_rolled_dice_name_nobody(playing):
    league, battle = playing
    battle = _confirmed(league, battle)
    response = api_for(league.user(0)).post(f"/api/v1/battles/{battle.pk}/resolve/", {})
    assert response.status_code == 202, response.content
    run = PostBattleRun.objects.get(battle=battle)
    assert (run.faces_typed_by, run.faces_typed_by_player) == (None, False)


@pytest.mark.parametrize(
    "body",
    [
        {"seed": 6},
        {"scenario_bonus": "own"},
        {"racial_maximum": "choose"},
        {"seed": 6, "faces": "both"},
    ],
    ids=["seed", "scenario-bonus", "racial-maximum", "seed-with-faces"],
)
def test_he_cannot_choose_seed_or_bonuses_for_his_own_battle(playing, body):
    league, battle = playing
    battle = _confirmed(league, battle)
    own, other = str(league.warband(0).pk), str(league.warband(1).pk)
    if body.get("scenario_bonus"):
        body = {"scenario_bonus": {own: 3}}
    if body.get("faces"):
        body = {**body, "faces": {own: [6, 6, 6, 6], other: [1, 1, 1, 1]}}
    response = api_for(league.user(0)).post(
        f"/api/v1/battles/{battle.pk}/resolve/", body, format="json"
    )
    assert response.status_code == 403, response.content
    error = response.json()["error"]
    assert error["code"] == "permission_denied"
    assert error["message"].startswith("Juegas esta batalla: la semilla")
    assert not PostBattleRun.objects.filter(battle=battle).exists()
    assert not Job.objects.filter(battle=battle).exists()


def test_a_co_organiser_who_does_not_play_chooses_them(playing):
    league, battle = playing
    battle = _confirmed(league, battle)
    own = str(league.warband(0).pk)
    response = api_for(league.organiser).post(
        f"/api/v1/battles/{battle.pk}/resolve/",
        {"seed": 6, "scenario_bonus": {own: 3}, "racial_maximum": "choose"},
        format="json",
    )
    assert response.status_code == 202, response.content
    run = PostBattleRun.objects.get(battle=battle)
    assert run.seed == 6
    assert run.options == {"scenario_bonus": {own: 3}, "racial_maximum": "choose"}
