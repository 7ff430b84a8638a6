"""Post-battle services: the sequence applied to rosters, per battle and per round, with jobs.

Order (RULES-REFERENCE §5): injuries · experience · advances · exploration and selling finds ·
rare items · rating. Every roll comes from a ``Dice`` built from the run's stored seed (or the
faces a player typed), so re-running a run rolls the same dice; every step is recorded with its
dice so the page can show *why*. Choices (HA or HP, a new skill, the lad's got talent, a captive,
a rare item) become ``PendingDecision`` rows for their owner.

Locks: ``postbattle_run_apply`` locks the run row first, then each warband row (through the
roster services), always in warband id order, so two runs touching the same warband serialise.

Speed: each warband's sequence runs inside one ``roster_batch`` (one lock, one rating refresh,
one version bump and one house-rule check for the whole sequence instead of one per roster
change); the rows a run needs (fighters, snapshots, results, the rare items) are read once per
run, not once per step. ``bench/bench_postbattle.py`` measures it (``bench/README.md``).
"""

from __future__ import annotations

import logging
import secrets
import time
from dataclasses import dataclass, field
from typing import Any

from django.conf import settings
from django.core.exceptions import PermissionDenied, ValidationError
from django.db import IntegrityError, transaction
from django.db.models import Count, Exists, F, OuterRef, Prefetch, Q
from django.db.models.functions import Coalesce
from django.utils import timezone
from django.utils.translation import gettext as _
from django.utils.translation import gettext_noop

from annuminas.errors import Conflict
from rules.engine import (
    Dice,
    RulesError,
    battle_experience,
    blindness_retires,
    exploration,
    henchman_advance,
    henchman_injury,
    hero_advance,
    injury_characteristic_change,
    sell_finds,
    serious_injury,
)
from warbands import services as roster
from warbands.models import PROFILE_FIELDS, Equipment, Fighter, Skill, Warband
from warbands.postbattle import (
    captive_gear_to_captor,
    fighter_lose_equipment,
    fighter_promote,
    warband_restore,
    warband_snapshots,
)

from .models import (
    Battle,
    BattleEvent,
    Job,
    PendingDecision,
    PostBattleResult,
    PostBattleRun,
    Round,
)

logger = logging.getLogger(__name__)
MAX_SEED = 2**31 - 1
IN_ROSTER = ("active", "misses_next")
ADVANCE_DECISIONS = ("characteristic", "skill", "lads_got_talent")
# Readable names of the serious injuries (msgids; the sheet shows them translated).
INJURY_LABELS = {
    "dead": gettext_noop("Dead"),
    "multiple_injuries": gettext_noop("Multiple injuries"),
    "leg_wound": gettext_noop("Leg wound"),
    "arm_wound": gettext_noop("Arm wound"),
    "madness": gettext_noop("Madness"),
    "smashed_leg": gettext_noop("Smashed leg"),
    "chest_wound": gettext_noop("Chest wound"),
    "blinded_in_one_eye": gettext_noop("Blinded in one eye"),
    "old_battle_wound": gettext_noop("Old battle wound"),
    "nervous_condition": gettext_noop("Nervous condition"),
    "hand_injury": gettext_noop("Hand injury"),
    "deep_wound": gettext_noop("Deep wound"),
    "robbed": gettext_noop("Robbed"),
    "bitter_enmity": gettext_noop("Bitter enmity"),
    "captured": gettext_noop("Captured"),
    "hardened": gettext_noop("Hardened"),
    "horrible_scars": gettext_noop("Horrible scars"),
    "sold_to_the_pits": gettext_noop("Sold to the pits"),
    "survives_against_the_odds": gettext_noop("Survives against the odds"),
}
NOT_AN_INJURY = {"full_recovery", "fine", "multiple_injuries"}


def _injury_codes(outcome) -> list[str]:
    """Every lasting injury in a result, the ones inside "multiple injuries" included."""
    codes = [outcome.outcome]
    codes += [sub["outcome"] for sub in outcome.details.get("injuries", []) if "outcome" in sub]
    return [code for code in codes if code not in NOT_AN_INJURY]


def _warband_seed(seed: int, warband_id: int) -> int:
    """Each warband rolls its own stream, derived from the run's seed (stable everywhere)."""
    return (seed * 1_000_003 + warband_id * 7_919) % MAX_SEED


@dataclass
class Recorder:
    """The audit of one warband's sequence: steps with the engine result that explains them."""

    steps: list[dict[str, Any]] = field(default_factory=list)

    def add(self, step: str, *, who: str = "", result: Any = None, **extra: Any) -> None:
        entry: dict[str, Any] = {"step": step, "who": who, **extra}
        if result is not None:
            entry["result"] = result.to_dict()
        self.steps.append(entry)


# --- starting runs and jobs ------------------------------------------------------------------


