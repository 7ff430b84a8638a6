"""The last roster change of a warband, kept so its owner can undo it (one per warband)."""

from django.db import models
from django.utils.translation import gettext_lazy as _

from .roster import Warband


class UndoPoint(models.Model):
    """What the roster was before its last change, and which version that change left.

    It can be undone while the warband is still at ``version_after`` (nothing changed since);
    undoing restores ``snapshot`` with compensating ledger entries (``warbands.services.undo``).
    """

    warband = models.OneToOneField(
        Warband,
        on_delete=models.CASCADE,
        primary_key=True,
        related_name="undo_point",
        verbose_name=_("warband"),
    )
    version_after = models.PositiveIntegerField(_("version after the change"))
    code = models.CharField(_("change"), max_length=40)
    params = models.JSONField(_("change parameters"), default=dict, blank=True)
    snapshot = models.JSONField(_("roster before the change"))
    created_at = models.DateTimeField(_("made at"), auto_now=True)

    class Meta:
        verbose_name = _("last roster change")
        verbose_name_plural = _("last roster changes")

    def __str__(self) -> str:
        return f"{self.warband_id}: {self.code} → v{self.version_after}"
