"""Nothing leaves the server inside a transaction: immediate e-mails go after the
fan-out commits, each claimed first (a rollback or a duplicate task never sends one twice), and
a webhook is posted with no lock or transaction held (claim, post, record)."""

from __future__ import annotations

import smtplib
from datetime import timedelta

import pytest
from django.core import mail
from django.db import connection
from django.utils import timezone

from battles.models.notifications import Event, Notification, NotificationEvent, WebhookDelivery
from battles.notifications import emails, services, webhooks
from battles.notifications.services import notify
from battles.reports import services as reports
from tests.battles.factories import first_battle, simple_report

pytestmark = pytest.mark.django_db


@pytest.fixture
def announced(league):
    """A report to confirm, announced (the outbox row written, its fan-out not run yet)."""
    battle = first_battle(league)
    battle = reports.battle_report(
        battle=battle, reporter=league.user(0), report=simple_report(battle, league.warband(0))
    )
    NotificationEvent.objects.all().delete()
    outbox = notify(event=Event.REPORT_TO_CONFIRM, battle=battle, actor=league.user(0))
    mail.outbox.clear()
    return league, outbox


def test_a_fan_out_that_rolls_back_sends_no_email(
    announced, monkeypatch, django_capture_on_commit_callbacks
):
    league, outbox = announced

    def broken(*args, **kwargs):
        raise RuntimeError("the fan-out failed after the inbox rows")

    monkeypatch.setattr(services, "deliveries_create", broken)
    with django_capture_on_commit_callbacks(execute=True), pytest.raises(RuntimeError):
        services.notification_event_dispatch(event_id=outbox.pk)
    assert mail.outbox == [] and not Notification.objects.exists()

    monkeypatch.undo()  # the task runs again, and this time commits
    with django_capture_on_commit_callbacks(execute=True):
        services.notification_event_dispatch(event_id=outbox.pk)
    assert [m.to for m in mail.outbox] == [[league.user(1).email]]


def test_each_email_is_claimed_before_it_is_sent_and_sent_once(
    announced, monkeypatch, django_capture_on_commit_callbacks
):
    league, outbox = announced
    stamped_when_sent = []
    real_send = emails.email_send

    def send(user, notifications, language):
        stamped_when_sent.append(
            Notification.objects.get(pk=notifications[0].pk).emailed_at is not None
        )
        real_send(user, notifications, language)

    monkeypatch.setattr(emails, "email_send", send)
    with django_capture_on_commit_callbacks(execute=True):
        services.notification_event_dispatch(event_id=outbox.pk)
    assert stamped_when_sent == [True]
    ids = list(Notification.objects.values_list("pk", flat=True))
    assert emails.email_send_immediate(ids) == 0  # a duplicate task sends nothing
    assert len(mail.outbox) == 1


def test_a_failed_send_is_given_back_and_the_sweep_sends_it(
    announced, monkeypatch, django_capture_on_commit_callbacks
):
    league, outbox = announced

    def down(**kwargs):
        raise smtplib.SMTPServerDisconnected("the mail server went away")

    monkeypatch.setattr(emails, "send_mail", down)
    with django_capture_on_commit_callbacks(execute=True):
        services.notification_event_dispatch(event_id=outbox.pk)
    notification = Notification.objects.get()
    assert notification.emailed_at is None and mail.outbox == []

    monkeypatch.undo()
    Notification.objects.update(created_at=timezone.now() - timedelta(minutes=2))
    assert services.notifications_resend() == 1
    assert [m.to for m in mail.outbox] == [[league.user(1).email]]
    assert services.notifications_resend() == 0  # stamped now: never again


@pytest.fixture
def delivery(league, settings):
    settings.WEBHOOKS_ALLOW_PRIVATE = True
    webhook = services.webhook_create(
        campaign=league.campaign, by=league.organiser, url="http://127.0.0.1:9/hook"
    )
    return WebhookDelivery.objects.create(
        webhook=webhook, event=Event.JOB_FAILED, key="k", payload={"event": "job_failed"}
    )


def test_a_webhook_is_posted_outside_any_transaction_and_once(delivery, monkeypatch):
    posted = []
    # The test's own savepoints (its data's and its own, tests/conftest.py) are all there is.
    tests_own = list(connection.savepoint_ids)

    def post(webhook, claimed):
        # No savepoint of the service's open: its transaction committed the claim before the call.
        posted.append((list(connection.savepoint_ids), claimed.attempts))
        row = WebhookDelivery.objects.get(pk=claimed.pk)
        assert row.attempts == 1 and row.next_attempt_at > timezone.now()  # claimed, leased
        if len(posted) == 1:  # a duplicate task at this very moment finds it not due
            duplicate = services.webhook_delivery_attempt(delivery_id=claimed.pk)
            assert (duplicate.status, duplicate.retry) == ("pending", False)
        return 204, ""

    monkeypatch.setattr(webhooks, "_post", post)
    attempt = services.webhook_delivery_attempt(delivery_id=delivery.pk)
    assert posted == [(tests_own, 1)]
    assert (attempt.status, attempt.attempts, attempt.retry) == ("sent", 1, False)
    delivery.refresh_from_db()
    assert (delivery.status, delivery.response_code, delivery.next_attempt_at) == (
        "sent",
        204,
        None,
    )
    assert services.webhook_delivery_attempt(delivery_id=delivery.pk).status == "sent"
    assert len(posted) == 1


def test_a_claim_whose_worker_died_is_tried_again_once_its_lease_ran_out(
    delivery, monkeypatch, django_capture_on_commit_callbacks
):
    posted = []
    monkeypatch.setattr(webhooks, "_post", lambda webhook, claimed: posted.append(1) or (200, ""))
    webhooks._delivery_claim(delivery.pk)  # the worker claims it, then dies before posting
    assert services.notifications_resend() == 0  # leased: left to its poster
    WebhookDelivery.objects.filter(pk=delivery.pk).update(
        next_attempt_at=timezone.now() - timedelta(minutes=2)
    )
    with django_capture_on_commit_callbacks(execute=True):
        assert services.notifications_resend() == 1
    delivery.refresh_from_db()
    assert (delivery.status, delivery.attempts, len(posted)) == ("sent", 2, 1)
