"""A real worker on Redis and PostgreSQL: kill it in the middle of a 200-battle round, start it
again, and prove every battle was resolved exactly once, promptly (the sweeper, as beat runs it,
re-sends what the dead worker held long before the broker's visibility timeout)."""

import time

import pytest
from django.contrib.auth import get_user_model
from django.db.models import Count, Sum

from battles.campaigns import services
from battles.models import (
    Battle,
    BattleEvent,
    BattleParticipant,
    Campaign,
    Job,
    PostBattleResult,
    PostBattleRun,
    Round,
)
from battles.postbattle import jobs_sweep_stuck, round_resolve_start
from tests.conftest import WorkerProcess
from warbands import services as roster
from warbands.content_loader import content_pack_load
from warbands.models import Fighter, LedgerEntry, WarbandType

pytestmark = [pytest.mark.worker, pytest.mark.redis]

BATTLES = 200
LOST_AFTER = 30  # seconds: the test's POSTBATTLE_RUN_LOST_AFTER (production: 120)
SWEEP_EVERY = 10  # seconds: the test's beat (production: 60)
RECOVERY_BUDGET = 150  # seconds from the kill to the finished round


def _round_of_confirmed_battles(count: int, *, prefix: str = "") -> Round:
    """``count`` confirmed battles in round 1 of a new campaign (``prefix`` names its users, so
    a test may build two)."""
    content_pack_load()
    users = get_user_model()
    organiser = users.objects.create_user(f"{prefix}organiser-fault")
    campaign = services.campaign_create(organiser=organiser, name=f"Liga del fallo {prefix}")
    Campaign.objects.filter(pk=campaign.pk).update(state=Campaign.State.RUNNING)
    round = Round.objects.create(campaign=campaign, number=1)
    warband_type = WarbandType.objects.get(slug="mercenarios-de-rhovanion")
    captain = warband_type.fighter_types.get(role="leader")
    soldier = warband_type.fighter_types.filter(role="henchman").order_by("cost", "pk").first()
    for number in range(count):
        pair = []
        for side in range(2):
            owner = users.objects.create_user(f"{prefix}p{number}-{side}")
            warband = roster.warband_create(
                owner=owner, warband_type=warband_type, name=f"Banda {number}-{side}"
            )
            roster.fighter_hire(warband=warband, fighter_type=captain, name=f"Capitán {number}")
            roster.fighter_hire(warband=warband, fighter_type=soldier, name="Guerreros", count=2)
            pair.append(warband)
        battle = Battle.objects.create(
            campaign=campaign, round=round, status=Battle.Status.CONFIRMED, scenario="Escaramuza"
        )
        for index, warband in enumerate(pair):
            BattleParticipant.objects.create(
                battle=battle,
                warband=warband,
                result="win" if index == 0 else "loss",
                rating_at_battle=warband.rating,
            )
        winner_leader = Fighter.objects.get(warband=pair[0], is_leader=True)
        loser_leader = Fighter.objects.get(warband=pair[1], is_leader=True)
        BattleEvent.objects.create(
            battle=battle,
            turn=3,
            kind=BattleEvent.Kind.OUT_OF_ACTION,
            actor_warband=pair[0],
            actor=winner_leader,
            target_warband=pair[1],
            target=loser_leader,
        )
    return round


def _wait(predicate, timeout: float, what: str) -> None:
    deadline = time.monotonic() + timeout
    while time.monotonic() < deadline:
        if predicate():
            return
        time.sleep(0.2)
    raise AssertionError(f"timed out waiting for {what}")


def _totals() -> dict:
    return {
        "results": PostBattleResult.objects.count(),
        "ledger_rows": LedgerEntry.objects.count(),
        "ledger_sum": LedgerEntry.objects.aggregate(total=Sum("amount"))["total"],
        "experience": Fighter.objects.aggregate(total=Sum("experience"))["total"],
        "injured": Fighter.objects.exclude(injuries=[]).count(),
        "dead": Fighter.objects.filter(status="dead").count(),
    }


def _sweep_until_finished(job: Job, budget: float) -> float:
    """Run the sweeper every ``SWEEP_EVERY`` seconds, as beat does, until the job finishes;
    return the seconds it took."""
    started = time.monotonic()
    next_sweep = started
    while time.monotonic() - started < budget:
        if Job.objects.get(pk=job.pk).status not in Job.ACTIVE:
            return time.monotonic() - started
        if time.monotonic() >= next_sweep:
            jobs_sweep_stuck()
            next_sweep += SWEEP_EVERY
        time.sleep(0.5)
    raise AssertionError(f"the round did not finish within {budget} s of the kill")


def test_worker_killed_mid_round_resolves_every_battle_exactly_once(celery_worker, settings):
    settings.POSTBATTLE_RUN_LOST_AFTER = LOST_AFTER
    round = _round_of_confirmed_battles(BATTLES)
    job = round_resolve_start(round=round, user=None)
    applied = PostBattleRun.objects.filter(job=job, status=PostBattleRun.Status.APPLIED)

    _wait(lambda: applied.count() >= 30, 180, "30 battles resolved before the kill")
    celery_worker.kill()
    killed_at = time.monotonic()
    at_kill = applied.count()
    assert at_kill < BATTLES, "the worker finished before it could be killed"

    restarted = WorkerProcess(celery_worker.queue)
    restarted.start()
    try:
        # The message the dead worker held stays invisible for the broker's visibility timeout
        # (15 min): the sweeper sends its runs again once they have been silent LOST_AFTER s.
        _sweep_until_finished(job, RECOVERY_BUDGET - (time.monotonic() - killed_at))
        recovery = time.monotonic() - killed_at
        print(f"round finished {recovery:.0f} s after the kill ({at_kill} applied before it)")
        assert recovery <= RECOVERY_BUDGET
        job.refresh_from_db()
        assert (job.status, job.done, job.failed, job.total) == (
            Job.Status.SUCCEEDED,
            BATTLES,
            0,
            BATTLES,
        )
        assert Battle.objects.filter(round=round, status="resolved").count() == BATTLES
        per_battle = (
            PostBattleResult.objects.values("run__battle")
            .annotate(n=Count("pk"))
            .values_list("n", flat=True)
        )
        assert set(per_battle) == {2}
        assert PostBattleRun.objects.filter(status="applied").count() == BATTLES
        before = _totals()
        assert before["results"] == 2 * BATTLES
        for warband_id, treasury in (
            LedgerEntry.objects.values("warband")
            .annotate(total=Sum("amount"))
            .values_list("warband", "total")
        ):
            from warbands.models import Warband

            assert Warband.objects.get(pk=warband_id).treasury == treasury

        # A second run of everything changes nothing.
        PostBattleRun.objects.filter(job=job).update(job=job)
        from battles.tasks import postbattle_run_task

        for run_id in PostBattleRun.objects.values_list("pk", flat=True)[:50]:
            postbattle_run_task.delay(run_id)
        jobs_sweep_stuck(lost_after=0)
        time.sleep(3)
        assert _totals() == before
    finally:
        restarted.stop()
