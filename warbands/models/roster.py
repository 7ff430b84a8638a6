"""Rosters: warbands, their fighters and henchman groups, equipment and the ledger."""

import secrets

from django.conf import settings
from django.contrib.contenttypes.fields import GenericForeignKey
from django.contrib.contenttypes.models import ContentType
from django.db import models
from django.utils.translation import gettext_lazy as _

from ..ledger_texts import ledger_text
from ..limits import NAME_MAX_LENGTH, NOTES_MAX_LENGTH, TextBounds
from .catalogue import Equipment, FighterType, HiredSword, Profile, Skill, WarbandType


def new_share_token() -> str:
    return secrets.token_urlsafe(16)


class Warband(TextBounds, models.Model):
    owner = models.ForeignKey(
        settings.AUTH_USER_MODEL,
        on_delete=models.CASCADE,
        related_name="warbands",
        verbose_name=_("owner"),
    )
    warband_type = models.ForeignKey(
        WarbandType, on_delete=models.PROTECT, related_name="warbands", verbose_name=_("type")
    )
    name = models.CharField(_("name"), max_length=NAME_MAX_LENGTH)
    treasury = models.IntegerField(
        _("treasury (co)"), default=0, help_text=_("Always the sum of the ledger.")
    )
    finds = models.IntegerField(_("finds"), default=0, help_text=_("Also kept by the ledger."))
    rating = models.PositiveIntegerField(_("rating"), default=0)
    version = models.PositiveIntegerField(
        _("version"), default=1, help_text=_("Bumped on every write (optimistic concurrency).")
    )
    notes = models.TextField(_("notes"), max_length=NOTES_MAX_LENGTH, blank=True)
    imported = models.BooleanField(
        _("imported from a file"),
        default=False,
        help_text=_("Built from an export file, not under this site's ledger: no campaign play."),
    )
    # Sharing is the owner's choice: no token, no share link (the default). Turning it on gives
    # a new token, rotating replaces it (the old link stops working), turning it off drops it.
    share_token = models.CharField(
        _("share token"), max_length=32, unique=True, null=True, blank=True, editable=False
    )
    share_notes = models.BooleanField(
        _("notes on the shared copy"),
        default=False,
        help_text=_("The shared copy shows the warband's notes (private unless you say so)."),
    )
    created_at = models.DateTimeField(_("created"), auto_now_add=True)
    updated_at = models.DateTimeField(_("updated"), auto_now=True)

    class Meta:
        verbose_name = _("warband")
        verbose_name_plural = _("warbands")
        ordering = ["name", "pk"]
        constraints = [
            models.CheckConstraint(
                condition=models.Q(treasury__gte=0), name="warband_treasury_not_negative"
            ),
            models.CheckConstraint(
                condition=models.Q(finds__gte=0), name="warband_finds_not_negative"
            ),
        ]

    def __str__(self) -> str:
        return self.name

    @property
    def pack_version_id(self) -> int | None:
        """The pack version it was built with (none: the default catalogue)."""
        return self.warband_type.pack_version_id

    @property
    def etag(self) -> str:
        return f'"warband-{self.pk}-v{self.version}"'


class Advancing(models.Model):
    experience = models.PositiveIntegerField(_("experience"), default=0)
    advances = models.JSONField(_("advances"), default=list, blank=True)
    advances_due = models.PositiveSmallIntegerField(
        _("advances due"), default=0, help_text=_("Thresholds reached and not yet rolled.")
    )
    special_rules = models.JSONField(_("special rules"), default=list, blank=True)

    class Meta:
        abstract = True


class HenchmanGroup(TextBounds, Profile, Advancing):
    warband = models.ForeignKey(
        Warband, on_delete=models.CASCADE, related_name="groups", verbose_name=_("warband")
    )
    fighter_type = models.ForeignKey(
        FighterType, on_delete=models.PROTECT, related_name="+", verbose_name=_("fighter type")
    )
    name = models.CharField(_("name"), max_length=NAME_MAX_LENGTH)
    created_at = models.DateTimeField(_("created"), auto_now_add=True)

    class Meta:
        verbose_name = _("henchman group")
        verbose_name_plural = _("henchman groups")
        ordering = ["pk"]

    def __str__(self) -> str:
        return self.name


class Fighter(TextBounds, Profile, Advancing):
    class Status(models.TextChoices):
        ACTIVE = "active", _("active")
        MISSES_NEXT = "misses_next", _("misses next battle")
        DEAD = "dead", _("dead")
        RETIRED = "retired", _("retired")
        CAPTURED = "captured", _("captured")

    IN_ROSTER = (Status.ACTIVE, Status.MISSES_NEXT)

    warband = models.ForeignKey(
        Warband, on_delete=models.CASCADE, related_name="fighters", verbose_name=_("warband")
    )
    group = models.ForeignKey(
        HenchmanGroup,
        on_delete=models.SET_NULL,
        null=True,
        blank=True,
        related_name="members",
        verbose_name=_("henchman group"),
    )
    fighter_type = models.ForeignKey(
        FighterType, on_delete=models.PROTECT, related_name="+", verbose_name=_("fighter type")
    )
    name = models.CharField(_("name"), max_length=NAME_MAX_LENGTH)
    status = models.CharField(
        _("status"), max_length=12, choices=Status.choices, default=Status.ACTIVE
    )
    is_hero = models.BooleanField(_("hero"), default=False)
    is_leader = models.BooleanField(_("leader"), default=False)
    skills = models.ManyToManyField(Skill, blank=True, related_name="+", verbose_name=_("skills"))
    skill_lists = models.JSONField(
        _("extra skill lists"),
        default=list,
        blank=True,
        help_text=_("Skill list slugs beyond the type's (e.g. a promoted henchman's)."),
    )
    injuries = models.JSONField(_("injuries"), default=list, blank=True)
    misses_battles = models.PositiveSmallIntegerField(_("battles to miss"), default=0)
    hired_experience = models.PositiveIntegerField(
        _("experience when hired"),
        default=0,
        help_text=_("Advances are earned on thresholds crossed after this."),
    )
    hired_sword = models.ForeignKey(
        HiredSword,
        on_delete=models.PROTECT,
        null=True,
        blank=True,
        related_name="+",
        verbose_name=_("hired sword"),
        help_text=_("Serves for pay: upkeep after every battle; not one of the heroes."),
    )
    created_at = models.DateTimeField(_("created"), auto_now_add=True)

    class Meta:
        verbose_name = _("fighter")
        verbose_name_plural = _("fighters")
        ordering = ["-is_leader", "pk"]
        constraints = [
            models.UniqueConstraint(
                fields=["warband"],
                condition=models.Q(is_leader=True, status__in=["active", "misses_next"]),
                name="one_leader_per_warband",
            )
        ]

    def __str__(self) -> str:
        return self.name

    @property
    def in_roster(self) -> bool:
        return self.status in self.IN_ROSTER


