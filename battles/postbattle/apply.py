"""Post-battle services: the sequence applied to rosters, per battle and per round, with jobs.

Order (docs/rules-tables.md › Post-battle sequence): injuries · experience · advances ·
exploration and selling finds · rare items · rating. Every roll comes from a ``Dice`` built from
the run's stored seed (or the faces a player typed), so re-running a run rolls the same dice;
every step is recorded with its dice so the page can show *why*. Choices (HA or HP, a new skill,
the lad's got talent, a captive, a rare item) become ``PendingDecision`` rows for their owner.

Locks: ``postbattle_run_apply`` locks the run row first, then each warband row (through the
roster services), always in warband id order, so two runs touching the same warband serialise.

Shape: read → decide → write. ``_apply`` locks the participants' warband rows and reads their
whole rosters once; each warband's sequence runs inside one ``roster_batch`` given that roster,
so the roster services change those instances in memory and the batch writes them when the
sequence ends (one ``bulk_update`` per model, one rating refresh, one version bump, one
house-rule check). ``bench/bench_postbattle.py`` measures it (``bench/README.md``).
"""

from __future__ import annotations

import logging
import time

from django.conf import settings
from django.core.exceptions import ValidationError
from django.db import DatabaseError, transaction
from django.db.models import Exists, F, OuterRef
from django.utils import timezone, translation
from django.utils.translation import get_language

from annuminas.tasks import enqueue_safely
from battles.campaigns.house_rules import house_rules_inputs_attach
from battles.postbattle.upkeep import upkeep_decisions_open
from rules.engine import (
    Dice,
    RulesError,
)
from warbands.models import EquipmentItem, Fighter, HenchmanGroup
from warbands.services.snapshots import warband_snapshots
from warbands.services.unit import roster_batches

from ..models import (
    Battle,
    BattleEvent,
    BattleParticipant,
    PendingDecision,
    PostBattleResult,
    PostBattleRun,
)
from ..models.notifications import Event
from ..notifications.services import decisions_waiting_notify, notify
from ._common import _warband_seed
from .jobs import job_progress_refresh
from .sequence import _Context, _Sequence

logger = logging.getLogger(__name__)
# What a roster the rules cannot satisfy raises: the run fails with the reason (anything else is
# an infrastructure error, which the task retries).
RUN_FAILURES = (ValidationError, RulesError, ValueError, LookupError, TypeError, AttributeError)
HEARTBEAT_EVERY = 30  # seconds between a worker's heartbeats on the runs of its chunk


def _runs_heartbeat(run_ids: list[int], *, starting: bool = False) -> None:
    """A worker's sign of life on the runs it is about to apply (outside any transaction, so
    the sweeper sees it)."""
    now = timezone.now()
    fields = {"heartbeat_at": now, **({"started_at": now} if starting else {})}
    PostBattleRun.objects.filter(pk__in=run_ids, status=PostBattleRun.Status.PENDING).update(
        **fields
    )


def postbattle_runs_apply(*, run_ids: list[int]) -> list[PostBattleRun]:
    """Apply several runs (each exactly once, each in its own transaction), then refresh the
    progress of their jobs once — even when an infrastructure error stops the chunk halfway
    (the task retries it; the runs already applied are skipped). The runs not yet applied get
    a heartbeat at the start and every ``HEARTBEAT_EVERY`` seconds, so the sweeper leaves a
    busy worker alone and re-sends only what a dead one held."""
    runs: list[PostBattleRun] = []
    try:
        _runs_heartbeat(run_ids, starting=True)
        beat = time.monotonic()
        for index, run_id in enumerate(run_ids):
            if time.monotonic() - beat > HEARTBEAT_EVERY:
                _runs_heartbeat(run_ids[index:])
                beat = time.monotonic()
            runs.append(postbattle_run_apply(run_id=run_id, refresh_job=False))
    finally:
        job_ids = set(
            PostBattleRun.objects.filter(pk__in=run_ids, job__isnull=False).values_list(
                "job_id", flat=True
            )
        )
        for job_id in sorted(job_ids):
            job_progress_refresh(job_id=job_id)
    return runs


# --- applying a run -----------------------------------------------------------------------


