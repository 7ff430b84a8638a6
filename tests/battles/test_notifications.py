"""Notifications: the outbox and its fan-out (inbox, e-mail, webhooks), idempotency, rollback,
signatures, the Discord format, failing webhooks, the digest and the round-closing sweep."""

from __future__ import annotations

import hashlib
import hmac
import json
from datetime import timedelta

import pytest
from django.core import mail
from django.db import transaction
from django.utils import timezone

from battles.models import Round
from battles.models.notifications import (
    Event,
    Notification,
    NotificationEvent,
    NotificationPreference,
    Webhook,
    WebhookDelivery,
)
from battles.notifications import services, webhooks
from battles.notifications.services import notify
from battles.notifications.tasks import (
    notification_dispatch_task,
    notifications_digest_task,
    notifications_resend_task,
    rounds_closing_notify_task,
    webhook_deliver_task,
)
from battles.reports import services as reports
from tests.battles.factories import first_battle, simple_report
from tests.battles.notification_helpers import start_hook_server

pytestmark = pytest.mark.django_db


@pytest.fixture
def reported(league):
    """Round 1 paired; player 1 reported the battle (player 2 must confirm)."""
    battle = first_battle(league)
    battle = reports.battle_report(
        battle=battle, reporter=league.user(0), report=simple_report(battle, league.warband(0))
    )
    # The services announce their own events (tests/battles/test_notification_hooks.py); these
    # tests drive ``notify`` by hand, so they start from an empty outbox.
    NotificationEvent.objects.all().delete()
    return league, battle


@pytest.fixture
def hook(settings):
    """A local server on 127.0.0.1: private addresses allowed, as in development."""
    settings.WEBHOOKS_ALLOW_PRIVATE = True
    server = start_hook_server()
    yield server
    server.stop()


def announce(captured, **kwargs):
    with captured(execute=True):
        return notify(**kwargs)


def test_report_to_confirm_reaches_the_opponent_not_the_reporter(
    reported, django_capture_on_commit_callbacks
):
    league, battle = reported
    announce(
        django_capture_on_commit_callbacks,
        event=Event.REPORT_TO_CONFIRM,
        battle=battle,
        actor=league.user(0),
        params={"version": battle.version},
    )
    rows = list(Notification.objects.all())
    assert [(n.recipient, n.event, n.battle_id, n.campaign_id) for n in rows] == [
        (league.user(1), Event.REPORT_TO_CONFIRM, battle.pk, league.campaign.pk)
    ]
    # Data is stored, not a sentence: it is rendered in the reader's language when shown.
    assert rows[0].params["campaign"] == league.campaign.name
    assert rows[0].params["battle"] == "Banda 1 vs Banda 2"
    assert "message" not in rows[0].params
    # Default preferences: every event, e-mailed at once.
    assert [m.to for m in mail.outbox] == [[league.user(1).email]]
    assert "Liga de Fornost" in mail.outbox[0].subject
    assert f"/battles/{battle.pk}/" in mail.outbox[0].body


def test_a_task_run_twice_writes_one_row_per_recipient(
    reported, django_capture_on_commit_callbacks
):
    league, battle = reported
    outbox = announce(
        django_capture_on_commit_callbacks,
        event=Event.REPORT_DISPUTED,
        battle=battle,
        actor=league.user(1),
    )
    first = set(Notification.objects.values_list("recipient_id", "event", "key"))
    assert {r for r, _e, _k in first} == {league.organiser.pk, league.user(0).pk}

    notification_dispatch_task.delay(outbox.pk)  # a redelivered message
    NotificationEvent.objects.filter(pk=outbox.pk).update(dispatched_at=None)
    with django_capture_on_commit_callbacks(execute=True):
        notification_dispatch_task.delay(outbox.pk)  # even a forced re-run of the fan-out

    assert set(Notification.objects.values_list("recipient_id", "event", "key")) == first
    assert Notification.objects.count() == 2
    assert len(mail.outbox) == 2  # no second e-mail either
    # Announcing the same thing again records it once.
    assert notify(event=Event.REPORT_DISPUTED, battle=battle, actor=league.user(1)) is None
    assert NotificationEvent.objects.count() == 1


def test_nothing_is_sent_for_a_transaction_that_rolls_back(
    reported, hook, django_capture_on_commit_callbacks
):
    league, battle = reported
    services.webhook_create(campaign=league.campaign, by=league.organiser, url=hook.url)
    with (
        django_capture_on_commit_callbacks(execute=True) as callbacks,
        pytest.raises(RuntimeError),
        transaction.atomic(),
    ):
        notify(event=Event.REPORT_TO_CONFIRM, battle=battle, actor=league.user(0))
        raise RuntimeError("the report failed after announcing it")
    assert callbacks == []
    assert NotificationEvent.objects.count() == 0
    assert Notification.objects.count() == 0
    assert WebhookDelivery.objects.count() == 0
    assert mail.outbox == [] and hook.requests == []


