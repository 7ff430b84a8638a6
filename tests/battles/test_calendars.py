"""Private iCalendar feeds: a campaign's rounds and a user's battles, RFC 5545 as a parser reads
it (icalendar), with CRLF, 75-octet folding, escaping, UID and DTSTAMP; revocable tokens."""

from __future__ import annotations

import datetime as dt

import icalendar
import pytest
from django.urls import reverse
from django.utils import timezone

from battles.calendars import services as calendars
from battles.calendars.ical import CalendarEvent, calendar, escape_text, fold
from battles.campaigns import services as battles
from battles.models import Campaign, Round
from battles.reports import services as reports
from tests.battles.factories import first_battle, simple_report

pytestmark = pytest.mark.django_db


def _parse(body: bytes) -> icalendar.Calendar:
    return icalendar.Calendar.from_ical(body)


def _check_wire_format(body: bytes) -> None:
    assert body.endswith(b"\r\n")
    lines = body.split(b"\r\n")[:-1]
    assert all(b"\n" not in line and b"\r" not in line for line in lines)
    assert all(len(line) <= 75 for line in lines), [len(line) for line in lines]
    body.decode("utf-8")  # folding never splits a character


def test_writer_folds_at_75_octets_escapes_and_round_trips():
    name = "Liga de Fornost; ronda, «Amon Sûl»\nsegunda línea \\ fin " + "ñ" * 80
    body = calendar(
        name="Calendario",
        events=[
            CalendarEvent(
                uid="battle-1@annuminas",
                summary=name,
                start=dt.date(2025, 3, 1),
                description="Línea 1\nLínea 2; con, comas",
            ),
            CalendarEvent(
                uid="round-1-deadline@annuminas",
                summary="Fin",
                start=dt.datetime(2025, 3, 2, 18, 30, tzinfo=dt.UTC),
            ),
        ],
        stamp=dt.datetime(2025, 1, 1, 12, 0, tzinfo=dt.UTC),
    )
    _check_wire_format(body)
    assert b"\r\n " in body  # something was folded
    parsed = _parse(body)
    assert parsed["VERSION"] == "2.0" and parsed["PRODID"]
    first, second = parsed.walk("VEVENT")
    assert str(first["SUMMARY"]) == name
    assert str(first["DESCRIPTION"]) == "Línea 1\nLínea 2; con, comas"
    assert first.decoded("DTSTART") == dt.date(2025, 3, 1)
    assert first.decoded("DTEND") == dt.date(2025, 3, 2)  # all-day: exclusive end
    assert first.decoded("DTSTAMP") == dt.datetime(2025, 1, 1, 12, 0, tzinfo=dt.UTC)
    assert second.decoded("DTSTART") == dt.datetime(2025, 3, 2, 18, 30, tzinfo=dt.UTC)
    assert "DTEND" not in second  # a moment, not a span
    assert escape_text("a;b,c\\d\ne") == "a\\;b\\,c\\\\d\\ne"
    assert fold("x" * 75) == b"x" * 75 + b"\r\n"


@pytest.fixture
def scheduled(league):
    battle = first_battle(league)
    round = battle.round
    Round.objects.filter(pk=round.pk).update(
        starts_on=dt.date(2025, 5, 1),
        closes_at=dt.datetime(2025, 5, 15, 20, 0, tzinfo=dt.UTC),
    )
    return league, battle


def test_campaign_feed_lists_rounds_with_dates_and_deadlines(scheduled, client):
    league, battle = scheduled
    token = calendars.calendar_token_get(user=league.user(0)).token
    url = reverse("calendar-campaign", args=[token, league.campaign.slug])
    response = client.get(url)
    assert response.status_code == 200
    assert response["Content-Type"] == "text/calendar; charset=utf-8"
    body = response.content
    _check_wire_format(body)
    events = {str(e["UID"]): e for e in _parse(body).walk("VEVENT")}
    span = events[f"round-{battle.round_id}@annuminas"]
    assert span.decoded("DTSTART") == dt.date(2025, 5, 1)
    assert span.decoded("DTEND") == dt.date(2025, 5, 16)
    deadline = events[f"round-{battle.round_id}-deadline@annuminas"]
    assert deadline.decoded("DTSTART") == dt.datetime(2025, 5, 15, 20, 0, tzinfo=dt.UTC)
    assert league.campaign.name in str(deadline["SUMMARY"])
    assert all("DTSTAMP" in e for e in events.values())


