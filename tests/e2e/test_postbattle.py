"""After a batch: a player opens the post-battle page, sees the rolls, chooses an advance and
spends the treasury on equipment — in a real browser."""

import pytest
from playwright.sync_api import expect

from battles.models import BattleEvent, Job, PostBattleRun
from battles.postbattle import round_resolve_start
from battles.reports import services
from tests.battles.factories import build_league, first_battle, simple_report
from tests.e2e.test_warbands_browser import buy
from warbands.content_loader import content_pack_load
from warbands.models import Fighter

pytestmark = [pytest.mark.e2e, pytest.mark.django_db(transaction=True)]


def test_player_reads_the_rolls_chooses_an_advance_and_buys(page, login, make_user):
    content_pack_load()
    league = build_league(make_user, name="Liga de Annúminas")
    winner, loser = league.warband(0), league.warband(1)
    captain = Fighter.objects.get(warband=winner, is_leader=True)
    enemy = Fighter.objects.get(warband=loser, is_leader=True)
    battle = first_battle(league)
    report = simple_report(
        battle,
        winner,
        events=[
            services.EventReport(
                turn=3,
                kind=BattleEvent.Kind.OUT_OF_ACTION,
                actor_warband_id=winner.pk,
                actor_id=captain.pk,
                target_warband_id=loser.pk,
                target_id=enemy.pk,
            )
        ],
    )
    services.battle_report(battle=battle, reporter=league.user(0), report=report)
    services.battle_confirm(battle=battle, by=league.user(1))
    # The dice the players rolled at the table: the captain reaches 24 XP and rolls 7 (HA or HP).
    PostBattleRun.objects.create(
        battle=battle,
        seed=1,
        faces={str(winner.pk): [3, 4, 5, 6, 1, 1], str(loser.pk): [4, 1]},
        options={"scenario_bonus": {str(captain.pk): 1}},
    )
    job = round_resolve_start(round=battle.round, user=league.organiser)
    job.refresh_from_db()
    assert job.status == Job.Status.SUCCEEDED

    login(league.user(0))
    page.goto(f"/battles/{battle.pk}/")
    page.get_by_test_id("postbattle-link").click()
    steps = page.get_by_test_id(f"result-{winner.pk}")
    expect(steps).to_contain_text("2D6: 3, 4")
    expect(steps.locator("li[data-step=exploration]")).to_contain_text("5, 6")

    decision = page.get_by_test_id("decision-characteristic")
    expect(decision.get_by_test_id("decision-choice")).to_contain_text("HA")
    decision.get_by_test_id("decision-choice").select_option("ws")
    ws = captain.ws
    decision.get_by_test_id("decision-submit").click()
    expect(page.get_by_test_id("decision-characteristic").locator("select")).to_have_count(0)
    captain.refresh_from_db()
    assert captain.ws == ws + 1

    page.get_by_test_id(f"spend-{winner.pk}").click()
    page.wait_for_url(f"**/warbands/{winner.pk}/")  # the sheet, before its treasury is read
    treasury = int(page.get_by_test_id("treasury").inner_text().split()[0])
    hero = page.locator("[data-testid=hero-card]").first
    buy(page, hero.get_by_test_id("open-buy"), "espada")
    expect(page.get_by_test_id("treasury")).to_have_text(f"{treasury - 10} co")
