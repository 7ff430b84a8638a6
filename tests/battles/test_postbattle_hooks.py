"""What the post-battle sequence starts besides the roster: the hired swords' upkeep decision,
and the notifications (sequence applied, decisions waiting, a job that failed)."""

import pytest
from rest_framework.test import APIClient

from battles.models import Job, PendingDecision, PostBattleRun
from battles.models.notifications import Event, Notification
from battles.postbattle import battle_resolve_start, job_progress_refresh
from tests.battles.test_postbattle import fight
from warbands.models import Fighter, HiredSword
from warbands.services.hired_swords import hired_sword_hire

pytestmark = pytest.mark.django_db


@pytest.fixture
def resolve(django_capture_on_commit_callbacks):
    def do(battle, **kwargs):
        with django_capture_on_commit_callbacks(execute=True):
            battle_resolve_start(battle=battle, **kwargs)
        return PostBattleRun.objects.exclude(status="reverted").get(battle=battle)

    return do


def test_a_hired_sword_asks_for_his_upkeep_after_the_battle_and_is_paid_by_api(league, resolve):
    warband = league.warband(0)
    ranger = hired_sword_hire(
        warband=warband, hired_sword=HiredSword.objects.get(fighter_type__slug="montaraz-errante")
    )
    run = resolve(fight(league), user=league.organiser)
    assert run.status == "applied"
    decision = PendingDecision.objects.get(kind=PendingDecision.Kind.UPKEEP)
    assert (decision.warband_id, decision.fighter_id, decision.status) == (
        warband.pk,
        ranger.pk,
        "open",
    )
    assert not PendingDecision.objects.filter(warband=league.warband(1), kind="upkeep").exists()
    warband.refresh_from_db()
    before = warband.treasury

    client = APIClient()
    client.force_authenticate(league.user(0))
    answered = client.post(
        f"/api/v1/decisions/{decision.pk}/answer/", {"choice": "pay"}, format="json"
    )
    assert answered.status_code == 200, answered.json()
    warband.refresh_from_db()
    assert warband.treasury == before - decision.payload["upkeep"]
    assert Fighter.objects.get(pk=ranger.pk).status in Fighter.IN_ROSTER


def test_the_owners_hear_that_the_sequence_was_applied(league, resolve):
    resolve(fight(league), user=league.organiser)
    told = set(
        Notification.objects.filter(event=Event.POSTBATTLE_APPLIED).values_list(
            "recipient_id", flat=True
        )
    )
    assert {league.user(0).pk, league.user(1).pk} <= told


def test_a_failed_job_tells_the_organisers(league, django_capture_on_commit_callbacks):
    battle = fight(league)
    job = Job.objects.create(kind=Job.Kind.BATTLE, campaign=league.campaign, total=1)
    PostBattleRun.objects.create(job=job, battle=battle, seed=1, status="failed", error="x")
    with django_capture_on_commit_callbacks(execute=True):
        job_progress_refresh(job_id=job.pk)
        job_progress_refresh(job_id=job.pk)  # refreshed again: still one notice
    notices = Notification.objects.filter(event=Event.JOB_FAILED)
    assert list(notices.values_list("recipient_id", flat=True)) == [league.organiser.pk]
