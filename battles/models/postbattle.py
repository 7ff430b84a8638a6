"""Post-battle resolution: one run per battle, one result per warband, pending decisions, jobs.

Idempotency lives in the data: a ``PostBattleRun`` is created (with its dice seed) and committed
before anything is rolled; applying it happens in one transaction under a row lock on the run and
flips it to ``applied``; ``PostBattleResult`` is unique per (run, warband). A retried or repeated
task finds the run applied and does nothing; a worker killed halfway leaves nothing behind (the
transaction rolls back) and the retry rolls the same dice from the stored seed.

A pending run also carries a heartbeat (set when it is sent to the workers and while a worker
works through it), so the sweeper can tell a lost task from a busy one and send it again.
"""

from __future__ import annotations

from django.conf import settings
from django.db import models
from django.utils.functional import Promise
from django.utils.translation import get_language, override
from django.utils.translation import gettext_lazy as _

from .battle import Battle
from .campaign import Campaign, Round


def in_every_language(text) -> dict[str, str] | str:
    """A lazy (translatable) text worded in every language of the site, to be read later in
    the reader's (``in_reader_language``); a plain text as it is."""
    if isinstance(text, Promise):
        texts = {}
        for language, _name in settings.LANGUAGES:
            with override(language):
                texts[language] = str(text)
        return texts
    return str(text)


def in_reader_language(text) -> str:
    """A reason kept in every language of the site (``{"es": …, "en": …}``) in the reader's;
    a plain text (older rows, a worker's own error) as it is."""
    if isinstance(text, dict):
        language = (get_language() or settings.LANGUAGE_CODE).split("-")[0]
        return (
            text.get(language) or text.get(settings.LANGUAGE_CODE) or next(iter(text.values()), "")
        )
    return text or ""


class Job(models.Model):
    """A batch run: resolving a round (one task per battle) or a single battle, or recomputing
    a campaign's standings after its scoring changed."""

    class Kind(models.TextChoices):
        ROUND = "resolve_round", _("Resolve a round")
        BATTLE = "resolve_battle", _("Resolve a battle")
        STANDINGS = "standings", _("Recompute the standings")

    class Status(models.TextChoices):
        QUEUED = "queued", _("Queued")
        RUNNING = "running", _("Running")
        SUCCEEDED = "succeeded", _("Succeeded")
        PARTIAL = "partial", _("Finished with errors")
        FAILED = "failed", _("Failed")

    ACTIVE = (Status.QUEUED, Status.RUNNING)

    kind = models.CharField(_("kind"), max_length=20, choices=Kind.choices)
    campaign = models.ForeignKey(
        Campaign, on_delete=models.CASCADE, related_name="jobs", verbose_name=_("campaign")
    )
    round = models.ForeignKey(
        Round, on_delete=models.CASCADE, null=True, blank=True, related_name="jobs"
    )
    battle = models.ForeignKey(
        Battle, on_delete=models.CASCADE, null=True, blank=True, related_name="jobs"
    )
    status = models.CharField(
        _("status"), max_length=10, choices=Status.choices, default=Status.QUEUED, db_index=True
    )
    total = models.PositiveIntegerField(_("battles"), default=0)
    done = models.PositiveIntegerField(_("resolved"), default=0)
    failed = models.PositiveIntegerField(_("failed"), default=0)
    errors = models.JSONField(_("errors per battle"), default=dict, blank=True)
    created_by = models.ForeignKey(
        settings.AUTH_USER_MODEL, on_delete=models.SET_NULL, null=True, blank=True, related_name="+"
    )
    created_at = models.DateTimeField(_("created"), auto_now_add=True)
    started_at = models.DateTimeField(_("started"), null=True, blank=True)
    finished_at = models.DateTimeField(_("finished"), null=True, blank=True)
    # A standings job's own sign of life (a post-battle job's are its runs' heartbeats).
    heartbeat_at = models.DateTimeField(
        _("last sign of life"),
        null=True,
        blank=True,
        help_text=_(
            "When a standings job was last sent to the workers; one still queued after too "
            "long is sent again."
        ),
    )

    class Meta:
        ordering = ["-created_at", "-pk"]
        verbose_name = _("job")
        verbose_name_plural = _("jobs")
        constraints = [
            # Two submissions of the same round at the same moment start one job.
            models.UniqueConstraint(
                fields=["round"],
                condition=models.Q(status__in=["queued", "running"], round__isnull=False),
                name="one_active_job_per_round",
            ),
            models.UniqueConstraint(
                fields=["battle"],
                condition=models.Q(status__in=["queued", "running"], battle__isnull=False),
                name="one_active_job_per_battle",
            ),
        ]

    def __str__(self) -> str:
        return f"{self.get_kind_display()} #{self.pk}"

    @property
    def error_texts(self) -> dict[str, str]:
        """The failures, by battle (or ``standings``), in the reader's language."""
        return {key: in_reader_language(value) for key, value in (self.errors or {}).items()}

    @property
    def is_active(self) -> bool:
        return self.status in self.ACTIVE

    @property
    def percent(self) -> int:
        return 100 if not self.total else int(100 * (self.done + self.failed) / self.total)


