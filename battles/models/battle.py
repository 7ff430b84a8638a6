"""Battles of a campaign: participants, the events of the battle, and recorded corrections."""

from __future__ import annotations

from django.conf import settings
from django.core.validators import MaxValueValidator, MinValueValidator
from django.db import models
from django.urls import reverse
from django.utils.translation import gettext_lazy as _

from warbands.limits import NOTES_MAX_LENGTH, REASON_MAX_LENGTH, TextBounds

from .campaign import Campaign, Round
from .history import History

# Scenario suggestions offered in forms; the field itself is free text (house scenarios exist).
SCENARIOS = (
    _("Skirmish"),
    _("Defend the find"),
    _("Treasure hunt"),
    _("Street fight"),
    _("Chance encounter"),
    _("Breakthrough"),
    _("Hidden treasure"),
    _("Occupy"),
    _("Surprise attack"),
)


class Battle(TextBounds, models.Model):
    class Status(models.TextChoices):
        SCHEDULED = "scheduled", _("Scheduled")
        REPORTED = "reported", _("Reported")
        DISPUTED = "disputed", _("Disputed")
        CONFIRMED = "confirmed", _("Confirmed")
        RESOLVED = "resolved", _("Resolved")

    campaign = models.ForeignKey(
        Campaign, verbose_name=_("campaign"), on_delete=models.CASCADE, related_name="battles"
    )
    round = models.ForeignKey(
        Round,
        verbose_name=_("round"),
        on_delete=models.CASCADE,
        null=True,
        blank=True,
        related_name="battles",
    )
    scenario = models.CharField(_("scenario"), max_length=120, blank=True)
    status = models.CharField(
        _("status"),
        max_length=10,
        choices=Status.choices,
        default=Status.SCHEDULED,
        db_index=True,
    )
    is_bye = models.BooleanField(_("bye"), default=False)
    is_draw = models.BooleanField(_("draw"), default=False)
    notes = models.TextField(_("notes"), max_length=NOTES_MAX_LENGTH, blank=True)
    reported_by = models.ForeignKey(
        settings.AUTH_USER_MODEL,
        verbose_name=_("reported by"),
        on_delete=models.SET_NULL,
        null=True,
        blank=True,
        related_name="+",
    )
    reported_at = models.DateTimeField(_("reported at"), null=True, blank=True)
    confirmed_by = models.ForeignKey(
        settings.AUTH_USER_MODEL,
        verbose_name=_("confirmed by"),
        on_delete=models.SET_NULL,
        null=True,
        blank=True,
        related_name="+",
    )
    confirmed_at = models.DateTimeField(_("confirmed at"), null=True, blank=True)
    disputed_by = models.ForeignKey(
        settings.AUTH_USER_MODEL,
        verbose_name=_("disputed by"),
        on_delete=models.SET_NULL,
        null=True,
        blank=True,
        related_name="+",
    )
    dispute_reason = models.TextField(
        _("reason for the dispute"), max_length=REASON_MAX_LENGTH, blank=True
    )
    version = models.PositiveIntegerField(_("version"), default=1)
    created_at = models.DateTimeField(_("created at"), auto_now_add=True)
    updated_at = models.DateTimeField(_("updated at"), auto_now=True)
    history = History(excluded_fields=["updated_at"])

    class Meta:
        ordering = ["id"]
        verbose_name = _("battle")
        verbose_name_plural = _("battles")

    def __str__(self) -> str:
        return _("Battle %(id)s") % {"id": self.pk}

    def get_absolute_url(self) -> str:
        return reverse("battle-detail", kwargs={"pk": self.pk})

    @property
    def is_frozen(self) -> bool:
        """Confirmed (or resolved) reports change only through an organiser's correction."""
        return self.status in (self.Status.CONFIRMED, self.Status.RESOLVED)

    @property
    def counts_for_standings(self) -> bool:
        return self.status in (self.Status.CONFIRMED, self.Status.RESOLVED)


