"""A Redis cache that degrades instead of failing the request when Redis is unreachable.

Everything this project keeps in the cache can be lost: rendered sheets are recomputed, throttle
and login-failure counters start again. So when Redis is down a read is a miss, a write is
dropped, and the request goes on; the failure is logged once per back-off period rather than on
every call, and for that period the cache is not even tried (a down Redis must not add a connect
timeout to each request). ``/healthz`` still reports the broker as down.

``add()`` answers True when Redis is down: the callers that use it as a lock (allauth's rate
limits) then proceed without the lock, so logins keep working (fail open) instead of being
refused as "too many attempts" until Redis is back.
"""

from __future__ import annotations

import logging
import threading
import time

from django.core.cache.backends.base import DEFAULT_TIMEOUT
from django.core.cache.backends.redis import RedisCache
from redis.exceptions import ConnectionError as RedisConnectionError
from redis.exceptions import TimeoutError as RedisTimeoutError

logger = logging.getLogger(__name__)

UNAVAILABLE = (RedisConnectionError, RedisTimeoutError, OSError)


class ResilientRedisCache(RedisCache):
    """Django's ``RedisCache``; a connection failure answers the method's "nothing" value."""

    # After a failure, Redis is not tried again for this many seconds (per cache connection:
    # Django keeps one per thread).
    retry_after = 5.0

    def __init__(self, server, params):
        options = dict(params.get("OPTIONS") or {})
        self.retry_after = float(options.pop("RETRY_AFTER", self.retry_after))
        options.setdefault("socket_connect_timeout", 1)
        options.setdefault("socket_timeout", 1)
        params = {**params, "OPTIONS": options}
        super().__init__(server, params)
        self._down_until = 0.0
        self._lock = threading.Lock()

    def _call(self, method: str, fallback, *args, **kwargs):
        if time.monotonic() < self._down_until:
            return fallback
        try:
            return getattr(super(), method)(*args, **kwargs)
        except UNAVAILABLE as exc:
            with self._lock:
                first = time.monotonic() >= self._down_until
                self._down_until = time.monotonic() + self.retry_after
            if first:
                logger.warning(
                    "cache unavailable (%s); carrying on without it for %.0f s",
                    type(exc).__name__,
                    self.retry_after,
                )
            return fallback

    def add(self, key, value, timeout=DEFAULT_TIMEOUT, version=None):
        return self._call("add", True, key, value, timeout, version)

    def get(self, key, default=None, version=None):
        return self._call("get", default, key, default, version)

    def set(self, key, value, timeout=DEFAULT_TIMEOUT, version=None):
        return self._call("set", None, key, value, timeout, version)

    def touch(self, key, timeout=DEFAULT_TIMEOUT, version=None):
        return self._call("touch", False, key, timeout, version)

    def delete(self, key, version=None):
        return self._call("delete", False, key, version)

    def get_many(self, keys, version=None):
        return self._call("get_many", {}, keys, version)

    def has_key(self, key, version=None):
        return self._call("has_key", False, key, version)

    def incr(self, key, delta=1, version=None):
        return self._call("incr", delta, key, delta, version)

    def set_many(self, data, timeout=DEFAULT_TIMEOUT, version=None):
        return self._call("set_many", list(data), data, timeout, version)

    def delete_many(self, keys, version=None):
        return self._call("delete_many", None, keys, version)

    def clear(self):
        return self._call("clear", False)
