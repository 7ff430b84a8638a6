"""The main pages in a real browser with the Content-Security-Policy on: not one violation.

Chromium reports each violation as a ``securitypolicyviolation`` event (listened to from the
start of every page) and as a console error (the ``page`` fixture fails on those). The player's
and the organiser's pages are visited, with their dialogs opened and closed, the odds computed,
the battle log's table polling, the API's documentation and the organisers' site.
"""

import pytest
from playwright.sync_api import expect

from tests.e2e import test_accessibility
from tests.e2e.test_accessibility import main_pages, organiser_pages

# The accessibility audit's player (a warband in a running campaign, a battle played and
# resolved, another to report), as a fixture of this module.
audited_player = test_accessibility.player

pytestmark = [pytest.mark.e2e, pytest.mark.django_db(transaction=True)]

LISTEN = """
window.__cspViolations = [];
document.addEventListener("securitypolicyviolation", (event) => {
  window.__cspViolations.push(
    `${event.violatedDirective} blocked ${event.blockedURI || "inline"} ` +
    `at ${event.sourceFile || location.pathname}:${event.lineNumber}`
  );
});
"""


def _violations(page) -> list[str]:
    return page.evaluate("() => window.__cspViolations || []")


def visit(page, pages) -> list[str]:
    problems = []
    for name, path, action in pages:
        response = page.goto(path)
        assert response is not None and response.ok, f"{path}: {response and response.status}"
        policy = response.headers.get("content-security-policy", "")
        assert "script-src 'self'" in policy, f"{path}: {policy!r}"
        page.wait_for_load_state("networkidle")
        if action:
            action(page)
        problems += [f"{name} ({path}): {v}" for v in _violations(page)]
    return problems


def close_dialog_with_cancel(page):
    """The dialogs' Cancel buttons (no inline handler) still close them."""
    page.get_by_test_id("open-hire").click()
    dialog = page.get_by_test_id("hire-dialog")
    expect(dialog).to_be_visible()
    dialog.locator("[data-dialog-close]").click()
    expect(dialog).to_have_count(0)


def compute_odds(page):
    page.locator("#odds-form button[type=submit]").first.click()
    expect(page.get_by_test_id("odds-result")).to_be_visible()
    expect(page.locator("[data-testid=odds-result] progress").first).to_be_visible()


def test_the_players_pages_break_no_rule_of_the_policy(page, login, audited_player):
    player = audited_player
    page.add_init_script(LISTEN)
    login(player)
    sheet = f"/warbands/{player.warband.pk}/"
    pages = [
        *main_pages(player),
        ("close-dialog", sheet, close_dialog_with_cancel),
        ("odds-computed", "/rules/odds/", compute_odds),
        ("table", f"/battles/{player.next_battle.pk}/table/", None),
        ("api-docs", "/api/v1/docs/", lambda p: expect(p.locator(".swagger-ui")).to_be_visible()),
    ]
    problems = visit(page, pages)
    assert not problems, "\n".join(["", *problems])


def test_the_organisers_pages_and_site_break_no_rule_of_the_policy(page, login, audited_player):
    player = audited_player
    page.add_init_script(LISTEN)
    login(player.organiser)
    pages = [
        *organiser_pages(player),
        ("organisers-site", "/organisers/", None),
        ("organisers-campaign", f"/organisers/battles/campaign/{player.campaign.pk}/change/", None),
    ]
    problems = visit(page, pages)
    assert not problems, "\n".join(["", *problems])


def test_anonymous_pages_break_no_rule_of_the_policy(page, audited_player):
    page.add_init_script(LISTEN)
    pages = [
        ("home", "/", None),
        ("login", "/accounts/login/", None),
        ("signup", "/accounts/signup/", None),
        ("odds", "/rules/odds/", compute_odds),
    ]
    problems = visit(page, pages)
    assert not problems, "\n".join(["", *problems])
