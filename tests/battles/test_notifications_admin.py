"""Notifications in the admin sites: read-only for superusers at /admin/; each organiser's own
campaign webhooks at /organisers/, written through the services (URL guard included)."""

from __future__ import annotations

import pytest
from django.conf import settings
from django.test import Client
from django.urls import reverse

from battles.models.notifications import (
    Event,
    Notification,
    NotificationEvent,
    Webhook,
    WebhookDelivery,
)
from battles.notifications import services
from tests.battles.factories import build_league
from tests.battles.notification_helpers import fake_dns

pytestmark = pytest.mark.django_db

MODELS = [
    "notificationevent",
    "notification",
    "notificationpreference",
    "webhook",
    "webhookdelivery",
    "calendartoken",
]


@pytest.fixture(autouse=True)
def _dns(monkeypatch):
    fake_dns(monkeypatch, {"intranet.example": "192.168.0.9"})


@pytest.fixture
def two_leagues(league):
    theirs = build_league(name="Liga de Bree", prefix="x")
    return league, theirs


def admin_client(user) -> Client:
    client = Client()
    client.cookies[settings.LANGUAGE_COOKIE_NAME] = "en"
    client.force_login(user)
    return client


def _webhook(league, url="https://hooks.example.com/a") -> Webhook:
    return services.webhook_create(campaign=league.campaign, by=league.organiser, url=url)


# --- /admin/ -------------------------------------------------------------------------------------
def test_superusers_read_every_notification_model_and_change_nothing(league, make_user):
    webhook = _webhook(league)
    WebhookDelivery.objects.create(webhook=webhook, event=Event.JOB_FAILED, key="k", payload={})
    NotificationEvent.objects.create(event=Event.JOB_FAILED, key="k", campaign=league.campaign)
    note = Notification.objects.create(
        recipient=league.organiser, event=Event.JOB_FAILED, key="k", campaign=league.campaign
    )
    client = admin_client(make_user("root", is_superuser=True, is_staff=True))
    for model in MODELS:
        response = client.get(reverse(f"admin:battles_{model}_changelist"))
        assert response.status_code == 200, model
        assert client.get(reverse(f"admin:battles_{model}_add")).status_code == 403, model
    page = client.get(reverse("admin:battles_webhook_change", args=[webhook.pk]))
    assert page.status_code == 200 and webhook.secret not in page.content.decode()
    response = client.post(
        reverse("admin:battles_notification_change", args=[note.pk]), {"read": "on"}
    )
    assert response.status_code == 403
    response = client.post(reverse("admin:battles_notification_delete", args=[note.pk]))
    assert response.status_code == 403
    note.refresh_from_db()
    assert not note.read


def test_staff_who_are_not_superusers_do_not_see_them(league, make_user):
    from django.contrib.auth.models import Permission

    staff = make_user("staff", is_staff=True)
    staff.user_permissions.set(Permission.objects.filter(content_type__app_label="battles"))
    client = admin_client(staff)
    for model in MODELS:
        assert client.get(reverse(f"admin:battles_{model}_changelist")).status_code == 403


# --- /organisers/ --------------------------------------------------------------------------------
def test_organisers_see_only_their_campaigns_webhooks(two_leagues):
    mine, theirs = two_leagues
    own, other = _webhook(mine), _webhook(theirs, "https://hooks.example.com/b")
    client = admin_client(mine.organiser)
    index = client.get(reverse("organisers:index")).content.decode()
    assert reverse("organisers:battles_webhook_changelist") in index
    page = client.get(reverse("organisers:battles_webhook_changelist"))
    assert list(page.context["cl"].result_list) == [own]
    detail = client.get(reverse("organisers:battles_webhook_change", args=[own.pk]))
    assert detail.status_code == 200 and own.secret in detail.content.decode()
    response = client.get(reverse("organisers:battles_webhook_change", args=[other.pk]))
    assert response.status_code in (302, 403, 404)
    delete = reverse("organisers:battles_webhook_delete", args=[other.pk])
    response = client.post(delete, {"post": "yes"})
    assert response.status_code in (302, 403, 404)
    assert Webhook.objects.filter(pk=other.pk).exists()


def test_organisers_add_change_and_delete_through_the_services(two_leagues):
    mine, theirs = two_leagues
    client = admin_client(mine.organiser)
    add = reverse("organisers:battles_webhook_add")
    form = client.get(add).context["adminform"].form
    assert list(form.fields["campaign"].queryset) == [mine.campaign]

    response = client.post(
        add,
        {"campaign": mine.campaign.pk, "url": "https://hooks.example.com/new", "format": "discord"},
    )
    assert response.status_code == 302
    webhook = Webhook.objects.get()
    assert (webhook.campaign, webhook.format, webhook.active, webhook.created_by) == (
        mine.campaign,
        "discord",
        False,
        mine.organiser,
    )
    assert len(webhook.secret) == 64

    change = reverse("organisers:battles_webhook_change", args=[webhook.pk])
    response = client.post(
        change, {"url": "https://hooks.example.com/moved", "format": "json", "active": "on"}
    )
    assert response.status_code == 302
    webhook.refresh_from_db()
    assert (webhook.url, webhook.format, webhook.active) == (
        "https://hooks.example.com/moved",
        "json",
        True,
    )

    response = client.post(
        reverse("organisers:battles_webhook_delete", args=[webhook.pk]), {"post": "yes"}
    )
    assert response.status_code == 302
    assert not Webhook.objects.exists()


@pytest.mark.parametrize(
    "url", ["http://intranet.example/h", "http://169.254.169.254/", "ftp://hooks.example.com/"]
)
def test_the_organisers_site_refuses_what_the_services_refuse(two_leagues, url):
    mine, theirs = two_leagues
    client = admin_client(mine.organiser)
    add = reverse("organisers:battles_webhook_add")
    response = client.post(add, {"campaign": mine.campaign.pk, "url": url, "format": "json"})
    assert response.status_code == 200 and response.context["adminform"].form.errors
    response = client.post(
        add, {"campaign": theirs.campaign.pk, "url": "https://hooks.example.com/", "format": "json"}
    )
    assert response.status_code == 200 and "campaign" in response.context["adminform"].form.errors
    assert not Webhook.objects.exists()


def test_the_organisers_actions_switch_off_on_and_rotate(league):
    webhook = _webhook(league)
    old_secret = webhook.secret
    client = admin_client(league.organiser)
    changelist = reverse("organisers:battles_webhook_changelist")
    for action in ("disable", "rotate_secret"):
        client.post(changelist, {"action": action, "_selected_action": [webhook.pk]})
    webhook.refresh_from_db()
    assert not webhook.active and webhook.secret != old_secret
    client.post(changelist, {"action": "enable", "_selected_action": [webhook.pk]})
    webhook.refresh_from_db()
    assert webhook.active


def test_players_do_not_reach_the_organisers_webhooks(league):
    webhook = _webhook(league)
    client = admin_client(league.user(0))
    response = client.get(reverse("organisers:battles_webhook_changelist"))
    assert response.status_code in (302, 403)
    response = client.post(
        reverse("organisers:battles_webhook_delete", args=[webhook.pk]), {"post": "yes"}
    )
    assert response.status_code in (302, 403)
    assert Webhook.objects.filter(pk=webhook.pk).exists()
