"""The services announce their events: pairings, a report to confirm, a report disputed."""

import pytest

from battles.campaigns import services as battles
from battles.models import Round
from battles.models.notifications import Event, Notification
from battles.reports import services as reports
from tests.battles.factories import first_battle, simple_report

pytestmark = pytest.mark.django_db


def inbox(event):
    return sorted(
        Notification.objects.filter(event=event).values_list("recipient__username", flat=True)
    )


def test_a_report_asks_the_opponent_to_confirm(league, django_capture_on_commit_callbacks):
    battle = first_battle(league)
    with django_capture_on_commit_callbacks(execute=True):
        reports.battle_report(
            battle=battle,
            reporter=league.user(0),
            report=simple_report(battle, league.warband(0)),
        )
    assert inbox(Event.REPORT_TO_CONFIRM) == [league.user(1).username]


def test_a_dispute_tells_the_reporter_and_the_organisers(
    league, django_capture_on_commit_callbacks
):
    battle = first_battle(league)
    battle = reports.battle_report(
        battle=battle, reporter=league.user(0), report=simple_report(battle, league.warband(0))
    )
    with django_capture_on_commit_callbacks(execute=True):
        reports.battle_dispute(battle=battle, by=league.user(1), reason="Nadie huyó.")
    assert inbox(Event.REPORT_DISPUTED) == sorted(
        [league.user(0).username, league.organiser.username]
    )


def test_pairings_published_reach_the_paired_players(league, django_capture_on_commit_callbacks):
    round = battles.round_open(campaign=league.campaign, by=league.organiser)
    with django_capture_on_commit_callbacks(execute=True):
        battles.pairings_generate(round=round, by=league.organiser, method=Round.Method.SWISS)
    assert inbox(Event.PAIRINGS_PUBLISHED) == sorted(
        [league.user(0).username, league.user(1).username]
    )


def test_a_report_that_fails_announces_nothing(league, django_capture_on_commit_callbacks):
    battle = first_battle(league)
    with django_capture_on_commit_callbacks(execute=True), pytest.raises(Exception):  # noqa: B017
        reports.battle_report(battle=battle, reporter=league.user(0), report=None)
    assert not Notification.objects.exists()
