"""Throttles: writes per user (or address), and a stricter one for authentication."""

from rest_framework.throttling import ScopedRateThrottle, SimpleRateThrottle

SAFE_METHODS = {"GET", "HEAD", "OPTIONS"}


class WriteRateThrottle(SimpleRateThrottle):
    """Limits unsafe requests (POST, PUT, PATCH, DELETE); reads are not counted here."""

    scope = "writes"

    def allow_request(self, request, view):
        if request.method in SAFE_METHODS:
            return True
        return super().allow_request(request, view)

    def get_cache_key(self, request, view):
        if request.user and request.user.is_authenticated:
            ident = request.user.pk
        else:
            ident = self.get_ident(request)
        return self.cache_format % {"scope": self.scope, "ident": ident}


class AuthRateThrottle(ScopedRateThrottle):
    scope_attr = "throttle_scope"
