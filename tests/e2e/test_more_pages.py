"""The remaining pages a user reaches, in a real browser: profile and API token, the ledger,
the job progress page, the API docs."""

import re

import pytest
from playwright.sync_api import expect

from battles.models import Job
from battles.postbattle import battle_resolve_start
from tests.battles.factories import build_league, first_battle, simple_report
from warbands.content_loader import content_pack_load

pytestmark = [pytest.mark.e2e, pytest.mark.django_db(transaction=True)]


def test_profile_creates_an_api_token(page, login, user):
    login(user)
    page.get_by_test_id("nav-profile").click()
    expect(page.get_by_test_id("profile-username")).to_have_text(user.username)
    page.get_by_role("button", name=re.compile("token", re.I)).click()
    expect(page.get_by_test_id("api-token")).to_have_text(re.compile(r"^[0-9a-f]{40}$"))


def test_ledger_and_job_progress_pages(page, login, make_user):
    from battles.reports import services

    content_pack_load()
    league = build_league(make_user, name="Liga del Norte")
    battle = first_battle(league)
    winner = league.warband(0)
    services.battle_report(
        battle=battle, reporter=league.user(0), report=simple_report(battle, winner)
    )
    services.battle_confirm(battle=battle, by=league.user(1))
    job = battle_resolve_start(battle=battle, user=league.organiser, seed=4)
    assert Job.objects.get(pk=job.pk).status == Job.Status.SUCCEEDED

    login(league.organiser)
    page.goto(f"/jobs/{job.pk}/")
    expect(page.get_by_test_id("job-progress")).to_have_attribute("data-status", "succeeded")
    # The battle's own link (the header's "waiting" badge is a number too).
    page.locator(f"main a[href='/battles/{battle.pk}/postbattle/']").first.click()
    expect(page.get_by_test_id("run-status")).to_contain_text(str(4))

    page.get_by_test_id("nav-logout").click()
    # Logging out first clears what the browser keeps offline, then leaves the page.
    expect(page.get_by_test_id("nav-login")).to_be_visible()
    login(league.user(0))
    page.goto(f"/warbands/{winner.pk}/")
    page.get_by_test_id("ledger-link").click()
    ledger = page.get_by_test_id("ledger")
    expect(ledger).to_be_visible()
    expect(ledger).to_contain_text(re.compile("Tesoro inicial|Starting treasury"))


def test_api_docs_render_offline(page):
    page.goto("/api/v1/docs/")
    expect(page.locator(".swagger-ui")).to_be_visible()
    expect(page.get_by_text("Annúminas API").first).to_be_visible()
