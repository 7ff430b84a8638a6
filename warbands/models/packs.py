"""An organiser's content pack in versions: a draft edited from the site, published versions
that never change (``warbands.packs``)."""

from django.conf import settings
from django.core.exceptions import ValidationError
from django.db import models
from django.utils.translation import gettext_lazy as _

from .catalogue import ContentPack


class PackVersion(models.Model):
    class State(models.TextChoices):
        DRAFT = "draft", _("draft")
        PUBLISHED = "published", _("published")

    pack = models.ForeignKey(
        ContentPack, on_delete=models.CASCADE, related_name="versions", verbose_name=_("pack")
    )
    number = models.PositiveIntegerField(_("number"))
    state = models.CharField(_("state"), max_length=10, choices=State.choices, default=State.DRAFT)
    # The pack as one document in the format of ``warbands/content/`` (checked by
    # ``warbands.packs.document.document_check`` before it is stored).
    document = models.JSONField(_("document"), default=dict, blank=True)
    created_by = models.ForeignKey(
        settings.AUTH_USER_MODEL,
        on_delete=models.SET_NULL,
        null=True,
        blank=True,
        related_name="+",
        verbose_name=_("created by"),
    )
    created_at = models.DateTimeField(_("created"), auto_now_add=True)
    published_at = models.DateTimeField(_("published"), null=True, blank=True)

    class Meta:
        verbose_name = _("pack version")
        verbose_name_plural = _("pack versions")
        ordering = ["pack_id", "-number"]
        constraints = [
            models.UniqueConstraint(fields=["pack", "number"], name="pack_version_number_unique"),
            models.UniqueConstraint(
                fields=["pack"],
                condition=models.Q(state="draft"),
                name="pack_version_one_draft",
            ),
        ]

    def __str__(self) -> str:
        return f"{self.pack.name} v{self.number}"

    def save(self, *args, **kwargs):
        if self.pk and not kwargs.get("force_insert"):
            stored = PackVersion.objects.filter(pk=self.pk).values_list("state", flat=True).first()
            if stored == self.State.PUBLISHED:
                raise ValidationError(_("A published version never changes."))
        super().save(*args, **kwargs)

    @property
    def is_published(self) -> bool:
        return self.state == self.State.PUBLISHED
