"""A league's campaign table edited on its pack's pages on a phone (390 px): the draft page lists
the tables (the pack's, the defaults), a table's page starts from the default rows, a refusal
names the row beside the field and writes nothing, a saved table is listed as the pack's, and
"back to the default table" takes it out after asking."""

import pytest
from playwright.sync_api import expect

from tests.e2e.a11y import axe_violations, sideways_scroll
from warbands.content_loader import content_pack_load
from warbands.models import PackVersion
from warbands.packs import services as packs

pytestmark = [pytest.mark.e2e, pytest.mark.django_db(transaction=True)]

PHONE = {"width": 390, "height": 844}
LAPTOP = {"width": 1280, "height": 800}
SHOTS = "/tmp"  # noqa: S108 - screenshots for a person to look at, never read back

MERCIFUL = "- {min: 1, max: 1, result: dead}\n- {min: 2, max: 6, result: fine}\n"


def _draft_tables(pack) -> dict:
    return pack.versions.get(state=PackVersion.State.DRAFT).document.get("tables", {})


def test_an_organiser_edits_a_campaign_table_on_a_phone(page, login, make_user):
    content_pack_load()
    organiser = make_user("hallatan")
    pack = packs.pack_create(owner=organiser, name="Liga de Fornost", visibility="public")
    page.set_viewport_size(LAPTOP)
    login(organiser)
    page.set_viewport_size(PHONE)

    page.goto(f"/packs/{pack.slug}/")
    section = page.get_by_test_id("pack-section-tables")
    section.locator("summary").click()
    row = section.locator("[data-table=henchman_injuries]")
    expect(row).to_be_visible()
    assert sideways_scroll(page) is None
    page.screenshot(path=f"{SHOTS}/packs-tables-390.png", full_page=True)
    row.get_by_test_id("pack-table-edit").click()

    rows = page.locator("textarea[name=rows]")
    expect(rows).to_have_value(
        "- {min: 1, max: 2, result: dead}\n- {min: 3, max: 6, result: fine}\n"
    )
    box = rows.bounding_box()
    assert box is not None and box["width"] > 300 and box["height"] > 300  # big enough to type in
    # A gap in the D6: refused beside the field, naming the table and the row; nothing written.
    rows.fill("- {min: 1, max: 1, result: dead}\n- {min: 3, max: 6, result: fine}\n")
    page.get_by_test_id("table-dry-run").click()
    expect(page.get_by_test_id("table-error")).to_contain_text("henchman_injuries")
    expect(page.get_by_test_id("table-error")).to_contain_text("2")
    assert sideways_scroll(page) is None
    assert axe_violations(page) == []
    page.screenshot(path=f"{SHOTS}/packs-table-refused-390.png", full_page=True)
    assert _draft_tables(pack) == {}

    page.locator("textarea[name=rows]").fill(MERCIFUL)
    page.get_by_test_id("table-save").click()
    section = page.get_by_test_id("pack-section-tables")
    expect(section.locator("[data-table=henchman_injuries]")).to_contain_text("2")
    assert _draft_tables(pack) == {
        "henchman_injuries": [
            {"min": 1, "max": 1, "result": "dead"},
            {"min": 2, "max": 6, "result": "fine"},
        ]
    }

    section.locator("summary").click()
    section.locator("[data-table=henchman_injuries]").get_by_test_id("pack-table-edit").click()
    expect(page.locator("textarea[name=rows]")).to_have_value(MERCIFUL)
    page.set_viewport_size(LAPTOP)
    assert sideways_scroll(page) is None
    page.screenshot(path=f"{SHOTS}/packs-table-1280.png", full_page=True)
    page.set_viewport_size(PHONE)
    page.once("dialog", lambda dialog: dialog.accept())
    page.get_by_test_id("table-default").click()
    expect(page.get_by_test_id("pack-section-tables")).to_be_attached()
    page.wait_for_function("() => !document.querySelector('[data-testid=table-default]')")
    assert _draft_tables(pack) == {}
    page.set_viewport_size(LAPTOP)
    assert sideways_scroll(page) is None
    assert page.console_errors == []
