"""The standings job (a change of scoring in a big league): a failure tells the
organisers once; the sweeper sends a lost one again and fails one whose worker is gone."""

from __future__ import annotations

import pytest
from django.db import OperationalError
from django.utils import timezone, translation

from battles.campaigns import scoring
from battles.models import Job, StandingsSnapshot
from battles.models.notifications import Event, Notification, NotificationEvent
from battles.notifications import messages
from battles.postbattle import jobs_sweep_stuck

pytestmark = pytest.mark.django_db


def _ago(seconds: int):
    return timezone.now() - timezone.timedelta(seconds=seconds)


@pytest.fixture
def job(league) -> Job:
    return Job.objects.create(
        kind=Job.Kind.STANDINGS, campaign=league.campaign, total=1, heartbeat_at=timezone.now()
    )


def _broken(monkeypatch, error: Exception) -> None:
    def fail(**kwargs):
        raise error

    monkeypatch.setattr(scoring, "standings_snapshot_store", fail)


def test_a_failed_recompute_tells_the_organisers_once(
    league, job, monkeypatch, django_capture_on_commit_callbacks
):
    _broken(monkeypatch, ValueError("a broken tie-breaker"))
    with django_capture_on_commit_callbacks(execute=True):
        scoring.standings_recompute_job_run(job_id=job.pk)
        scoring.standings_recompute_job_run(job_id=job.pk)  # run again (a redelivery): one notice
    job.refresh_from_db()
    assert (job.status, job.failed) == (Job.Status.FAILED, 1)
    assert job.errors == {"standings": "a broken tie-breaker"}
    event = NotificationEvent.objects.get(event=Event.JOB_FAILED)
    assert event.key == f"job:{job.pk}" and event.params["kind"] == "standings"
    notices = Notification.objects.filter(event=Event.JOB_FAILED)
    assert list(notices.values_list("recipient_id", flat=True)) == [league.organiser.pk]
    sentence = messages.render(Event.JOB_FAILED, notices.get().params)
    assert "recomputing the standings" in sentence and league.campaign.name in sentence


def test_a_lost_connection_is_retried_not_reported(job, monkeypatch):
    _broken(monkeypatch, OperationalError("server closed the connection"))
    with pytest.raises(OperationalError):
        scoring.standings_recompute_job_run(job_id=job.pk)
    job.refresh_from_db()
    assert job.status == Job.Status.RUNNING  # the task retries it; the sweeper watches it
    assert not NotificationEvent.objects.exists()


def test_the_sweeper_sends_a_lost_standings_job_again(
    league, job, settings, django_capture_on_commit_callbacks
):
    settings.POSTBATTLE_RUN_LOST_AFTER = 60
    with django_capture_on_commit_callbacks(execute=True) as sent:
        assert jobs_sweep_stuck() == []  # sent just now: give its worker time
    assert sent == []
    Job.objects.filter(pk=job.pk).update(heartbeat_at=_ago(61))
    with django_capture_on_commit_callbacks(execute=True) as sent:
        assert jobs_sweep_stuck() == [job.pk]
    assert len(sent) == 1
    job.refresh_from_db()
    assert (job.status, job.done) == (Job.Status.SUCCEEDED, 1)  # the task ran in-process
    assert job.heartbeat_at > _ago(5)
    assert StandingsSnapshot.objects.filter(campaign=league.campaign).exists()


def test_the_sweeper_fails_a_standings_job_whose_worker_is_gone(
    league, job, settings, django_capture_on_commit_callbacks
):
    settings.POSTBATTLE_RUN_LOST_AFTER = 60
    limit = scoring.STANDINGS_TIME_LIMIT
    Job.objects.filter(pk=job.pk).update(status=Job.Status.RUNNING, started_at=_ago(limit + 30))
    with django_capture_on_commit_callbacks(execute=True):
        assert jobs_sweep_stuck() == []  # it may still be working, within its time limit
    Job.objects.filter(pk=job.pk).update(started_at=_ago(limit + 61))
    with django_capture_on_commit_callbacks(execute=True):
        assert jobs_sweep_stuck() == [job.pk]
        assert jobs_sweep_stuck() == []
    job.refresh_from_db()
    assert job.status == Job.Status.FAILED
    # The reason is kept in every language of the site and read in the reader's.
    assert "worker stopped" in job.errors["standings"]["en"]
    assert job.errors["standings"]["es"] and "worker" not in job.errors["standings"]["es"]
    with translation.override("en"):
        assert "worker stopped" in job.error_texts["standings"]
    assert Notification.objects.filter(event=Event.JOB_FAILED).count() == 1


def test_the_job_page_shows_a_standings_failure_without_a_battle(client, league, job):
    scoring.standings_job_fail(job_id=job.pk, reason="a broken tie-breaker")
    client.force_login(league.organiser)
    page = client.get(f"/jobs/{job.pk}/").content.decode()
    assert "a broken tie-breaker" in page and "Battle standings" not in page