def postbattle_run_apply(*, run_id: int, refresh_job: bool = True) -> PostBattleRun:
    """Apply a run exactly once. Safe to call again: an applied run is returned untouched
    (its job is still refreshed, so a job whose runs are all done always finishes).

    A bad roster (a rule the data cannot satisfy) marks the run failed with the reason; an
    infrastructure error propagates so the task retries. ``refresh_job=False`` leaves the
    job's progress to the caller (a task applying several runs refreshes it once).
    """
    applied = None
    try:
        with transaction.atomic():
            run = (
                PostBattleRun.objects.select_for_update(of=("self", "battle"))
                .select_related("battle", "battle__campaign")
                .get(pk=run_id)
            )
            if run.status == PostBattleRun.Status.PENDING:
                run.attempts += 1
                _apply(run)
                run.status = PostBattleRun.Status.APPLIED
                run.applied_at = timezone.now()
                run.error, run.error_texts = "", {}
                run.save(update_fields=["status", "applied_at", "error", "error_texts", "attempts"])
                Battle.objects.filter(pk=run.battle_id).update(
                    status=Battle.Status.RESOLVED, version=F("version") + 1
                )
                applied = run
    except RUN_FAILURES as error:
        message = _failure(error)
        texts = _failure_in_every_language(run_id, message)
        PostBattleRun.objects.filter(pk=run_id, status=PostBattleRun.Status.PENDING).update(
            status=PostBattleRun.Status.FAILED, error=message, error_texts=texts
        )
        logger.warning("post-battle run %s failed: %s", run_id, message)
        run = PostBattleRun.objects.get(pk=run_id)
    if applied is not None:  # as committed: no need to read it again
        run.battle.status = Battle.Status.RESOLVED
        run.battle.version += 1
        # The owners are told by a task of its own, off the apply's path (a round's batch).
        transaction.on_commit(lambda: enqueue_safely("battles.postbattle_notify", run_id))
    if refresh_job and run.job_id:
        job_progress_refresh(job_id=run.job_id)
    return run


class _TriedOnly(Exception):
    """Raised to roll back an apply tried only for the words of its failure."""


def _failure(error: Exception) -> str:
    return "; ".join(getattr(error, "messages", None) or [str(error)])[:2000]


def _failure_in_every_language(run_id: int, message: str) -> dict[str, str]:
    """Why the run failed, in every language of the site: the apply is tried again under each
    other language in a transaction always rolled back. The dice are the run's own, so the same
    rule fails the same way; the reader then sees the reason in his language, not the worker's."""
    texts = {(get_language() or settings.LANGUAGE_CODE).split("-")[0]: message}
    for language, _name in settings.LANGUAGES:
        if language in texts:
            continue
        with translation.override(language):
            try:
                with transaction.atomic():
                    _apply(PostBattleRun.objects.select_for_update().get(pk=run_id))
                    raise _TriedOnly
            except _TriedOnly:
                texts[language] = message  # it applied this time: the first words stand
            except RUN_FAILURES as error:
                texts[language] = _failure(error)
            except DatabaseError:  # a lock timeout, a lost connection: the first words stand
                texts[language] = message
    return texts


def postbattle_applied_notify(*, run_id: int) -> int:
    """Tell the warbands' owners that the sequence was applied, and each owner who has
    decisions waiting (idempotent: ``notify`` records each announcement once). Returns how
    many owners were told of decisions."""
    run = PostBattleRun.objects.select_related("battle").get(pk=run_id)
    if run.status != PostBattleRun.Status.APPLIED:
        return 0
    notify(event=Event.POSTBATTLE_APPLIED, battle=run.battle, params={"run_id": run.pk})
    return decisions_waiting_notify(run=run)


def _context(run: PostBattleRun) -> _Context:
    battle = run.battle
    # Lock every participant (in id order, as every roster write does) before reading rosters,
    # so nothing changes between the read and the sequence's writes.
    participants = list(
        battle.participants.select_for_update(of=("warband",))
        .select_related("warband__warband_type__pack")
        .order_by("warband_id")
    )
    events = list(battle.events.filter(kind=BattleEvent.Kind.OUT_OF_ACTION))
    out_of_action = {event.target_id: event for event in events if event.target_id}
    kills: dict[int, int] = {}
    for event in events:
        if event.actor_id and event.actor_warband_id != event.target_warband_id:
            kills[event.actor_id] = kills.get(event.actor_id, 0) + 1
    return _Context(battle, participants, out_of_action, kills, run.options or {})


