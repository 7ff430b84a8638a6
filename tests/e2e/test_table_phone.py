"""The table page on phones (390 px): an attack in four taps from the warrior's card without the
page moving, dice typed for a pending rout test kept while the opponent logs, two phones logging
a battle with one offline (entries kept on the phone, sent once when the network returns, a
conflict shown and resolved), the page audited (axe, tap targets) and looked at."""

import os
import uuid

import pytest
from playwright.sync_api import expect

from battles.battlelog import prebattle, services
from battles.models import BattleLogEntry
from tests.battles.factories import build_league, first_battle
from tests.e2e.a11y import ALLOWED, ENGLISH_WORDS, axe_violations, leaked_words
from tests.e2e.conftest import CHROMIUM  # noqa: F401 - the browser fixture skips without it
from warbands import services as warband_services
from warbands.content_loader import content_pack_load
from warbands.models import Equipment, Fighter

pytestmark = [pytest.mark.e2e, pytest.mark.django_db(transaction=True)]
PHONE = {"width": 390, "height": 844}
SHOTS = os.environ.get("TABLE_SHOTS")  # a folder to keep the screenshots in, if set


def phone(browser, live_server, user, password, viewport=PHONE):
    context = browser.new_context(
        base_url=live_server.url,
        locale="es-ES",
        viewport=viewport,
        is_mobile=viewport["width"] < 600,
        has_touch=True,
    )
    context.set_default_timeout(15_000)
    page = context.new_page()
    errors: list[str] = []
    page.on("pageerror", lambda exc: errors.append(str(exc)))
    page.goto("/accounts/login/")
    page.fill("input[name=login]", user.username)
    page.fill("input[name=password]", password)
    page.click("main form button[type=submit]")
    page.wait_for_selector("[data-testid=nav-logout]", state="attached")
    return context, page, errors


def log(battle, user, kind, payload, **extra):
    return services.battle_log_append(
        battle=battle, by=user, kind=kind, payload=payload, client_id=uuid.uuid4(), **extra
    )[0]


@pytest.fixture
def table(make_user):
    content_pack_load()
    league = build_league(make_user, henchmen=3, name="Liga de la Mesa")
    battle = first_battle(league)
    a = league.warband(0)
    captain = Fighter.objects.get(warband=a, is_leader=True)
    warband_services.equipment_buy(
        warband=a, equipment=Equipment.objects.get(slug="arco"), fighter=captain
    )
    prebattle.battle_log_setup(
        battle=battle, by=league.user(0), client_id=uuid.uuid4(), scenario="Escaramuza", first=a.pk
    )
    log(battle, league.user(0), "turn", {"turn": 1, "side": a.pk})
    return league, battle, f"/battles/{battle.pk}/table/"


def last_seq(page) -> int:
    return int(page.locator("#battle-live").get_attribute("data-last-seq"))


