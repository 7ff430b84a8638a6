"""Jobs always finish: a resolve with nothing to do creates no job, a job whose runs are all done
completes, and the sweeper sends again only the runs whose task was lost."""

import pytest
from django.core.exceptions import ValidationError
from django.utils import timezone

from annuminas.errors import Conflict
from battles.models import Battle, Job, PostBattleRun
from battles.postbattle import (
    battle_resolve_start,
    battle_revert,
    jobs_sweep_stuck,
    postbattle_run_apply,
    postbattle_runs_apply,
    round_resolve_start,
)
from battles.reports import services
from tests.battles.factories import first_battle, simple_report
from tests.battles.test_postbattle import fight, leader, out_of_action

pytestmark = pytest.mark.django_db


@pytest.fixture
def battle(league):
    a, b = league.warband(0), league.warband(1)
    return fight(league, events=[out_of_action(leader(a), leader(b))])


def _ago(seconds: int):
    return timezone.now() - timezone.timedelta(seconds=seconds)


def test_a_resolved_battle_is_a_conflict_and_no_job_is_created(
    league, battle, django_capture_on_commit_callbacks
):
    with django_capture_on_commit_callbacks(execute=True):
        job = battle_resolve_start(battle=battle, user=league.organiser)
    with pytest.raises(Conflict), django_capture_on_commit_callbacks(execute=True) as sent:
        battle_resolve_start(battle=battle, user=league.organiser)
    assert sent == []
    assert list(Job.objects.values_list("pk", "status")) == [(job.pk, Job.Status.SUCCEEDED)]
    assert PostBattleRun.objects.get().job_id == job.pk


def test_applying_a_run_that_is_already_done_still_finishes_its_job(
    league, battle, django_capture_on_commit_callbacks
):
    """The state the old resolve left behind: an applied run on a job that stayed queued."""
    with django_capture_on_commit_callbacks(execute=True):
        battle_resolve_start(battle=battle, user=league.organiser)
    run = PostBattleRun.objects.get()
    stuck = Job.objects.create(
        kind=Job.Kind.BATTLE, campaign=league.campaign, total=1, status=Job.Status.QUEUED
    )
    PostBattleRun.objects.filter(pk=run.pk).update(job=stuck)

    assert postbattle_run_apply(run_id=run.pk).status == "applied"  # a redelivered task

    stuck.refresh_from_db()
    assert (stuck.status, stuck.done, stuck.total) == (Job.Status.SUCCEEDED, 1, 1)


def test_the_sweeper_completes_active_jobs_whose_runs_are_all_done(
    league, battle, django_capture_on_commit_callbacks
):
    with django_capture_on_commit_callbacks(execute=True):
        battle_resolve_start(battle=battle, user=league.organiser)
    run = PostBattleRun.objects.get()
    stuck = Job.objects.create(
        kind=Job.Kind.BATTLE, campaign=league.campaign, total=2, status=Job.Status.RUNNING
    )
    PostBattleRun.objects.filter(pk=run.pk).update(job=stuck)
    empty = Job.objects.create(kind=Job.Kind.ROUND, campaign=league.campaign, total=1)

    assert set(jobs_sweep_stuck()) == {stuck.pk, empty.pk}

    assert not Job.objects.filter(status__in=Job.ACTIVE).exists()
    stuck.refresh_from_db()
    assert (stuck.status, stuck.done, stuck.failed) == (Job.Status.SUCCEEDED, 1, 0)
    assert stuck.finished_at is not None


def test_revert_then_resolve_applies_again(league, battle, django_capture_on_commit_callbacks):
    with django_capture_on_commit_callbacks(execute=True):
        battle_resolve_start(battle=battle, user=league.organiser, seed=1)
    with pytest.raises(Conflict), django_capture_on_commit_callbacks(execute=True):
        battle_resolve_start(battle=battle, user=league.organiser, seed=3)
    battle_revert(battle=battle, user=league.organiser)
    with django_capture_on_commit_callbacks(execute=True):
        job = battle_resolve_start(battle=battle, user=league.organiser, seed=2)
    job.refresh_from_db()
    assert (job.status, job.done) == (Job.Status.SUCCEEDED, 1)
    battle.refresh_from_db()
    assert battle.status == Battle.Status.RESOLVED
    assert PostBattleRun.objects.get(status="applied").job_id == job.pk