def test_unknown_events_and_non_json_params_fail_in_the_caller(reported):
    _league, battle = reported
    with pytest.raises(ValueError):
        notify(event="dragons_sighted", battle=battle)
    with pytest.raises(TypeError):
        notify(event=Event.JOB_FAILED, battle=battle, params={"when": object()})
    assert NotificationEvent.objects.count() == 0


def test_webhook_body_is_signed_with_hmac_sha256(
    reported, hook, django_capture_on_commit_callbacks
):
    league, battle = reported
    webhook = services.webhook_create(campaign=league.campaign, by=league.organiser, url=hook.url)
    announce(
        django_capture_on_commit_callbacks,
        event=Event.REPORT_TO_CONFIRM,
        battle=battle,
        actor=league.user(0),
    )
    (received,) = hook.requests
    expected = (
        "sha256=" + hmac.new(webhook.secret.encode(), received.body, hashlib.sha256).hexdigest()
    )
    assert hmac.compare_digest(received.headers["x-annuminas-signature"], expected)
    assert received.headers["x-annuminas-event"] == "report_to_confirm"
    body = json.loads(received.body)
    assert body["event"] == "report_to_confirm"
    assert body["campaign"] == {"slug": league.campaign.slug, "name": league.campaign.name}
    assert body["data"]["battle_id"] == battle.pk and "actor_id" not in body["data"]
    assert body["url"].endswith(f"/battles/{battle.pk}/")
    delivery = WebhookDelivery.objects.get()
    assert (delivery.status, delivery.attempts, delivery.response_code) == ("sent", 1, 204)
    # A tampered body does not verify.
    forged = hmac.new(webhook.secret.encode(), received.body + b" ", hashlib.sha256).hexdigest()
    assert not hmac.compare_digest(received.headers["x-annuminas-signature"], "sha256=" + forged)


def test_discord_format_is_an_execute_webhook_message(
    reported, hook, django_capture_on_commit_callbacks
):
    league, battle = reported
    services.webhook_create(
        campaign=league.campaign, by=league.organiser, url=hook.url, format="discord"
    )
    announce(django_capture_on_commit_callbacks, event=Event.POSTBATTLE_APPLIED, battle=battle)
    body = json.loads(hook.requests[0].body)
    assert set(body) == {"username", "content", "allowed_mentions", "embeds"}
    assert body["allowed_mentions"] == {"parse": []}
    assert 0 < len(body["content"]) <= 2000 and league.campaign.name in body["content"]
    (embed,) = body["embeds"]
    assert set(embed) == {"title", "description", "url", "timestamp"}
    assert embed["url"].endswith(f"/battles/{battle.pk}/")


def test_a_failing_webhook_is_retried_then_disabled_with_a_note_to_the_organisers(
    reported, hook, monkeypatch, django_capture_on_commit_callbacks
):
    league, battle = reported
    monkeypatch.setattr(webhooks, "WEBHOOK_DISABLE_AFTER", 3)
    hook.status = 500
    webhook = services.webhook_create(campaign=league.campaign, by=league.organiser, url=hook.url)
    announce(django_capture_on_commit_callbacks, event=Event.POSTBATTLE_APPLIED, battle=battle)
    delivery = WebhookDelivery.objects.get()
    assert (delivery.attempts, delivery.status) == (1, "pending")
    wait = (delivery.next_attempt_at - timezone.now()).total_seconds()
    assert 25 < wait <= 30  # the first backoff

    # Not due yet: the sweeper leaves it alone; once due, it tries again (backoff doubles).
    assert notifications_resend_task.delay().get() == 0
    webhook_deliver_task.delay(delivery.pk)  # an early duplicate does not post either
    assert len(hook.requests) == 1
    for expected_wait in (60, 120):
        past = timezone.now() - timedelta(minutes=2)  # the wait is over, and the retry was lost
        WebhookDelivery.objects.filter(pk=delivery.pk).update(next_attempt_at=past)
        with django_capture_on_commit_callbacks(execute=True):
            assert notifications_resend_task.delay().get() == 1
        delivery.refresh_from_db()
        wait = (delivery.next_attempt_at - timezone.now()).total_seconds()
        assert expected_wait - 5 < wait <= expected_wait

    webhook.refresh_from_db()
    assert len(hook.requests) == 3
    assert (webhook.active, webhook.consecutive_failures) == (False, 3)
    assert webhook.disabled_note == "HTTP 500"
    delivery = WebhookDelivery.objects.get()
    assert (delivery.status, delivery.attempts, delivery.error) == ("pending", 3, "HTTP 500")
    note = Notification.objects.get(event=Event.WEBHOOK_DISABLED)
    assert note.recipient == league.organiser
    assert note.params["url"] == hook.url and note.params["failures"] == 3

    # Disabled: the next event is not posted; switched back on, it counts from zero again.
    announce(django_capture_on_commit_callbacks, event=Event.JOB_FAILED, campaign=league.campaign)
    assert len(hook.requests) == 3
    webhook = services.webhook_update(webhook=webhook, by=league.organiser, active=True)
    assert (webhook.consecutive_failures, webhook.disabled_note) == (0, "")
    hook.status = 200
    announce(
        django_capture_on_commit_callbacks,
        event=Event.JOB_FAILED,
        campaign=league.campaign,
        params={"job_id": 1, "failed": 2},
    )
    assert len(hook.requests) == 4
    assert WebhookDelivery.objects.filter(status="sent").count() == 1


