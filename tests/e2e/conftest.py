"""Real-browser fixtures: Playwright driving Debian's Chromium, headless, against live_server.

Outside CI the tests skip when /usr/bin/chromium is missing; in CI they never skip.
"""

import os
import shutil

import pytest

from tests.conftest import IN_CI

# Playwright's sync API runs an event loop in this thread; Django's ORM calls made by the test
# itself (fixtures, assertions) are still synchronous and safe.
os.environ.setdefault("DJANGO_ALLOW_ASYNC_UNSAFE", "true")

CHROMIUM = os.environ.get("CHROMIUM_PATH") or shutil.which("chromium") or "/usr/bin/chromium"
CHROMIUM_ARGS = [
    "--headless",
    "--no-sandbox",
    "--disable-gpu",
    "--disable-background-networking",
    "--disable-component-update",
    "--disable-sync",
    "--no-first-run",
    "--disable-quic",
]


@pytest.fixture(scope="session")
def browser():
    if not os.path.exists(CHROMIUM):
        if IN_CI:
            pytest.fail(f"Chromium not found at {CHROMIUM}: CI must install it (apt-get).")
        pytest.skip("Chromium is not installed (apt-get install chromium): browser tests skip")
    from playwright.sync_api import sync_playwright

    with sync_playwright() as playwright:
        browser = playwright.chromium.launch(executable_path=CHROMIUM, args=CHROMIUM_ARGS)
        yield browser
        browser.close()


@pytest.fixture
def page(browser, live_server):
    """A fresh browser context; console errors and page errors fail the test."""
    context = browser.new_context(base_url=live_server.url, locale="es-ES")
    context.set_default_timeout(15_000)
    page = context.new_page()
    errors: list[str] = []
    page.on("console", lambda msg: errors.append(msg.text) if msg.type == "error" else None)
    page.on("pageerror", lambda exc: errors.append(str(exc)))
    page.console_errors = errors
    yield page
    context.close()
    assert not errors, f"browser console errors: {errors}"


@pytest.fixture
def login(page, password):
    """Log a user in through the real login form."""

    def do_login(user):
        page.goto("/accounts/login/")
        page.fill("input[name=login]", user.username)
        page.fill("input[name=password]", password)
        page.click("main form button[type=submit]")
        page.wait_for_selector("[data-testid=nav-logout]")

    return do_login
