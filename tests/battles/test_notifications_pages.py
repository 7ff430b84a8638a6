"""The inbox, preferences and webhook pages, the unread count tag, and the API endpoints:
who may see and change what, bad input answered without writing, bounded queries."""

from __future__ import annotations

import uuid

import pytest
from django.template import Context, Template
from django.test import RequestFactory
from django.urls import reverse

from battles.models.notifications import Event, Notification, NotificationPreference, Webhook
from tests.battles.notification_helpers import fake_dns

pytestmark = pytest.mark.django_db


@pytest.fixture(autouse=True)
def _dns(monkeypatch):
    fake_dns(monkeypatch)


def _notes(user, campaign, count: int, **extra) -> list[Notification]:
    return Notification.objects.bulk_create(
        Notification(
            recipient=user,
            event=Event.PAIRINGS_PUBLISHED,
            key=f"k{n}-{uuid.uuid4().hex[:8]}",
            params={"campaign": campaign.name, "campaign_slug": campaign.slug, "round": n},
            campaign=campaign,
            **extra,
        )
        for n in range(count)
    )


# --- inbox ---------------------------------------------------------------------------------------
def test_inbox_lists_marks_read_and_marks_all_read(league, client):
    user = league.user(0)
    first, second, third = _notes(user, league.campaign, 3)
    _notes(league.user(1), league.campaign, 1)
    client.force_login(user)
    page = client.get(reverse("notification-inbox"))
    assert page.status_code == 200
    text = page.content.decode()
    assert text.count('data-testid="notification"') == 3
    # Spanish, the default: the sentence is worded when shown, in the reader's language.
    assert "Liga de Fornost: se han publicado los emparejamientos de la ronda 2." in text

    response = client.post(reverse("notification-read", args=[second.pk]), {"next": "/x/"})
    assert response.status_code == 302
    second.refresh_from_db()
    assert second.read and second.read_at
    assert Notification.objects.filter(recipient=user, read=False).count() == 2

    client.post(reverse("notification-read-all"))
    assert not Notification.objects.filter(recipient=user, read=False).exists()
    assert Notification.objects.filter(recipient=league.user(1), read=False).count() == 1
    unread_page = client.get(reverse("notification-inbox") + "?unread=1").content.decode()
    assert 'data-testid="no-notifications"' in unread_page


def test_nobody_marks_someone_elses_notification(league, client):
    (note,) = _notes(league.user(1), league.campaign, 1)
    client.force_login(league.user(0))
    assert client.post(reverse("notification-read", args=[note.pk])).status_code == 404
    assert client.get(reverse("notification-read", args=[note.pk])).status_code == 405
    note.refresh_from_db()
    assert not note.read


def test_pages_ask_for_a_login(client, league):
    for url in (
        reverse("notification-inbox"),
        reverse("notification-preferences"),
        reverse("campaign-webhooks", args=[league.campaign.slug]),
    ):
        response = client.get(url)
        assert response.status_code == 302 and "login" in response["Location"]


def test_inbox_queries_do_not_grow_with_notifications(league, client, assert_max_queries):
    user = league.user(0)
    client.force_login(user)
    _notes(user, league.campaign, 1)
    with assert_max_queries(8):
        assert client.get(reverse("notification-inbox")).status_code == 200
    _notes(user, league.campaign, 14)
    with assert_max_queries(8):
        assert client.get(reverse("notification-inbox")).status_code == 200


def test_unread_count_tag(league):
    user = league.user(0)
    _notes(user, league.campaign, 2)
    request = RequestFactory().get("/")
    request.user = user
    template = Template("{% load notification_tags %}{% unread_count as n %}[{{ n }}]")
    assert template.render(Context({"request": request})) == "[2]"
    from django.contrib.auth.models import AnonymousUser

    request = RequestFactory().get("/")
    request.user = AnonymousUser()
    assert template.render(Context({"request": request})) == "[0]"


# --- preferences ---------------------------------------------------------------------------------
def test_preferences_page_saves_and_refuses_bad_input(league, client):
    user = league.user(0)
    client.force_login(user)
    assert client.get(reverse("notification-preferences")).status_code == 200
    response = client.post(
        reverse("notification-preferences"),
        {"email_mode": "digest", "email_events": ["report_disputed"], "language": "en"},
    )
    assert response.status_code == 302
    preference = NotificationPreference.objects.get(user=user)
    assert (preference.email_mode, preference.email_events, preference.language) == (
        "digest",
        ["report_disputed"],
        "en",
    )
    response = client.post(
        reverse("notification-preferences"),
        {"email_mode": "hourly", "email_events": ["dragons"], "language": "en"},
    )
    assert response.status_code == 400
    preference.refresh_from_db()
    assert preference.email_mode == "digest"


# --- webhooks page -------------------------------------------------------------------------------
def test_organiser_adds_disables_and_deletes_a_webhook(league, client):
    slug = league.campaign.slug
    client.force_login(league.organiser)
    assert client.get(reverse("campaign-webhooks", args=[slug])).status_code == 200
    response = client.post(
        reverse("campaign-webhooks", args=[slug]),
        {"url": "https://discord.example/api/webhooks/1/abc", "format": "discord"},
    )
    assert response.status_code == 302
    webhook = Webhook.objects.get()
    assert (webhook.format, webhook.active, webhook.created_by) == (
        "discord",
        True,
        league.organiser,
    )
    change = reverse("campaign-webhook-change", args=[slug, webhook.pk])
    old_secret = webhook.secret
    client.post(change, {"op": "disable"})
    client.post(change, {"op": "rotate", "confirmed": "1"})
    webhook.refresh_from_db()
    assert not webhook.active and webhook.secret != old_secret
    assert webhook.secret in client.get(reverse("campaign-webhooks", args=[slug])).content.decode()
    assert client.post(change, {"op": "explode"}).status_code == 404
    client.post(change, {"op": "delete", "confirmed": "1"})
    assert not Webhook.objects.exists()


