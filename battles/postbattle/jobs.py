"""Starting post-battle runs and their jobs, queueing them, job progress and the sweeper.

Locks: a battle's resolution holds its battle row; a round's holds its round row, then its
battles in id order (as a single battle's resolution locks its row), so the two never cross.
"""

from __future__ import annotations

import logging
import re
import secrets
from dataclasses import asdict
from typing import Any

from django.conf import settings
from django.core.exceptions import PermissionDenied, ValidationError
from django.db import IntegrityError, transaction
from django.db.models import Count, Exists, OuterRef, Q
from django.db.models.functions import Coalesce
from django.utils import timezone
from django.utils.translation import gettext as _

from annuminas.errors import Conflict
from annuminas.tasks import enqueue_safely
from annuminas.validation import json_check
from battles.campaigns.scoring import STANDINGS_TIME_LIMIT, standings_jobs_sweep
from battles.campaigns.services import standings_compute

from ..models import (
    Battle,
    Campaign,
    Job,
    PostBattleRun,
    Round,
    StandingsSnapshot,
)
from ..models.notifications import Event
from ..notifications.services import notify
from ._common import MAX_SEED

logger = logging.getLogger(__name__)

# --- starting runs and jobs ------------------------------------------------------------------


def _plays(battle: Battle, user) -> bool:
    return getattr(user, "pk", None) is not None and (
        battle.participants.filter(warband__owner=user).exists()
    )


def _faces_typed_by(battle: Battle, user, faces: dict | None) -> dict[str, Any]:
    """Who typed the dice at the table, and whether he plays in this battle (an organiser
    resolving his own battle with his own dice: allowed, recorded and shown)."""
    if not faces or getattr(user, "pk", None) is None:
        return {"faces_typed_by": None, "faces_typed_by_player": False}
    return {"faces_typed_by": user, "faces_typed_by_player": _plays(battle, user)}


PLAYER_CHOSEN_OPTIONS = ("scenario_bonus", "racial_maximum")


def _check_player_choices(battle: Battle, user, *, seed: int | None, options: dict | None) -> None:
    """Whoever plays in the battle — an organiser too — resolves it without choosing the seed,
    scenario bonuses or the racial-maximum rule (a player is refused them at the API): the
    server rolls, or a co-organiser who does not play chooses. Dice typed at the table stay
    allowed: they are recorded as his and shown."""
    chosen = seed is not None or any(key in (options or {}) for key in PLAYER_CHOSEN_OPTIONS)
    if chosen and _plays(battle, user):
        raise PermissionDenied(
            _(
                "You play in this battle: the seed, scenario bonuses and the racial maximum "
                "rule are left to the dice or to an organiser who does not play."
            )
        )


def _run_for(
    battle: Battle,
    *,
    seed: int | None,
    faces: dict | None,
    options: dict | None,
    typed_by=None,
):
    """The battle's live run; a failed one is tried again (with the new inputs, if any)."""
    run = (
        battle.postbattle_runs.select_for_update()
        .exclude(status=PostBattleRun.Status.REVERTED)
        .first()
    )
    if run is None:
        return PostBattleRun.objects.create(
            battle=battle,
            seed=seed if seed is not None else secrets.randbelow(MAX_SEED),
            faces={str(k): list(v) for k, v in (faces or {}).items()},
            options=options or {},
            **_faces_typed_by(battle, typed_by, faces),
        )
    if run.status == PostBattleRun.Status.FAILED:
        run.status = PostBattleRun.Status.PENDING
        run.error, run.error_texts = "", {}
        if seed is not None:
            run.seed = seed
        if faces is not None:
            run.faces = {str(k): list(v) for k, v in faces.items()}
            for name, value in _faces_typed_by(battle, typed_by, faces).items():
                setattr(run, name, value)
        if options is not None:
            run.options = options
        run.save(
            update_fields=[
                "status", "error", "error_texts", "seed", "faces", "options", "faces_typed_by",
                "faces_typed_by_player",
            ]
        )  # fmt: skip
    return run


MAX_TYPED_FACES = 500  # per warband: far more dice than one post-battle sequence rolls
SCENARIO_BONUS_KEY = re.compile(r"(group:)?[0-9]{1,18}")


