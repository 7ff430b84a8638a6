"""Campaigns (leagues), their members and rounds."""

from __future__ import annotations

from django.conf import settings
from django.core.validators import MinValueValidator
from django.db import models
from django.urls import reverse
from django.utils.translation import gettext_lazy as _
from simple_history.models import HistoricalRecords

from battles.campaigns.presets import DEFAULT_PRESET, PRESET_CHOICES
from battles.campaigns.standings import DEFAULT_TIE_BREAKERS, TIE_BREAKER_CHOICES
from rules.engine.campaign_tables import CAMPAIGN_TABLES as CAMPAIGN_TABLES  # re-exported
from warbands.limits import DESCRIPTION_MAX_LENGTH, TextBounds


def default_tie_breakers() -> list[str]:
    return list(DEFAULT_TIE_BREAKERS)


class Campaign(TextBounds, models.Model):
    """A league. Its house rules, scoring and optional rules are the settings declared in
    ``battles.campaigns.league_settings``, one column each (a test keeps them in step)."""

    class State(models.TextChoices):
        DRAFT = "draft", _("Draft")
        OPEN = "open", _("Open for joining")
        RUNNING = "running", _("Running")
        FINISHED = "finished", _("Finished")

    name = models.CharField(_("name"), max_length=120)
    slug = models.SlugField(_("slug"), max_length=140, unique=True)
    description = models.TextField(_("description"), max_length=DESCRIPTION_MAX_LENGTH, blank=True)
    state = models.CharField(
        _("state"), max_length=10, choices=State.choices, default=State.DRAFT, db_index=True
    )
    archived = models.BooleanField(_("archived"), default=False)
    public = models.BooleanField(
        _("public standings"),
        default=False,
        help_text=_("Anyone may read the campaign page and its standings once it is open."),
    )
    join_code = models.CharField(_("join code"), max_length=12, unique=True)
    preset = models.CharField(
        _("size preset"), max_length=20, choices=PRESET_CHOICES, default=DEFAULT_PRESET
    )
    starting_treasury = models.PositiveIntegerField(_("starting treasury (co)"), default=500)
    rating_cap = models.PositiveIntegerField(
        _("warband rating cap"), null=True, blank=True, help_text=_("Empty: no cap.")
    )
    allowed_warband_types = models.ManyToManyField(
        "warbands.WarbandType",
        verbose_name=_("allowed warband types"),
        blank=True,
        related_name="+",
        help_text=_("None selected: every warband type may join."),
    )
    # The content the league plays with: a published version of a pack (``warbands.packs``);
    # empty, the default catalogue. Moved only by ``campaign_pack_move`` once the organiser
    # has seen what the move does to each warband.
    pack_version = models.ForeignKey(
        "warbands.PackVersion",
        on_delete=models.PROTECT,
        null=True,
        blank=True,
        related_name="campaigns",
        verbose_name=_("content pack version"),
    )
    max_fighter_type_copies = models.PositiveSmallIntegerField(
        _("maximum copies of one fighter type"),
        null=True,
        blank=True,
        validators=[MinValueValidator(1)],
        help_text=_("Empty: no limit."),
    )
    max_warriors = models.PositiveSmallIntegerField(
        _("maximum warriors in a warband"),
        null=True,
        blank=True,
        validators=[MinValueValidator(1)],
        help_text=_("Empty: no limit."),
    )
    points_win = models.SmallIntegerField(_("points for a win"), default=3)
    points_draw = models.SmallIntegerField(_("points for a draw"), default=1)
    points_loss = models.SmallIntegerField(_("points for a loss"), default=0)
    points_bye = models.SmallIntegerField(_("points for a bye"), default=3)
    points_per_out_of_action = models.SmallIntegerField(
        _("bonus points per enemy put out of action"), default=0
    )
    points_per_objective = models.SmallIntegerField(
        _("bonus points per scenario objective"), default=0
    )
    tie_breakers = models.JSONField(
        _("tie-breakers"),
        default=default_tie_breakers,
        blank=True,
        help_text=_(
            "In order; each separates the warbands still level on points and on the ones before."
        ),
    )
    optional_rules = models.JSONField(_("optional rules"), default=list, blank=True)
    tables = models.JSONField(
        _("campaign table overrides"),
        default=dict,
        blank=True,
        help_text=_("Empty: the default campaign tables."),
    )
    hired_swords_forbidden = models.JSONField(
        _("hired swords forbidden"),
        default=list,
        blank=True,
        help_text=_('Slugs of the hired swords this campaign forbids, or "all".'),
    )
    warbands_in_other_campaigns = models.BooleanField(
        _("warbands may also play in another running campaign"),
        default=False,
        help_text=_("Off: a warband playing in a running campaign cannot join this one."),
    )
    table_size = models.CharField(_("table size"), max_length=40, blank=True)
    game_length = models.CharField(_("game length"), max_length=40, blank=True)
    created_by = models.ForeignKey(
        settings.AUTH_USER_MODEL,
        verbose_name=_("created by"),
        on_delete=models.PROTECT,
        related_name="+",
    )
    created_at = models.DateTimeField(_("created at"), auto_now_add=True)
    updated_at = models.DateTimeField(_("updated at"), auto_now=True)
    history = HistoricalRecords(excluded_fields=["updated_at"], m2m_fields=[allowed_warband_types])

    class Meta:
        ordering = ["-created_at", "-id"]
        verbose_name = _("campaign")
        verbose_name_plural = _("campaigns")

    def __str__(self) -> str:
        return self.name

    def get_absolute_url(self) -> str:
        return reverse("campaign-detail", kwargs={"slug": self.slug})

    @property
    def is_active(self) -> bool:
        """Its house rules bind its warbands: open or running, and not archived."""
        return self.state in (self.State.OPEN, self.State.RUNNING) and not self.archived

    def tie_breaker_labels(self) -> list[str]:
        labels = dict(TIE_BREAKER_CHOICES)
        return [str(labels[name]) for name in self.tie_breakers or () if name in labels]


