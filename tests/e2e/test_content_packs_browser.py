"""A league's own content pack on a phone (390 px): an organiser who is not staff builds a pack
with a new warband type (a leader, a hero, a henchman type and their equipment list),
publishes it, adopts it for his campaign after the preview, and a player builds a legal
warband from it and joins the league."""

import pytest
from playwright.sync_api import expect

from battles.campaigns import services
from battles.models import Campaign
from tests.e2e.a11y import axe_violations, sideways_scroll
from tests.e2e.test_warbands_browser import hire
from warbands.content_loader import content_pack_load
from warbands.models import ContentPack, Warband, WarbandType

pytestmark = [pytest.mark.e2e, pytest.mark.django_db(transaction=True)]

PHONE = {"width": 390, "height": 844}
LAPTOP = {"width": 1280, "height": 800}
SHOTS = "/tmp"  # noqa: S108 - screenshots for a person to look at, never read back


def _on_phone(page, login, user):
    """Log in (the menu folds away on a phone), then use the site at 390 px."""
    page.set_viewport_size(LAPTOP)
    login(user)
    page.set_viewport_size(PHONE)


def _logout(page):
    page.set_viewport_size(LAPTOP)
    page.get_by_test_id("nav-logout").click()
    expect(page.get_by_test_id("nav-login")).to_be_visible()