class PostBattleRun(models.Model):
    """The post-battle sequence of one battle: its seed (or the faces typed at the table)."""

    class Status(models.TextChoices):
        PENDING = "pending", _("Pending")
        APPLIED = "applied", _("Applied")
        FAILED = "failed", _("Failed")
        REVERTED = "reverted", _("Reverted")

    battle = models.ForeignKey(
        Battle, on_delete=models.CASCADE, related_name="postbattle_runs", verbose_name=_("battle")
    )
    job = models.ForeignKey(
        Job, on_delete=models.SET_NULL, null=True, blank=True, related_name="runs"
    )
    seed = models.BigIntegerField(_("dice seed"))
    faces = models.JSONField(
        _("dice rolled at the table"),
        default=dict,
        blank=True,
        help_text=_("Per warband id: the faces to use instead of the seed's."),
    )
    faces_typed_by = models.ForeignKey(
        settings.AUTH_USER_MODEL,
        on_delete=models.SET_NULL,
        null=True,
        blank=True,
        related_name="+",
        verbose_name=_("dice typed by"),
    )
    faces_typed_by_player = models.BooleanField(
        _("dice typed by a player of this battle"),
        default=False,
        help_text=_("An organiser typed the dice of a battle he plays in: shown on the results."),
    )
    options = models.JSONField(_("options"), default=dict, blank=True)
    status = models.CharField(
        _("status"), max_length=10, choices=Status.choices, default=Status.PENDING, db_index=True
    )
    error = models.TextField(_("error"), blank=True)
    error_texts = models.JSONField(
        _("error in each language"),
        default=dict,
        blank=True,
        help_text=_("Why the run failed, in every language of the site (shown in the reader's)."),
    )
    attempts = models.PositiveSmallIntegerField(_("attempts"), default=0)
    created_at = models.DateTimeField(auto_now_add=True)
    started_at = models.DateTimeField(
        _("started"), null=True, blank=True, help_text=_("When a worker last took it up.")
    )
    heartbeat_at = models.DateTimeField(
        _("last sign of life"),
        null=True,
        blank=True,
        help_text=_(
            "When it was last sent to the workers or last worked on; a pending run silent for "
            "too long is sent again."
        ),
    )
    applied_at = models.DateTimeField(null=True, blank=True)
    reverted_at = models.DateTimeField(null=True, blank=True)

    class Meta:
        ordering = ["pk"]
        verbose_name = _("post-battle run")
        verbose_name_plural = _("post-battle runs")
        constraints = [
            # At most one live (not reverted) run per battle.
            models.UniqueConstraint(
                fields=["battle"],
                condition=~models.Q(status="reverted"),
                name="one_live_postbattle_run_per_battle",
            )
        ]

    def __str__(self) -> str:
        return f"{self.battle} · {self.get_status_display()}"

    @property
    def error_text(self) -> str:
        """Why it failed, in the reader's language."""
        return in_reader_language(self.error_texts or self.error)