def _rosters(
    warband_ids: list[int], battle_id: int
) -> tuple[dict[int, list[Fighter]], dict[int, list[HenchmanGroup]]]:
    """Every fighter (skills included for the snapshots) and group of these warbands, by
    warband id, in three queries: the instances the sequences change. A fighter's ``group`` is
    his group's instance here, so a change to the group is seen through its members; his
    ``in_lineup`` says whether his player named him among those who fight this battle."""
    lineup = BattleParticipant.fighters.through.objects.filter(
        battleparticipant__battle_id=battle_id, fighter_id=OuterRef("pk")
    )
    groups: dict[int, list[HenchmanGroup]] = {pk: [] for pk in warband_ids}
    by_pk: dict[int, HenchmanGroup] = {}
    for group in (
        HenchmanGroup.objects.filter(warband_id__in=warband_ids)
        .select_related("fighter_type__race")
        .order_by("pk")
    ):
        groups[group.warband_id].append(group)
        by_pk[group.pk] = group
    fighters: dict[int, list[Fighter]] = {pk: [] for pk in warband_ids}
    for fighter in (
        Fighter.objects.filter(warband_id__in=warband_ids)
        .annotate(in_lineup=Exists(lineup))
        .select_related("fighter_type__race", "hired_sword")
        .prefetch_related("skills")
        .order_by("pk")
    ):
        if fighter.group_id is not None:
            fighter.group = by_pk[fighter.group_id]
        fighters[fighter.warband_id].append(fighter)
    return fighters, groups


def _sequence_run(
    run, context: _Context, participant, result, ratings: dict
) -> list[PendingDecision]:
    warband = participant.warband
    faces = (run.faces or {}).get(str(warband.pk))
    dice = Dice(faces=faces) if faces else Dice(seed=_warband_seed(run.seed, warband.pk))
    enemies = [rating for wid, rating in ratings.items() if wid != warband.pk]
    sequence = _Sequence(
        context=context,
        participant=participant,
        result=result,
        dice=dice,
        enemy_rating=max(enemies) if enemies else participant.rating_at_battle,
    )
    sequence.run()
    result.steps = sequence.recorder.steps
    result.rolls = [roll.to_dict() for roll in dice.record]
    return sequence.decisions


def _apply(run: PostBattleRun) -> None:
    context = _context(run)
    ratings = {p.warband_id: p.rating_at_battle for p in context.participants}
    warbands = [participant.warband for participant in context.participants]
    # A warband's sequence never changes another participant's roster (a captive only becomes
    # a decision for his captor), so every "before" is read at once, before any sequence.
    ids = [warband.pk for warband in warbands]
    context.fighters, context.groups = _rosters(ids, run.battle_id)
    items: dict[int, list[EquipmentItem]] = {pk: [] for pk in ids}
    for item in EquipmentItem.objects.filter(warband_id__in=ids).select_related("equipment"):
        items[item.warband_id].append(item)
    snapshots = warband_snapshots(
        warbands=warbands, fighters=context.fighters, groups=context.groups, items=items
    )
    # Each batch checks its warband's house rules once, at its end: their inputs read here.
    house_rules_inputs_attach(warbands, context.fighters)
    results = PostBattleResult.objects.bulk_create(
        [
            PostBattleResult(run=run, warband=warband, snapshot_before=snapshots[warband.pk])
            for warband in warbands
        ]
    )
    # Decide: every sequence changes the rosters in memory (the batches hold them) …
    rosters = [(w, context.fighters[w.pk], context.groups[w.pk]) for w in warbands]
    decisions: list[PendingDecision] = []
    with roster_batches(rosters=rosters, items=items):
        for participant, result in zip(context.participants, results, strict=True):
            decisions += _sequence_run(run, context, participant, result, ratings)
    # … and the batches wrote them together when they closed (one bulk update per model),
    # setting each warband instance's final version.
    for warband, result in zip(warbands, results, strict=True):
        result.version_after = warband.version
    PostBattleResult.objects.bulk_update(
        results,
        ["steps", "rolls", "experience_gained", "finds_found", "gold_gained", "version_after"],
    )
    if decisions:
        PendingDecision.objects.bulk_create(decisions)
    # Hired swords ask for their upkeep after every battle (a decision: pay, or he leaves).
    if any(f.hired_sword_id for fighters in context.fighters.values() for f in fighters):
        upkeep_decisions_open(run=run)
