"""The post-battle page on a phone (390 px): names instead of slugs and ids, no sideways
scrolling, tap targets of at least 44 px; an upkeep answered with one tap reads in words."""

import pytest
from django.db import transaction
from playwright.sync_api import expect

from battles.models import BattleEvent, PendingDecision, PostBattleRun
from battles.postbattle import battle_resolve_start
from battles.reports import services
from tests.battles.factories import build_league, first_battle, simple_report
from warbands.content_loader import content_pack_load
from warbands.models import Fighter, Skill, SkillList

pytestmark = [pytest.mark.e2e, pytest.mark.django_db(transaction=True)]

SMALL_TARGETS = """() => [...document.querySelectorAll(
    '[data-testid=decisions] button, [data-testid=decisions] select,'
    + ' [data-testid=decisions] fieldset label')]
  .filter(e => e.offsetParent)
  .map(e => [e.textContent.trim().slice(0, 30), Math.round(e.getBoundingClientRect().height)])
  .filter(row => row[1] < 44)"""


def resolved_battle(make_user):
    content_pack_load()
    league = build_league(make_user, name="Liga del teléfono", henchmen=2)
    winner, loser = league.warband(0), league.warband(1)
    captain = Fighter.objects.get(warband=winner, is_leader=True)
    enemy = Fighter.objects.get(warband=loser, is_leader=True)
    battle = first_battle(league)
    event = services.EventReport(
        turn=2,
        kind=BattleEvent.Kind.OUT_OF_ACTION,
        actor_warband_id=winner.pk,
        actor_id=captain.pk,
        target_warband_id=loser.pk,
        target_id=enemy.pk,
    )
    services.battle_report(
        battle=battle, reporter=league.user(0), report=simple_report(battle, winner, events=[event])
    )
    services.battle_confirm(battle=battle, by=league.user(1))
    with transaction.atomic():
        battle_resolve_start(
            battle=battle,
            user=league.organiser,
            faces={str(winner.pk): [1] * 30, str(loser.pk): [4, 5] + [4] * 30},
        )
    run = PostBattleRun.objects.get(battle=battle)
    assert run.status == "applied", run.error
    result = run.results.get(warband=winner)
    lads = list(Fighter.objects.filter(warband=winner, group__isnull=False))
    skills = list(Skill.objects.order_by("slug")[:3])
    PendingDecision.objects.bulk_create(
        [
            PendingDecision(
                result=result,
                warband=winner,
                fighter=captain,
                kind="skill",
                options=[skill.slug for skill in skills],
            ),
            PendingDecision(
                result=result,
                warband=winner,
                group=lads[0].group,
                kind="lads_got_talent",
                options=[lad.pk for lad in lads],
                payload={"skill_lists": list(SkillList.objects.values_list("slug", flat=True)[:3])},
            ),
            PendingDecision(
                result=result,
                warband=winner,
                fighter=captain,
                kind="upkeep",
                options=["pay", "leave"],
                payload={"upkeep": 20},
            ),
        ]
    )
    return league, battle, captain, lads, skills


def test_decisions_on_a_phone_read_names_and_fit(page, login, make_user):
    league, battle, captain, lads, skills = resolved_battle(make_user)
    login(league.user(0))  # at the default width: the phone hides the logout in its menu
    page.set_viewport_size({"width": 390, "height": 844})
    page.goto(f"/battles/{battle.pk}/postbattle/")

    decisions = page.get_by_test_id("decisions")
    expect(page.get_by_test_id("decision-skill").locator("select")).to_contain_text(skills[0].name)
    talent = page.get_by_test_id("decision-lads_got_talent")
    expect(talent.locator("select")).to_contain_text(f"{lads[0].name} (")
    expect(talent.locator("select")).not_to_contain_text("#")
    text = decisions.inner_text()
    assert skills[0].slug not in text or skills[0].slug == skills[0].name
    assert "{" not in text

    assert page.evaluate("document.documentElement.scrollWidth") <= 390
    assert page.evaluate(SMALL_TARGETS) == []

    upkeep = page.get_by_test_id("decision-upkeep")
    expect(upkeep).to_contain_text(captain.name)
    expect(upkeep).to_contain_text("20 co")
    upkeep.get_by_test_id("decision-pay").click()
    # The captain is no hired sword: the answer is refused, in words, and the decision waits.
    expect(page.get_by_test_id("decision-upkeep").locator("button")).to_have_count(2)
    assert page.evaluate("document.documentElement.scrollWidth") <= 390
