"""Nothing decisive by accident, in a phone's browser (390 px): the opponent strikes out the
voluntary rout that ended the battle from the table page (asked first) and the battle goes on;
logging out clears what the browser keeps of the player (the offline queue in IndexedDB, the
table pages the service worker cached), asking first when entries are still waiting."""

import os
import uuid

import pytest
from playwright.sync_api import expect

from battles.battlelog import prebattle
from battles.models import Battle
from tests.battles.factories import build_league, first_battle
from tests.e2e.a11y import ALLOWED, ENGLISH_WORDS, axe_violations, leaked_words
from tests.e2e.conftest import CHROMIUM  # noqa: F401 - the browser fixture skips without it
from tests.e2e.test_table_phone import PHONE, add_note, log, phone, set_offline
from warbands.content_loader import content_pack_load
from warbands.models import Fighter

pytestmark = [pytest.mark.e2e, pytest.mark.django_db(transaction=True)]
SHOTS = os.environ.get("TABLE_SHOTS")  # a folder to keep the screenshots in, if set


@pytest.fixture
def routed(make_user):
    """Player A's warband withdrew (two of four out of action): the battle is reported and
    waits for player B to confirm it."""
    content_pack_load()
    league = build_league(make_user, henchmen=3, name="Liga de la Mesa")
    battle = first_battle(league)
    a, b = league.warband(0), league.warband(1)
    prebattle.battle_log_setup(
        battle=battle, by=league.user(0), client_id=uuid.uuid4(), scenario="Escaramuza", first=a.pk
    )
    user = league.user(0)
    log(battle, user, "turn", {"turn": 1, "side": a.pk})
    for down in Fighter.objects.filter(warband=a, is_leader=False).order_by("pk")[:2]:
        log(battle, user, "status", {"fighter": down.pk, "status": "out_of_action"})
    log(battle, user, "turn", {"turn": 1, "side": b.pk})
    log(battle, user, "turn", {"turn": 2, "side": a.pk})
    rout = log(battle, user, "rout", {"side": a.pk, "voluntary": True})
    battle.refresh_from_db()
    assert battle.status == Battle.Status.REPORTED
    return league, battle, f"/battles/{battle.pk}/table/", rout.seq


@pytest.mark.parametrize("width", [390, 1280])
def test_the_opponent_strikes_out_the_voluntary_rout_and_the_battle_goes_on(
    browser, live_server, password, routed, width
):
    league, battle, url, seq = routed
    viewport = PHONE if width == 390 else {"width": width, "height": 900}
    ctx, page, errors = phone(browser, live_server, league.user(1), password, viewport)
    try:
        page.goto(url)
        banner = page.get_by_test_id("report-banner")
        expect(banner).to_be_visible()
        button = page.get_by_test_id("strike-decisive")
        expect(button).to_contain_text(f"#{seq}")
        if SHOTS:
            page.screenshot(path=f"{SHOTS}/table-reported-{width}.png", full_page=True)
        assert axe_violations(page) == []
        assert leaked_words(banner.inner_text(), ENGLISH_WORDS, ALLOWED) == []
        if width == 390:
            assert page.evaluate("document.documentElement.scrollWidth") <= width
            assert button.bounding_box()["height"] >= 44
        asked: list[str] = []

        def answer(dialog, accept):
            asked.append(dialog.message)
            dialog.accept() if accept else dialog.dismiss()

        page.once("dialog", lambda dialog: answer(dialog, False))
        button.click()
        page.wait_for_timeout(500)
        assert asked and f"#{seq}" in asked[0] and "continúa" in asked[0]
        battle.refresh_from_db()
        assert battle.status == Battle.Status.REPORTED  # dismissed: nothing written
        page.once("dialog", lambda dialog: answer(dialog, True))
        button.click()
        expect(banner).to_be_hidden()
        expect(page.get_by_test_id("decisive")).to_be_attached()  # the battle under way again
        expect(page.locator(f'#log li[data-seq="{seq}"] s')).to_have_count(1)
        battle.refresh_from_db()
        assert battle.status == Battle.Status.SCHEDULED
        if SHOTS:
            page.screenshot(path=f"{SHOTS}/table-reopened-{width}.png", full_page=True)
    finally:
        ctx.close()
    assert not errors, errors