class EquipmentItem(models.Model):
    """One item: carried by a fighter, shared by a henchman group (one per member), or in the
    warband's stash (neither)."""

    warband = models.ForeignKey(
        Warband, on_delete=models.CASCADE, related_name="equipment_items", verbose_name=_("warband")
    )
    equipment = models.ForeignKey(
        Equipment, on_delete=models.PROTECT, related_name="+", verbose_name=_("equipment")
    )
    fighter = models.ForeignKey(
        Fighter,
        on_delete=models.CASCADE,
        null=True,
        blank=True,
        related_name="equipment",
        verbose_name=_("fighter"),
    )
    group = models.ForeignKey(
        HenchmanGroup,
        on_delete=models.CASCADE,
        null=True,
        blank=True,
        related_name="equipment",
        verbose_name=_("group"),
    )
    unit_price = models.PositiveIntegerField(
        _("price paid (co)"), default=0, help_text=_("Per item (per member for a group).")
    )
    created_at = models.DateTimeField(_("created"), auto_now_add=True)

    class Meta:
        verbose_name = _("equipment item")
        verbose_name_plural = _("equipment items")
        ordering = ["pk"]
        constraints = [
            models.CheckConstraint(
                condition=~models.Q(fighter__isnull=False, group__isnull=False),
                name="equipment_item_one_holder",
            )
        ]

    def __str__(self) -> str:
        return str(self.equipment)

    @property
    def in_stash(self) -> bool:
        return self.fighter_id is None and self.group_id is None


class LedgerEntry(models.Model):
    """Append-only: every change of treasury or finds. Never updated nor deleted by services."""

    class Reason(models.TextChoices):
        STARTING_TREASURY = "starting_treasury", _("starting treasury")
        HIRE = "hire", _("hire")
        BUY = "buy", _("purchase")
        SELL = "sell", _("sale")
        DISMISS = "dismiss", _("dismissal")
        EXPLORATION = "exploration", _("exploration")
        SELL_FINDS = "sell_finds", _("sale of finds")
        INJURY = "injury", _("injury")
        RANSOM = "ransom", _("ransom")
        CAPTURE_SALE = "capture_sale", _("sale of a captive")
        PIT_FIGHT = "pit_fight", _("pit fight")
        INCOME = "income", _("income")
        IMPORT = "import", _("import")
        ADJUSTMENT = "adjustment", _("adjustment")
        REVERT = "revert", _("revert")

    warband = models.ForeignKey(
        Warband, on_delete=models.CASCADE, related_name="ledger", verbose_name=_("warband")
    )
    amount = models.IntegerField(_("amount (co)"), default=0)
    finds_delta = models.IntegerField(_("finds"), default=0)
    treasury_after = models.IntegerField(_("treasury after"))
    finds_after = models.IntegerField(_("finds after"))
    reason = models.CharField(_("reason"), max_length=20, choices=Reason.choices)
    description = models.CharField(
        _("description"),
        max_length=255,
        blank=True,
        help_text=_(
            "Free text; for a coded line, its words in the site's language (kept for search)."
        ),
    )
    description_code = models.CharField(_("description code"), max_length=40, blank=True)
    description_params = models.JSONField(_("description parameters"), default=dict, blank=True)
    source_type = models.ForeignKey(
        ContentType,
        on_delete=models.SET_NULL,
        null=True,
        blank=True,
        related_name="+",
        verbose_name=_("source type"),
    )
    source_id = models.PositiveBigIntegerField(_("source id"), null=True, blank=True)
    source = GenericForeignKey("source_type", "source_id")
    created_at = models.DateTimeField(_("created"), auto_now_add=True)

    class Meta:
        verbose_name = _("ledger entry")
        verbose_name_plural = _("ledger entries")
        ordering = ["pk"]
        indexes = [models.Index(fields=["source_type", "source_id"])]

    def __str__(self) -> str:
        return f"{self.amount:+d} co {self.get_reason_display()}"

    def save(self, *args, **kwargs):
        if self.pk is not None and not kwargs.get("force_insert"):
            raise ValueError("Ledger entries are append-only.")
        super().save(*args, **kwargs)

    def delete(self, *args, **kwargs):
        raise ValueError("Ledger entries are append-only.")

    @property
    def text(self) -> str:
        """The line in the reader's (active) language; a line written as plain text, or before
        lines had codes, shows as it was written."""
        if not self.description_code:
            return self.description
        return ledger_text(self.description_code, self.description_params)