def test_resolve_after_a_revert_does_not_return_a_job_whose_status_lags(
    league, battle, django_capture_on_commit_callbacks
):
    with django_capture_on_commit_callbacks(execute=True):
        old = battle_resolve_start(battle=battle, user=league.organiser, seed=1)
    battle_revert(battle=battle, user=league.organiser)
    # The old job's status has not caught up with its run (applied, then reverted).
    Job.objects.filter(pk=old.pk).update(status=Job.Status.RUNNING, finished_at=None)

    with django_capture_on_commit_callbacks(execute=True):
        job = battle_resolve_start(battle=battle, user=league.organiser, seed=2)

    assert job.pk != old.pk
    job.refresh_from_db()
    assert (job.status, job.done) == (Job.Status.SUCCEEDED, 1)
    old.refresh_from_db()
    assert old.status not in Job.ACTIVE and old.finished_at is not None
    battle.refresh_from_db()
    assert battle.status == Battle.Status.RESOLVED
    assert PostBattleRun.objects.get(status="applied").job_id == job.pk


def test_a_repeated_resolve_returns_the_job_still_applying_the_battle(
    league, battle, django_capture_on_commit_callbacks
):
    with django_capture_on_commit_callbacks(execute=False):
        first = battle_resolve_start(battle=battle, user=league.organiser)
    with django_capture_on_commit_callbacks(execute=False) as sent:
        again = battle_resolve_start(battle=battle, user=league.organiser)
    assert again.pk == first.pk
    assert sent == []
    assert Job.objects.count() == 1


def test_the_round_resolves_what_its_battles_left(make_league, django_capture_on_commit_callbacks):
    league = make_league(players=4)
    round = first_battle(league).round
    battles = list(round.battles.filter(is_bye=False).order_by("pk"))
    for battle in battles:
        participants = list(battle.participants.select_related("warband"))
        winner = participants[0].warband
        services.battle_report(
            battle=battle, reporter=winner.owner, report=simple_report(battle, winner)
        )
        services.battle_confirm(battle=battle, by=participants[1].warband.owner)
    with django_capture_on_commit_callbacks(execute=True):
        battle_resolve_start(battle=battles[0], user=league.organiser)
    with pytest.raises(Conflict):
        battle_resolve_start(battle=battles[0], user=league.organiser)

    with django_capture_on_commit_callbacks(execute=True):
        job = round_resolve_start(round=round, user=league.organiser)
    job.refresh_from_db()
    assert (job.status, job.done, job.total) == (Job.Status.SUCCEEDED, 1, 1)
    assert set(round.battles.filter(is_bye=False).values_list("status", flat=True)) == {"resolved"}
    with pytest.raises(ValidationError):
        round_resolve_start(round=round, user=league.organiser)


def runs_sent(callbacks) -> list:
    """The callbacks that sent runs (an applied run also queues its owners' notifications)."""
    return [c for c in callbacks if "_enqueue" in c.__qualname__]


def test_the_sweeper_sends_again_only_runs_silent_too_long(
    league, battle, settings, django_capture_on_commit_callbacks
):
    settings.POSTBATTLE_RUN_LOST_AFTER = 60
    job = battle_resolve_start(battle=battle, user=league.organiser)  # its message is lost
    run = PostBattleRun.objects.get()
    assert run.heartbeat_at is not None and run.started_at is None

    with django_capture_on_commit_callbacks(execute=True) as sent:
        assert jobs_sweep_stuck() == []  # sent just now: give its worker time
    assert sent == []

    PostBattleRun.objects.filter(pk=run.pk).update(heartbeat_at=_ago(61))
    with django_capture_on_commit_callbacks(execute=True) as sent:
        assert jobs_sweep_stuck() == [job.pk]
    assert len(runs_sent(sent)) == 1
    run.refresh_from_db()
    job.refresh_from_db()
    assert run.status == "applied" and run.started_at is not None
    assert (job.status, job.done) == (Job.Status.SUCCEEDED, 1)
    results = run.results.count()

    # The broker redelivers the dead worker's message later: nothing happens twice.
    postbattle_runs_apply(run_ids=[run.pk])
    assert run.results.count() == results
    assert PostBattleRun.objects.get(pk=run.pk).attempts == 1