def _dice_inputs_check(battle: Battle, faces: dict | None, options: dict | None) -> None:
    """Typed dice only for the battle's warbands, each a bounded list of faces 1–6; the options
    plain, bounded JSON, scenario bonuses keyed by a fighter's id or ``group:<id>``. Raises
    ``ValidationError`` naming the field (stored as JSON: a NUL in a key would be a 500)."""
    if faces:
        json_check(faces, field="faces", max_depth=2, max_string_length=20)
        warbands = {str(pk) for pk in battle.participants.values_list("warband_id", flat=True)}
        if not set(faces) <= warbands:
            raise ValidationError(
                {"faces": _("Dice can be typed only for the warbands that fought this battle.")}
            )
        for rolled in faces.values():
            if not isinstance(rolled, list) or len(rolled) > MAX_TYPED_FACES:
                raise ValidationError(
                    {"faces": _("At most %(max)d dice per warband.") % {"max": MAX_TYPED_FACES}}
                )
            if not all(type(face) is int and 1 <= face <= 6 for face in rolled):
                raise ValidationError({"faces": _("Each die shows a whole number from 1 to 6.")})
    if options:
        json_check(options, field="options", max_depth=3, max_string_length=40)
        bonus = options.get("scenario_bonus") or {}
        if not isinstance(bonus, dict) or not all(
            SCENARIO_BONUS_KEY.fullmatch(key) for key in bonus
        ):
            raise ValidationError(
                {
                    "scenario_bonus": _(
                        'Scenario bonuses are keyed by a fighter\'s id or "group:" and a '
                        "henchman group's id."
                    )
                }
            )


def _already_resolved() -> Conflict:
    return Conflict(
        _(
            "This battle's post-battle sequence has already been applied; an organiser can "
            "revert it before resolving it again."
        ),
        code="already_resolved",
    )


def _check_resolvable(battle: Battle) -> None:
    if battle.is_bye:
        raise ValidationError(_("A bye has no post-battle sequence."))
    if battle.status == Battle.Status.RESOLVED:
        raise _already_resolved()
    if battle.status != Battle.Status.CONFIRMED:
        raise ValidationError(
            _("Only a confirmed battle can be resolved (this one is %(status)s).")
            % {"status": battle.get_status_display()}
        )


@transaction.atomic
def battle_resolve_start(
    *,
    battle: Battle,
    user=None,
    seed: int | None = None,
    faces: dict | None = None,
    options: dict | None = None,
) -> Job:
    """Queue the post-battle sequence of one battle; a repeated request returns the same job
    (an active job with this battle's run still pending; an active one with nothing pending is
    finished here instead, and a new job starts).

    A battle already resolved is a ``Conflict`` (nothing to do: no job is created), so every job
    created here has a pending run that a worker will apply. Holds the battle's row lock, which
    the worker applying its run also takes, so the two never cross.
    """
    battle = Battle.objects.select_for_update().get(pk=battle.pk)
    _check_resolvable(battle)
    _check_player_choices(battle, user, seed=seed, options=options)
    _dice_inputs_check(battle, faces, options)
    active = Job.objects.filter(battle=battle, status__in=Job.ACTIVE).first()
    if active is not None:
        if active.runs.filter(battle=battle, status=PostBattleRun.Status.PENDING).exists():
            return active  # a repeated request: that job is still applying this battle
        # Its status has not caught up (its run was applied, perhaps reverted since): it has
        # nothing left to do, so it finishes now and a new job applies the battle.
        job_progress_refresh(job_id=active.pk)
    run = _run_for(battle, seed=seed, faces=faces, options=options, typed_by=user)
    if run.status == PostBattleRun.Status.APPLIED:
        raise _already_resolved()
    if run.job_id and Job.objects.filter(pk=run.job_id, status__in=Job.ACTIVE).exists():
        return run.job  # already queued by its round's job: that job reports it
    job = Job.objects.create(
        kind=Job.Kind.BATTLE,
        campaign_id=battle.campaign_id,
        round_id=None,
        battle=battle,
        total=1,
        created_by=user,
    )
    run.job = job
    run.save(update_fields=["job"])
    _enqueue([run.pk])
    return job


