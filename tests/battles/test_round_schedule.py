"""A round's start day and deadline: the domain rule, the service, the campaign page and the
rounds API — who may set them, bad dates refused with nothing written."""

from __future__ import annotations

from datetime import date, datetime, timedelta

import pytest
from django.core.exceptions import PermissionDenied, ValidationError
from django.urls import reverse
from django.utils import timezone

from annuminas.errors import Conflict
from battles.campaigns import services
from battles.campaigns.services.schedule import (
    round_dates_check,
    round_open_scheduled,
    round_schedule,
)
from battles.models import Round
from battles.notifications.services import rounds_closing_notify

pytestmark = pytest.mark.django_db

NOW = timezone.make_aware(datetime(2031, 3, 10, 12, 0))


def _later(days: int, hour: int = 20) -> datetime:
    return (timezone.localtime() + timedelta(days=days)).replace(
        hour=hour, minute=0, second=0, microsecond=0
    )


# --- the rule ------------------------------------------------------------------------------------
def test_the_deadline_falls_after_the_round_starts():
    round_dates_check(starts_on=date(2031, 3, 12), closes_at=NOW + timedelta(days=3), now=NOW)
    round_dates_check(starts_on=None, closes_at=None, now=NOW)
    # The same day it starts is fine, from midnight on.
    round_dates_check(starts_on=date(2031, 3, 13), closes_at=NOW + timedelta(days=3), now=NOW)
    with pytest.raises(ValidationError) as refused:
        round_dates_check(starts_on=date(2031, 3, 14), closes_at=NOW + timedelta(days=3), now=NOW)
    assert refused.value.message_dict == {
        "closes_at": ["The deadline must fall after the round starts."]
    }


def test_a_new_deadline_is_not_already_past_and_years_are_sane():
    past = NOW - timedelta(hours=1)
    with pytest.raises(ValidationError) as refused:
        round_dates_check(starts_on=None, closes_at=past, now=NOW)
    assert "already passed" in refused.value.message_dict["closes_at"][0]
    round_dates_check(starts_on=None, closes_at=past, previous_closes_at=past, now=NOW)
    with pytest.raises(ValidationError) as refused:
        round_dates_check(starts_on=date(1066, 10, 14), closes_at=None, now=NOW)
    assert set(refused.value.message_dict) == {"starts_on"}


# --- the service ---------------------------------------------------------------------------------
def test_organisers_set_change_and_clear_the_dates(league):
    round = services.round_open(campaign=league.campaign, by=league.organiser)
    starts, deadline = timezone.localdate(), _later(7)
    round = round_schedule(round=round, by=league.organiser, starts_on=starts, closes_at=deadline)
    round.refresh_from_db()
    assert (round.starts_on, round.closes_at) == (starts, deadline)
    round_schedule(round=round, by=league.organiser, starts_on=None, closes_at=None)
    round.refresh_from_db()
    assert (round.starts_on, round.closes_at) == (None, None)


def test_players_may_not_and_closed_rounds_keep_their_dates(league):
    round = services.round_open(campaign=league.campaign, by=league.organiser)
    with pytest.raises(PermissionDenied):
        round_schedule(round=round, by=league.user(0), starts_on=None, closes_at=_later(3))
    services.round_close(round=round, by=league.organiser)
    with pytest.raises(Conflict):
        round_schedule(round=round, by=league.organiser, starts_on=None, closes_at=_later(3))
    round.refresh_from_db()
    assert round.closes_at is None


def test_bad_dates_open_no_round(league):
    with pytest.raises(ValidationError):
        round_open_scheduled(
            campaign=league.campaign,
            by=league.organiser,
            starts_on=timezone.localdate() + timedelta(days=10),
            closes_at=_later(2),
        )
    assert not Round.objects.exists()


def test_a_deadline_set_here_is_announced_within_48_hours(
    league, django_capture_on_commit_callbacks
):
    round = round_open_scheduled(campaign=league.campaign, by=league.organiser, closes_at=_later(1))
    with django_capture_on_commit_callbacks(execute=True):
        assert rounds_closing_notify() == 1
    round_schedule(round=round, by=league.organiser, starts_on=None, closes_at=_later(5))
    assert rounds_closing_notify() == 0


# --- the page ------------------------------------------------------------------------------------
def test_page_opens_a_round_with_dates_and_changes_them(league, client):
    slug = league.campaign.slug
    manage = reverse("campaign-manage", args=[slug])
    client.force_login(league.organiser)
    page = client.get(reverse("campaign-detail", args=[slug])).content.decode()
    assert 'name="closes_at"' in page and 'type="datetime-local"' in page

    starts, deadline = timezone.localdate(), _later(6)
    response = client.post(
        manage,
        {
            "op": "open_round",
            "starts_on": starts.isoformat(),
            "closes_at": deadline.strftime("%Y-%m-%dT%H:%M"),
        },
    )
    assert response.status_code == 302
    round = Round.objects.get()
    assert (round.starts_on, round.closes_at) == (starts, deadline)
    page = client.get(reverse("campaign-detail", args=[slug])).content.decode()
    assert 'data-testid="round-dates-1"' in page
    assert f'value="{deadline.strftime("%Y-%m-%dT%H:%M")}"' in page  # the edit form, filled

    later = _later(9)
    client.post(
        manage,
        {"op": "round_dates", "round": "1", "starts_on": "", "closes_at": later.isoformat()},
    )
    round.refresh_from_db()
    assert (round.starts_on, round.closes_at) == (None, later)


