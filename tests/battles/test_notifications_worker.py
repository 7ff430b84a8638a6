"""A real Celery worker on Redis and PostgreSQL posts a signed webhook to a local HTTP server
started here; a rolled-back announcement never arrives, and a re-run of the fan-out sends nothing
twice."""

from __future__ import annotations

import hashlib
import hmac
import json
import time

import pytest
from django.db import transaction

from battles.models.notifications import Event, Notification, NotificationEvent, WebhookDelivery
from battles.notifications import services
from battles.notifications.services import notify
from battles.notifications.tasks import notification_dispatch_task
from battles.reports.services import battle_report
from tests.battles.factories import build_league, first_battle, quick_user, simple_report
from tests.battles.notification_helpers import start_hook_server
from warbands.content_loader import content_pack_load

pytestmark = [pytest.mark.worker, pytest.mark.redis]


def _wait(predicate, timeout: float, what: str) -> None:
    deadline = time.monotonic() + timeout
    while time.monotonic() < deadline:
        if predicate():
            return
        time.sleep(0.2)
    raise AssertionError(f"timed out waiting for {what}")


@pytest.fixture
def private_allowed(monkeypatch, settings):
    """The hook listens on 127.0.0.1: allowed here and in the worker (started after this)."""
    settings.WEBHOOKS_ALLOW_PRIVATE = True
    monkeypatch.setenv("WEBHOOKS_ALLOW_PRIVATE", "true")


def test_real_worker_posts_a_signed_webhook_once(private_allowed, celery_worker):
    content_pack_load()
    hook = start_hook_server()
    try:
        league = build_league(quick_user, prefix="w-")
        battle = first_battle(league)
        webhook = services.webhook_create(
            campaign=league.campaign, by=league.organiser, url=hook.url
        )

        with pytest.raises(RuntimeError), transaction.atomic():
            battle = battle_report(
                battle=battle,
                reporter=league.user(0),
                report=simple_report(battle, league.warband(0)),
            )
            notify(event=Event.REPORT_TO_CONFIRM, battle=battle, actor=league.user(0))
            raise RuntimeError("rolled back")

        with transaction.atomic():
            battle = battle_report(
                battle=battle,
                reporter=league.user(0),
                report=simple_report(battle, league.warband(0)),
            )
            notify(
                event=Event.REPORT_TO_CONFIRM,
                battle=battle,
                actor=league.user(0),
                params={"version": battle.version},
            )

        # The pairings (published by the services themselves) reach the hook too: this test
        # follows the report's announcement.
        def reports():
            return [r for r in hook.requests if json.loads(r.body)["event"] == "report_to_confirm"]

        _wait(reports, 60, "the webhook to be posted by the worker")
        outbox = NotificationEvent.objects.get(event=Event.REPORT_TO_CONFIRM)
        _wait(
            lambda: WebhookDelivery.objects.filter(
                event=Event.REPORT_TO_CONFIRM, status="sent"
            ).exists(),
            30,
            "the delivery to be recorded",
        )
        (received,) = reports()
        digest = hmac.new(webhook.secret.encode(), received.body, hashlib.sha256).hexdigest()
        assert hmac.compare_digest(received.headers["x-annuminas-signature"], f"sha256={digest}")
        body = json.loads(received.body)
        assert (body["event"], body["data"]["battle_id"]) == ("report_to_confirm", battle.pk)
        assert body["data"]["version"] == battle.version
        told = Notification.objects.filter(event=Event.REPORT_TO_CONFIRM)
        assert list(told.values_list("recipient_id", flat=True)) == [league.user(1).pk]

        # The same message delivered again (a redelivery): nothing new anywhere.
        requests, notifications = len(hook.requests), Notification.objects.count()
        result = notification_dispatch_task.delay(outbox.pk).get(timeout=60)
        assert result["notifications"] == 0
        time.sleep(1)
        assert len(hook.requests) == requests and len(reports()) == 1
        assert Notification.objects.count() == notifications
        assert WebhookDelivery.objects.filter(event=Event.REPORT_TO_CONFIRM).count() == 1
    finally:
        hook.stop()
