"""Duplicate submissions of the same round at the same moment start one job (PostgreSQL)."""

import pytest

from battles import services
from battles.models import Job, PostBattleRun
from battles.postbattle import round_resolve_start
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