def test_a_shot_takes_four_taps_from_the_card_and_the_page_stays_put(
    browser, live_server, password, table
):
    league, battle, url = table
    a, b = league.warband(0), league.warband(1)
    captain = Fighter.objects.get(warband=a, is_leader=True)
    target = Fighter.objects.filter(warband=b, is_leader=False).order_by("pk").last()
    ctx, page, errors = phone(browser, live_server, league.user(0), password)
    try:
        page.goto(url)
        seen = last_seq(page)
        card = page.get_by_test_id(f"fighter-{captain.pk}")
        taps = 0
        page.get_by_test_id(f"card-{captain.pk}").click()
        taps += 1
        page.get_by_test_id(f"act-attack-{captain.pk}").click()
        taps += 1
        page.get_by_test_id(f"attack-target-{captain.pk}").select_option(str(target.pk))
        taps += 1
        # The card brought up under the sticky bar, as a thumb would scroll it.
        page.evaluate(
            "el => window.scrollTo(0, el.getBoundingClientRect().top + window.scrollY - 90)",
            card.element_handle(),
        )
        scroll, top = page.evaluate(
            "el => [window.scrollY, el.getBoundingClientRect().top]", card.element_handle()
        )
        assert scroll > 0
        page.get_by_test_id(f"attack-{captain.pk}").click()
        taps += 1
        expect(page.locator("#battle-live")).to_have_attribute("data-last-seq", str(seen + 1))
        assert taps <= 4
        entry = BattleLogEntry.objects.get(battle=battle, kind="attack")
        assert entry.payload["attacker"] == captain.pk and entry.payload["target"] == target.pk
        assert entry.dice["record"]  # the app rolled them
        page.wait_for_timeout(300)
        after, top_after = page.evaluate(
            "el => [window.scrollY, el.getBoundingClientRect().top]",
            page.get_by_test_id(f"fighter-{captain.pk}").element_handle(),
        )
        assert abs(after - scroll) <= 2, (scroll, after)
        assert abs(top_after - top) <= 2, (top, top_after)
        expect(page.get_by_test_id(f"fighter-{captain.pk}")).to_have_attribute("open", "")
        # The app's dice are in the log, folded, one tap to open.
        page.get_by_test_id("bar-log").click()
        dice = page.get_by_test_id(f"dice-{entry.seq}")
        expect(dice).to_be_visible()
        assert dice.get_attribute("open") is None
        dice.locator("summary").click()
        expect(dice).to_contain_text("impactar")
    finally:
        ctx.close()
    assert not errors, errors


def test_dice_typed_for_a_rout_test_survive_the_opponents_entry(
    browser, live_server, password, table
):
    league, battle, url = table
    a, b = league.warband(0), league.warband(1)
    down = Fighter.objects.filter(warband=a, is_leader=False).order_by("pk").first()
    log(battle, league.user(1), "status", {"fighter": down.pk, "status": "out_of_action"})
    log(battle, league.user(1), "turn", {"turn": 1, "side": b.pk})
    log(battle, league.user(0), "turn", {"turn": 2, "side": a.pk})  # a quarter down: rout test
    ctx, page, errors = phone(browser, live_server, league.user(0), password)
    try:
        page.goto(url)
        seen = last_seq(page)
        faces = page.get_by_test_id("faces-rout")
        faces.fill("3")
        expect(page.locator("#plan-due-1")).to_contain_text("1", timeout=5_000)  # one more die
        log(battle, league.user(1), "note", {"text": "Mi turno casi"})
        expect(page.locator("#battle-live")).to_have_attribute(
            "data-last-seq", str(seen + 1), timeout=10_000
        )
        expect(page.get_by_test_id("log")).to_contain_text("Mi turno casi", use_inner_text=False)
        expect(page.get_by_test_id("faces-rout")).to_have_value("3")
        assert page.evaluate("document.activeElement.name") == "faces"
    finally:
        ctx.close()
    assert not errors, errors


def add_note(page, text):
    more = page.get_by_test_id("more")
    if more.get_attribute("open") is None:
        more.locator("summary").click()
    page.get_by_test_id("note-text").fill(text)
    page.get_by_test_id("add-note").click()


def set_offline(context, page, offline: bool):
    context.set_offline(offline)
    cdp = context.new_cdp_session(page)
    cdp.send(
        "Network.emulateNetworkConditions",
        {"offline": offline, "latency": 0, "downloadThroughput": -1, "uploadThroughput": -1},
    )


