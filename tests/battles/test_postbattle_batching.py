"""The post-battle sequence writes each roster as one batch, and a round goes out in chunks."""

import pytest

from battles.models import Job, PostBattleRun
from battles.postbattle import ROUND_CHUNK, postbattle_runs_apply, round_resolve_start
from battles.reports import services
from tests.battles.factories import first_battle, simple_report
from warbands.models import Warband

pytestmark = pytest.mark.django_db


def confirm_round(league):
    battle = first_battle(league)
    round = battle.round
    for battle in round.battles.filter(is_bye=False):
        participants = list(battle.participants.select_related("warband"))
        winner = participants[0].warband
        services.battle_report(
            battle=battle, reporter=winner.owner, report=simple_report(battle, winner)
        )
        services.battle_confirm(battle=battle, by=participants[1].warband.owner)
    return round


def test_each_warband_is_written_once_per_sequence(make_league, django_capture_on_commit_callbacks):
    league = make_league(players=4)
    round = confirm_round(league)
    warbands = list(Warband.objects.filter(battle_participations__battle__round=round).distinct())
    before = {w.pk: w.version for w in warbands}

    with django_capture_on_commit_callbacks(execute=True):
        job = round_resolve_start(round=round, user=league.organiser)

    job.refresh_from_db()
    assert (job.status, job.done, job.total) == (Job.Status.SUCCEEDED, 2, 2)
    after = dict(Warband.objects.filter(pk__in=before).values_list("pk", "version"))
    # One lock, one rating refresh, one version bump per sequence, whatever it changed …
    assert {pk: after[pk] - before[pk] for pk in before} == dict.fromkeys(before, 1)
    # … and the result records the version the sequence left, so it can be reverted.
    for run in PostBattleRun.objects.filter(job=job):
        for result in run.results.all():
            assert result.version_after == after[result.warband_id]
            assert result.steps[-1]["step"] == "rating"
            assert result.steps[-1]["rating"] == Warband.objects.get(pk=result.warband_id).rating


def test_a_chunk_applies_each_run_once_and_refreshes_the_job(
    make_league, django_capture_on_commit_callbacks
):
    league = make_league(players=4)
    round = confirm_round(league)
    with django_capture_on_commit_callbacks(execute=False):
        job = round_resolve_start(round=round, user=league.organiser)
    run_ids = list(PostBattleRun.objects.filter(job=job).values_list("pk", flat=True))
    assert len(run_ids) <= ROUND_CHUNK

    first = postbattle_runs_apply(run_ids=run_ids)
    again = postbattle_runs_apply(run_ids=run_ids)  # a redelivered chunk changes nothing

    assert [run.status for run in first] == ["applied"] * len(run_ids)
    assert [run.status for run in again] == ["applied"] * len(run_ids)
    assert [run.battle.status for run in first] == ["resolved"] * len(run_ids)
    job.refresh_from_db()
    assert (job.status, job.done, job.failed) == (Job.Status.SUCCEEDED, len(run_ids), 0)
    assert PostBattleRun.objects.get(pk=run_ids[0]).attempts == 1


def test_one_battle_runs_in_a_bounded_number_of_queries(
    make_league, django_capture_on_commit_callbacks, django_assert_max_num_queries
):
    """Locks the batching in: before it, one battle of two small warbands took ~128 queries."""
    league = make_league(players=2)
    round = confirm_round(league)
    with django_capture_on_commit_callbacks(execute=False):
        job = round_resolve_start(round=round, user=league.organiser)
    run = PostBattleRun.objects.get(job=job)
    with django_assert_max_num_queries(75):
        postbattle_runs_apply(run_ids=[run.pk])
    run.refresh_from_db()
    assert run.status == "applied", run.error
