"""The API's own records: named tokens (one per device) and idempotency keys."""

from __future__ import annotations

import binascii
import hashlib
import os

from django.conf import settings
from django.db import models
from django.utils import timezone
from django.utils.translation import gettext_lazy as _


def _new_key() -> str:
    return binascii.hexlify(os.urandom(20)).decode()


def token_digest(key: str) -> str:
    return hashlib.sha256(key.encode()).hexdigest()


class ApiToken(models.Model):
    """A named token for one device (``Authorization: Token <key>``). Only the key's SHA-256
    is stored: the key is shown once, when the token is made."""

    user = models.ForeignKey(
        settings.AUTH_USER_MODEL, on_delete=models.CASCADE, related_name="api_tokens"
    )
    name = models.CharField(_("name"), max_length=100)
    digest = models.CharField(max_length=64, unique=True)
    prefix = models.CharField(max_length=8, help_text=_("The key's first characters."))
    created_at = models.DateTimeField(_("created at"), default=timezone.now)
    expires_at = models.DateTimeField(_("expires at"), null=True, blank=True)
    last_used_at = models.DateTimeField(_("last used at"), null=True, blank=True)

    class Meta:
        ordering = ["-created_at", "-pk"]
        verbose_name = _("API token")
        verbose_name_plural = _("API tokens")

    def __str__(self) -> str:
        return f"{self.name} ({self.prefix}…)"

    @property
    def expired(self) -> bool:
        return self.expires_at is not None and self.expires_at <= timezone.now()


class IdempotencyKey(models.Model):
    """The first answer to a write sent with ``Idempotency-Key``, kept a day: the same key and
    body again get it again; the same key with another body is a 409. ``status`` is null while
    the first request is still running."""

    user = models.ForeignKey(settings.AUTH_USER_MODEL, on_delete=models.CASCADE, related_name="+")
    key = models.CharField(max_length=255)
    fingerprint = models.CharField(max_length=64)
    status = models.PositiveSmallIntegerField(null=True)
    body = models.BinaryField(default=b"")
    headers = models.JSONField(default=dict)
    created_at = models.DateTimeField(default=timezone.now)
    expires_at = models.DateTimeField(db_index=True)

    class Meta:
        constraints = [
            models.UniqueConstraint(fields=["user", "key"], name="api_idempotency_key_per_user")
        ]

    def __str__(self) -> str:
        return self.key


__all__ = ["ApiToken", "IdempotencyKey", "_new_key", "token_digest"]