def round_resolve_start(*, round: Round, user=None) -> Job:
    """One job, one task per confirmed battle of the round. Duplicate submissions at the same
    moment get the same job (a partial unique index admits one active job per round)."""
    existing = Job.objects.filter(round=round, status__in=Job.ACTIVE).first()
    if existing is not None:
        return existing
    try:
        return _round_job_create(round=round, user=user)
    except IntegrityError:
        return Job.objects.get(round=round, status__in=Job.ACTIVE)


@transaction.atomic
def _round_job_create(*, round: Round, user) -> Job:
    round = Round.objects.select_for_update().get(pk=round.pk)
    existing = Job.objects.filter(round=round, status__in=Job.ACTIVE).first()
    if existing is not None:
        return existing
    # The battles are locked (in id order, as a single battle's resolution locks its row), so
    # a battle resolved on its own at this moment is either seen with its job or waited for.
    battles = list(
        round.battles.select_for_update()
        .filter(is_bye=False, status=Battle.Status.CONFIRMED)
        # a battle already queued by its own job stays with that job
        .exclude(Exists(Job.objects.filter(battle=OuterRef("pk"), status__in=Job.ACTIVE)))
        .order_by("pk")
    )
    live = {
        run.battle_id: run
        for run in PostBattleRun.objects.filter(battle__in=battles).exclude(
            status=PostBattleRun.Status.REVERTED
        )
    }
    # An applied run leaves nothing to do for its battle: no job may wait for it.
    battles = [
        battle
        for battle in battles
        if battle.pk not in live or live[battle.pk].status != PostBattleRun.Status.APPLIED
    ]
    live = {pk: run for pk, run in live.items() if run.status != PostBattleRun.Status.APPLIED}
    if not battles:
        raise ValidationError(_("This round has no confirmed battle waiting for its sequence."))
    job = Job.objects.create(
        kind=Job.Kind.ROUND,
        campaign_id=round.campaign_id,
        round=round,
        total=len(battles),
        created_by=user,
    )
    failed = [run.pk for run in live.values() if run.status == PostBattleRun.Status.FAILED]
    PostBattleRun.objects.filter(pk__in=failed).update(
        status=PostBattleRun.Status.PENDING, error=""
    )
    new_runs = [
        PostBattleRun(battle=battle, seed=secrets.randbelow(MAX_SEED), job=job)
        for battle in battles
        if battle.pk not in live
    ]
    PostBattleRun.objects.bulk_create(new_runs)
    PostBattleRun.objects.filter(pk__in=[run.pk for run in live.values()]).update(job=job)
    run_ids = list(
        PostBattleRun.objects.filter(job=job).order_by("pk").values_list("pk", flat=True)
    )
    _enqueue(run_ids)
    return job


ROUND_CHUNK = 10  # runs per task of a round: the job's progress is refreshed once per chunk


def _lost_after() -> int:
    """Seconds of silence after which a pending run's task is taken as lost."""
    return int(getattr(settings, "POSTBATTLE_RUN_LOST_AFTER", 120))


def _enqueue(run_ids: list[int]) -> None:
    """Send the runs to the workers once the transaction commits: a lone run as one task, a
    round's runs in chunks of ``ROUND_CHUNK`` (fewer messages and progress refreshes; each run
    still applies in its own transaction, exactly once). Sending counts as the runs' heartbeat:
    if the message is lost, or the broker is down (the committed write still succeeds), the
    sweeper sends them again once they have been silent too long."""
    PostBattleRun.objects.filter(pk__in=run_ids).update(heartbeat_at=timezone.now())

    def send() -> None:
        if len(run_ids) == 1:
            enqueue_safely("battles.postbattle_run", run_ids[0])
            return
        for start in range(0, len(run_ids), ROUND_CHUNK):
            enqueue_safely("battles.postbattle_runs", run_ids[start : start + ROUND_CHUNK])

    transaction.on_commit(send)


# --- progress ------------------------------------------------------------------------------


