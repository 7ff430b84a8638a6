"""Throttles: writes per user (or address), and a stricter one for authentication.

Each throttle that looks at a request notes its budget on it (``note_budget``);
``RateLimitHeadersMiddleware`` answers the tightest as ``X-RateLimit-Limit``, ``-Remaining`` and
``-Reset`` (seconds until the window frees a request), on every API answer. A read by a logged-in
user spends nothing: it shows his write budget. Addresses are the client's own: the
``X-Forwarded-For`` entry the configured number of proxies put there (``NUM_PROXIES`` =
``TRUSTED_PROXY_COUNT``, as the login limits), never one the client wrote.
"""

from __future__ import annotations

import math

from django.conf import settings
from django.utils.translation import gettext_lazy as _
from rest_framework.exceptions import Throttled
from rest_framework.throttling import AnonRateThrottle as BaseAnonRateThrottle
from rest_framework.throttling import ScopedRateThrottle, SimpleRateThrottle

SAFE_METHODS = {"GET", "HEAD", "OPTIONS"}


def _login_window_seconds() -> int:
    """The longest window of the failed-login limits (``"10/m/ip,5/5m/key"`` → 300)."""
    units = {"s": 1, "m": 60, "h": 3600, "d": 86400}
    longest = 60
    limits = getattr(settings, "ACCOUNT_RATE_LIMITS", {}).get("login_failed") or ""
    for rule in str(limits).split(","):
        parts = rule.strip().split("/")
        if len(parts) >= 2 and parts[1]:
            count = parts[1][:-1] or "1"
            unit = parts[1][-1]
            if count.isdigit() and unit in units:
                longest = max(longest, int(count) * units[unit])
    return longest


LOGIN_RETRY_AFTER = _login_window_seconds()


def login_throttled() -> Throttled:
    """The 429 past the failed-login limits, with Retry-After (the limits' longest window)."""
    error = Throttled(detail=str(_("Too many failed logins. Wait a few minutes and try again.")))
    error.wait = LOGIN_RETRY_AFTER  # set after: DRF would append "Expected available in…"
    return error


class BudgetMixin:
    """Notes ``(limit, remaining, reset)`` on the Django request for the headers."""

    def note_budget(self, request) -> None:
        """After ``allow_request``: ``self.history`` holds the window's requests (this one
        included when it was allowed), newest first."""
        if getattr(self, "key", None) is None:
            return
        history = self.history
        remaining = max(self.num_requests - len(history), 0)
        reset = 0
        if history:
            reset = max(math.ceil(self.duration - (self.timer() - history[-1])), 0)
        budget = (self.num_requests, remaining, reset)
        raw = getattr(request, "_request", request)
        noted = getattr(raw, "_ratelimit", None)
        if noted is None or budget[1] < noted[1]:
            raw._ratelimit = budget

    def allow_request(self, request, view):
        allowed = super().allow_request(request, view)
        if self.rate is not None:
            self.note_budget(request)
        return allowed


class WriteRateThrottle(BudgetMixin, SimpleRateThrottle):
    """Limits unsafe requests (POST, PUT, PATCH, DELETE); reads are not counted here (their
    answer shows the write budget)."""

    scope = "writes"

    def allow_request(self, request, view):
        if request.method in SAFE_METHODS:
            if self.rate is None:
                return True
            self.key = self.get_cache_key(request, view)
            self.history = self.cache.get(self.key, []) if self.key else []
            now = self.timer()
            self.history = [t for t in self.history if t > now - self.duration]
            self.note_budget(request)
            return True
        return super().allow_request(request, view)

    def get_cache_key(self, request, view):
        if request.user and request.user.is_authenticated:
            ident = request.user.pk
        else:
            ident = self.get_ident(request)
        return self.cache_format % {"scope": self.scope, "ident": ident}


class AnonRateThrottle(BudgetMixin, BaseAnonRateThrottle):
    pass


class AuthRateThrottle(BudgetMixin, ScopedRateThrottle):
    scope_attr = "throttle_scope"


HEADERS = ("X-RateLimit-Limit", "X-RateLimit-Remaining", "X-RateLimit-Reset")


class RateLimitHeadersMiddleware:
    """The tightest budget a throttle noted, as headers on the answer."""

    def __init__(self, get_response):
        self.get_response = get_response

    def __call__(self, request):
        response = self.get_response(request)
        budget = getattr(request, "_ratelimit", None)
        if budget is not None:
            for header, value in zip(HEADERS, budget, strict=True):
                response[header] = str(value)
        return response
