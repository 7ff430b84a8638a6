"""allauth's account adapter with the project's failed-login lockout (``lockout``)."""

from __future__ import annotations

from typing import Any

from allauth.account.adapter import DefaultAccountAdapter
from django.core.exceptions import ValidationError
from django.http import HttpRequest
from django.utils.translation import ngettext

from . import lockout

TOO_MANY_LOGIN_ATTEMPTS = "too_many_login_attempts"


def wait_text(seconds: int) -> str:
    """ "Try again in N minutes" (at least one), in the reader's language."""
    minutes = max(1, -(-seconds // 60))
    return ngettext(
        "Too many failed logins for this name. Try again in %(minutes)s minute, or sign in "
        "from a device you have signed in with before.",
        "Too many failed logins for this name. Try again in %(minutes)s minutes, or sign in "
        "from a device you have signed in with before.",
        minutes,
    ) % {"minutes": minutes}


class AccountAdapter(DefaultAccountAdapter):
    """Checks the lockout before the password is hashed, without using up a slot; counts only
    failures; a browser with a device cookie for the name is held by its own limit only."""

    def _limits(self, request: HttpRequest, credentials: dict[str, Any]) -> lockout.Limits:
        login = credentials.get("email", credentials.get("username", "")) or ""
        name_key = self._get_login_attempts_cache_key(request, **credentials)
        return lockout.limits_for(request, login=login, name_key=name_key)

    def pre_authenticate(self, request: HttpRequest, **credentials: Any) -> None:
        limits = self._limits(request, credentials)
        self._lockout_limits = limits
        wait = lockout.retry_after(request, limits)
        if wait:
            request.login_retry_after = wait
            raise ValidationError(wait_text(wait), code=TOO_MANY_LOGIN_ATTEMPTS)

    def authentication_failed(self, request: HttpRequest, **credentials: Any) -> None:
        limits = getattr(self, "_lockout_limits", None) or self._limits(request, credentials)
        lockout.failure_count(request, limits)
