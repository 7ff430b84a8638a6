"""A league that plays an organiser's own pack, after the pack is built (the building is
``test_content_packs_browser``): its battle is reported, confirmed by the opponent on his phone,
the organiser resolves the post-battle sequence from his phone, and the winner reads his
results and spends his treasury on the pack's own equipment list — at 390 px."""

import pytest
from playwright.sync_api import expect

from battles.models import Battle, BattleEvent, PostBattleRun
from battles.reports import services as reports
from tests.battles.factories import League, first_battle, league_on_pack, simple_report
from tests.battles.test_content_packs import TROLL_HUNTERS
from tests.e2e.a11y import axe_violations, sideways_scroll
from tests.e2e.test_warbands_browser import buy
from warbands.content_loader import content_pack_load
from warbands.models import Fighter
from warbands.packs import services as packs
from warbands.packs.files import yaml_write

pytestmark = [pytest.mark.e2e, pytest.mark.django_db(transaction=True)]

PHONE = {"width": 390, "height": 844}
LAPTOP = {"width": 1280, "height": 800}
SHOTS = "/tmp"  # noqa: S108 - screenshots for a person to look at, never read back


def _pack_league(make_user) -> League:
    """A running league on a published pack of the organiser's (not staff), two warbands of the
    pack's troll hunters in it."""
    content_pack_load()
    organiser = make_user("elendur")
    assert not organiser.is_staff
    pack = packs.pack_create(owner=organiser, name="Liga del Norte", credit="Casa, 2026")
    report = packs.pack_import(pack=pack, by=organiser, text=yaml_write(TROLL_HUNTERS), apply=True)
    assert report.ok, report.refused
    version = packs.pack_publish(pack=pack, by=organiser)
    players = [(make_user(name), name) for name in ("hallas", "arvegil")]
    league = league_on_pack(organiser, version, players, name="Liga del Norte")
    return league


def _as(page, login, user):
    """Sign in (the menu folds away on a phone), then use the site at 390 px."""
    page.context.clear_cookies()
    page.set_viewport_size(LAPTOP)
    login(user)
    page.set_viewport_size(PHONE)


def _fits(page, name: str) -> None:
    assert sideways_scroll(page) is None
    assert axe_violations(page) == []
    page.screenshot(path=f"{SHOTS}/pack-battle-{name}-390.png", full_page=True)


def test_a_pack_league_plays_a_battle_through_the_post_battle_sequence(page, login, make_user):
    league = _pack_league(make_user)
    winner, loser = league.warband(0), league.warband(1)
    chief = Fighter.objects.get(warband=winner, is_leader=True)
    enemy = Fighter.objects.get(warband=loser, is_leader=True)
    battle = first_battle(league)
    event = reports.EventReport(
        turn=2,
        kind=BattleEvent.Kind.OUT_OF_ACTION,
        actor_warband_id=winner.pk,
        actor_id=chief.pk,
        target_warband_id=loser.pk,
        target_id=enemy.pk,
    )
    reports.battle_report(
        battle=battle, reporter=league.user(0), report=simple_report(battle, winner, events=[event])
    )

    # The opponent confirms the report on his phone.
    _as(page, login, league.user(1))
    page.goto(f"/battles/{battle.pk}/")
    page.get_by_test_id("confirm").click()
    expect(page.get_by_test_id("confirm")).to_have_count(0)
    battle.refresh_from_db()
    assert battle.status == Battle.Status.CONFIRMED

    # The organiser resolves its post-battle sequence from his phone.
    _as(page, login, league.organiser)
    page.goto(f"/battles/{battle.pk}/postbattle/")
    page.get_by_test_id("resolve-battle").click()
    run = PostBattleRun.objects.get(battle=battle)
    assert run.status == "applied", run.error
    page.goto(f"/battles/{battle.pk}/postbattle/")
    expect(page.get_by_test_id("run-status")).to_be_visible()
    _fits(page, "organiser")

    # The winner reads his results (his pack's fighters by name) and buys from the pack's list.
    _as(page, login, league.user(0))
    page.goto(f"/battles/{battle.pk}/")
    page.get_by_test_id("postbattle-link").click()
    results = page.get_by_test_id(f"result-{winner.pk}")
    expect(results).to_contain_text("Jefe de hallas")
    _fits(page, "winner")
    chief.refresh_from_db()
    assert chief.experience > 20  # the pack's starting experience, then the battle's
    assert chief.fighter_type.pack_version_id == league.refresh().campaign.pack_version_id

    page.goto(f"/warbands/{winner.pk}/")
    expect(page.get_by_test_id("sheet-pack")).to_contain_text("Liga del Norte v1")
    treasury = int(page.get_by_test_id("treasury").inner_text().split()[0])
    hero = page.locator("[data-testid=hero-card]").first
    buy(page, hero.get_by_test_id("open-buy"), "arco")  # the pack prices a bow at 8 co
    expect(page.get_by_test_id("treasury")).to_have_text(f"{treasury - 8} co")
    _fits(page, "sheet")
