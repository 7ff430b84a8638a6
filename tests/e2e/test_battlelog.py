"""Two players on phones (390 px) log a short battle: each picks his own lineup, each sees the
other's entries, the loser's rout test is prompted, and its failure fills the report."""

import pytest
from playwright.sync_api import expect

from battles.models import Battle
from tests.battles.factories import build_league, first_battle
from tests.e2e.conftest import CHROMIUM  # noqa: F401 - the browser fixture skips without it
from warbands.content_loader import content_pack_load
from warbands.models import Fighter

pytestmark = [pytest.mark.e2e, pytest.mark.django_db(transaction=True)]
PHONE = {"width": 390, "height": 844}


def phone(browser, live_server, user, password):
    context = browser.new_context(
        base_url=live_server.url, locale="es-ES", viewport=PHONE, is_mobile=True, has_touch=True
    )
    context.set_default_timeout(15_000)
    page = context.new_page()
    errors: list[str] = []
    page.on("console", lambda msg: errors.append(msg.text) if msg.type == "error" else None)
    page.on("pageerror", lambda exc: errors.append(str(exc)))
    page.goto("/accounts/login/")
    page.fill("input[name=login]", user.username)
    page.fill("input[name=password]", password)
    page.click("main form button[type=submit]")
    page.wait_for_selector("[data-testid=nav-logout]", state="attached")  # menu folded
    return context, page, errors


def test_two_phones_log_a_short_battle(browser, live_server, make_user, password):
    content_pack_load()
    league = build_league(make_user, henchmen=3, name="Liga del Puente")
    battle = first_battle(league)
    a, b = league.warband(0), league.warband(1)
    victim = Fighter.objects.filter(warband=a, is_leader=False).order_by("pk").first()
    killer = Fighter.objects.get(warband=b, is_leader=True)
    url = f"/battles/{battle.pk}/table/"
    ctx_a, page_a, errors_a = phone(browser, live_server, league.user(0), password)
    ctx_b, page_b, errors_b = phone(browser, live_server, league.user(1), password)
    try:
        # B picks who fights for his warband; A's phone shows only his own checkboxes.
        page_b.goto(url)
        page_b.get_by_test_id("save-lineup").click()
        expect(page_b.get_by_test_id("setup-form")).to_be_visible()
        page_a.goto(f"/battles/{battle.pk}/")
        page_a.get_by_test_id("battle-log-link").click()
        expect(page_a.get_by_test_id(f"lineup-{b.pk}")).to_be_visible()
        page_a.get_by_test_id("scenario").select_option("Escaramuza")
        page_a.get_by_test_id("first").select_option(str(a.pk))
        page_a.get_by_test_id("start").click()
        page_a.get_by_test_id("next-turn").click()  # turn 1, A

        page_b.goto(url)
        expect(page_b.get_by_test_id("turn")).to_contain_text("1")
        page_b.get_by_test_id("next-turn").click()  # turn 1, B
        # B taps the victim's card, then its status: the warrior is already chosen.
        page_b.get_by_test_id(f"card-{victim.pk}").click()
        page_b.get_by_test_id(f"act-status-{victim.pk}").click()
        page_b.get_by_test_id(f"status-{victim.pk}").select_option("out_of_action")
        page_b.get_by_test_id(f"status-by-{victim.pk}").select_option(str(killer.pk))
        page_b.get_by_test_id(f"status-weapon-{victim.pk}").fill("espada")
        page_b.get_by_test_id(f"log-status-{victim.pk}").click()

        # A's phone sees B's entry without reloading (htmx polling).
        expect(page_a.get_by_test_id(f"fighter-{victim.pk}")).to_have_attribute(
            "data-status", "out_of_action", timeout=10_000
        )
        expect(page_a.get_by_test_id("log")).to_contain_text("con Espada", use_inner_text=False)
        page_a.get_by_test_id("next-turn").click()  # turn 2, A: a quarter out → rout test
        rout = page_a.get_by_test_id("check-rout")
        expect(rout).to_be_visible()
        expect(page_b.get_by_test_id("check-rout")).to_be_visible(timeout=10_000)
        rout.locator("xpath=..").locator("input[name=faces]").fill("6 6")
        # Dice that fail the test end the battle: the page asks first.
        page_a.once("dialog", lambda dialog: dialog.accept())
        rout.click()
        # The failed test ends the battle by itself: no finish to press.
        expect(page_a.get_by_test_id("finished")).to_be_visible()

        page_b.goto(f"/battles/{battle.pk}/")
        expect(page_b.get_by_test_id("battle-status")).not_to_be_empty()
        battle.refresh_from_db()
        assert battle.status == Battle.Status.REPORTED
        assert battle.participants.get(warband=a).routed
        assert battle.participants.get(warband=b).result == "win"
        expect(page_b.get_by_test_id("events")).to_contain_text(victim.name)
        width = page_a.evaluate("document.documentElement.scrollWidth")
        assert width <= PHONE["width"], f"the page scrolls sideways on a phone ({width} px)"
    finally:
        ctx_a.close()
        ctx_b.close()
    assert not errors_a and not errors_b, (errors_a, errors_b)
