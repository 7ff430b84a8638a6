"""Battle day: who fights (the setup) and the append-only log written at the table."""

from __future__ import annotations

import uuid

from django.conf import settings
from django.db import models
from django.utils.translation import gettext_lazy as _

from .battle import Battle


class BattleSetup(models.Model):
    """The warriors who start the battle, the scenario, the rout thresholds and the underdog
    bonus, as chosen before the first turn (the same data is the log's ``setup`` entry)."""

    battle = models.OneToOneField(
        Battle, verbose_name=_("battle"), on_delete=models.CASCADE, related_name="log_setup"
    )
    scenario = models.CharField(_("scenario"), max_length=120, blank=True)
    attacker = models.ForeignKey(
        "warbands.Warband",
        verbose_name=_("attacker"),
        on_delete=models.PROTECT,
        null=True,
        blank=True,
        related_name="+",
    )
    data = models.JSONField(_("setup"))
    created_by = models.ForeignKey(
        settings.AUTH_USER_MODEL,
        verbose_name=_("set up by"),
        on_delete=models.SET_NULL,
        null=True,
        related_name="+",
    )
    created_at = models.DateTimeField(_("created at"), auto_now_add=True)
    state = models.JSONField(
        _("folded state"),
        null=True,
        blank=True,
        help_text=_("The log folded up to state_seq (the engine's snapshot); empty: fold it."),
    )
    state_seq = models.PositiveIntegerField(_("state folded up to entry"), default=0)

    class Meta:
        verbose_name = _("battle setup")
        verbose_name_plural = _("battle setups")

    def __str__(self) -> str:
        return str(self.battle)


class BattleLineup(models.Model):
    """Who one warband fields in a battle, chosen before it starts by that warband's player (or
    an organiser). The setup takes each side's lineup; a side without one fields everyone who
    may fight."""

    battle = models.ForeignKey(
        Battle, verbose_name=_("battle"), on_delete=models.CASCADE, related_name="lineups"
    )
    warband = models.ForeignKey(
        "warbands.Warband", verbose_name=_("warband"), on_delete=models.CASCADE, related_name="+"
    )
    fighters = models.JSONField(_("fighters"), default=list)
    chosen_by = models.ForeignKey(
        settings.AUTH_USER_MODEL,
        verbose_name=_("chosen by"),
        on_delete=models.SET_NULL,
        null=True,
        related_name="+",
    )
    updated_at = models.DateTimeField(_("updated at"), auto_now=True)

    class Meta:
        verbose_name = _("battle lineup")
        verbose_name_plural = _("battle lineups")
        constraints = [
            models.UniqueConstraint(fields=["battle", "warband"], name="battle_lineup_once"),
        ]

    def __str__(self) -> str:
        return f"{self.battle} · {self.warband_id}"


class BattleLogEntry(models.Model):
    """One entry of a battle's log. Never edited or deleted: a correction is a new entry that
    points at the one it corrects. ``client_id`` makes a replayed entry return the original."""

    class Kind(models.TextChoices):
        SETUP = "setup", _("Setup")
        TURN = "turn", _("Turn")
        STATUS = "status", _("Status")
        CHECK = "check", _("Check")
        CHARGE = "charge", _("Charge")
        CLOSE_COMBAT = "close-combat", _("Close-combat phase")
        HITS = "hits", _("Automatic hits")
        DISENGAGE = "disengage", _("Leaves a combat")
        ATTACK = "attack", _("Attack")
        CHALLENGE = "challenge", _("Challenge")
        ROUT = "rout", _("Rout")
        FINISH = "finish", _("Finish")
        NOTE = "note", _("Note")
        CORRECTION = "correction", _("Correction")

    battle = models.ForeignKey(
        Battle, verbose_name=_("battle"), on_delete=models.CASCADE, related_name="log_entries"
    )
    seq = models.PositiveIntegerField(_("number"))
    kind = models.CharField(_("kind"), max_length=12, choices=Kind.choices)
    payload = models.JSONField(_("payload"), default=dict)
    author = models.ForeignKey(
        settings.AUTH_USER_MODEL,
        verbose_name=_("author"),
        on_delete=models.SET_NULL,
        null=True,
        related_name="+",
    )
    created = models.DateTimeField(_("created"), auto_now_add=True)
    client_id = models.UUIDField(_("client id"), default=uuid.uuid4)
    dice = models.JSONField(_("dice"), null=True, blank=True)

    class Meta:
        ordering = ["battle_id", "seq"]
        verbose_name = _("battle log entry")
        verbose_name_plural = _("battle log entries")
        constraints = [
            models.UniqueConstraint(fields=["battle", "seq"], name="battlelog_seq_once"),
            models.UniqueConstraint(fields=["battle", "client_id"], name="battlelog_client_once"),
        ]

    def __str__(self) -> str:
        return f"{self.battle} · #{self.seq} {self.kind}"

    def as_fold_item(self) -> dict:
        return {"seq": self.seq, "kind": self.kind, "payload": self.payload}