class Membership(models.Model):
    class Role(models.TextChoices):
        ORGANISER = "organiser", _("Organiser")
        PLAYER = "player", _("Player")

    campaign = models.ForeignKey(
        Campaign, verbose_name=_("campaign"), on_delete=models.CASCADE, related_name="memberships"
    )
    user = models.ForeignKey(
        settings.AUTH_USER_MODEL,
        verbose_name=_("user"),
        on_delete=models.CASCADE,
        related_name="campaign_memberships",
    )
    role = models.CharField(_("role"), max_length=10, choices=Role.choices, default=Role.PLAYER)
    warband = models.ForeignKey(
        "warbands.Warband",
        verbose_name=_("banda"),
        on_delete=models.PROTECT,
        null=True,
        blank=True,
        related_name="campaign_memberships",
    )
    active = models.BooleanField(
        _("active"), default=True, help_text=_("Withdrawn members keep their past battles.")
    )
    joined_at = models.DateTimeField(_("joined at"), auto_now_add=True)

    class Meta:
        ordering = ["campaign_id", "role", "joined_at", "id"]
        verbose_name = _("membership")
        verbose_name_plural = _("memberships")
        constraints = [
            models.UniqueConstraint(fields=["campaign", "user"], name="membership_one_per_user"),
            models.UniqueConstraint(
                fields=["campaign", "warband"], name="membership_one_per_warband"
            ),
        ]

    def __str__(self) -> str:
        return f"{self.user} · {self.get_role_display()} · {self.campaign}"

    @property
    def is_organiser(self) -> bool:
        return self.role == self.Role.ORGANISER


class Round(models.Model):
    class Status(models.TextChoices):
        OPEN = "open", _("Open")
        CLOSED = "closed", _("Closed")

    class Method(models.TextChoices):
        SWISS = "swiss", _("Swiss (by standings, no rematches)")
        RATING = "rating", _("Nearest warband rating")
        MANUAL = "manual", _("By hand")

    campaign = models.ForeignKey(
        Campaign, verbose_name=_("campaign"), on_delete=models.CASCADE, related_name="rounds"
    )
    number = models.PositiveSmallIntegerField(_("number"))
    status = models.CharField(
        _("status"), max_length=10, choices=Status.choices, default=Status.OPEN
    )
    pairing_method = models.CharField(
        _("pairing method"), max_length=10, choices=Method.choices, default=Method.MANUAL
    )
    opened_at = models.DateTimeField(_("opened at"), auto_now_add=True)
    closed_at = models.DateTimeField(_("closed at"), null=True, blank=True)
    starts_on = models.DateField(_("starts on"), null=True, blank=True)
    closes_at = models.DateTimeField(
        _("deadline"), null=True, blank=True, help_text=_("Battles must be reported by then.")
    )

    class Meta:
        ordering = ["campaign_id", "number"]
        verbose_name = _("round")
        verbose_name_plural = _("rounds")
        constraints = [
            models.UniqueConstraint(fields=["campaign", "number"], name="round_number_unique")
        ]

    def __str__(self) -> str:
        return _("%(campaign)s · round %(number)s") % {
            "campaign": self.campaign,
            "number": self.number,
        }