def queue_count(page) -> int:
    return page.evaluate(
        """() => new Promise(resolve => {
            const open = indexedDB.open("annuminas-table");
            open.onupgradeneeded = () => open.transaction.abort();
            open.onerror = () => resolve(-1);
            open.onsuccess = () => {
              const db = open.result;
              if (!db.objectStoreNames.contains("queue")) { db.close(); resolve(0); return; }
              const count = db.transaction("queue").objectStore("queue").count();
              count.onsuccess = () => { db.close(); resolve(count.result); };
            };
        })"""
    )


CACHED_PAGES = """async () => {
    const pages = [];
    for (const name of await caches.keys()) {
      const cache = await caches.open(name);
      for (const request of await cache.keys()) {
        const path = new URL(request.url).pathname;
        if (path.startsWith("/battles/")) pages.push(path);
      }
    }
    return pages;
}"""


def test_logging_out_clears_the_offline_queue_and_the_cached_table(
    browser, live_server, password, make_user
):
    content_pack_load()
    league = build_league(make_user, henchmen=3, name="Liga de la Mesa")
    battle = first_battle(league)
    a = league.warband(0)
    prebattle.battle_log_setup(
        battle=battle, by=league.user(0), client_id=uuid.uuid4(), scenario="Escaramuza", first=a.pk
    )
    log(battle, league.user(0), "turn", {"turn": 1, "side": a.pk})
    url = f"/battles/{battle.pk}/table/"
    ctx, page, errors = phone(browser, live_server, league.user(0), password)
    try:
        page.goto(url)
        assert page.evaluate("navigator.serviceWorker.ready.then(() => true)")
        page.reload()  # through the service worker, which keeps a copy of the table
        expect(page.get_by_test_id("table-bar")).to_be_visible()
        set_offline(ctx, page, True)
        expect(page.get_by_test_id("offline-status")).to_be_visible()
        add_note(page, "sin red 1")
        add_note(page, "sin red 2")
        expect(page.get_by_test_id("queue").get_by_test_id("queued")).to_have_count(2)
        # The table closed with its entries waiting; back online on another page.
        page.close()
        ctx.set_offline(False)
        page = ctx.new_page()
        page.on("pageerror", lambda exc: errors.append(str(exc)))
        page.goto("/campaigns/")
        assert queue_count(page) == 2
        assert url in page.evaluate(CACHED_PAGES)
        asked: list[str] = []
        page.once("dialog", lambda dialog: (asked.append(dialog.message), dialog.dismiss()))
        page.get_by_test_id("nav-menu-toggle").click()  # folded at 390 px
        page.get_by_test_id("nav-logout").click()
        page.wait_for_timeout(500)
        assert asked and "2" in asked[0] and "cerrar sesión" in asked[0]
        expect(page.get_by_test_id("nav-logout")).to_be_attached()  # still signed in
        assert queue_count(page) == 2
        page.once("dialog", lambda dialog: dialog.accept())
        page.get_by_test_id("nav-logout").click()  # the menu still open
        expect(page.get_by_test_id("nav-login")).to_be_attached()
        names = page.evaluate("indexedDB.databases().then(dbs => dbs.map(db => db.name))")
        assert "annuminas-table" not in names or queue_count(page) == 0
        assert page.evaluate(CACHED_PAGES) == []
        # The next player on this phone, offline, is not shown the last one's table.
        page.goto("/accounts/login/")
        page.fill("input[name=login]", league.user(1).username)
        page.fill("input[name=password]", password)
        page.click("main form button[type=submit]")
        page.wait_for_selector("[data-testid=nav-logout]", state="attached")
        set_offline(ctx, page, True)
        response = None
        try:
            response = page.goto(url)
        except Exception:  # noqa: BLE001 - the network error page: nothing served from the cache
            response = None
        assert response is None or not response.ok
        set_offline(ctx, page, False)
    finally:
        ctx.close()
    assert not errors, errors