class BattleParticipant(models.Model):
    class Result(models.TextChoices):
        PENDING = "", _("Not reported")
        WIN = "win", _("Win")
        DRAW = "draw", _("Draw")
        LOSS = "loss", _("Loss")

    battle = models.ForeignKey(
        Battle, verbose_name=_("battle"), on_delete=models.CASCADE, related_name="participants"
    )
    warband = models.ForeignKey(
        "warbands.Warband",
        verbose_name=_("banda"),
        on_delete=models.PROTECT,
        related_name="battle_participations",
    )
    result = models.CharField(
        _("result"), max_length=4, choices=Result.choices, default=Result.PENDING, blank=True
    )
    routed = models.BooleanField(_("routed"), default=False)
    voluntary_rout = models.BooleanField(_("voluntary rout"), default=False)
    rating_at_battle = models.PositiveIntegerField(_("rating at the battle"), default=0)
    fighters = models.ManyToManyField(
        "warbands.Fighter",
        verbose_name=_("fighters who took part"),
        blank=True,
        related_name="battle_participations",
    )
    history = History()

    class Meta:
        ordering = ["id"]
        verbose_name = _("participant")
        verbose_name_plural = _("participants")
        constraints = [
            models.UniqueConstraint(
                fields=["battle", "warband"], name="participant_once_per_battle"
            )
        ]

    def __str__(self) -> str:
        return f"{self.warband} · {self.battle}"


class BattleEvent(TextBounds, models.Model):
    class Kind(models.TextChoices):
        OUT_OF_ACTION = "out_of_action", _("Put out of action (fuera de combate)")
        ROUT = "rout", _("Rout")
        OBJECTIVE = "objective", _("Scenario objective taken")
        OTHER = "other", _("Other")

    battle = models.ForeignKey(
        Battle, verbose_name=_("battle"), on_delete=models.CASCADE, related_name="events"
    )
    turn = models.PositiveSmallIntegerField(
        _("turn"), validators=[MinValueValidator(1), MaxValueValidator(99)]
    )
    kind = models.CharField(_("kind"), max_length=16, choices=Kind.choices)
    actor_warband = models.ForeignKey(
        "warbands.Warband",
        verbose_name=_("acting warband"),
        on_delete=models.PROTECT,
        null=True,
        blank=True,
        related_name="+",
    )
    actor = models.ForeignKey(
        "warbands.Fighter",
        verbose_name=_("acting fighter"),
        on_delete=models.SET_NULL,
        null=True,
        blank=True,
        related_name="+",
    )
    target_warband = models.ForeignKey(
        "warbands.Warband",
        verbose_name=_("target warband"),
        on_delete=models.PROTECT,
        null=True,
        blank=True,
        related_name="+",
    )
    target = models.ForeignKey(
        "warbands.Fighter",
        verbose_name=_("target fighter"),
        on_delete=models.SET_NULL,
        null=True,
        blank=True,
        related_name="+",
    )
    weapon = models.CharField(_("with"), max_length=80, blank=True)
    voluntary = models.BooleanField(_("voluntary"), default=False)
    notes = models.CharField(_("notes"), max_length=300, blank=True)

    class Meta:
        ordering = ["battle_id", "turn", "id"]
        verbose_name = _("battle event")
        verbose_name_plural = _("battle events")

    def __str__(self) -> str:
        return f"{self.get_kind_display()} · {self.turn}"


class BattleCorrection(TextBounds, models.Model):
    """An organiser's change to a frozen report (or settlement of a dispute), with the reason and
    the report as it was before and after."""

    battle = models.ForeignKey(
        Battle, verbose_name=_("battle"), on_delete=models.CASCADE, related_name="corrections"
    )
    by = models.ForeignKey(
        settings.AUTH_USER_MODEL,
        verbose_name=_("by"),
        on_delete=models.PROTECT,
        related_name="+",
    )
    reason = models.TextField(_("reason"), max_length=REASON_MAX_LENGTH)
    before = models.JSONField(_("before"))
    after = models.JSONField(_("after"))
    created_at = models.DateTimeField(_("at"), auto_now_add=True)

    class Meta:
        ordering = ["battle_id", "created_at", "id"]
        verbose_name = _("correction")
        verbose_name_plural = _("corrections")

    def __str__(self) -> str:
        return f"{self.battle} · {self.created_at:%Y-%m-%d %H:%M}"