def job_progress_refresh(*, job_id: int) -> Job:
    """Recount the job from its runs (idempotent: counting, never incrementing)."""
    with transaction.atomic():
        job = Job.objects.select_for_update().get(pk=job_id)
        counts = PostBattleRun.objects.filter(job=job).aggregate(
            done=Count("pk", filter=Q(status=PostBattleRun.Status.APPLIED)),
            failed=Count("pk", filter=Q(status=PostBattleRun.Status.FAILED)),
            pending=Count("pk", filter=Q(status=PostBattleRun.Status.PENDING)),
        )
        job.done, job.failed = counts["done"], counts["failed"]
        job.errors = (
            {  # each reason in every language (``Job.error_texts`` reads the reader's)
                str(battle_id): texts or error
                for battle_id, error, texts in PostBattleRun.objects.filter(
                    job=job, status=PostBattleRun.Status.FAILED
                ).values_list("battle_id", "error", "error_texts")
            }
            if job.failed
            else {}
        )
        now = timezone.now()
        if job.started_at is None:
            job.started_at = now
        # Finished once no run is left pending (a run reverted meanwhile counts as done with).
        if not counts["pending"]:
            job.status = (
                Job.Status.SUCCEEDED
                if not job.failed
                else (Job.Status.FAILED if not job.done else Job.Status.PARTIAL)
            )
            job.finished_at = job.finished_at or now
        else:
            job.status = Job.Status.RUNNING
        job.save()
        if job.status in (Job.Status.FAILED, Job.Status.PARTIAL):
            notify(
                event=Event.JOB_FAILED,
                campaign=job.campaign,
                params={"job_id": job.pk, "failed": job.failed},
                key=f"job:{job.pk}",
            )
    return job


def jobs_sweep_stuck(*, lost_after: int | None = None) -> list[int]:
    """The sweeper (beat runs it every minute). Sends again every pending run silent for
    ``lost_after`` seconds (default: the ``POSTBATTLE_RUN_LOST_AFTER`` setting) — its message
    was lost, or its worker died holding it — and completes every active post-battle job that
    has no pending run left. Standings jobs (no runs) are swept by ``standings_jobs_sweep``:
    one queued and silent as long is sent again, one running past its task's time limit fails
    with that reason (the organisers are told).
    Exactly once still holds: a run being applied right now is locked and skipped here, and a
    run sent twice applies once (a late redelivery finds it applied).
    Returns the ids of the jobs touched."""
    lost_after = _lost_after() if lost_after is None else lost_after
    cutoff = timezone.now() - timezone.timedelta(seconds=lost_after)
    touched: set[int] = set(
        standings_jobs_sweep(
            cutoff=cutoff,
            running_cutoff=cutoff - timezone.timedelta(seconds=STANDINGS_TIME_LIMIT),
        )
    )
    with transaction.atomic():
        lost = list(
            PostBattleRun.objects.select_for_update(skip_locked=True)
            .filter(status=PostBattleRun.Status.PENDING)
            .annotate(last_sign=Coalesce("heartbeat_at", "created_at"))
            .filter(last_sign__lte=cutoff)
            .order_by("job_id", "pk")
            .only("pk", "job_id")
        )
        by_job: dict[int | None, list[int]] = {}
        for run in lost:
            by_job.setdefault(run.job_id, []).append(run.pk)
        for job_id, run_ids in by_job.items():
            logger.warning("sweeper: sending %d lost post-battle runs again", len(run_ids))
            _enqueue(run_ids)
            if job_id is not None:
                touched.add(job_id)
    finished = Job.objects.filter(
        kind__in=(Job.Kind.ROUND, Job.Kind.BATTLE), status__in=Job.ACTIVE
    ).exclude(
        Exists(
            PostBattleRun.objects.filter(job=OuterRef("pk"), status=PostBattleRun.Status.PENDING)
        )
    )
    for job_id in finished.values_list("pk", flat=True):
        job_progress_refresh(job_id=job_id)
        touched.add(job_id)
    return sorted(touched)


# --- nightly standings -----------------------------------------------------------------------


def standings_recompute_all() -> int:
    """Store today's standings of every running (or just finished) campaign; returns the count."""
    today = timezone.localdate()
    count = 0
    campaigns = Campaign.objects.filter(
        archived=False, state__in=[Campaign.State.RUNNING, Campaign.State.FINISHED]
    )
    for campaign in campaigns:
        rows = [
            {key: value for key, value in asdict(row).items() if key != "opponents"}
            for row in standings_compute(campaign=campaign)
        ]
        StandingsSnapshot.objects.update_or_create(
            campaign=campaign, day=today, defaults={"rows": rows}
        )
        count += 1
    return count
