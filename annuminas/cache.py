"""The cache: a Redis backend that degrades instead of failing the request, and keys that never
outlive the database they describe.

Everything this project keeps in the cache can be lost: rendered sheets are recomputed, throttle
and login-failure counters start again. So when Redis is down a read is a miss, a write is
dropped, and the request goes on; a circuit breaker (``annuminas.breaker``) logs the failure once
and, for a few seconds at a time, does not even try Redis (a down Redis must not add a connect
timeout to each request). ``/healthz`` still reports the broker as down.

``add()`` answers True when Redis is down: the callers that use it as a lock (allauth's rate
limits) then proceed without the lock, so logins keep working (fail open) instead of being
refused as "too many attempts" until Redis is back.

Every key carries the database's epoch (``epoch_key``, the ``KEY_FUNCTION`` of both caches): a
value that changes whenever the database is restored from a dump, or its server restarted. A
sheet is cached under its warband's version, and a restored database counts versions again from
an older number: without the epoch, the cache would serve the lost timeline's pages for the
restored one's versions.
"""

from __future__ import annotations

import logging
import os
import re
import secrets
import threading

from django.core.cache.backends.base import DEFAULT_TIMEOUT
from django.core.cache.backends.redis import RedisCache
from django.db import DEFAULT_DB_ALIAS, connections
from django.db.backends.signals import connection_created
from redis.exceptions import ConnectionError as RedisConnectionError
from redis.exceptions import TimeoutError as RedisTimeoutError

from .breaker import CircuitBreaker

logger = logging.getLogger(__name__)

UNAVAILABLE = (RedisConnectionError, RedisTimeoutError, OSError)

# PostgreSQL: when the server last started, and the transaction that wrote the first row of
# django_migrations. A restore (pg_restore, psql, into a new database or over the old one)
# writes every row again, in a transaction the server has never used before; a file-level
# restore (a volume snapshot, point-in-time recovery) restarts the server.
EPOCH_SQL = (
    "SELECT pg_postmaster_start_time()::text, "
    "(SELECT xmin::text FROM django_migrations ORDER BY id LIMIT 1)"
)


class _Epoch:
    """The database's epoch as this process last read it (on each new connection)."""

    def __init__(self):
        self.value: str | None = None
        self.lock = threading.Lock()
        # While the database cannot be asked, this process caches on its own: nothing it
        # writes then can be read by another process, or by itself once the epoch is known.
        self.unknown = f"unknown-{os.getpid()}-{secrets.token_hex(4)}"


_epoch = _Epoch()


def _read_epoch(wrapper) -> str | None:
    if wrapper.vendor != "postgresql":
        return "0"  # SQLite: restoring is copying a file; see docs/operations.md
    try:
        # The driver's own cursor: no query log, no error flag on Django's wrapper, and a
        # database still without tables (migrate, a test run's set-up) only answers None.
        with wrapper.connection.cursor() as cursor:
            cursor.execute(EPOCH_SQL)
            started, first_migration = cursor.fetchone()
    except Exception:  # any driver error: the epoch stays unknown until the next connection
        return None
    if first_migration is None:
        return None
    return f"{started}|{first_migration}".replace(" ", "_")


def _on_connection_created(sender, connection, **kwargs) -> None:
    if connection.alias == DEFAULT_DB_ALIAS:
        value = _read_epoch(connection)
        if value is not None:
            _epoch.value = value


connection_created.connect(_on_connection_created, dispatch_uid="annuminas.cache.epoch")


def database_epoch() -> str:
    """The epoch of the database this process uses (read when it last connected)."""
    if _epoch.value is None:
        with _epoch.lock:
            wrapper = connections[DEFAULT_DB_ALIAS]
            try:
                wrapper.ensure_connection()  # a new connection reads it (the signal above)
                if _epoch.value is None and wrapper.connection is not None:
                    _epoch.value = _read_epoch(wrapper)
            except Exception:  # the database is down: this process caches on its own
                return _epoch.unknown
    return _epoch.value or _epoch.unknown


def epoch_key(key: str, key_prefix: str, version: int) -> str:
    """Django's key layout with the database's epoch after the prefix."""
    return f"{key_prefix}:{database_epoch()}:{version}:{key}"


_breakers: dict[tuple[str, float], CircuitBreaker] = {}
_breakers_lock = threading.Lock()


class ResilientRedisCache(RedisCache):
    """Django's ``RedisCache``; a connection failure answers the method's "nothing" value."""

    # After a failure, Redis is not tried again for this many seconds (doubling while it stays
    # down, see annuminas.breaker).
    retry_after = 5.0

    def __init__(self, server, params):
        options = dict(params.get("OPTIONS") or {})
        retry_after = float(options.pop("RETRY_AFTER", self.retry_after))
        options.setdefault("socket_connect_timeout", 1)
        options.setdefault("socket_timeout", 1)
        params = {**params, "OPTIONS": options}
        super().__init__(server, params)
        # Django makes a cache object per thread: the breaker is the process's, for all of them.
        key = (str(server), retry_after)
        with _breakers_lock:
            self.breaker = _breakers.setdefault(
                key, CircuitBreaker("the cache (Redis)", retry_after=retry_after)
            )

    def _call(self, method: str, fallback, *args, **kwargs):
        if self.breaker.skipping():
            return fallback
        try:
            result = getattr(super(), method)(*args, **kwargs)
        except UNAVAILABLE as exc:
            self.breaker.failed(exc)
            return fallback
        self.breaker.succeeded()
        return result

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
        """Delete this cache's keys only, those under its ``KEY_PREFIX``. Django's ``clear`` sends
        FLUSHDB: it would also empty the Celery queues kept in the same Redis database, and the
        keys of another site (or of another test process) sharing it with its own prefix."""
        if self.breaker.skipping():
            return False
        try:
            client = self._cache.get_client(None, write=True)
            prefix = re.sub(r"([\\[\]*?])", r"\\\1", self.key_prefix)
            batch = []
            for name in client.scan_iter(match=f"{prefix}:*", count=1000):
                batch.append(name)
                if len(batch) == 500:
                    client.delete(*batch)
                    batch = []
            if batch:
                client.delete(*batch)
        except UNAVAILABLE as exc:
            self.breaker.failed(exc)
            return False
        self.breaker.succeeded()
        return True