def test_an_organiser_builds_a_pack_and_a_player_plays_it(page, login, make_user):
    content_pack_load()
    organiser = make_user("elendur")
    assert not organiser.is_staff
    campaign = services.campaign_create(organiser=organiser, name="Liga del Norte")

    _on_phone(page, login, organiser)
    page.goto("/packs/")
    page.get_by_test_id("pack-new").click()
    page.fill("input[name=name]", "Liga del Norte")
    page.select_option("select[name=visibility]", "public")
    page.fill("input[name=credit]", "Reglas de la casa, 2026")
    page.get_by_test_id("pack-create-submit").click()

    page.get_by_test_id("pack-type-details").locator("summary").click()
    form = page.get_by_test_id("pack-type-form")
    form.locator("input[name=name]").fill("Cazadores de trolls")
    form.locator("select[name=race]").select_option("human")
    form.locator("input[name=leader_name]").fill("Jefe cazador")
    form.locator("input[name=leader_cost]").fill("60")
    form.locator("input[name=leader_profile]").fill("10 4 4 3 3 1 4 1 8")
    form.locator("input[name=hero_name]").fill("Rastreador")
    form.locator("input[name=hero_cost]").fill("30")
    form.locator("input[name=hero_max]").fill("2")
    form.locator("input[name=hero_profile]").fill("10 3 4 3 3 1 3 1 7")
    form.locator("input[name=henchman_name]").fill("Batidor")
    form.locator("input[name=henchman_cost]").fill("25")
    form.locator("input[name=henchman_profile]").fill("10 3 3 3 3 1 3 1 7")
    for item in ("daga", "espada", "arco"):
        form.locator(f"input[name=items][value={item}]").check()
    assert sideways_scroll(page) is None
    page.get_by_test_id("pack-type-submit").click()
    page.get_by_test_id("pack-publish").click()
    expect(page.get_by_test_id("pack-version")).to_contain_text("v1")
    expect(page.get_by_test_id("pack-warband-type")).to_contain_text("Cazadores de trolls")
    assert sideways_scroll(page) is None
    assert axe_violations(page) == []
    page.screenshot(path=f"{SHOTS}/packs-detail-390.png", full_page=True)

    # v2, entry by entry: a new equipment, its cost changed after a dry run, the leader's
    # profile and credit; the publish preview says what changes from v1.
    page.get_by_test_id("pack-section-equipment").locator("summary").click()
    page.get_by_test_id("pack-add-equipment").click()
    form = page.get_by_test_id("entry-form")
    form.locator("input[name=slug]").fill("lanza-de-caza")
    form.locator("input[name=name]").fill("Lanza de caza")
    form.locator("select[name=kind]").select_option("melee")
    form.locator("input[name=cost]").fill("9")
    form.locator("input[name=credit]").fill("Liga del Norte, p. 4")
    assert sideways_scroll(page) is None
    assert axe_violations(page) == []
    page.screenshot(path=f"{SHOTS}/packs-entry-new-390.png", full_page=True)
    page.get_by_test_id("entry-save").click()
    section = page.get_by_test_id("pack-section-equipment")
    section.locator("summary").click()
    section.locator("[data-slug=lanza-de-caza]").get_by_test_id("pack-entry-edit").click()
    form = page.get_by_test_id("entry-form")
    form.locator("input[name=cost]").fill("9000")
    page.get_by_test_id("entry-dry-run").click()
    expect(page.get_by_test_id("entry-form").locator(".field-error")).to_contain_text(
        "lanza-de-caza: cost:"
    )
    page.get_by_test_id("entry-form").locator("input[name=cost]").fill("11")
    page.get_by_test_id("entry-dry-run").click()
    expect(page.get_by_test_id("pack-report")).to_contain_text("lanza-de-caza")
    assert sideways_scroll(page) is None
    page.screenshot(path=f"{SHOTS}/packs-entry-dry-run-390.png", full_page=True)
    page.get_by_test_id("entry-save").click()
    # The list's own prices: one field beside the ticked items; a price for an item that is
    # not ticked is refused there.
    page.get_by_test_id("pack-section-equipment_lists").locator("summary").click()
    page.get_by_test_id("pack-section-equipment_lists").get_by_test_id(
        "pack-entry-edit"
    ).first.click()
    form = page.get_by_test_id("entry-form")
    form.locator("textarea[name=item_prices]").fill("espada: 8\nlanza-de-caza: 7")
    page.get_by_test_id("entry-dry-run").click()
    expect(page.get_by_test_id("entry-form").locator(".field-error")).to_contain_text(
        "lanza-de-caza"
    )
    form = page.get_by_test_id("entry-form")
    form.locator("textarea[name=item_prices]").fill("espada: 8")
    assert sideways_scroll(page) is None
    assert axe_violations(page) == []
    page.screenshot(path=f"{SHOTS}/packs-entry-list-390.png", full_page=True)
    page.set_viewport_size(LAPTOP)
    page.screenshot(path=f"{SHOTS}/packs-entry-list-1280.png", full_page=True)
    page.set_viewport_size(PHONE)
    page.get_by_test_id("entry-save").click()
    page.get_by_test_id("pack-section-warband_types").locator("summary").click()
    page.locator("[data-slug=cazadores-de-trolls]").get_by_test_id("pack-entry-edit").click()
    expect(page.get_by_test_id("entry-children")).to_contain_text("Jefe cazador")
    page.screenshot(path=f"{SHOTS}/packs-entry-type-390.png", full_page=True)
    children = page.get_by_test_id("entry-children")
    children.locator("[data-slug=cazadores-de-trolls-jefe]").get_by_test_id(
        "pack-entry-edit"
    ).click()
    form = page.get_by_test_id("entry-form")
    expect(form.locator("input[name=profile]")).to_have_value("10 4 4 3 3 1 4 1 8")
    form.locator("input[name=profile]").fill("10 4 4 3 3 1 5 1 8")
    form.locator("input[name=credit]").fill("Liga del Norte, p. 5")
    assert sideways_scroll(page) is None
    assert axe_violations(page) == []
    page.screenshot(path=f"{SHOTS}/packs-entry-fighter-390.png", full_page=True)
    page.set_viewport_size(LAPTOP)
    assert sideways_scroll(page) is None
    page.screenshot(path=f"{SHOTS}/packs-entry-fighter-1280.png", full_page=True)
    page.set_viewport_size(PHONE)
    page.get_by_test_id("entry-save").click()
    page.goto(f"/packs/{ContentPack.objects.get(name='Liga del Norte').slug}/")
    preview = page.get_by_test_id("pack-publish-preview")
    expect(preview).to_contain_text("lanza-de-caza")
    expect(preview.get_by_test_id("pack-preview-changed")).to_contain_text("cazadores-de-trolls")
    assert sideways_scroll(page) is None
    assert axe_violations(page) == []
    page.screenshot(path=f"{SHOTS}/packs-draft-390.png", full_page=True)
    page.set_viewport_size(LAPTOP)
    page.get_by_test_id("pack-section-warband_types").locator("summary").click()
    assert sideways_scroll(page) is None
    page.screenshot(path=f"{SHOTS}/packs-draft-1280.png", full_page=True)
    page.set_viewport_size(PHONE)
    page.get_by_test_id("pack-publish").click()
    expect(page.get_by_test_id("pack-version").first).to_contain_text("v2")

    page.get_by_test_id("pack-adopt-form").locator("select[name=campaign]").select_option(
        campaign.slug
    )
    page.get_by_test_id("pack-adopt").click()
    expect(page.get_by_test_id("pack-move-preview")).to_be_visible()
    assert sideways_scroll(page) is None
    assert axe_violations(page) == []
    page.screenshot(path=f"{SHOTS}/packs-move-390.png", full_page=True)
    page.get_by_test_id("pack-move-confirm").click()
    campaign.refresh_from_db()
    version = ContentPack.objects.get(name="Liga del Norte").versions.get(number=2)
    document = version.document
    assert document["equipment"]["lanza-de-caza"]["cost"] == 11
    (own_list,) = document["equipment_lists"].values()
    assert {"espada": {"cost": 8}} in own_list["items"]
    leader = document["warband_types"]["cazadores-de-trolls"]["fighter_types"]
    assert leader["cazadores-de-trolls-jefe"]["profile"] == "10 4 4 3 3 1 5 1 8"
    assert campaign.pack_version == version
    services.campaign_transition(campaign=campaign, by=organiser, state=Campaign.State.OPEN)
    _logout(page)

    player = make_user("hallas")
    _on_phone(page, login, player)
    page.goto(f"/campaigns/join/?code={campaign.join_code}")
    page.get_by_test_id("join-pack-create").click()
    expect(page.get_by_test_id("create-pack")).to_contain_text("Liga del Norte v2")
    hunters = WarbandType.objects.get(pack_version=version)
    page.locator("input[name=name]").fill("Los de Fornost")
    page.locator("select[name=warband_type]").select_option(str(hunters.pk))
    page.locator("form[data-testid=warband-create-form] button[type=submit]").click()
    expect(page.get_by_test_id("warband-name")).to_have_text("Los de Fornost")
    expect(page.get_by_test_id("sheet-pack")).to_have_text(
        "Liga del Norte v2 · Reglas de la casa, 2026"
    )
    types = {t.local_slug: t for t in hunters.fighter_types.all()}
    hire(page, types["cazadores-de-trolls-jefe"], "Hallas")
    hire(page, types["cazadores-de-trolls-secuaz"], "Batidores", count=3)
    assert sideways_scroll(page) is None
    page.get_by_test_id("sheet-sources").locator("summary").click()
    expect(page.get_by_test_id("sheet-sources")).to_contain_text(
        "Jefe cazador: Liga del Norte, p. 5"
    )
    page.screenshot(path=f"{SHOTS}/packs-sheet-sources-390.png", full_page=True)
    page.goto(f"/warbands/{Warband.objects.get(name='Los de Fornost').pk}/print/")
    expect(page.get_by_test_id("print-pack")).to_contain_text("Liga del Norte v2")
    expect(page.get_by_test_id("print-sources")).to_contain_text(
        "Jefe cazador: Liga del Norte, p. 5"
    )
    assert sideways_scroll(page) is None
    page.screenshot(path=f"{SHOTS}/packs-print-sources-390.png", full_page=True)

    page.goto(f"/campaigns/join/?code={campaign.join_code}")
    page.fill("input[name=join_code]", campaign.join_code)
    warband = Warband.objects.get(name="Los de Fornost")
    page.select_option("select[name=warband]", str(warband.pk))
    page.get_by_test_id("join-submit").click()
    expect(page.get_by_test_id("members-table")).to_contain_text("Los de Fornost")
    warband.refresh_from_db()
    assert warband.treasury == 500 - 60 - 3 * 25
    assert warband.pack_version_id == version.pk

    page.goto(f"/warbands/{warband.pk}/chat/")
    expect(page.get_by_test_id("chat-text")).to_contain_text("#ANNUMINAS1")
    assert sideways_scroll(page) is None
    assert axe_violations(page) == []
    page.screenshot(path=f"{SHOTS}/packs-chat-390.png", full_page=True)
    page.goto("/warbands/import-chat/")
    page.fill("textarea[name=text]", page.evaluate("() => ''") + "#ANNUMINAS1 roto")
    page.get_by_test_id("chat-check").click()
    expect(page.get_by_test_id("chat-error")).to_be_visible()
    assert sideways_scroll(page) is None
    assert axe_violations(page) == []
    page.set_viewport_size(LAPTOP)
    page.goto(f"/packs/{version.pack.slug}/")
    assert sideways_scroll(page) is None
    page.screenshot(path=f"{SHOTS}/packs-detail-1280.png", full_page=True)
    page.goto(f"/warbands/{warband.pk}/")
    page.get_by_test_id("sheet-sources").locator("summary").click()
    page.screenshot(path=f"{SHOTS}/packs-sheet-sources-1280.png", full_page=True)
