"""Notifications in a real browser on a phone (390×844), in Spanish: the inbox shows a
notification and marks it read, the preferences save, an organiser adds a campaign webhook and
opens a round with its start day and deadline; no page scrolls sideways (the ``page`` fixture
fails the test on any console error)."""

from __future__ import annotations

import uuid
from datetime import timedelta

import pytest
from django.utils import timezone
from playwright.sync_api import expect

from battles.models import Round
from battles.models.notifications import Event, Notification, NotificationPreference, Webhook
from tests.battles.factories import build_league
from tests.battles.notification_helpers import fake_dns
from warbands.content_loader import content_pack_load

pytestmark = [pytest.mark.e2e, pytest.mark.django_db(transaction=True)]

PHONE = {"width": 390, "height": 844}


def assert_no_sideways_scroll(page, path: str) -> None:
    scroll_width, inner_width = page.evaluate(
        "() => [document.documentElement.scrollWidth, window.innerWidth]"
    )
    assert scroll_width <= inner_width, f"{path}: page is {scroll_width}px wide in {inner_width}px"


@pytest.fixture
def organiser(make_user, monkeypatch):
    """The organiser of a running campaign with a long name, with one unread notification."""
    fake_dns(monkeypatch)  # the live server runs in this process: no DNS in the sandbox
    content_pack_load()
    league = build_league(make_user, name="Liga de los Túmulos de Tyrn Gorthad")
    campaign = league.campaign
    Notification.objects.create(
        recipient=league.organiser,
        event=Event.PAIRINGS_PUBLISHED,
        key=f"e2e-{uuid.uuid4().hex[:8]}",
        params={"campaign": campaign.name, "campaign_slug": campaign.slug, "round": 1},
        campaign=campaign,
    )
    league.organiser.campaign = campaign
    return league.organiser


def test_inbox_preferences_and_webhooks_on_a_phone(page, login, organiser):
    login(organiser)  # on a laptop-sized window, where the logout link shows
    page.set_viewport_size(PHONE)

    page.goto("/notifications/")
    expect(page.locator("h1")).to_have_text("Notificaciones")
    line = page.get_by_test_id("notification")
    expect(line).to_have_count(1)
    expect(line).to_contain_text(
        "Liga de los Túmulos de Tyrn Gorthad: se han publicado los emparejamientos de la ronda 1."
    )
    expect(line).to_have_attribute("data-read", "0")
    assert_no_sideways_scroll(page, "/notifications/")
    line.get_by_test_id("mark-read").click()
    expect(page.get_by_test_id("notification")).to_have_attribute("data-read", "1")
    expect(page.get_by_test_id("mark-read")).to_have_count(0)
    assert Notification.objects.get().read

    page.get_by_test_id("preferences-link").click()
    page.wait_for_url("**/notifications/preferences/")
    assert_no_sideways_scroll(page, "/notifications/preferences/")
    page.check("input[name=email_mode][value=digest]")
    page.uncheck("input[name=email_events][value=job_failed]")
    page.get_by_test_id("save-preferences").click()
    expect(page.locator("body")).to_contain_text("Preferencias guardadas.")
    preference = NotificationPreference.objects.get(user=organiser)
    assert preference.email_mode == "digest"
    assert "job_failed" not in preference.email_events and "report_disputed" in (
        preference.email_events
    )
    expect(page.locator("input[name=email_mode][value=digest]")).to_be_checked()

    path = f"/campaigns/{organiser.campaign.slug}/webhooks/"
    page.goto(path)
    assert_no_sideways_scroll(page, path)
    form = page.get_by_test_id("webhook-form")
    form.locator("input[name=url]").fill("https://discord.example/api/webhooks/1/abcdefghijkl")
    form.locator("select[name=format]").select_option("discord")
    form.locator("button[type=submit]").click()
    expect(page.locator("body")).to_contain_text("Webhook añadido.")
    expect(page.get_by_test_id("webhook")).to_have_count(1)
    expect(page.get_by_test_id("webhook-state")).to_have_text("activo")
    assert_no_sideways_scroll(page, path)
    webhook = Webhook.objects.get()
    assert (webhook.format, webhook.created_by) == ("discord", organiser)

    # A private address is refused on the page, in Spanish, and nothing is added.
    form = page.get_by_test_id("webhook-form")
    form.locator("input[name=url]").fill("http://10.0.0.7/hook")
    form.locator("button[type=submit]").click()
    expect(page.locator("body")).to_contain_text("red privada")
    assert Webhook.objects.count() == 1
    # The page answers bad input with 400, which Chromium logs: expected here, and only that.
    assert page.console_errors == [
        "Failed to load resource: the server responded with a status of 400 (Bad Request)"
    ]
    page.console_errors.clear()
    assert_no_sideways_scroll(page, path)

    # A new secret asks first: the receiver refuses every signature until it is given it.
    old_secret = webhook.secret
    questions: list[str] = []

    def answer(accept: bool):
        def handle(dialog) -> None:
            questions.append(dialog.message)
            dialog.accept() if accept else dialog.dismiss()

        return handle

    page.once("dialog", answer(False))
    page.get_by_test_id("rotate-webhook").click()
    expect(page.get_by_test_id("webhook")).to_have_count(1)
    webhook.refresh_from_db()
    assert webhook.secret == old_secret and "secreto nuevo" in questions[0]
    page.once("dialog", answer(True))
    page.get_by_test_id("rotate-webhook").click()
    expect(page.locator("body")).to_contain_text("Webhook modificado.")
    webhook.refresh_from_db()
    assert webhook.secret != old_secret and len(questions) == 2
    assert_no_sideways_scroll(page, path)


def test_an_organiser_opens_a_round_with_its_dates_on_a_phone(page, login, organiser):
    login(organiser)
    page.set_viewport_size(PHONE)
    path = f"/campaigns/{organiser.campaign.slug}/"
    page.goto(path)
    form = page.get_by_test_id("open-round-form")
    starts = timezone.localdate()
    deadline = (timezone.localtime() + timedelta(days=7)).replace(
        hour=20, minute=0, second=0, microsecond=0
    )
    form.locator("input[name=starts_on]").fill(starts.isoformat())
    form.locator("input[name=closes_at]").fill(deadline.strftime("%Y-%m-%dT%H:%M"))
    assert_no_sideways_scroll(page, path)
    page.get_by_test_id("open-round").click()
    expect(page.get_by_test_id("round-dates-1")).to_be_visible()
    round = Round.objects.get()
    assert (round.starts_on, round.closes_at) == (starts, deadline)
    expect(
        page.get_by_test_id("round-dates-form-1").locator("input[name=closes_at]")
    ).to_have_value(deadline.strftime("%Y-%m-%dT%H:%M"))
    assert_no_sideways_scroll(page, path)
