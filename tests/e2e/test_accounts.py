"""A visitor signs up, logs out, logs in and switches language — in a real browser."""

import re

import pytest
from django.contrib.auth import get_user_model
from playwright.sync_api import expect

pytestmark = [pytest.mark.e2e, pytest.mark.django_db(transaction=True)]


def test_signup_logout_login_and_language_switch(page):
    page.goto("/")
    expect(page.locator("html")).to_have_attribute("lang", "es")
    expect(page.get_by_test_id("nav-signup")).to_have_text("Registrarse")

    page.get_by_test_id("nav-signup").click()
    page.fill("input[name=username]", "arveleg")
    page.fill("input[name=email]", "arveleg@example.com")
    page.fill("input[name=password1]", "Fornost-Erain-1974")
    page.fill("input[name=password2]", "Fornost-Erain-1974")
    page.locator("main form button[type=submit]").click()
    expect(page.get_by_test_id("nav-profile")).to_have_text("arveleg")
    assert get_user_model().objects.filter(username="arveleg").exists()

    page.get_by_test_id("nav-logout").click()
    expect(page.get_by_test_id("nav-login")).to_be_visible()

    page.get_by_test_id("nav-login").click()
    page.fill("input[name=login]", "arveleg")
    page.fill("input[name=password]", "Fornost-Erain-1974")
    page.locator("main form button[type=submit]").click()
    expect(page.get_by_test_id("nav-profile")).to_have_text("arveleg")

    page.get_by_test_id("lang-en").click()
    expect(page.locator("html")).to_have_attribute("lang", "en")
    expect(page.get_by_test_id("nav-logout")).to_have_text("Log out")

    page.get_by_test_id("lang-es").click()
    expect(page.locator("html")).to_have_attribute("lang", "es")
    expect(page.get_by_test_id("nav-logout")).to_have_text("Cerrar sesión")


def test_wrong_password_shows_a_clear_error(page, user):
    page.goto("/accounts/login/")
    page.fill("input[name=login]", user.username)
    page.fill("input[name=password]", "not-the-password")
    page.locator("main form button[type=submit]").click()
    expect(page.locator("main form")).to_contain_text(re.compile("no son correctos|not correct"))
    expect(page.get_by_test_id("nav-login")).to_be_visible()


def test_taken_username_is_refused(page, user):
    page.goto("/accounts/signup/")
    page.fill("input[name=username]", user.username)
    page.fill("input[name=password1]", "Fornost-Erain-1974")
    page.fill("input[name=password2]", "Fornost-Erain-1974")
    page.locator("main form button[type=submit]").click()
    expect(page.locator("main form")).to_contain_text("Ya existe un usuario con este nombre")
    assert get_user_model().objects.count() == 1


def test_unknown_page_is_a_404_in_the_users_language(page):
    response = page.goto("/no-such-page/")
    assert response.status == 404
    expect(page.locator("h1")).to_have_text("Página no encontrada")
    # Chromium logs the document's own 404 status as a console error; nothing else may fail.
    assert all("404" in message for message in page.console_errors)
    page.console_errors.clear()
