"""The odds calculator in a real browser: bars with exact fractions, and a roll step by step."""

import pytest
from playwright.sync_api import expect

pytestmark = [pytest.mark.e2e, pytest.mark.django_db(transaction=True)]


def test_calculate_and_roll(page):
    page.goto("/rules/odds/")
    page.fill("[name=a_ws]", "4")
    page.fill("[name=a_s]", "4")
    page.fill("[name=a_a]", "2")
    page.select_option("[name=d_armour_save]", "5")
    page.select_option("[name=d_parry]", "single")
    page.get_by_test_id("calculate").click()
    result = page.get_by_test_id("odds-result")
    expect(result).to_be_visible()
    expect(page.get_by_test_id("fraction-out_of_action")).to_have_text(
        __import__("re").compile(r"^\d+/\d+$")
    )
    # htmx swapped only the result: the form keeps what was typed
    expect(page.locator("[name=a_ws]")).to_have_value("4")

    page.get_by_test_id("roll").click()
    expect(page.get_by_test_id("roll-result")).to_be_visible()
    expect(page.get_by_test_id("seed")).to_have_text(__import__("re").compile(r"^\d+$"))
    expect(page.get_by_test_id("roll-result").locator("li").first).to_contain_text("HA 4")


def test_shooting_with_modifiers(page):
    page.goto("/rules/odds/")
    page.select_option("[name=kind]", "shooting")
    page.select_option("[name=a_missile]", "arco-largo")
    page.check("[name=m_cover]")
    page.get_by_test_id("calculate").click()
    expect(page.get_by_test_id("odds-result")).to_contain_text("1/3")