def test_the_lost_threshold_comes_from_the_settings(
    league, battle, settings, django_capture_on_commit_callbacks
):
    battle_resolve_start(battle=battle, user=league.organiser)
    PostBattleRun.objects.update(heartbeat_at=_ago(100))
    settings.POSTBATTLE_RUN_LOST_AFTER = 120
    with django_capture_on_commit_callbacks(execute=True) as sent:
        jobs_sweep_stuck()
    assert sent == [] and PostBattleRun.objects.get().status == "pending"
    settings.POSTBATTLE_RUN_LOST_AFTER = 90
    with django_capture_on_commit_callbacks(execute=True) as sent:
        jobs_sweep_stuck()
    assert len(runs_sent(sent)) == 1 and PostBattleRun.objects.get().status == "applied"


def test_a_worker_marks_the_runs_it_takes_up(league, battle):
    battle_resolve_start(battle=battle, user=league.organiser)
    PostBattleRun.objects.update(heartbeat_at=_ago(500))
    before = timezone.now()
    (run,) = postbattle_runs_apply(run_ids=list(PostBattleRun.objects.values_list("pk", flat=True)))
    run.refresh_from_db()
    assert run.status == "applied"
    assert run.started_at >= before and run.heartbeat_at >= before


def test_the_beat_sweeps_every_minute():
    from django.conf import settings

    entry = settings.CELERY_BEAT_SCHEDULE["sweep-stuck-jobs"]
    assert entry["task"] == "battles.jobs_sweep"
    assert entry["schedule"] <= 60
    assert settings.POSTBATTLE_RUN_LOST_AFTER + entry["schedule"] <= 180


@pytest.fixture
def broker_down(monkeypatch):
    """Redis unreachable when the post-battle tasks are sent (as ``apply_async`` fails then)."""
    from kombu.exceptions import OperationalError

    from battles.tasks import postbattle_run_task, postbattle_runs_task

    def refuse(*args, **kwargs):
        raise OperationalError("Error 111 connecting to 127.0.0.1:6379. Connection refused.")

    for task in (postbattle_run_task, postbattle_runs_task):
        monkeypatch.setattr(task, "apply_async", refuse)
    return monkeypatch


def test_a_broker_outage_does_not_fail_the_committed_resolve(
    league, battle, broker_down, django_capture_on_commit_callbacks
):
    with django_capture_on_commit_callbacks(execute=True) as sent:
        job = battle_resolve_start(battle=battle, user=league.organiser)
    assert len(sent) == 1  # tried, logged, not raised
    run = PostBattleRun.objects.get()
    assert (run.status, run.job_id) == ("pending", job.pk)
    assert Job.objects.get(pk=job.pk).status in Job.ACTIVE

    broker_down.undo()  # Redis is back: the sweeper sends the run once it is silent too long
    PostBattleRun.objects.update(heartbeat_at=_ago(500))
    with django_capture_on_commit_callbacks(execute=True):
        assert jobs_sweep_stuck() == [job.pk]
    job.refresh_from_db()
    assert PostBattleRun.objects.get().status == "applied"
    assert (job.status, job.done) == (Job.Status.SUCCEEDED, 1)


def test_a_broker_outage_does_not_fail_a_round_resolve(
    league, battle, broker_down, django_capture_on_commit_callbacks
):
    with django_capture_on_commit_callbacks(execute=True):
        job = round_resolve_start(round=battle.round, user=league.organiser)
    assert job.total >= 1
    assert set(PostBattleRun.objects.values_list("status", flat=True)) == {"pending"}