def test_what_is_typed_while_an_entry_is_on_its_way_is_kept(browser, live_server, password, table):
    """The next note typed while the last one is still on its way (its answer held back) is not
    wiped when that answer arrives; the form the answer belongs to is emptied only if nothing
    was typed into it since."""
    league, battle, url = table
    ctx, page, errors = phone(browser, live_server, league.user(0), password)
    held = []
    try:
        page.goto(url)
        start = last_seq(page)
        page.route(
            f"**{url}",
            lambda route: (
                held.append(route) if route.request.method == "POST" else route.continue_()
            ),
        )
        add_note(page, "primera")
        for _ in range(100):
            if held:
                break
            page.wait_for_timeout(50)
        assert held, "the note was never sent"
        page.get_by_test_id("note-text").fill("segunda, a medias")
        held[0].continue_()
        page.unroute(f"**{url}")
        expect(page.locator("#battle-live")).to_have_attribute("data-last-seq", str(start + 1))
        expect(page.get_by_test_id("note-text")).to_have_value("segunda, a medias")
        page.get_by_test_id("add-note").click()
        expect(page.locator("#battle-live")).to_have_attribute("data-last-seq", str(start + 2))
        expect(page.get_by_test_id("note-text")).to_have_value("")
        notes = BattleLogEntry.objects.filter(battle=battle, kind="note").order_by("seq")
        assert [n.payload["text"] for n in notes] == ["primera", "segunda, a medias"]
    finally:
        ctx.close()
    assert not errors, errors


def test_two_phones_one_offline_end_with_the_same_log(browser, live_server, password, table):
    league, battle, url = table
    b = league.warband(1)
    contested = Fighter.objects.filter(warband=b, is_leader=False).order_by("pk").first()
    ctx_a, page_a, errors_a = phone(browser, live_server, league.user(0), password)
    ctx_b, page_b, errors_b = phone(browser, live_server, league.user(1), password)
    try:
        page_a.goto(url)
        page_b.goto(url)
        assert page_b.evaluate("navigator.serviceWorker.ready.then(() => true)")
        page_b.reload()  # now through the service worker, which keeps a copy
        expect(page_b.get_by_test_id("table-bar")).to_be_visible()
        # Idle, the page fetched every card's forms (the cards carry none): they open offline.
        expect(page_b.locator("#table[data-cards-ready]")).to_be_attached()
        start = last_seq(page_b)

        set_offline(ctx_b, page_b, True)
        expect(page_b.get_by_test_id("offline-status")).to_be_visible()
        # B's first entry offline touches a warrior A is about to change too.
        page_b.get_by_test_id(f"card-{contested.pk}").click()
        page_b.get_by_test_id(f"act-status-{contested.pk}").click()
        page_b.get_by_test_id(f"status-{contested.pk}").select_option("knocked_down")
        page_b.get_by_test_id(f"log-status-{contested.pk}").click()
        for n in range(1, 5):
            add_note(page_b, f"B sin red {n}")
        expect(page_b.get_by_test_id("queue").get_by_test_id("queued")).to_have_count(5)

        # A logs meanwhile, online: the contested warrior first.
        page_a.get_by_test_id(f"card-{contested.pk}").click()
        page_a.get_by_test_id(f"act-status-{contested.pk}").click()
        page_a.get_by_test_id(f"status-{contested.pk}").select_option("stunned")
        page_a.get_by_test_id(f"log-status-{contested.pk}").click()
        expect(page_a.locator("#battle-live")).to_have_attribute("data-last-seq", str(start + 1))
        for n in range(1, 8):
            add_note(page_a, f"A en red {n}")
            expect(page_a.locator("#battle-live")).to_have_attribute(
                "data-last-seq", str(start + 1 + n)
            )

        # B closes the page while offline, opens it again: the last copy, the queue kept.
        page_b.close()
        page_b = ctx_b.new_page()
        page_b.on("pageerror", lambda exc: errors_b.append(str(exc)))
        page_b.goto(url)
        expect(page_b.get_by_test_id("queue").get_by_test_id("queued")).to_have_count(5)
        # A card opened now gets its forms from the service worker's copy.
        page_b.get_by_test_id(f"card-{contested.pk}").click()
        expect(page_b.get_by_test_id(f"status-form-{contested.pk}")).to_be_attached()
        page_b.get_by_test_id(f"card-{contested.pk}").click()
        for n in range(5, 10):
            add_note(page_b, f"B sin red {n}")
        expect(page_b.get_by_test_id("queue").get_by_test_id("queued")).to_have_count(10)
        assert BattleLogEntry.objects.filter(battle=battle).count() == start + 8

        set_offline(ctx_b, page_b, False)
        # The notes go; the contested status is refused (A changed him since) and shown.
        conflict = page_b.get_by_test_id("conflict")
        expect(conflict).to_have_count(1, timeout=20_000)
        expect(page_b.get_by_test_id("queued")).to_have_count(0, timeout=20_000)
        page_b.get_by_test_id("conflict-rebase").click()
        expect(page_b.get_by_test_id("queue")).to_be_hidden(timeout=20_000)

        total = start + 8 + 10
        for page in (page_a, page_b):
            expect(page.locator("#battle-live")).to_have_attribute(
                "data-last-seq", str(total), timeout=15_000
            )
        entries = list(BattleLogEntry.objects.filter(battle=battle).order_by("seq"))
        assert len(entries) == total == 20
        notes = [e.payload["text"] for e in entries if e.kind == "note"]
        assert sorted(notes) == sorted(
            [f"B sin red {n}" for n in range(1, 10)] + [f"A en red {n}" for n in range(1, 8)]
        )
        assert entries[-1].kind == "status" and entries[-1].payload["status"] == "knocked_down"
        logs = [
            page.get_by_test_id("log").evaluate(
                "ol => [...ol.querySelectorAll(':scope > li')].map(li => li.dataset.seq + ' ' "
                "+ li.firstChild.textContent.trim())"
            )
            for page in (page_a, page_b)
        ]
        assert logs[0] == logs[1]
    finally:
        ctx_a.close()
        ctx_b.close()
    assert not errors_a and not errors_b, (errors_a, errors_b)