def test_bad_webhook_url_is_refused_on_the_page(league, client):
    client.force_login(league.organiser)
    response = client.post(
        reverse("campaign-webhooks", args=[league.campaign.slug]),
        {"url": "ftp://example.com/", "format": "json"},
    )
    assert response.status_code == 400
    assert not Webhook.objects.exists()


def test_players_and_strangers_cannot_manage_webhooks(league, client, make_user):
    slug = league.campaign.slug
    webhook = Webhook.objects.create(campaign=league.campaign, url="https://example.com/h")
    client.force_login(league.user(0))
    assert client.get(reverse("campaign-webhooks", args=[slug])).status_code == 403
    change = reverse("campaign-webhook-change", args=[slug, webhook.pk])
    assert client.post(change, {"op": "delete"}).status_code == 403
    client.force_login(make_user("stranger"))
    assert client.get(reverse("campaign-webhooks", args=[slug])).status_code == 404
    assert Webhook.objects.filter(pk=webhook.pk, active=True).exists()


# --- API -----------------------------------------------------------------------------------------
def test_api_lists_and_marks_read(league, auth_client):
    user = league.user(0)
    auth_client.force_authenticate(user)
    notes = _notes(user, league.campaign, 3)
    _notes(league.user(1), league.campaign, 2)
    body = auth_client.get("/api/v1/notifications/").json()
    assert body["count"] == 3
    line = body["results"][0]
    assert line["event"] == "pairings_published"
    assert line["campaign"] == league.campaign.slug
    assert line["message"].startswith("Liga de Fornost: se han publicado los emparejamientos")
    english = auth_client.get("/api/v1/notifications/", HTTP_ACCEPT_LANGUAGE="en").json()
    assert english["results"][0]["message"].startswith("Liga de Fornost: the pairings of round")
    assert line["url"] == f"/campaigns/{league.campaign.slug}/"

    response = auth_client.post(
        "/api/v1/notifications/read/", {"ids": [notes[0].pk]}, format="json"
    )
    assert response.json() == {"marked": 1}
    assert auth_client.get("/api/v1/notifications/?unread=1").json()["count"] == 2
    other = Notification.objects.filter(recipient=league.user(1)).first()
    response = auth_client.post("/api/v1/notifications/read/", {"ids": [other.pk]}, format="json")
    assert response.json() == {"marked": 0}
    assert auth_client.post("/api/v1/notifications/read/", {"all": True}, format="json").json() == {
        "marked": 2
    }


def test_api_bad_input_answers_the_error_shape(league, auth_client, api_client):
    auth_client.force_authenticate(league.user(0))
    for body in ({}, {"ids": "x"}, {"ids": [-1]}, {"all": "maybe"}):
        response = auth_client.post("/api/v1/notifications/read/", body, format="json")
        assert response.status_code == 400
        assert set(response.json()["error"]) == {"code", "message", "fields"}
    assert api_client.get("/api/v1/notifications/").status_code == 401


def test_api_notifications_query_count(league, auth_client, assert_max_queries):
    user = league.user(0)
    auth_client.force_authenticate(user)
    _notes(user, league.campaign, 1)
    with assert_max_queries(4):
        auth_client.get("/api/v1/notifications/")
    _notes(user, league.campaign, 14)
    with assert_max_queries(4):
        assert auth_client.get("/api/v1/notifications/").json()["count"] == 15


def test_api_webhooks_crud_for_organisers_only(league, auth_client):
    base = f"/api/v1/campaigns/{league.campaign.slug}/webhooks/"
    auth_client.force_authenticate(league.user(0))
    assert auth_client.get(base).status_code == 403
    response = auth_client.post(base, {"url": "https://example.com/h"}, format="json")
    assert response.status_code == 403 and not Webhook.objects.exists()

    auth_client.force_authenticate(league.organiser)
    response = auth_client.post(
        base, {"url": "https://example.com/h", "format": "discord"}, format="json"
    )
    assert response.status_code == 201
    created = response.json()
    assert created["format"] == "discord" and len(created["secret"]) == 64
    detail = f"{base}{created['id']}/"
    response = auth_client.patch(detail, {"active": False, "rotate_secret": True}, format="json")
    assert response.status_code == 200
    assert response.json()["active"] is False and response.json()["secret"] != created["secret"]

    for bad in ({"url": "gopher://x"}, {"format": "xml"}, {"url": "https://x/" + "a" * 600}):
        response = auth_client.patch(detail, bad, format="json")
        assert response.status_code == 400, bad
        assert response.json()["error"]["fields"]
    webhook = Webhook.objects.get()
    assert (webhook.url, webhook.format) == ("https://example.com/h", "discord")

    assert auth_client.get(base).json()[0]["id"] == created["id"]
    assert auth_client.delete(detail).status_code == 204
    assert not Webhook.objects.exists()
    assert auth_client.get("/api/v1/campaigns/nope/webhooks/").status_code == 404


def test_schema_documents_the_endpoints(api_client):
    schema = api_client.get("/api/v1/schema/", HTTP_ACCEPT="application/json").json()
    paths = schema["paths"]
    for path in (
        "/api/v1/notifications/",
        "/api/v1/notifications/read/",
        "/api/v1/campaigns/{slug}/webhooks/",
        "/api/v1/campaigns/{slug}/webhooks/{id}/",
        "/api/v1/calendar/",
    ):
        assert path in paths, path
    assert "400" in paths["/api/v1/notifications/read/"]["post"]["responses"]
