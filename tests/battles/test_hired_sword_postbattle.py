"""A hired sword after a battle, with fixed dice: injured or killed on the heroes'
table, experience and advances as a hero's (his type's data decides), never against the hero
limit of "the lad's got talent", and no exploration dice nor rare-item search (Mordheim)."""

from __future__ import annotations

import pytest

from battles.models import BattleEvent, PendingDecision, PostBattleRun
from battles.postbattle import battle_resolve_start
from battles.reports import services
from tests.battles.factories import first_battle, simple_report
from warbands.models import Fighter, HiredSword
from warbands.services.hired_swords import hired_sword_hire

pytestmark = pytest.mark.django_db

RANGER = "montaraz-errante"  # 20 XP when hired: a hero threshold already crossed


def hire_ranger(warband) -> Fighter:
    return hired_sword_hire(
        warband=warband, hired_sword=HiredSword.objects.get(fighter_type__slug=RANGER)
    )


def leader(warband) -> Fighter:
    return Fighter.objects.get(warband=warband, is_leader=True)


def out_of_action(actor: Fighter, target: Fighter) -> services.EventReport:
    return services.EventReport(
        turn=2,
        kind=BattleEvent.Kind.OUT_OF_ACTION,
        actor_warband_id=actor.warband_id,
        actor_id=actor.pk,
        target_warband_id=target.warband_id,
        target_id=target.pk,
    )


@pytest.fixture
def fight_and_resolve(django_capture_on_commit_callbacks):
    """Player 0 wins round 1 with these events; the run applied with these faces."""

    def do(league, events, faces, **kwargs) -> PostBattleRun:
        battle = first_battle(league)
        report = simple_report(battle, league.warband(0), events=list(events))
        services.battle_report(battle=battle, reporter=league.user(0), report=report)
        services.battle_confirm(battle=battle, by=league.user(1))
        with django_capture_on_commit_callbacks(execute=True):
            battle_resolve_start(
                battle=battle,
                faces={str(warband.pk): values for warband, values in faces},
                **kwargs,
            )
        run = PostBattleRun.objects.get(battle=battle)
        assert run.status == "applied", run.error
        return run

    return do


def steps(run: PostBattleRun, warband, kind: str) -> list[dict]:
    result = run.results.get(warband=warband)
    return [step for step in result.steps if step["step"] == kind]


def test_a_sword_out_of_action_rolls_on_the_heroes_injury_table(league, fight_and_resolve):
    a, b = league.warband(0), league.warband(1)
    ranger = hire_ranger(b)
    before = Fighter.objects.get(pk=ranger.pk)
    # b: D66 = 22 leg wound (a henchman's D6 would take one die); exploration 1 die (its
    # leader); rare items 2D6 (its leader).
    run = fight_and_resolve(
        league,
        [out_of_action(leader(a), ranger)],
        [(a, [1, 1, 1, 1]), (b, [2, 2, 1, 1, 1])],
    )
    [injury] = steps(run, b, "injury")
    assert injury["fighter_id"] == ranger.pk and injury["result"]["kind"] == "serious-injury"
    ranger.refresh_from_db()
    assert ranger.m == before.m - 2.5
    assert [injury["code"] for injury in ranger.injuries] == ["leg_wound"]


def test_a_sword_can_die_and_takes_his_gear_with_him(league, fight_and_resolve):
    a, b = league.warband(0), league.warband(1)
    ranger = hire_ranger(b)
    run = fight_and_resolve(
        league,
        [out_of_action(leader(a), ranger)],
        [(a, [1, 1, 1, 1]), (b, [1, 1, 1, 1, 1])],  # b: D66 = 11, dead
    )
    ranger.refresh_from_db()
    assert ranger.status == Fighter.Status.DEAD and not ranger.equipment.exists()
    # A dead sword asks for no upkeep.
    assert not PendingDecision.objects.filter(result__run=run, kind="upkeep").exists()


def test_a_sword_gains_experience_and_advances_like_a_hero(league, fight_and_resolve):
    a, b = league.warband(0), league.warband(1)
    ranger = hire_ranger(a)
    strength = ranger.s
    # 20 + 1 survived + 1 enemy + 2 scenario = 24, the next hero threshold: 2D6 = 6, D6 = 1 → +1 F.
    # Then exploration: the leader's die and the winner's (2 dice, not 3); rare items: only
    # the leader's 2D6 (nothing is offered below 2D6 = 2 in the test pack's lists).
    run = fight_and_resolve(
        league,
        [out_of_action(ranger, leader(b))],
        [(a, [3, 3, 1, 1, 1, 1, 1]), (b, [4, 1, 1, 1])],
        options={"scenario_bonus": {str(ranger.pk): 2}},
    )
    ranger.refresh_from_db()
    assert ranger.experience == 24
    assert ranger.s == strength + 1
    assert ranger.advances[-1]["characteristic"] == "s" and ranger.advances_due == 0
    [gain] = [step for step in steps(run, a, "experience") if step["fighter_id"] == ranger.pk]
    assert gain["amount"] == 4


def test_a_sword_whose_type_gains_no_experience_stays_as_he_is(league, fight_and_resolve):
    a, b = league.warband(0), league.warband(1)
    ranger = hire_ranger(a)
    fighter_type = ranger.fighter_type
    fighter_type.can_gain_experience = False
    fighter_type.save()
    fight_and_resolve(
        league,
        [out_of_action(ranger, leader(b))],
        [(a, [1, 1, 1, 1]), (b, [4, 1, 1, 1])],
        options={"scenario_bonus": {str(ranger.pk): 4}},
    )
    ranger.refresh_from_db()
    assert ranger.experience == 20 and ranger.advances == []


def test_hired_swords_neither_explore_nor_search_for_rare_items(league, fight_and_resolve):
    a, b = league.warband(0), league.warband(1)
    ranger = hire_ranger(a)
    run = fight_and_resolve(
        league, [], [(a, [1, 1, 1, 1]), (b, [1, 1, 1])]
    )  # a: 2 exploration dice (leader + win), 2D6 rare items (leader)
    [explored] = steps(run, a, "exploration")
    assert explored["result"]["details"]["dice"] == 2
    searches = steps(run, a, "rare_items")
    assert [step["fighter_id"] for step in searches] == [leader(a).pk]
    assert ranger.pk not in [step["fighter_id"] for step in searches]


def test_a_sword_does_not_block_the_lads_got_talent(make_league, fight_and_resolve):
    league = make_league(henchmen=2)
    a, b = league.warband(0), league.warband(1)
    hire_ranger(a)
    kind = a.warband_type
    kind.max_heroes = 2  # the leader and one more: the sword does not take that place
    kind.save()
    group = a.groups.get()
    # The group reaches 2 XP: an advance; 2D6 = 12, the lad's got talent (no re-roll).
    fight_and_resolve(
        league,
        [],
        [(a, [6, 6, 1, 1, 1, 1]), (b, [1, 1, 1])],
        options={"scenario_bonus": {f"group:{group.pk}": 1}},
    )
    decision = PendingDecision.objects.get(warband=a, kind="lads_got_talent")
    assert decision.group_id == group.pk
