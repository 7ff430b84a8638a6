"""Every campaign action says what it did (no more "Hecho." whatever was done), in the
reader's language."""

import pytest
from django.conf import settings
from django.test import Client
from django.urls import reverse

from battles.models import Battle, Round
from battles.reports import services
from tests.battles.factories import first_battle, simple_report

pytestmark = pytest.mark.django_db


def client_in(language: str, user) -> Client:
    client = Client()
    client.cookies[settings.LANGUAGE_COOKIE_NAME] = language
    client.force_login(user)
    return client


def flashed(response) -> list[str]:
    return [str(message) for message in response.context["messages"]]


def manage(client, league, **data) -> list[str]:
    url = reverse("campaign-manage", args=[league.campaign.slug])
    return flashed(client.post(url, data, follow=True))


def test_round_actions_say_what_they_did_in_english(make_league):
    league = make_league(players=4)
    organiser = client_in("en", league.organiser)
    assert manage(organiser, league, op="open_round") == ["Round 1 opened."]
    assert manage(organiser, league, op="close_round", round=1, confirmed="1") == [
        "Round 1 closed."
    ]
    assert manage(organiser, league, op="open_round") == ["Round 2 opened."]
    assert manage(organiser, league, op="generate", round=2, method=Round.Method.SWISS) == [
        "Pairings made: 2 battles."
    ]
    assert Battle.objects.filter(round__campaign=league.campaign, is_bye=False).count() == 2
    assert manage(organiser, league, op="new_code", confirmed="1") == [
        f"New join code: {league.refresh().campaign.join_code}."
    ]


def test_round_actions_say_what_they_did_in_spanish(make_league):
    league = make_league(players=4)
    organiser = client_in("es", league.organiser)
    assert manage(organiser, league, op="open_round") == ["Ronda 1 abierta."]
    assert manage(organiser, league, op="generate", round=1, method=Round.Method.SWISS) == [
        "Emparejamientos hechos: 2 batallas."
    ]


def test_a_refused_action_says_why_not_that_it_was_done(make_league):
    league = make_league()
    organiser = client_in("en", league.organiser)
    manage(organiser, league, op="open_round")
    assert manage(organiser, league, op="close_round", round=1, confirmed="1") == [
        "Round 1 closed."
    ]
    again = manage(organiser, league, op="close_round", round=1, confirmed="1")
    assert len(again) == 1 and again != ["Round 1 closed."]


def test_confirming_a_report_says_so(make_league):
    league = make_league()
    battle = first_battle(league)
    services.battle_report(
        battle=battle, reporter=league.user(0), report=simple_report(battle, league.warband(0))
    )
    battle.refresh_from_db()
    response = client_in("en", league.user(1)).post(
        reverse("battle-detail", args=[battle.pk]),
        {"op": "confirm", "version": battle.version},
        follow=True,
    )
    assert flashed(response) == ["Report confirmed: the result counts."]
    battle.refresh_from_db()
    assert battle.status != Battle.Status.REPORTED
