"""The main pages on a phone (390×844) and on a laptop (1280×800): no sideways scrolling, a menu
that opens (with and without JavaScript) and shows logout and the language switch, finger-sized
targets, and no console error (the ``page`` fixture fails the test on any)."""

import pytest
from playwright.sync_api import expect

from battles.campaigns.services import (
    campaign_join,
    campaign_transition,
    pairings_generate,
    round_open,
)
from battles.models import Campaign, Round
from tests.battles.factories import build_league, new_warband
from warbands.content_loader import content_pack_load

pytestmark = [pytest.mark.e2e, pytest.mark.django_db(transaction=True)]

PHONE = {"width": 390, "height": 844}
LAPTOP = {"width": 1280, "height": 800}
TAP = 44


@pytest.fixture
def player(make_user):
    """A player with a warband of heroes and henchmen, in a running campaign with a long name,
    paired in round 1."""
    content_pack_load()
    league = build_league(
        make_user, players=1, name="Liga de los Túmulos de Tyrn Gorthad", state="open"
    )
    user = make_user("malbeth")
    warband = new_warband(user, "Compañía de los Montaraces del Norte", henchmen=3)
    campaign = league.campaign
    campaign_join(campaign=campaign, user=user, warband=warband, join_code=campaign.join_code)
    campaign_transition(campaign=campaign, by=league.organiser, state=Campaign.State.RUNNING)
    round = round_open(campaign=campaign, by=league.organiser)
    pairings_generate(round=round, by=league.organiser, method=Round.Method.SWISS)
    user.warband = warband
    user.campaign = campaign
    return user


def main_pages(user) -> list[str]:
    return [
        "/",
        "/warbands/",
        f"/warbands/{user.warband.pk}/",
        "/campaigns/",
        f"/campaigns/{user.campaign.slug}/",
        f"/campaigns/{user.campaign.slug}/standings/",
        "/rules/odds/",
        "/accounts/profile/",
    ]


def assert_no_sideways_scroll(page, path: str) -> None:
    widths = page.evaluate(
        "() => [document.documentElement.scrollWidth, window.innerWidth, document.body.scrollWidth]"
    )
    scroll_width, inner_width, body_width = widths
    assert scroll_width <= inner_width, f"{path}: page is {scroll_width}px wide in {inner_width}px"
    assert body_width <= inner_width, f"{path}: body is {body_width}px wide in {inner_width}px"


def assert_tap_target(locator) -> None:
    box = locator.bounding_box()
    assert box is not None and box["height"] >= TAP - 0.5, box


@pytest.mark.parametrize("viewport", [PHONE, LAPTOP], ids=["390", "1280"])
def test_main_pages_never_scroll_sideways(page, login, player, viewport):
    login(player)
    page.set_viewport_size(viewport)
    for path in main_pages(player):
        page.goto(path)
        page.wait_for_load_state("networkidle")
        expect(page.locator("main h1").first).to_be_visible()
        assert_no_sideways_scroll(page, path)
    # The visitor's pages too.
    page.context.clear_cookies()
    for path in ("/", "/accounts/login/", "/accounts/signup/", "/campaigns/", "/rules/odds/"):
        page.goto(path)
        assert_no_sideways_scroll(page, path)


def test_the_phone_menu_opens_and_holds_logout_and_the_language_switch(page, login, player):
    login(player)
    page.set_viewport_size(PHONE)
    page.goto(f"/campaigns/{player.campaign.slug}/standings/")
    toggle = page.get_by_test_id("nav-menu-toggle")
    expect(toggle).to_be_visible()
    assert_tap_target(toggle)
    expect(page.get_by_test_id("nav-logout")).to_be_hidden()

    toggle.click()
    for test_id in ("nav-logout", "lang-en", "nav-profile", "nav-notifications"):
        item = page.get_by_test_id(test_id)
        expect(item).to_be_visible()
        assert_tap_target(item)
        box = item.bounding_box()
        assert box["x"] >= 0 and box["x"] + box["width"] <= PHONE["width"], (test_id, box)
    assert_no_sideways_scroll(page, "menu open")

    page.get_by_test_id("lang-en").click()
    expect(page.locator("html")).to_have_attribute("lang", "en")
    expect(page.get_by_test_id("nav-menu-toggle")).to_have_text("Menu")
    page.get_by_test_id("nav-menu-toggle").click()
    page.get_by_test_id("nav-logout").click()
    page.get_by_test_id("nav-menu-toggle").click()
    expect(page.get_by_test_id("nav-login")).to_be_visible()


def test_the_menu_works_from_the_keyboard(page, login, player):
    login(player)
    page.set_viewport_size(PHONE)
    page.goto("/warbands/")
    page.wait_for_load_state("networkidle")
    for _ in range(6):
        page.keyboard.press("Tab")
        if page.evaluate("document.activeElement.dataset.testid") == "nav-menu-toggle":
            break
    else:
        pytest.fail("the menu button is not reachable with Tab")
    outline = page.evaluate("getComputedStyle(document.activeElement).outlineStyle")
    assert outline == "solid"  # the focus is visible
    page.keyboard.press("Enter")
    expect(page.get_by_test_id("nav-logout")).to_be_visible()
    page.keyboard.press("Tab")
    assert page.evaluate("document.activeElement.closest('.site-menu-panel') !== null")
    page.keyboard.press("Escape")
    expect(page.get_by_test_id("nav-logout")).to_be_hidden()
    assert page.evaluate("document.activeElement.dataset.testid") == "nav-menu-toggle"


def test_the_laptop_header_shows_every_link_without_a_menu_button(page, login, player):
    login(player)
    page.set_viewport_size(LAPTOP)
    page.goto("/")
    expect(page.get_by_test_id("nav-menu-toggle")).to_be_hidden()
    expect(page.get_by_test_id("nav-logout")).to_be_visible()
    expect(page.get_by_test_id("lang-en")).to_be_visible()
    # The player's battle to report is counted in the header on every page.
    page.goto("/campaigns/")
    expect(page.get_by_test_id("nav-waiting")).to_contain_text("1")


def test_the_menu_opens_without_javascript(browser, live_server, player, password):
    context = browser.new_context(
        base_url=live_server.url, viewport=PHONE, locale="es-ES", java_script_enabled=False
    )
    page = context.new_page()
    try:
        page.goto("/accounts/login/")
        page.fill("input[name=login]", player.username)
        page.fill("input[name=password]", password)
        page.click("main form button[type=submit]")
        expect(page.get_by_test_id("dash-warbands")).to_be_visible()
        expect(page.get_by_test_id("nav-logout")).to_be_hidden()
        page.get_by_test_id("nav-menu-toggle").click()
        expect(page.get_by_test_id("nav-logout")).to_be_visible()
        expect(page.get_by_test_id("lang-en")).to_be_visible()
    finally:
        context.close()