def test_a_delivery_gives_up_after_its_attempts(reported, hook, monkeypatch):
    league, _battle = reported
    hook.status = 503
    webhook = services.webhook_create(campaign=league.campaign, by=league.organiser, url=hook.url)
    delivery = WebhookDelivery.objects.create(
        webhook=webhook, event="job_failed", key="k", payload={}
    )
    attempts = []
    for _ in range(6):
        WebhookDelivery.objects.filter(pk=delivery.pk).update(next_attempt_at=None)  # time passes
        attempts.append(services.webhook_delivery_attempt(delivery_id=delivery.pk))
    assert [a.retry for a in attempts] == [True] * 4 + [False, False]
    delivery.refresh_from_db()
    assert (delivery.status, delivery.attempts) == ("failed", services.WEBHOOK_MAX_ATTEMPTS)
    assert len(hook.requests) == services.WEBHOOK_MAX_ATTEMPTS
    assert [services.backoff(n) for n in (1, 2, 3, 10)] == [30, 60, 120, 3600]


def test_daily_digest_gathers_what_was_not_emailed_once(
    reported, django_capture_on_commit_callbacks
):
    league, battle = reported
    reader = league.user(0)
    services.notification_preference_set(
        user=reader,
        email_mode=NotificationPreference.Mode.DIGEST,
        email_events=[Event.REPORT_DISPUTED, Event.POSTBATTLE_APPLIED],
        language="en",
    )
    announce(django_capture_on_commit_callbacks, event=Event.REPORT_DISPUTED, battle=battle)
    announce(django_capture_on_commit_callbacks, event=Event.POSTBATTLE_APPLIED, battle=battle)
    announce(django_capture_on_commit_callbacks, event=Event.REPORT_TO_CONFIRM, battle=battle)
    assert reader.email not in [to for m in mail.outbox for to in m.to]
    mail.outbox.clear()

    assert notifications_digest_task.delay().get() == 1
    (digest,) = [m for m in mail.outbox if m.to == [reader.email]]
    assert "2 notifications" in digest.subject
    assert digest.body.count("• ") == 2
    mail.outbox.clear()
    assert notifications_digest_task.delay().get() == 0
    assert mail.outbox == []


def test_bad_preferences_are_refused_and_change_nothing(league):
    with pytest.raises(services.ValidationError):
        services.notification_preference_set(
            user=league.organiser, email_mode="hourly", email_events=[]
        )
    with pytest.raises(services.ValidationError):
        services.notification_preference_set(
            user=league.organiser, email_mode="digest", email_events=["dragons"]
        )
    assert NotificationPreference.objects.count() == 0


def test_rounds_closing_within_48_hours_are_announced_once(
    league, django_capture_on_commit_callbacks
):
    battle = first_battle(league)
    round = battle.round
    Round.objects.filter(pk=round.pk).update(closes_at=timezone.now() + timedelta(hours=30))
    far = Round.objects.create(
        campaign=league.campaign, number=9, closes_at=timezone.now() + timedelta(hours=72)
    )
    with django_capture_on_commit_callbacks(execute=True):
        assert rounds_closing_notify_task.delay().get() == 1
    with django_capture_on_commit_callbacks(execute=True):
        assert rounds_closing_notify_task.delay().get() == 0
    rows = Notification.objects.filter(event=Event.ROUND_CLOSING)
    # The players whose battle is still unplayed, and the organiser.
    assert set(rows.values_list("recipient_id", flat=True)) == {
        league.organiser.pk,
        league.user(0).pk,
        league.user(1).pk,
    }
    assert not NotificationEvent.objects.filter(round=far).exists()


