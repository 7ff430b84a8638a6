"""``Authorization: Token <key>``: a named token per device (``ApiToken``), or the older one
token per user (``rest_framework.authtoken``, deprecated: see CHANGELOG.md)."""

from __future__ import annotations

from datetime import timedelta

from django.utils import timezone
from django.utils.translation import gettext_lazy as _
from rest_framework import exceptions
from rest_framework.authentication import TokenAuthentication as LegacyTokenAuthentication

from .models import ApiToken, token_digest

# last_used_at is written at most this often per token (not on every poll of the battle log).
TOUCH_EVERY = timedelta(minutes=1)


class TokenAuthentication(LegacyTokenAuthentication):
    def authenticate_credentials(self, key):
        token = ApiToken.objects.select_related("user").filter(digest=token_digest(key)).first()
        if token is None:
            return super().authenticate_credentials(key)
        if token.expired:
            raise exceptions.AuthenticationFailed(_("This token has expired."))
        if not token.user.is_active:
            raise exceptions.AuthenticationFailed(_("User inactive or deleted."))
        now = timezone.now()
        if token.last_used_at is None or now - token.last_used_at > TOUCH_EVERY:
            ApiToken.objects.filter(pk=token.pk).update(last_used_at=now)
        return token.user, token