def _faces_typed_by(battle: Battle, user, faces: dict | None) -> dict[str, Any]:
    """Who typed the dice at the table, and whether he plays in this battle (an organiser
    resolving his own battle with his own dice: allowed, recorded and shown)."""
    if not faces or getattr(user, "pk", None) is None:
        return {"faces_typed_by": None, "faces_typed_by_player": False}
    plays = battle.participants.filter(warband__owner=user).exists()
    return {"faces_typed_by": user, "faces_typed_by_player": plays}


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
        run.error = ""
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
                "status", "error", "seed", "faces", "options", "faces_typed_by",
                "faces_typed_by_player",
            ]
        )  # fmt: skip
    return run


def _already_resolved() -> Conflict:
    return Conflict(
        _(
            "This battle's post-battle sequence has already been applied; an organiser can "
            "revert it before resolving it again."
        )
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
    """Queue the post-battle sequence of one battle; a repeated request returns the same job.

    A battle already resolved is a ``Conflict`` (nothing to do: no job is created), so every job
    created here has a pending run that a worker will apply. Holds the battle's row lock, which
    the worker applying its run also takes, so the two never cross.
    """
    battle = Battle.objects.select_for_update().get(pk=battle.pk)
    _check_resolvable(battle)
    active = Job.objects.filter(battle=battle, status__in=Job.ACTIVE).first()
    if active is not None:
        return active
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
HEARTBEAT_EVERY = 30  # seconds between a worker's heartbeats on the runs of its chunk


def _lost_after() -> int:
    """Seconds of silence after which a pending run's task is taken as lost."""
    return int(getattr(settings, "POSTBATTLE_RUN_LOST_AFTER", 120))


def _enqueue(run_ids: list[int]) -> None:
    """Send the runs to the workers once the transaction commits: a lone run as one task, a
    round's runs in chunks of ``ROUND_CHUNK`` (fewer messages and progress refreshes; each run
    still applies in its own transaction, exactly once). Sending counts as the runs' heartbeat:
    if the message is lost, the sweeper sends them again once they have been silent too long."""
    from .tasks import postbattle_run_task, postbattle_runs_task

    PostBattleRun.objects.filter(pk__in=run_ids).update(heartbeat_at=timezone.now())

    def send() -> None:
        if len(run_ids) == 1:
            postbattle_run_task.delay(run_ids[0])
            return
        for start in range(0, len(run_ids), ROUND_CHUNK):
            postbattle_runs_task.delay(run_ids[start : start + ROUND_CHUNK])

    transaction.on_commit(send)


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
                run.error = ""
                run.save(update_fields=["status", "applied_at", "error", "attempts"])
                Battle.objects.filter(pk=run.battle_id).update(
                    status=Battle.Status.RESOLVED, version=F("version") + 1
                )
                applied = run
    except (
        ValidationError,
        RulesError,
        ValueError,
        LookupError,
        TypeError,
        AttributeError,
    ) as error:
        message = "; ".join(getattr(error, "messages", None) or [str(error)])
        PostBattleRun.objects.filter(pk=run_id, status=PostBattleRun.Status.PENDING).update(
            status=PostBattleRun.Status.FAILED, error=message[:2000]
        )
        logger.warning("post-battle run %s failed: %s", run_id, message)
        run = PostBattleRun.objects.get(pk=run_id)
    if applied is not None:  # as committed: no need to read it again
        run.battle.status = Battle.Status.RESOLVED
        run.battle.version += 1
    if refresh_job and run.job_id:
        job_progress_refresh(job_id=run.job_id)
    return run


@dataclass
class _Context:
    battle: Battle
    participants: list
    out_of_action: dict[int, BattleEvent]  # target fighter id → the event
    kills_by: dict[int, int]  # actor fighter id → enemies put out of action
    options: dict
    fighters: dict[int, list[Fighter]] = field(default_factory=dict)  # per warband, by pk


def _context(run: PostBattleRun) -> _Context:
    battle = run.battle
    participants = list(
        battle.participants.select_related("warband")
        .prefetch_related(Prefetch("fighters", queryset=Fighter.objects.only("pk")))
        .order_by("warband_id")
    )
    events = list(battle.events.filter(kind=BattleEvent.Kind.OUT_OF_ACTION))
    out_of_action = {event.target_id: event for event in events if event.target_id}
    kills: dict[int, int] = {}
    for event in events:
        if event.actor_id and event.actor_warband_id != event.target_warband_id:
            kills[event.actor_id] = kills.get(event.actor_id, 0) + 1
    return _Context(battle, participants, out_of_action, kills, run.options or {})


def _fighters_by_warband(warband_ids: list[int]) -> dict[int, list[Fighter]]:
    """Every fighter of these warbands (two queries, skills included for the snapshots), as
    each sequence starts from them."""
    fighters: dict[int, list[Fighter]] = {pk: [] for pk in warband_ids}
    for fighter in (
        Fighter.objects.filter(warband_id__in=warband_ids)
        .select_related("group")  # the services read the fighter type themselves
        .prefetch_related("skills")
        .order_by("pk")
    ):
        fighters[fighter.warband_id].append(fighter)
    return fighters


def _apply(run: PostBattleRun) -> None:
    context = _context(run)
    ratings = {p.warband_id: p.rating_at_battle for p in context.participants}
    warbands = [participant.warband for participant in context.participants]
    # Lock every participant (in id order, as every roster write does) before reading rosters,
    # so nothing changes between the read and the sequence's writes.
    list(
        Warband.objects.select_for_update()
        .filter(pk__in=[w.pk for w in warbands])
        .order_by("pk")
        .values_list("pk", flat=True)
    )
    # A warband's sequence never changes another participant's roster (a captive only becomes
    # a decision for his captor), so every "before" is read at once, before any sequence.
    context.fighters = _fighters_by_warband([warband.pk for warband in warbands])
    snapshots = warband_snapshots(warbands=warbands, fighters=context.fighters)
    results = PostBattleResult.objects.bulk_create(
        [
            PostBattleResult(run=run, warband=warband, snapshot_before=snapshots[warband.pk])
            for warband in warbands
        ]
    )
    for participant, result in zip(context.participants, results, strict=True):
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
    # The versions as the sequences left them: every write to these warbands in this run goes
    # through their batches, which set each instance's final version when they close.
    for warband, result in zip(warbands, results, strict=True):
        result.version_after = warband.version
    PostBattleResult.objects.bulk_update(
        results,
        ["steps", "rolls", "experience_gained", "finds_found", "gold_gained", "version_after"],
    )


class _Sequence:
    """One warband's post-battle sequence."""

    def __init__(self, *, context: _Context, participant, result, dice: Dice, enemy_rating: int):
        self.context = context
        self.participant = participant
        self.warband = participant.warband
        self.result = result
        self.dice = dice
        self.enemy_rating = enemy_rating
        self.recorder = Recorder()
        self.won = participant.result == "win"
        self.batch: roster.RosterBatch
        fighters = context.fighters[self.warband.pk]
        chosen = {f.pk for f in participant.fighters.all()}
        self.took_part = [
            f for f in fighters if f.status == "active" and (not chosen or f.pk in chosen)
        ]
        self.sitting_out = [f for f in fighters if f.status == "misses_next" and f.pk not in chosen]
        self.taken_out = {f.pk for f in self.took_part if f.pk in context.out_of_action}
        self.tables = context.battle.campaign.tables or {}

    def run(self) -> None:
        # One lock, one rating refresh, one version bump and one house-rule check for the whole
        # sequence (the roster services below join the batch).
        # Without its own savepoint: any error fails the whole run (its transaction rolls back).
        with roster.roster_batch(warband=self.warband, savepoint=False) as batch:
            self.batch = batch
            self.missed_battles()
            self.injuries()
            self.experience()
            self.advances()
            self.exploration()
            self.rare_items()
            rating = roster.warband_rating_refresh(warband=self.warband)
        self.recorder.add("rating", rating=rating)

    def _table(self, name: str, argument: str = "table") -> dict[str, Any]:
        """The campaign's own table when its organiser set one (same rows as the default)."""
        rows = self.tables.get(name)
        return {argument: rows} if rows else {}

    # 0. those who missed this battle count it off
    def missed_battles(self) -> None:
        for fighter in self.sitting_out:
            left = max(0, fighter.misses_battles - 1)
            roster.fighter_set_status(
                fighter=fighter,
                status="misses_next" if left else "active",
                misses_battles=left,
                source=self.result,
            )
            self.recorder.add("missed", who=fighter.name, fighter_id=fighter.pk, left=left)

    # 1. injuries
    def injuries(self) -> None:
        for fighter in self.took_part:
            if fighter.pk not in self.taken_out:
                continue
            if fighter.is_hero:
                outcome = serious_injury(dice=self.dice, **self._table("hero_injuries"))
            else:
                outcome = henchman_injury(dice=self.dice, **self._table("henchman_injuries"))
            self.recorder.add("injury", who=fighter.name, fighter_id=fighter.pk, result=outcome)
            self._apply_injury(fighter, outcome)

    def _apply_injury(self, fighter: Fighter, outcome) -> None:
        effects = list(outcome.effects)
        if any(effect["type"] == "dead" for effect in effects):
            roster.fighter_kill(fighter=fighter, source=self.result)
            fighter.status = "dead"
            return
        for effect in effects:
            kind = effect["type"]
            if kind == "lose_equipment":
                fighter_lose_equipment(fighter=fighter, source=self.result)
            elif kind == "characteristic":
                self._injury_characteristic(fighter, effect)
            elif kind == "misses_battles":
                roster.fighter_set_status(
                    fighter=fighter,
                    status="misses_next",
                    misses_battles=max(fighter.misses_battles, effect["count"]),
                    source=self.result,
                )
            elif kind == "special_rule":
                self._injury_rule(fighter, effect, outcome)
            elif kind == "captured":
                self._captured(fighter, effect)
            elif kind == "gold":
                roster.ledger_record(
                    warband=self.warband,
                    amount=effect["amount"],
                    reason="pit_fight",
                    description=_("%(name)s won in the pits") % {"name": fighter.name},
                    source=self.result,
                )
                self.result.gold_gained += effect["amount"]
            elif kind == "experience":
                roster.fighter_add_experience(fighter=fighter, amount=effect["amount"])
                self.result.experience_gained += effect["amount"]
        if fighter.status in ("captured", "retired"):
            return
        for code in _injury_codes(outcome):
            roster.fighter_add_injury(
                fighter=fighter,
                code=code,
                label=INJURY_LABELS.get(code, code),
                battle_id=self.context.battle.pk,
            )

    def _injury_characteristic(self, fighter: Fighter, effect: dict) -> None:
        fighter.refresh_from_db()
        delta = injury_characteristic_change(
            field=effect["field"], current=getattr(fighter, effect["field"]), delta=effect["delta"]
        )
        if delta:
            roster.fighter_apply_profile_change(
                fighter=fighter, characteristic=effect["field"], delta=delta, source=self.result
            )

    def _injury_rule(self, fighter: Fighter, effect: dict, outcome) -> None:
        rule = effect["rule"]
        fighter.refresh_from_db()
        if rule == "blinded_in_one_eye":
            # The second eye lost (before, or twice in one "multiple injuries") retires him.
            seen = getattr(fighter, "blinded_now", 0) + sum(
                injury.get("code") == "blinded_in_one_eye" for injury in fighter.injuries
            )
            fighter.blinded_now = getattr(fighter, "blinded_now", 0) + 1
        if rule == "blinded_in_one_eye" and blindness_retires(eyes_lost_before=seen):
            roster.fighter_set_status(fighter=fighter, status="retired", source=self.result)
            fighter.status = "retired"
            self.recorder.add("retired", who=fighter.name, fighter_id=fighter.pk)
            return
        if rule == "hatred" and effect.get("target"):
            rule = f"hatred:{effect['target']}"
        if rule not in fighter.special_rules:
            fighter.special_rules = [*fighter.special_rules, rule]
            Fighter.objects.filter(pk=fighter.pk).update(special_rules=fighter.special_rules)

    def _captured(self, fighter: Fighter, effect: dict) -> None:
        event = self.context.out_of_action.get(fighter.pk)
        captor_id = event.actor_warband_id if event and event.actor_warband_id else None
        if captor_id is None or captor_id == self.warband.pk:
            others = [p for p in self.context.participants if p.warband_id != self.warband.pk]
            winners = [p for p in others if p.result == "win"] or others
            captor_id = winners[0].warband_id if winners else None
        roster.fighter_set_status(fighter=fighter, status="captured", source=self.result)
        fighter.status = "captured"
        if captor_id is None:
            return
        PendingDecision.objects.create(
            result=self.result,
            warband_id=captor_id,
            fighter=fighter,
            kind=PendingDecision.Kind.CAPTIVE,
            options=["ransom", "sell", "exchange"],
            payload={
                "sale_value": effect["sale_value"],
                "owner_warband_id": self.warband.pk,
                "battle_id": self.context.battle.pk,
            },
        )

    # 2. experience
    def experience(self) -> None:
        survivors = [f for f in self.took_part if f.status not in ("dead", "captured", "retired")]
        bonus = self.context.options.get("scenario_bonus", {})
        for fighter in survivors:
            if fighter.group_id is not None:
                continue
            outcome = battle_experience(
                hero=True,
                survived=True,
                leader=fighter.is_leader,
                won=self.won,
                enemies_out_of_action=self.context.kills_by.get(fighter.pk, 0),
                scenario_bonus=int(bonus.get(str(fighter.pk), 0)),
                own_rating=self.participant.rating_at_battle,
                enemy_rating=self.enemy_rating,
                **self._table("underdog_bonus", "underdog_table"),
            )
            self._gain(outcome, fighter=fighter, who=fighter.name)
        groups = {f.group_id: f.group for f in survivors if f.group_id is not None}
        for group in groups.values():
            outcome = battle_experience(
                hero=False,
                survived=True,
                won=self.won,
                scenario_bonus=int(bonus.get(f"group:{group.pk}", 0)),
                own_rating=self.participant.rating_at_battle,
                enemy_rating=self.enemy_rating,
                **self._table("underdog_bonus", "underdog_table"),
            )
            self._gain(outcome, group=group, who=group.name)

    def _gain(self, outcome, *, who: str, fighter=None, group=None) -> None:
        amount = sum(e["amount"] for e in outcome.effects if e["type"] == "experience")
        self.recorder.add(
            "experience",
            who=who,
            fighter_id=fighter.pk if fighter else None,
            group_id=group.pk if group else None,
            amount=amount,
            result=outcome,
        )
        if amount:
            roster.fighter_add_experience(fighter=fighter, group=group, amount=amount)
            self.result.experience_gained += amount

    # 3. advances
    def advances(self) -> None:
        policy = self.context.options.get("racial_maximum", "reroll")
        # The advances due after this battle's experience (the batch recomputes them once).
        self.batch.refresh()
        heroes = [
            f
            for f in self.batch.fighters
            if f.group_id is None and f.status in IN_ROSTER and f.advances_due > 0
        ]
        open_choices = self._open_advance_choices()
        for fighter in heroes:
            for _index in range(fighter.advances_due - open_choices.get(("f", fighter.pk), 0)):
                fighter.refresh_from_db()
                maximum = _race_maximum(fighter.fighter_type.race)
                outcome = hero_advance(
                    dice=self.dice,
                    profile=_profile(fighter),
                    maximum=maximum,
                    policy=policy,
                    **self._table("hero_advances"),
                )
                self.recorder.add(
                    "advance", who=fighter.name, fighter_id=fighter.pk, result=outcome
                )
                self._take_advance(outcome, fighter=fighter)
        groups = [group for group in self.batch.groups if group.advances_due > 0]
        for group in groups:
            for _index in range(group.advances_due - open_choices.get(("g", group.pk), 0)):
                group.refresh_from_db()
                increases: dict[str, int] = {}
                for record in group.advances:
                    if record.get("characteristic"):
                        name = record["characteristic"]
                        increases[name] = increases.get(name, 0) + 1
                outcome = henchman_advance(
                    dice=self.dice,
                    profile=_profile(group),
                    maximum=_race_maximum(group.fighter_type.race),
                    increases=increases,
                    heroes_at_maximum=self._heroes_at_maximum(),
                    **self._table("henchman_advances"),
                )
                self.recorder.add("advance", who=group.name, group_id=group.pk, result=outcome)
                self._take_advance(outcome, group=group)

    def _open_advance_choices(self) -> dict[tuple[str, int], int]:
        """Advances already rolled and waiting for the owner's choice, per hero or group."""
        counts: dict[tuple[str, int], int] = {}
        open_choices = PendingDecision.objects.filter(
            warband=self.warband,
            status=PendingDecision.Status.OPEN,
            kind__in=ADVANCE_DECISIONS,
        ).values_list("fighter_id", "group_id")
        for fighter_id, group_id in open_choices:
            key = ("g", group_id) if group_id else ("f", fighter_id)
            counts[key] = counts.get(key, 0) + 1
        return counts

    def _heroes_at_maximum(self) -> bool:
        kind = self.warband.warband_type
        limit = getattr(kind, "max_heroes", None)
        if not limit:
            return False
        heroes = Fighter.objects.filter(
            warband=self.warband, is_hero=True, status__in=IN_ROSTER
        ).count()
        return heroes >= limit

    def _take_advance(self, outcome, *, fighter=None, group=None) -> None:
        record = {
            "battle_id": self.context.battle.pk,
            "roll": outcome.details.get("roll"),
            "outcome": outcome.outcome,
        }
        for effect in outcome.effects:
            if effect["type"] == "characteristic" and "field" in effect:
                roster.fighter_add_advance(
                    fighter=fighter,
                    group=group,
                    record={**record, "characteristic": effect["field"]},
                    characteristic=effect["field"],
                    delta=2.5 if effect["field"] == "m" else effect["delta"],
                )
        for choice in outcome.pending_choices:
            self._pending_advance(choice, outcome, fighter=fighter, group=group)

    def _pending_advance(self, choice: dict, outcome, *, fighter=None, group=None) -> None:
        kind = choice["type"]
        target = fighter or group
        base = {"battle_id": self.context.battle.pk, "roll": outcome.details.get("roll")}
        if kind == "characteristic":
            PendingDecision.objects.create(
                result=self.result,
                warband=self.warband,
                fighter=fighter,
                group=group,
                kind=PendingDecision.Kind.CHARACTERISTIC,
                options=list(choice["options"]),
                payload=base,
            )
        elif kind == "skill" and fighter is not None:
            PendingDecision.objects.create(
                result=self.result,
                warband=self.warband,
                fighter=fighter,
                kind=PendingDecision.Kind.SKILL,
                options=_skill_options(fighter),
                payload=base,
            )
        elif kind == "choose_member" and group is not None:
            PendingDecision.objects.create(
                result=self.result,
                warband=self.warband,
                group=group,
                kind=PendingDecision.Kind.LADS_GOT_TALENT,
                options=list(
                    group.members.filter(status__in=IN_ROSTER).values_list("pk", flat=True)
                ),
                payload={
                    **base,
                    "skill_lists": _skill_list_options(self.warband),
                    "seed": _warband_seed(self.context.battle.pk, target.pk),
                },
            )

    # 4. exploration and selling finds
    def exploration(self) -> None:
        heroes = [
            f
            for f in self.took_part
            if f.group_id is None and f.is_hero and f.pk not in self.taken_out
        ]
        outcome = exploration(
            dice=self.dice,
            heroes_not_out_of_action=len(heroes),
            won=self.won,
            **self._table("exploration"),
        )
        finds = sum(e["amount"] for e in outcome.effects if e["type"] == "finds")
        self.recorder.add("exploration", finds=finds, result=outcome)
        if not finds:
            return
        roster.ledger_record(
            warband=self.warband,
            amount=0,
            finds_delta=finds,
            reason="exploration",
            description=_("Exploration after battle %(id)s") % {"id": self.context.battle.pk},
            source=self.result,
        )
        self.result.finds_found = finds
        if self.batch.fresh:  # the roster as the batch last read it, nothing changed since
            size = sum(1 for f in self.batch.fighters if f.status in IN_ROSTER)
        else:
            size = Fighter.objects.filter(warband=self.warband, status__in=IN_ROSTER).count()
        value = sell_finds(finds=finds, warband_size=max(1, size), **self._table("sell_finds"))
        roster.ledger_record(
            warband=self.warband,
            amount=value,
            finds_delta=-finds,
            reason="sell_finds",
            description=_("%(finds)d finds sold") % {"finds": finds},
            source=self.result,
        )
        self.result.gold_gained += value
        self.recorder.add("sell_finds", finds=finds, gold=value, warband_size=size)

    # 5. rare items
    def rare_items(self) -> None:
        heroes = [
            f
            for f in self.took_part
            if f.group_id is None and f.is_hero and f.pk not in self.taken_out
        ]
        rare = _rare_for(self.warband) if heroes else {}
        for fighter in heroes:
            roll = self.dice.roll("2D6", f"rare items: {fighter.name}")
            found = [slug for slug, (rarity, _p, _d) in rare.items() if rarity <= roll.total]
            prices = {}
            for slug in found:
                rarity, price, price_dice = rare[slug]
                # "35+3D6": the dice are rolled when the item is found (replayable).
                extra = self.dice.roll(price_dice, f"price of {slug}").total if price_dice else 0
                prices[slug] = price + extra
            self.recorder.add(
                "rare_items",
                who=fighter.name,
                fighter_id=fighter.pk,
                total=roll.total,
                faces=list(roll.faces),
                found=found,
            )
            if found:
                PendingDecision.objects.create(
                    result=self.result,
                    warband=self.warband,
                    fighter=fighter,
                    kind=PendingDecision.Kind.RARE_ITEM,
                    options=found,
                    payload={
                        "roll": roll.total,
                        "prices": prices,
                        "battle_id": self.context.battle.pk,
                    },
                )


def _rare_for(warband: Warband) -> dict[str, tuple[int, int, str]]:
    """Rare items this warband's lists offer: slug → (rarity, list price, price dice)."""
    from warbands.models import EquipmentListEntry, FighterType

    entries = (
        EquipmentListEntry.objects.filter(
            equipment__rarity__isnull=False,
            common=False,
            equipment_list__in=FighterType.objects.filter(
                warband_type_id=warband.warband_type_id
            ).values("equipment_list"),
        )
        .select_related("equipment")
        .order_by("equipment__slug", "cost")
    )
    rare: dict[str, tuple[int, int, str]] = {}
    for entry in entries:
        item = entry.equipment
        rare.setdefault(item.slug, (item.rarity, entry.price, item.cost_dice or ""))
    return rare


def _profile(target) -> dict[str, Any]:
    return {name: getattr(target, name) for name in PROFILE_FIELDS}


def _race_maximum(race) -> dict[str, Any]:
    return {name: getattr(race, f"max_{name}") for name in PROFILE_FIELDS}


def _skill_options(fighter: Fighter) -> list[str]:
    lists = set(fighter.fighter_type.skill_lists.values_list("slug", flat=True))
    lists |= set(fighter.skill_lists)
    known = set(fighter.skills.values_list("pk", flat=True))
    return list(
        Skill.objects.filter(skill_list__slug__in=lists)
        .exclude(pk__in=known)
        .order_by("skill_list__slug", "slug")
        .values_list("slug", flat=True)
    )


def _skill_list_options(warband: Warband) -> list[str]:
    """A promoted henchman picks from the skill lists of his warband's heroes."""
    heroes = warband.warband_type.fighter_types.filter(role__in=["leader", "hero"])
    slugs: set[str] = set()
    for fighter_type in heroes.prefetch_related("skill_lists"):
        slugs |= {skill_list.slug for skill_list in fighter_type.skill_lists.all()}
    return sorted(slugs)


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
            {
                str(battle_id): error
                for battle_id, error in PostBattleRun.objects.filter(
                    job=job, status=PostBattleRun.Status.FAILED
                ).values_list("battle_id", "error")
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
    return job


def jobs_sweep_stuck(*, lost_after: int | None = None) -> list[int]:
    """The sweeper (beat runs it every minute). Sends again every pending run silent for
    ``lost_after`` seconds (default: the ``POSTBATTLE_RUN_LOST_AFTER`` setting) — its message
    was lost, or its worker died holding it — and completes every active post-battle job that
    has no pending run left (other kinds of job have no runs: they are not its business).
    Exactly once still holds: a run being applied right now is locked and skipped here, and a
    run sent twice applies once (a late redelivery finds it applied).
    Returns the ids of the jobs touched."""
    lost_after = _lost_after() if lost_after is None else lost_after
    cutoff = timezone.now() - timezone.timedelta(seconds=lost_after)
    touched: set[int] = set()
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


# --- revert ----------------------------------------------------------------------------------


@transaction.atomic
def battle_revert(*, battle: Battle, user=None) -> PostBattleRun:
    """Undo a resolved battle's sequence while nothing later depends on it.

    Every participating warband must still be exactly as the sequence left it (same version,
    no later post-battle run), so the roster, ledger and rating return exactly to before.
    """
    battle = Battle.objects.select_for_update().get(pk=battle.pk)
    run = (
        PostBattleRun.objects.select_for_update()
        .filter(battle=battle, status=PostBattleRun.Status.APPLIED)
        .first()
    )
    if run is None:
        raise ValidationError(_("This battle has no applied post-battle sequence to revert."))
    results = list(run.results.select_related("warband").order_by("warband_id"))
    for result in results:
        warband = Warband.objects.select_for_update().get(pk=result.warband_id)
        later = PostBattleRun.objects.filter(
            status=PostBattleRun.Status.APPLIED,
            results__warband=warband,
            pk__gt=run.pk,
        ).exists()
        if later or warband.version != result.version_after:
            raise Conflict(
                _(
                    "%(warband)s has changed since this battle's sequence (a later battle, a "
                    "purchase or an answered decision): it can no longer be reverted."
                )
                % {"warband": warband.name}
            )
    for result in results:
        warband_restore(warband=result.warband, snapshot=result.snapshot_before, source=run)
    PendingDecision.objects.filter(result__run=run, status=PendingDecision.Status.OPEN).update(
        status=PendingDecision.Status.CANCELLED
    )
    run.status = PostBattleRun.Status.REVERTED
    run.reverted_at = timezone.now()
    run.save(update_fields=["status", "reverted_at"])
    battle.status = Battle.Status.CONFIRMED
    battle.version += 1
    battle.save(update_fields=["status", "version", "updated_at"])
    return run


# --- decisions -------------------------------------------------------------------------------


@transaction.atomic
def decision_answer(*, decision: PendingDecision, user, choice: Any) -> PendingDecision:
    """Answer a pending decision (only the deciding warband's owner may). ``choice`` per kind:
    characteristic: "ws"/"bs"…; skill: a skill slug; lads_got_talent: {"fighter": id,
    "skill_lists": [slug, slug]}; captive: "ransom"/"sell"/"exchange"; rare_item: a slug to buy
    or null to decline."""
    decision = (
        PendingDecision.objects.select_for_update(of=("self",))
        .select_related("warband", "fighter", "group")
        .get(pk=decision.pk)
    )
    if decision.warband.owner_id != getattr(user, "pk", None):
        raise PermissionDenied(
            _("Only the owner of %(warband)s decides this.") % {"warband": decision.warband.name}
        )
    if decision.status != PendingDecision.Status.OPEN:
        raise Conflict(_("This decision was already taken."))
    handler = {
        PendingDecision.Kind.CHARACTERISTIC: _answer_characteristic,
        PendingDecision.Kind.SKILL: _answer_skill,
        PendingDecision.Kind.LADS_GOT_TALENT: _answer_talent,
        PendingDecision.Kind.CAPTIVE: _answer_captive,
        PendingDecision.Kind.RARE_ITEM: _answer_rare_item,
    }[decision.kind]
    declined = handler(decision, choice)
    decision.choice = choice
    decision.status = (
        PendingDecision.Status.DECLINED if declined else PendingDecision.Status.ANSWERED
    )
    decision.answered_at = timezone.now()
    decision.save(update_fields=["choice", "status", "answered_at"])
    return decision


def _record(decision: PendingDecision, **extra) -> dict:
    return {
        "battle_id": decision.payload.get("battle_id"),
        "roll": decision.payload.get("roll"),
        "decision_id": decision.pk,
        **extra,
    }


def _answer_characteristic(decision: PendingDecision, choice: Any) -> bool:
    if choice not in decision.options:
        raise ValidationError(
            {"choice": _("Choose one of: %(options)s.") % {"options": ", ".join(decision.options)}}
        )
    if decision.payload.get("free"):  # the promotion's own advance
        roster.fighter_apply_profile_change(
            fighter=decision.fighter, characteristic=choice, delta=1, source=decision
        )
        return False
    roster.fighter_add_advance(
        fighter=decision.fighter if decision.group_id is None else None,
        group=decision.group,
        record=_record(decision, characteristic=choice),
        characteristic=choice,
        delta=1,
    )
    return False


def _answer_skill(decision: PendingDecision, choice: Any) -> bool:
    if choice not in decision.options:
        raise ValidationError({"choice": _("That skill is not one he may learn.")})
    skill = Skill.objects.get(slug=choice)
    if decision.payload.get("free"):  # the promotion's own advance
        roster.fighter_add_skill(fighter=decision.fighter, skill=skill)
        return False
    roster.fighter_add_advance(
        fighter=decision.fighter, record=_record(decision, skill=choice), skill=skill
    )
    return False


def _answer_talent(decision: PendingDecision, choice: Any) -> bool:
    if not isinstance(choice, dict) or choice.get("fighter") not in decision.options:
        raise ValidationError({"choice": _("Choose which member of the group is promoted.")})
    lists = choice.get("skill_lists") or []
    allowed = decision.payload.get("skill_lists", [])
    if (
        not isinstance(lists, list)
        or not all(isinstance(item, str) for item in lists)
        or len(set(lists)) != 2
        or not set(lists) <= set(allowed)
    ):
        raise ValidationError({"choice": _("Pick two of the warband's skill lists.")})
    fighter = Fighter.objects.select_related("fighter_type__race").get(pk=choice["fighter"])
    group = decision.group
    roster.fighter_add_advance(
        group=group, record=_record(decision, outcome="lads_got_talent", promoted=fighter.pk)
    )
    fighter = fighter_promote(fighter=fighter, skill_lists=list(lists))
    # He rolls one hero advance at once, from a seed stored with the decision (replayable).
    dice = Dice(seed=decision.payload.get("seed", decision.pk))
    outcome = hero_advance(
        dice=dice, profile=_profile(fighter), maximum=_race_maximum(fighter.fighter_type.race)
    )
    decision.payload = {**decision.payload, "hero_advance": outcome.to_dict()}
    decision.save(update_fields=["payload"])
    # This advance comes with the promotion: it does not use up one of his future thresholds.
    for effect in outcome.effects:
        if effect["type"] == "characteristic" and "field" in effect:
            roster.fighter_apply_profile_change(
                fighter=fighter,
                characteristic=effect["field"],
                delta=2.5 if effect["field"] == "m" else 1,
                source=decision,
            )
    result = decision.result
    for pending in outcome.pending_choices:
        kind = (
            PendingDecision.Kind.SKILL
            if pending["type"] == "skill"
            else PendingDecision.Kind.CHARACTERISTIC
        )
        PendingDecision.objects.create(
            result=result,
            warband=decision.warband,
            fighter=fighter,
            kind=kind,
            options=_skill_options(fighter) if kind == "skill" else list(pending["options"]),
            payload={"battle_id": decision.payload.get("battle_id"), "free": True},
        )
    return False


def _answer_captive(decision: PendingDecision, choice: Any) -> bool:
    """The captor sells or releases (exchange) the captive, or offers him back for a ransom;
    a ransom offer becomes the owner's decision: he pays and gets him back, or refuses."""
    if decision.payload.get("ransom_offer"):
        return _answer_ransom_offer(decision, choice)
    if choice not in decision.options:
        raise ValidationError({"choice": _("Choose ransom, sell or exchange.")})
    captive = decision.fighter
    value = int(decision.payload["sale_value"])
    captor = decision.warband
    if choice == "sell":
        captive_gear_to_captor(fighter=captive, captor=captor)
        roster.ledger_record(
            warband=captor,
            amount=value,
            reason="capture_sale",
            description=_("%(name)s sold to the slavers") % {"name": captive.name},
            source=decision,
        )
        roster.fighter_kill(fighter=captive, source=decision)
    elif choice == "ransom":
        PendingDecision.objects.create(
            result=decision.result,
            warband_id=decision.payload["owner_warband_id"],
            fighter=captive,
            kind=PendingDecision.Kind.CAPTIVE,
            options=["accept", "refuse"],
            payload={**decision.payload, "ransom_offer": True, "captor_decision": decision.pk},
        )
    else:  # exchanged (or released): he returns to his warband
        roster.fighter_set_status(fighter=captive, status="active", source=decision)
    return False


def _answer_ransom_offer(decision: PendingDecision, choice: Any) -> bool:
    if choice not in ("accept", "refuse"):
        raise ValidationError({"choice": _("Accept or refuse the ransom.")})
    captive = decision.fighter
    offer = PendingDecision.objects.select_for_update().get(pk=decision.payload["captor_decision"])
    if choice == "refuse":
        # The captor decides again, without the ransom.
        offer.status = PendingDecision.Status.OPEN
        offer.options = ["sell", "exchange"]
        offer.choice = None
        offer.save(update_fields=["status", "options", "choice"])
        return True
    value = int(decision.payload["sale_value"])
    owner, captor = decision.warband, offer.warband
    roster.ledger_record(
        warband=owner,
        amount=-value,
        reason="ransom",
        description=_("Ransom paid for %(name)s") % {"name": captive.name},
        source=decision,
    )
    roster.ledger_record(
        warband=captor,
        amount=value,
        reason="ransom",
        description=_("Ransom received for %(name)s") % {"name": captive.name},
        source=decision,
    )
    roster.fighter_set_status(fighter=captive, status="active", source=decision)
    return False


def _answer_rare_item(decision: PendingDecision, choice: Any) -> bool:
    if choice in (None, ""):
        return True
    if choice not in decision.options:
        raise ValidationError({"choice": _("That item was not found.")})
    equipment = Equipment.objects.get(slug=choice)
    price = decision.payload.get("prices", {}).get(choice)
    try:  # for the hero who found it, when his list allows it…
        with transaction.atomic():
            roster.equipment_buy(
                warband=decision.warband,
                equipment=equipment,
                fighter=decision.fighter,
                rare_found=True,
                price=price,
            )
    except ValidationError:  # …or into the stash, for whoever may carry it
        roster.equipment_buy(
            warband=decision.warband, equipment=equipment, rare_found=True, price=price
        )
    return False


# --- nightly standings -----------------------------------------------------------------------


def standings_recompute_all() -> int:
    """Store today's standings of every running (or just finished) campaign; returns the count."""
    from dataclasses import asdict

    from .models import Campaign, StandingsSnapshot
    from .services import standings_compute

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
