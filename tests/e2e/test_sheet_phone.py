"""The Hoja de Control de Banda on a phone (390 px) and a desktop (1280 px): no
sideways scroll, each card's actions on one line, items with their actions on one line; and the
safety net in a real browser — htmx asks before dismissing, and without JavaScript a page asks."""

import pytest
from playwright.sync_api import expect

from tests.warbands.fixtures import *  # noqa: F403 - the warband fixtures
from tests.warbands.fixtures import build_roster, fighter_type
from warbands import services
from warbands.models import Fighter

pytestmark = [pytest.mark.e2e, pytest.mark.django_db(transaction=True)]


@pytest.fixture
def player(make_user):
    return make_user("eomer")


@pytest.fixture
def full_warband(content_tx, make_warband, player):
    warband = make_warband(owner=player, name="Jinetes del Vado")
    build_roster(warband, henchmen=7)
    services.fighter_hire(
        warband=warband, fighter_type=fighter_type("tirador-mercenario"), name="Arcos", count=2
    )
    return warband


@pytest.mark.parametrize("width,height", [(390, 844), (1280, 800)])
def test_the_sheet_fits_and_keeps_actions_on_one_line(
    page, login, player, full_warband, width, height
):
    login(player)  # at the default size, where the logout link shows
    page.set_viewport_size({"width": width, "height": height})
    page.goto(f"/warbands/{full_warband.pk}/")
    expect(page.get_by_test_id("hero-card")).to_have_count(3)
    assert page.evaluate("document.documentElement.scrollWidth") <= width
    rows = page.get_by_test_id("card-actions")
    assert rows.count() == 3 + 3  # three heroes, three groups
    for index in range(rows.count()):
        box = rows.nth(index).bounding_box()
        assert box["height"] <= 48, (index, box)
        assert box["x"] + box["width"] <= width
    items = page.get_by_test_id("item")
    assert items.count() > 5
    for index in range(items.count()):
        assert items.nth(index).bounding_box()["height"] <= 48
    # Special rules and members are words on the page, not slugs.
    expect(page.get_by_test_id("members").first).to_contain_text("Grupo 1 1")


def test_dismissing_asks_first_with_javascript(page, login, player, full_warband):
    login(player)
    page.goto(f"/warbands/{full_warband.pk}/")
    card = page.get_by_test_id("hero-card").filter(has_text="Joven")
    questions = []

    def refuse(dialog):
        questions.append(dialog.message)
        dialog.dismiss()

    page.once("dialog", refuse)
    card.get_by_test_id("dismiss").click()
    page.wait_for_timeout(300)
    assert questions and "Joven" in questions[0]
    assert Fighter.objects.filter(warband=full_warband, name="Joven").exists()

    page.once("dialog", lambda dialog: dialog.accept())
    card.get_by_test_id("dismiss").click()
    expect(page.get_by_test_id("hero-card")).to_have_count(2)
    assert not Fighter.objects.filter(warband=full_warband, name="Joven").exists()


def test_dismissing_asks_first_without_javascript(browser, live_server, password, full_warband):
    context = browser.new_context(base_url=live_server.url, java_script_enabled=False)
    page = context.new_page()
    page.set_viewport_size({"width": 390, "height": 844})
    page.goto("/accounts/login/")
    page.fill("input[name=login]", "eomer")
    page.fill("input[name=password]", password)
    page.click("main form button[type=submit]")
    page.goto(f"/warbands/{full_warband.pk}/")
    group = page.get_by_test_id("group-card").filter(has_text="Arcos")
    group.get_by_test_id("dismiss-group").click()
    expect(page.get_by_test_id("confirm-page")).to_contain_text("Arcos")
    assert full_warband.groups.filter(name="Arcos").exists()
    page.get_by_test_id("confirm-yes").click()
    expect(page.get_by_test_id("group-card")).to_have_count(2)
    assert not full_warband.groups.filter(name="Arcos").exists()
    context.close()
