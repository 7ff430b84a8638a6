"""Duplicate submissions of the same round or battle at the same moment start one job and
leave none stuck (PostgreSQL)."""

import pytest

from annuminas.errors import Conflict
from battles.models import Battle, Job, PostBattleRun
from battles.postbattle import battle_resolve_start, battle_revert, round_resolve_start
from battles.reports import services
from tests.battles.factories import build_league, first_battle, simple_report
from tests.warbands.test_concurrency import postgres_only, race  # noqa: F401 - fixture
from warbands.content_loader import content_pack_load

pytestmark = pytest.mark.django_db(transaction=True)


def test_simultaneous_round_submissions_start_one_job(postgres_only, make_user):  # noqa: F811
    content_pack_load()
    league = build_league(make_user, players=4, prefix="race-")
    round = first_battle(league).round
    for battle in round.battles.filter(is_bye=False):
        participants = list(battle.participants.select_related("warband"))
        winner = participants[0].warband
        services.battle_report(
            battle=battle, reporter=winner.owner, report=simple_report(battle, winner)
        )
        services.battle_confirm(battle=battle, by=participants[1].warband.owner)

    from annuminas.celery import app

    app.conf.task_always_eager = False  # queue only: the jobs must stay active during the race
    try:
        outcomes = race(*[lambda: round_resolve_start(round=round, user=league.organiser)] * 4)
    finally:
        app.conf.task_always_eager = True
    assert all(isinstance(outcome, Job) for outcome in outcomes), outcomes
    assert len({outcome.pk for outcome in outcomes}) == 1
    assert Job.objects.filter(round=round).count() == 1
    assert PostBattleRun.objects.filter(battle__round=round).count() == 2


def test_simultaneous_resolves_of_one_battle_leave_no_stuck_job(
    postgres_only,  # noqa: F811
    make_user,
):
    """Twelve requests at once (tasks run in-process right after each commit): the battle is
    resolved once, the others get its job or a 409, and no job is left waiting for nothing."""
    content_pack_load()
    league = build_league(make_user, players=2, prefix="resolve-race-")
    battle = first_battle(league)
    participants = list(battle.participants.select_related("warband"))
    winner = participants[0].warband
    services.battle_report(
        battle=battle, reporter=winner.owner, report=simple_report(battle, winner)
    )
    services.battle_confirm(battle=battle, by=participants[1].warband.owner)

    def resolve():
        return battle_resolve_start(battle=Battle(pk=battle.pk), user=league.organiser)

    for attempt in range(2):
        outcomes = race(*[resolve] * 12)
        assert all(isinstance(outcome, Job | Conflict) for outcome in outcomes), outcomes
        jobs = {outcome.pk for outcome in outcomes if isinstance(outcome, Job)}
        assert len(jobs) == 1 and Job.objects.filter(battle=battle).count() == 1 + attempt
        assert not Job.objects.filter(status__in=Job.ACTIVE).exists()
        run = PostBattleRun.objects.get(battle=battle, status="applied")
        assert run.job_id in jobs and run.attempts == 1
        assert run.results.count() == 2
        if attempt == 0:
            assert isinstance(race(resolve)[0], Conflict)
            battle_revert(battle=Battle(pk=battle.pk), user=league.organiser)
    assert Battle.objects.get(pk=battle.pk).status == Battle.Status.RESOLVED