def test_user_feed_lists_his_battles_only(scheduled, client, make_league):
    league, battle = scheduled
    reports.battle_report(
        battle=battle, reporter=league.user(0), report=simple_report(battle, league.warband(0))
    )
    other = make_league(name="Liga de Bree", prefix="b-")
    first_battle(other)
    token = calendars.calendar_token_get(user=league.user(1)).token
    body = client.get(reverse("calendar-battles", args=[token])).content
    _check_wire_format(body)
    (event,) = _parse(body).walk("VEVENT")
    assert str(event["UID"]) == f"battle-{battle.pk}@annuminas"
    assert str(event["SUMMARY"]) == "Liga de Fornost: Banda 1 vs Banda 2"
    assert event.decoded("DTSTART") == timezone.localdate()  # the day it was reported
    assert str(event["URL"]).endswith(f"/battles/{battle.pk}/")


def test_an_unscheduled_battle_falls_on_its_round_deadline(scheduled, client):
    league, battle = scheduled
    token = calendars.calendar_token_get(user=league.user(0)).token
    (event,) = _parse(client.get(reverse("calendar-battles", args=[token])).content).walk("VEVENT")
    assert event.decoded("DTSTART") == dt.datetime(2025, 5, 15, 20, 0, tzinfo=dt.UTC)


def test_rotating_the_token_revokes_the_old_urls(scheduled, client):
    league, _battle = scheduled
    user = league.user(0)
    old = calendars.calendar_token_get(user=user).token
    client.force_login(user)
    response = client.post(reverse("calendar-token-rotate"), {"confirmed": "1"})
    assert response.status_code == 302
    new = calendars.calendar_token_get(user=user).token
    assert new != old
    assert client.get(reverse("calendar-battles", args=[old])).status_code == 404
    assert (
        client.get(reverse("calendar-campaign", args=[old, league.campaign.slug])).status_code
        == 404
    )
    assert client.get(reverse("calendar-battles", args=[new])).status_code == 200
    # The preferences page shows the new addresses.
    page = client.get(reverse("notification-preferences"))
    assert new in page.content.decode() and old not in page.content.decode()


def test_feeds_follow_campaign_visibility(scheduled, client, make_user):
    league, _battle = scheduled
    stranger = make_user("stranger")
    token = calendars.calendar_token_get(user=stranger).token
    url = reverse("calendar-campaign", args=[token, league.campaign.slug])
    assert client.get(url).status_code == 404  # private campaign
    Campaign.objects.filter(pk=league.campaign.pk).update(public=True)
    assert client.get(url).status_code == 200
    assert client.get(reverse("calendar-battles", args=["not-a-token"])).status_code == 404
    stranger.is_active = False
    stranger.save()
    assert client.get(url).status_code == 404


def test_calendar_api_gives_and_rotates_the_addresses(scheduled, auth_client, user):
    league, _battle = scheduled
    auth_client.force_authenticate(league.user(0))
    first = auth_client.get("/api/v1/calendar/").json()
    assert first["battles"].endswith("/battles.ics")
    assert list(first["campaigns"]) == [league.campaign.slug]
    second = auth_client.post("/api/v1/calendar/").json()
    assert second["battles"] != first["battles"]


def test_feed_query_count_does_not_grow_with_battles(league, client, django_assert_max_num_queries):
    user = league.user(0)
    token = calendars.calendar_token_get(user=user).token
    first_battle(league)
    with django_assert_max_num_queries(6):
        client.get(reverse("calendar-battles", args=[token]))
    for _ in range(5):
        round = league.campaign.rounds.order_by("-number").first()
        for b in round.battles.filter(is_bye=False):
            reports.battle_report(
                battle=b, reporter=user, report=simple_report(b, league.warband(0))
            )
            reports.battle_confirm(battle=b, by=league.user(1))
        battles.round_close(round=round, by=league.organiser)
        round = battles.round_open(campaign=league.campaign, by=league.organiser)
        battles.pairings_generate(round=round, by=league.organiser, method="rating")
    with django_assert_max_num_queries(6):
        body = client.get(reverse("calendar-battles", args=[token])).content
    assert len(list(_parse(body).walk("VEVENT"))) == 6