@pytest.mark.parametrize("width", [390, 1280])
def test_the_table_passes_axe_has_big_tap_targets_and_speaks_spanish(
    browser, live_server, password, table, width
):
    league, battle, url = table
    a, b = league.warband(0), league.warband(1)
    captain = Fighter.objects.get(warband=a, is_leader=True)
    theirs = list(Fighter.objects.filter(warband=b).order_by("pk"))
    mine = Fighter.objects.filter(warband=a, is_leader=False).order_by("pk").first()
    # A combat on the page (its form, the warriors' "fights" line) and a warrior down.
    log(battle, league.user(0), "charge", {"charger": mine.pk, "targets": [theirs[0].pk]})
    log(battle, league.user(0), "status", {"fighter": theirs[1].pk, "status": "out_of_action"})
    viewport = {"width": width, "height": 900}
    ctx, page, errors = phone(browser, live_server, league.user(0), password, viewport)
    try:
        page.goto(url)
        page.get_by_test_id(f"card-{captain.pk}").click()
        page.get_by_test_id(f"act-attack-{captain.pk}").click()
        page.get_by_test_id("bar-log").click()
        expect(page.get_by_test_id("combats")).to_be_visible()
        expect(page.get_by_test_id(f"engaged-{mine.pk}")).to_be_visible()
        if SHOTS:
            # From the top: a full-page capture of a scrolled page draws the sticky bar where
            # the screen is and leaves its place under the heading blank.
            page.evaluate("window.scrollTo(0, 0)")
            page.screenshot(path=f"{SHOTS}/table-{width}.png", full_page=True)
        assert axe_violations(page) == []
        small = page.evaluate(
            """() => [...document.querySelectorAll(
                '#table button, #table summary, #table select, #table a.bar-link, #table'
                + ' input:not([type=hidden]):not([type=checkbox]), #table label.check-label')]
              .filter(el => el.checkVisibility())
              .map(el => [el.outerHTML.slice(0, 80), el.getBoundingClientRect().height])
              .filter(([, h]) => h < 44)"""
        )
        assert small == []
        text = page.locator("#table").inner_text()
        for raw in ("out_of_action", "in_play", "knocked_down", "stupidity", "to hit"):
            assert raw not in text
        assert leaked_words(text, ENGLISH_WORDS, ALLOWED) == []
        if width == 390:
            assert page.evaluate("document.documentElement.scrollWidth") <= width
    finally:
        ctx.close()
    assert not errors, errors
