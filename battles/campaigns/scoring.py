"""The organiser's scoring: points for results, bonus points, and the order of tie-breakers.

The scoring's values are league settings (``league_settings``: points, bonus points,
tie-breakers, checked by ``house_rules.house_rules_clean`` like every setting). One place builds
the campaign's standings (``standings_compute``: pages, CSV, chart and API read it), and one
follows a change of scoring (``scoring_changed``): the standings snapshot is recomputed at once
for a small league, by a Celery job (a ``Job`` row with its progress) for a big one. Who changed
what is in the campaign's history (django-simple-history; the service sets the user).
"""

from __future__ import annotations

import functools
import logging
from collections.abc import Callable, Iterable
from dataclasses import asdict
from typing import Any

from django.db import InterfaceError, OperationalError, transaction
from django.db.models import Count, F
from django.db.models.functions import Coalesce
from django.utils import timezone
from django.utils.translation import gettext_lazy

from annuminas.tasks import enqueue_safely
from battles.campaigns.standings import (
    BYE,
    TIE_BREAKERS,
    Competitor,
    Outcome,
    PointsScheme,
    Result,
    Row,
    compute_standings,
    points_after_each_round,
)
from battles.models import (
    Battle,
    BattleEvent,
    BattleParticipant,
    Campaign,
    Job,
    Round,
    StandingsSnapshot,
)
from battles.models.notifications import Event
from battles.models.postbattle import in_every_language
from battles.notifications.outbox import notify

# More confirmed battles than this and a change of scoring recomputes in a Celery job.
BIG_LEAGUE_BATTLES = 200
STANDINGS_TASK = "battles.standings_recompute_campaign"
# The recompute task's hard time limit (seconds): a job running longer has lost its worker.
STANDINGS_TIME_LIMIT = 600

logger = logging.getLogger(__name__)


def scheme_of(campaign) -> PointsScheme:
    return PointsScheme(
        win=campaign.points_win,
        draw=campaign.points_draw,
        loss=campaign.points_loss,
        bye=campaign.points_bye,
        per_out_of_action=campaign.points_per_out_of_action,
        per_objective=campaign.points_per_objective,
        tie_breakers=tuple(n for n in (campaign.tie_breakers or []) if n in TIE_BREAKERS),
    )


def campaign_outcomes(campaign) -> list[Outcome]:
    """Confirmed and resolved battles as plain outcomes, with out-of-action and objective counts
    and the ratings at the battle (two queries)."""
    counting = [Battle.Status.CONFIRMED, Battle.Status.RESOLVED]
    counts: dict[tuple[int, int], dict[str, int]] = {}
    for row in (
        BattleEvent.objects.filter(
            battle__campaign=campaign,
            battle__status__in=counting,
            kind__in=[BattleEvent.Kind.OUT_OF_ACTION, BattleEvent.Kind.OBJECTIVE],
            actor_warband__isnull=False,
        )
        .exclude(kind=BattleEvent.Kind.OUT_OF_ACTION, target_warband=F("actor_warband"))
        .values("battle_id", "actor_warband_id", "kind")
        .annotate(count=Count("id"))
    ):
        key = (row["battle_id"], row["actor_warband_id"])
        counts.setdefault(key, {})[row["kind"]] = row["count"]
    outcomes: dict[int, list[Result]] = {}
    rounds: dict[int, int | None] = {}
    for battle_id, round_number, is_bye, warband_id, result, rating in (
        BattleParticipant.objects.filter(battle__campaign=campaign, battle__status__in=counting)
        .order_by("battle_id", "id")
        .values_list(
            "battle_id",
            "battle__round__number",
            "battle__is_bye",
            "warband_id",
            "result",
            "rating_at_battle",
        )
    ):
        rounds[battle_id] = round_number
        found = counts.get((battle_id, warband_id), {})
        outcomes.setdefault(battle_id, []).append(
            Result(
                warband_id,
                BYE if is_bye else result,
                found.get(BattleEvent.Kind.OUT_OF_ACTION, 0),
                found.get(BattleEvent.Kind.OBJECTIVE, 0),
                rating or None,
            )
        )
    return [
        Outcome(rounds[battle_id], tuple(results))
        for battle_id, results in outcomes.items()
        if all(r.result for r in results)
    ]


def _competitors(campaign) -> list[Competitor]:
    """Every member warband with its name and rating now, as plain rows (one query)."""
    rows = (
        campaign.memberships.filter(warband__isnull=False)
        .order_by("id")
        .values_list("warband_id", "warband__name", "warband__rating")
    )
    return [Competitor(*row) for row in rows]


def standings_compute(*, campaign, round=None) -> list[Row]:
    """The standings (overall, or after ``round``, a ``Round`` or its number) by the campaign's
    own scoring. Three queries whatever the size of the campaign."""
    up_to = round.number if isinstance(round, Round) else round
    return compute_standings(
        _competitors(campaign), campaign_outcomes(campaign), scheme_of(campaign), up_to_round=up_to
    )


def standings_with_points(
    *, campaign, round=None
) -> tuple[list[Row], list[int], Callable[[Iterable], dict[int, list[int]]]]:
    """``standings_compute`` and, from the same three queries, the round numbers that have
    counted battles and a function giving, for the warband ids it is asked about, each one's
    points after each of those rounds by the campaign's own scoring (points and bonus points):
    the charts ask about the few warbands they draw, never the whole league."""
    competitors = _competitors(campaign)
    outcomes = campaign_outcomes(campaign)
    scheme = scheme_of(campaign)
    up_to = round.number if isinstance(round, Round) else round
    rows = compute_standings(competitors, outcomes, scheme, up_to_round=up_to)
    numbers = sorted({o.round_number for o in outcomes if o.round_number is not None})

    def points(ids: Iterable) -> dict[int, list[int]]:
        return points_after_each_round(outcomes, scheme, numbers, ids)

    return rows, numbers, points