class PostBattleResult(models.Model):
    """What the sequence did to one warband: every step with its dice, and how to undo it."""

    run = models.ForeignKey(PostBattleRun, on_delete=models.CASCADE, related_name="results")
    warband = models.ForeignKey(
        "warbands.Warband", on_delete=models.CASCADE, related_name="postbattle_results"
    )
    steps = models.JSONField(_("steps"), default=list)
    rolls = models.JSONField(_("dice record"), default=list)
    experience_gained = models.PositiveIntegerField(_("experience gained"), default=0)
    finds_found = models.PositiveIntegerField(_("finds"), default=0)
    gold_gained = models.IntegerField(_("gold (co)"), default=0)
    snapshot_before = models.JSONField(_("roster before"), default=dict)
    version_after = models.PositiveIntegerField(_("warband version after"), default=0)
    created_at = models.DateTimeField(auto_now_add=True)

    class Meta:
        ordering = ["pk"]
        verbose_name = _("post-battle result")
        verbose_name_plural = _("post-battle results")
        constraints = [
            models.UniqueConstraint(fields=["run", "warband"], name="one_result_per_warband")
        ]

    def __str__(self) -> str:
        return f"{self.warband} · {self.run.battle}"


class PendingDecision(models.Model):
    """A choice the sequence left to the owner (or to a captor): an advance, a skill, a captive."""

    class Kind(models.TextChoices):
        CHARACTERISTIC = "characteristic", _("Choose a characteristic")
        SKILL = "skill", _("Choose a new skill")
        LADS_GOT_TALENT = "lads_got_talent", _("The lad's got talent")
        CAPTIVE = "captive", _("A captive")
        RARE_ITEM = "rare_item", _("Rare item found")
        UPKEEP = "upkeep", _("Hired sword's upkeep")

    class Status(models.TextChoices):
        OPEN = "open", _("Open")
        ANSWERED = "answered", _("Answered")
        DECLINED = "declined", _("Declined")
        CANCELLED = "cancelled", _("Cancelled")

    result = models.ForeignKey(PostBattleResult, on_delete=models.CASCADE, related_name="decisions")
    warband = models.ForeignKey(
        "warbands.Warband",
        on_delete=models.CASCADE,
        related_name="pending_decisions",
        help_text=_("Who decides (the captor, for a captive)."),
    )
    fighter = models.ForeignKey(
        "warbands.Fighter", on_delete=models.CASCADE, null=True, blank=True, related_name="+"
    )
    group = models.ForeignKey(
        "warbands.HenchmanGroup", on_delete=models.CASCADE, null=True, blank=True, related_name="+"
    )
    kind = models.CharField(_("kind"), max_length=20, choices=Kind.choices)
    options = models.JSONField(_("options"), default=list)
    payload = models.JSONField(_("details"), default=dict, blank=True)
    choice = models.JSONField(_("choice"), null=True, blank=True)
    status = models.CharField(
        _("status"), max_length=10, choices=Status.choices, default=Status.OPEN, db_index=True
    )
    answered_at = models.DateTimeField(null=True, blank=True)
    created_at = models.DateTimeField(auto_now_add=True)

    class Meta:
        ordering = ["pk"]
        verbose_name = _("pending decision")
        verbose_name_plural = _("pending decisions")

    def __str__(self) -> str:
        return f"{self.get_kind_display()} · {self.warband}"


class StandingsSnapshot(models.Model):
    """The standings as recomputed by the nightly job (the pages compute live; this keeps the
    table of each night for history and for readers that must not compute)."""

    campaign = models.ForeignKey(Campaign, on_delete=models.CASCADE, related_name="snapshots")
    day = models.DateField(_("day"))
    rows = models.JSONField(_("rows"), default=list)
    computed_at = models.DateTimeField(_("computed at"), auto_now=True)

    class Meta:
        ordering = ["-day", "campaign"]
        verbose_name = _("standings snapshot")
        verbose_name_plural = _("standings snapshots")
        constraints = [
            models.UniqueConstraint(fields=["campaign", "day"], name="one_snapshot_per_day")
        ]

    def __str__(self) -> str:
        return f"{self.campaign} · {self.day}"