def test_pairings_published_reach_the_paired_players(league, django_capture_on_commit_callbacks):
    battle = first_battle(league)
    announce(
        django_capture_on_commit_callbacks,
        event=Event.PAIRINGS_PUBLISHED,
        round=battle.round,
        actor=league.organiser,
    )
    assert set(Notification.objects.values_list("recipient_id", flat=True)) == {
        league.user(0).pk,
        league.user(1).pk,
    }
    text = services.messages.render(Event.PAIRINGS_PUBLISHED, Notification.objects.first().params)
    assert text == "Liga de Fornost: the pairings of round 1 are published."


def test_webhook_urls_must_be_http_and_organisers_only(league, hook):
    for bad in ("ftp://example.com/x", "javascript:alert(1)", "http://", "x" * 600):
        with pytest.raises(services.ValidationError):
            services.webhook_create(campaign=league.campaign, by=league.organiser, url=bad)
    with pytest.raises(services.PermissionDenied):
        services.webhook_create(campaign=league.campaign, by=league.user(0), url=hook.url)
    assert Webhook.objects.count() == 0


def test_decisions_waiting_tell_each_deciding_owner_once_per_new_decision(
    reported, django_capture_on_commit_callbacks
):
    from battles.models import PendingDecision, PostBattleResult, PostBattleRun

    league, battle = reported
    run = PostBattleRun.objects.create(battle=battle, seed=7)
    result = PostBattleResult.objects.create(run=run, warband=league.warband(0))
    for _ in range(2):
        PendingDecision.objects.create(
            result=result, warband=league.warband(0), kind="skill", options=["a", "b"]
        )
    with django_capture_on_commit_callbacks(execute=True):
        assert services.decisions_waiting_notify(run=run) == 1
        assert services.decisions_waiting_notify(run=run) == 0  # nothing new
    (note,) = Notification.objects.filter(event=Event.DECISION_WAITING)
    assert note.recipient == league.user(0) and note.params["decisions"] == 2
    assert services.link_path(note) == f"/battles/{battle.pk}/postbattle/"
    PendingDecision.objects.create(
        result=result, warband=league.warband(0), kind="captive", options=["x"]
    )
    with django_capture_on_commit_callbacks(execute=True):
        assert services.decisions_waiting_notify(run=run) == 1
    assert Notification.objects.filter(event=Event.DECISION_WAITING).count() == 2


def test_a_battle_set_by_hand_tells_only_its_players(
    make_league, django_capture_on_commit_callbacks
):
    league = make_league(players=4)
    battle = first_battle(league)
    announce(
        django_capture_on_commit_callbacks,
        event=Event.PAIRINGS_PUBLISHED,
        battle=battle,
        actor=league.organiser,
    )
    owners = set(battle.participants.values_list("warband__owner_id", flat=True))
    assert len(owners) == 2
    assert set(Notification.objects.values_list("recipient_id", flat=True)) == owners


def test_player_markdown_and_mentions_reach_discord_inert(
    reported, hook, django_capture_on_commit_callbacks
):
    """A warband named like a Markdown link becomes no link posted by the league's bot."""
    from rest_framework.test import APIClient

    league, battle = reported
    warband = league.warband(0)
    api = APIClient()
    api.force_authenticate(league.user(0))
    evil = "[click me](https://evil.example) **@everyone** `x` > ~~y~~ ||z|| # @here <@1>"
    renamed = api.patch(
        f"/api/v1/warbands/{warband.pk}/", {"name": evil, "version": warband.version}, format="json"
    )
    assert renamed.status_code == 200, renamed.content
    for fmt in ("discord", "json"):
        services.webhook_create(
            campaign=league.campaign, by=league.organiser, url=hook.url, format=fmt
        )
    announce(django_capture_on_commit_callbacks, event=Event.POSTBATTLE_APPLIED, battle=battle)
    bodies = [json.loads(request.body) for request in hook.requests]
    discord = next(body for body in bodies if "content" in body)
    plain = next(body for body in bodies if "event" in body)
    for text in (discord["content"], discord["embeds"][0]["description"]):
        assert "[click me](" not in text and "https://evil" not in text
        assert r"\[click me\]\(https\:/" in text
        assert r"\*\*" in text and r"\`x\`" in text and r"\~\~y\~\~" in text and r"\|\|" in text
        assert "@everyone" not in text and "@here" not in text and r"\<@1\>" in text
        assert r"\#" in text and r"\>" in text
    assert discord["allowed_mentions"] == {"parse": []}
    assert discord["embeds"][0]["url"].endswith(f"/battles/{battle.pk}/")  # ours, untouched
    assert evil in plain["message"]  # the JSON format carries the text as typed