def test_page_refuses_bad_dates_and_writes_nothing(league, client):
    manage = reverse("campaign-manage", args=[league.campaign.slug])
    client.force_login(league.organiser)
    response = client.post(
        manage,
        {
            "op": "open_round",
            "starts_on": (timezone.localdate() + timedelta(days=8)).isoformat(),
            "closes_at": _later(2).strftime("%Y-%m-%dT%H:%M"),
        },
        follow=True,
    )
    assert (
        "La fecha límite debe ser posterior al comienzo de la ronda." in response.content.decode()
    )
    assert not Round.objects.exists()
    client.post(manage, {"op": "open_round", "closes_at": "tomorrow-ish"})
    assert not Round.objects.exists()

    round = services.round_open(campaign=league.campaign, by=league.organiser)
    client.post(manage, {"op": "round_dates", "round": "1", "closes_at": "2001-01-01T10:00"})
    client.force_login(league.user(0))
    response = client.post(manage, {"op": "round_dates", "round": "1", "closes_at": ""})
    assert response.status_code == 403
    round.refresh_from_db()
    assert round.closes_at is None


# --- the API -------------------------------------------------------------------------------------
def test_api_opens_a_round_with_dates_and_patches_them(league, auth_client, api_client):
    base = f"/api/v1/campaigns/{league.campaign.slug}/rounds/"
    auth_client.force_authenticate(league.organiser)
    deadline = _later(4)
    response = auth_client.post(
        base,
        {"starts_on": timezone.localdate().isoformat(), "closes_at": deadline.isoformat()},
        format="json",
    )
    assert response.status_code == 201
    body = response.json()
    assert body["starts_on"] == timezone.localdate().isoformat()
    assert datetime.fromisoformat(body["closes_at"]) == deadline

    later = _later(10)
    response = auth_client.patch(f"{base}1/", {"closes_at": later.isoformat()}, format="json")
    assert response.status_code == 200
    assert response.json()["starts_on"] == timezone.localdate().isoformat()  # kept
    assert datetime.fromisoformat(response.json()["closes_at"]) == later
    response = auth_client.patch(f"{base}1/", {"starts_on": None}, format="json")
    assert response.json()["starts_on"] is None
    assert auth_client.get(base).json()["results"][0]["closes_at"] is not None


@pytest.mark.parametrize(
    "body",
    [
        {"closes_at": "2001-01-01T10:00:00Z"},
        {"closes_at": "soon"},
        {"starts_on": "2031-02-30"},
        {"starts_on": "9999-01-01"},
    ],
)
def test_api_bad_dates_answer_the_error_shape_and_open_nothing(league, auth_client, body):
    auth_client.force_authenticate(league.organiser)
    response = auth_client.post(
        f"/api/v1/campaigns/{league.campaign.slug}/rounds/", body, format="json"
    )
    assert response.status_code == 400
    error = response.json()["error"]
    assert error["code"] and error["message"] and set(error["fields"]) & set(body)
    assert not Round.objects.exists()


def test_api_deadline_before_the_start_is_refused_on_patch(league, auth_client):
    round = services.round_open(campaign=league.campaign, by=league.organiser)
    auth_client.force_authenticate(league.organiser)
    url = f"/api/v1/campaigns/{league.campaign.slug}/rounds/1/"
    response = auth_client.patch(
        url,
        {
            "starts_on": (timezone.localdate() + timedelta(days=20)).isoformat(),
            "closes_at": _later(3).isoformat(),
        },
        format="json",
    )
    assert response.status_code == 400
    assert "closes_at" in response.json()["error"]["fields"]
    round.refresh_from_db()
    assert (round.starts_on, round.closes_at) == (None, None)


def test_api_players_get_403_and_strangers_404(league, auth_client, api_client, make_user):
    services.round_open(campaign=league.campaign, by=league.organiser)
    url = f"/api/v1/campaigns/{league.campaign.slug}/rounds/1/"
    body = {"closes_at": _later(3).isoformat()}
    auth_client.force_authenticate(league.user(0))
    assert auth_client.patch(url, body, format="json").status_code == 403
    auth_client.force_authenticate(make_user("stranger"))
    assert auth_client.patch(url, body, format="json").status_code == 404
    assert api_client.patch(url, body, format="json").status_code in (401, 403)
    assert Round.objects.get().closes_at is None


def test_schema_documents_the_dates(api_client):
    schema = api_client.get("/api/v1/schema/", HTTP_ACCEPT="application/json").json()
    detail = schema["paths"]["/api/v1/campaigns/{slug}/rounds/{number}/"]
    assert "patch" in detail
    assert "closes_at" in schema["components"]["schemas"]["Round"]["properties"]
