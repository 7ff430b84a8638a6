"""The failed-login lockout, with device cookies (OWASP's "Slow down online guessing attacks
with device cookies").

- Only failures count, and a login is checked against the limits *before* its password is
  hashed, without taking a slot: a correct login never uses up the limit, so any number of
  correct logins at once (a game night behind one address) are never refused because of each
  other.
- A browser without a device cookie for the name it types is an unknown device: it shares
  ``ACCOUNT_RATE_LIMITS["login_failed"]`` (per address and per login name, allauth's keys, so a
  password reset still clears the name's count).
- A browser that logged in successfully before carries a signed device cookie (the user, a
  random nonce and a digest of his password hash, so changing the password revokes it). Typing
  that user's name there, it is not held by the name's or the address's lockout — so nobody can
  lock a player out of his own phone by failing on purpose — but by a limit of its own, per
  cookie (``DEVICE_LOGIN_FAILED_RATE_LIMIT``).
- A refusal says how long to wait (``LoginLocked.retry_after``, whole seconds).

The counting reuses allauth's rate-limit store (cache keys and windows) so both agree.
"""

from __future__ import annotations

import math
import secrets
import time
from dataclasses import dataclass

from allauth.core.internal import ratelimit as rl
from django.conf import settings
from django.contrib.auth import get_user_model
from django.core import signing
from django.core.cache import cache
from django.db.models import Q
from django.http import HttpRequest, HttpResponse

APP = "allauth.account"
UNKNOWN_DEVICE_ACTION = "login_failed"
DEVICE_ACTION = "login_failed_device"
DEVICE_COOKIE = "annuminas_device"
DEVICE_SALT = "annuminas.accounts.device"
DEVICE_MAX_AGE = 180 * 24 * 3600


@dataclass(frozen=True)
class Limits:
    """Which limits hold a login attempt: the action's rates and the key they count under."""

    action: str
    rates: list
    key: str


def _device_rates() -> list:
    return rl.parse_rates(getattr(settings, "DEVICE_LOGIN_FAILED_RATE_LIMIT", "5/5m/key"))


def device_cookie_value(user) -> str:
    """A new signed device cookie for ``user`` (a fresh nonce each successful login)."""
    return signing.dumps(
        {"u": user.pk, "n": secrets.token_urlsafe(12), "h": _password_digest(user)},
        salt=DEVICE_SALT,
        compress=True,
    )


def _password_digest(user) -> str:
    return user.get_session_auth_hash()[:16]


def device_cookie_set(response: HttpResponse, user) -> None:
    response.set_cookie(
        DEVICE_COOKIE,
        device_cookie_value(user),
        max_age=DEVICE_MAX_AGE,
        secure=settings.SESSION_COOKIE_SECURE,
        httponly=True,
        samesite="Lax",
    )


def trusted_device_nonce(request: HttpRequest, login: str) -> str | None:
    """The device cookie's nonce if this browser logged in before as the user ``login`` names
    (by username or e-mail) and his password has not changed since; else None."""
    raw = request.COOKIES.get(DEVICE_COOKIE)
    if not raw or not login:
        return None
    try:
        data = signing.loads(raw, salt=DEVICE_SALT, max_age=DEVICE_MAX_AGE)
    except signing.BadSignature:
        return None
    if not isinstance(data, dict) or not {"u", "n", "h"} <= set(data):
        return None
    user = (
        get_user_model()
        .objects.filter(pk=data["u"], is_active=True)
        .filter(
            Q(username__iexact=login)
            | Q(email__iexact=login)
            | Q(emailaddress__email__iexact=login)
        )
        .first()
    )
    if user is None or not secrets.compare_digest(str(data["h"]), _password_digest(user)):
        return None
    return str(data["n"])


def limits_for(request: HttpRequest, *, login: str, name_key: str) -> Limits:
    """The device's own limit if it is trusted for ``login``, else the shared ones."""
    nonce = trusted_device_nonce(request, login)
    if nonce is not None:
        return Limits(DEVICE_ACTION, _device_rates(), f"device:{nonce}")
    rates = rl.get_rates(app=APP, action=UNKNOWN_DEVICE_ACTION)
    return Limits(UNKNOWN_DEVICE_ACTION, rates, name_key)


def _cache_key(request: HttpRequest, limits: Limits, rate) -> str:
    return rl.get_cache_key(request, app=APP, action=limits.action, rate=rate, key=limits.key)


def retry_after(request: HttpRequest, limits: Limits) -> int:
    """Seconds until an attempt is allowed again (0: allowed now). Reads, counts nothing."""
    now = time.time()
    wait = 0.0
    for rate in limits.rates:
        history = [
            t for t in cache.get(_cache_key(request, limits, rate), []) if t > now - rate.duration
        ]
        if len(history) >= rate.amount:
            history.sort(reverse=True)
            wait = max(wait, history[rate.amount - 1] + rate.duration - now)
    return math.ceil(wait) if wait > 0 else 0


def failure_count(request: HttpRequest, limits: Limits) -> None:
    """Record one failed attempt under every rate of ``limits``."""
    for rate in limits.rates:
        cache_key = _cache_key(request, limits, rate)
        with rl.cache_lock(cache_key):  # not granted in a second: counted all the same
            history = cache.get(cache_key, [])
            _allowed, history = rl.apply_rate(history, time.time(), rate)
            cache.set(cache_key, history, rate.duration)
