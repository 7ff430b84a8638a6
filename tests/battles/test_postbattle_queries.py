"""SQL statements per battle of the post-battle apply, locked (issue 10's budget).

The battle is the bench's (bench/bench_postbattle.py): two warbands of a leader and a henchman
group, the winner's leader putting the loser's leader out of action. The target is 20 statements
per battle (read → decide → write); today's apply is counted here so it cannot grow while it is
rebuilt: lower ``BUDGET`` with every step that removes statements, never raise it.
"""

import pytest
from django.apps import apps
from django.contrib.contenttypes.models import ContentType
from django.db import connection
from django.test.utils import CaptureQueriesContext

from battles.models import Campaign, PostBattleResult, PostBattleRun
from battles.postbattle import battle_resolve_start, postbattle_run_apply
from tests.battles.test_postbattle import fight, leader, out_of_action

pytestmark = pytest.mark.django_db

# Statements per battle; the target is 20. Alone this test counts 23 on both databases; inside
# the whole PostgreSQL suite CI counted 25 (cause not yet found: some state an earlier test
# leaves), so PostgreSQL's bound carries those two until it is found.
BUDGET = {"postgresql": 25, "sqlite": 23}


def test_one_battle_applies_within_its_statement_budget(make_league):
    league = make_league(henchmen=2)
    a, b = league.warband(0), league.warband(1)
    battle = fight(league, events=[out_of_action(leader(a), leader(b))])
    battle_resolve_start(battle=battle, user=league.organiser, seed=1234)  # not sent: no commit
    run = PostBattleRun.objects.get(battle=battle)

    # Content types are looked up once per process (a worker's cache): warm them, so the count
    # does not depend on which test ran before and cleared that cache.
    ContentType.objects.get_for_models(*apps.get_models())
    with CaptureQueriesContext(connection) as queries:
        run = postbattle_run_apply(run_id=run.pk, refresh_job=False)  # once per chunk of 10

    assert run.status == "applied", run.error
    budget = BUDGET[connection.vendor]
    statements = [query["sql"] for query in queries.captured_queries]
    assert len(statements) <= budget, (
        f"{len(statements)} statements for one battle (budget {budget}):\n"
        + "\n".join(f"{n}. {sql[:200]}" for n, sql in enumerate(statements, 1))
    )


def test_the_house_rules_still_hold_with_their_inputs_read_once(make_league):
    """The check reads the campaigns once per apply and the roster from memory: a sequence
    that takes a warband over its campaign's rating cap still fails the run, with the reason."""
    league = make_league(henchmen=2)
    a, b = league.warband(0), league.warband(1)
    Campaign.objects.filter(pk=league.campaign.pk).update(rating_cap=a.rating)
    battle = fight(league, events=[out_of_action(leader(a), leader(b))])
    battle_resolve_start(battle=battle, user=league.organiser, seed=1234)
    run = PostBattleRun.objects.get(battle=battle)

    run = postbattle_run_apply(run_id=run.pk, refresh_job=False)

    assert run.status == "failed"
    assert "over the cap" in run.error
    assert not PostBattleResult.objects.filter(run=run).exists()  # rolled back as a whole