def snapshot_rows(rows: list[Row]) -> list[dict]:
    return [
        {key: value for key, value in asdict(row).items() if key != "opponents"} for row in rows
    ]


def standings_snapshot_store(*, campaign_id: int) -> int:
    """Store today's standings of the campaign (idempotent: one row per campaign and day);
    returns the number of rows."""
    campaign = Campaign.objects.get(pk=campaign_id)
    rows = snapshot_rows(standings_compute(campaign=campaign))
    StandingsSnapshot.objects.update_or_create(
        campaign=campaign, day=timezone.localdate(), defaults={"rows": rows}
    )
    return len(rows)


def standings_recompute_job_run(*, job_id: int) -> None:
    """The Celery job's body: recompute and store, then mark the job done (idempotent: a job
    already finished is left alone; a retry recomputes the same table).

    A lost database connection is raised as it is (the task retries it; a job whose retries
    all fail is left running, and the sweeper fails it once silent too long). Any other error
    fails the job with its reason and tells the organisers, once."""
    with transaction.atomic():
        job = Job.objects.select_for_update().get(pk=job_id)
        if job.status == Job.Status.SUCCEEDED and job.done == job.total:
            return
        job.status = Job.Status.RUNNING
        job.started_at = timezone.now()
        job.save(update_fields=["status", "started_at"])
    try:
        with transaction.atomic():
            standings_snapshot_store(campaign_id=job.campaign_id)
            Job.objects.filter(pk=job_id).update(
                status=Job.Status.SUCCEEDED,
                total=1,
                done=1,
                failed=0,
                errors={},
                finished_at=timezone.now(),
            )
    except (OperationalError, InterfaceError):
        raise
    except Exception as error:
        logger.exception("standings job %s failed", job_id)
        standings_job_fail(job_id=job_id, reason=str(error)[:500])


@transaction.atomic
def standings_job_fail(*, job_id: int, reason: Any, started_before=None) -> bool:
    """Mark a standings job failed with ``reason`` and tell the campaign's organisers (once: the
    notification's key is the job's). A job finished meanwhile, or (with ``started_before``)
    taken up again by a worker since, is left alone; returns whether this call failed it."""
    job = Job.objects.select_for_update().select_related("campaign").get(pk=job_id)
    if job.status not in Job.ACTIVE:
        return False
    if started_before is not None and (job.started_at is None or job.started_at > started_before):
        return False
    job.status = Job.Status.FAILED
    job.failed = 1
    job.errors = {"standings": in_every_language(reason)}
    job.finished_at = timezone.now()
    job.save(update_fields=["status", "failed", "errors", "finished_at"])
    notify(
        event=Event.JOB_FAILED,
        campaign=job.campaign,
        params={"job_id": job.pk, "kind": job.kind, "failed": 1},
        key=f"job:{job.pk}",
    )
    return True


def standings_jobs_sweep(*, cutoff, running_cutoff) -> list[int]:
    """The sweeper's share for standings jobs (they have no runs): a job still queued and
    silent since ``cutoff`` (its message lost, or the broker down) is sent again; one running
    since before ``running_cutoff`` (past the task's time limit: its worker is gone) fails with
    that reason. Returns the ids of the jobs touched."""
    touched: list[int] = []
    with transaction.atomic():
        lost = list(
            Job.objects.select_for_update(skip_locked=True)
            .filter(kind=Job.Kind.STANDINGS, status=Job.Status.QUEUED)
            .annotate(last_sign=Coalesce("heartbeat_at", "created_at"))
            .filter(last_sign__lte=cutoff)
            .values_list("pk", flat=True)
        )
        if lost:
            logger.warning("sweeper: sending %d lost standings jobs again", len(lost))
            Job.objects.filter(pk__in=lost).update(heartbeat_at=timezone.now())
            for job_id in lost:
                transaction.on_commit(functools.partial(_standings_job_send, job_id))
        touched += lost
    stuck = Job.objects.filter(
        kind=Job.Kind.STANDINGS, status=Job.Status.RUNNING, started_at__lte=running_cutoff
    ).values_list("pk", flat=True)
    for job_id in list(stuck):
        reason = gettext_lazy(
            "Its worker stopped before the standings were stored; change the scoring "
            "again, or wait for the nightly standings."
        )
        if standings_job_fail(job_id=job_id, reason=reason, started_before=running_cutoff):
            touched.append(job_id)
    return sorted(touched)


def _standings_job_send(job_id: int) -> None:
    enqueue_safely(STANDINGS_TASK, job_id)


def scoring_changed(*, campaign, by) -> object | None:
    """Follow a change of the campaign's scoring (call inside the service's transaction): a
    small league's snapshot is recomputed at once; a big league gets a ``Job`` whose task runs
    after the commit. Returns the job, or ``None``."""
    if campaign.state not in ("running", "finished"):
        return None
    battles = Battle.objects.filter(
        campaign=campaign, status__in=[Battle.Status.CONFIRMED, Battle.Status.RESOLVED]
    ).count()
    if battles <= BIG_LEAGUE_BATTLES:
        standings_snapshot_store(campaign_id=campaign.pk)
        return None
    job = Job.objects.create(
        kind=Job.Kind.STANDINGS,
        campaign=campaign,
        total=1,
        created_by=by if by else None,
        heartbeat_at=timezone.now(),
    )
    transaction.on_commit(functools.partial(_standings_job_send, job.pk))
    return job
