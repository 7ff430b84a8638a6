"""SQL statements per battle of the post-battle apply, locked (its budget).

The battle is the bench's (bench/bench_postbattle.py): two warbands of a leader and a henchman
group, the winner's leader putting the loser's leader out of action. The target is 20 statements
per battle (read → decide → write), counted here so it cannot grow: never raise ``BUDGET``.
"""

import pytest
from django.apps import apps
from django.contrib.contenttypes.models import ContentType
from django.db import connection
from django.test.utils import CaptureQueriesContext

from battles.models import Campaign, PostBattleResult, PostBattleRun
from battles.postbattle import battle_resolve_start, postbattle_run_apply
from tests.battles.test_postbattle import fight, leader, out_of_action
from warbands.models import Fighter

pytestmark = pytest.mark.django_db

# Statements a worker runs per battle (the test's own SAVEPOINT / RELEASE pair, which a worker's
# top-level transaction does not send, is left out of the count): the target of 20, on
# both databases. Decisions, ledger lines and lost equipment go out as one statement each,
# however many the sequence makes.
BUDGET = 20


def _apply_counted(battle, *, seed: int, user) -> tuple[PostBattleRun, list[str]]:
    battle_resolve_start(battle=battle, user=user, seed=seed)  # not sent: no commit
    run = PostBattleRun.objects.get(battle=battle)
    # Content types are looked up once per process (a worker's cache): warm them, so the count
    # does not depend on which test ran before and cleared that cache.
    ContentType.objects.get_for_models(*apps.get_models())
    with CaptureQueriesContext(connection) as queries:
        run = postbattle_run_apply(run_id=run.pk, refresh_job=False)  # once per chunk of 10
    statements = [
        query["sql"]
        for query in queries.captured_queries
        if not query["sql"].startswith(("SAVEPOINT", "RELEASE SAVEPOINT"))
    ]
    return run, statements


def _assert_within_budget(statements: list[str]) -> None:
    assert len(statements) <= BUDGET, (
        f"{len(statements)} statements for one battle (budget {BUDGET}):\n"
        + "\n".join(f"{n}. {sql[:200]}" for n, sql in enumerate(statements, 1))
    )


def test_one_battle_applies_within_its_statement_budget(make_league):
    league = make_league(henchmen=2)
    a, b = league.warband(0), league.warband(1)
    battle = fight(league, events=[out_of_action(leader(a), leader(b))])

    run, statements = _apply_counted(battle, seed=1234, user=league.organiser)

    assert run.status == "applied", run.error
    _assert_within_budget(statements)


@pytest.mark.parametrize("seed", [1, 4, 7, 13, 18, 21])
def test_a_bloody_battle_stays_within_the_budget(make_league, seed):
    """Four out of action on both sides: deaths (equipment lost), injuries, advances with
    choices, rare items. These seeds give the most statements of the first 24 seeds."""
    league = make_league(henchmen=3)
    a, b = league.warband(0), league.warband(1)
    henchmen_a = list(Fighter.objects.filter(warband=a, group__isnull=False).order_by("pk"))
    henchmen_b = list(Fighter.objects.filter(warband=b, group__isnull=False).order_by("pk"))
    battle = fight(
        league,
        events=[
            out_of_action(leader(a), leader(b)),
            out_of_action(leader(a), henchmen_b[0]),
            out_of_action(henchmen_b[1], henchmen_a[0]),
            out_of_action(henchmen_b[1], leader(a)),
        ],
    )

    run, statements = _apply_counted(battle, seed=seed, user=league.organiser)

    assert run.status == "applied", run.error
    assert run.results.count() == 2
    _assert_within_budget(statements)


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
