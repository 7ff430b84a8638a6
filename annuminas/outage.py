"""The database unreachable: answered 503 with Retry-After, and logged once per outage.

A PostgreSQL restart or failover makes every request fail at its first query. Each used to log
a 500 with its traceback (a thousand in twenty seconds); now the first failure is logged with its
reason, the others are counted, and the next connection that opens logs how long the outage
lasted. The state is per process (each web worker logs its own outage once).

``database_unreachable(exc)`` tells an outage from a query's own failure: a deadlock, a lock or
statement timeout is an ``OperationalError`` too, but the connection still answers, and that
stays a 500 with its traceback (it is a bug to look at, not an outage to wait out).
"""

from __future__ import annotations

import logging
import threading
import time

from django.db import DEFAULT_DB_ALIAS, InterfaceError, OperationalError, connections
from django.db.backends.signals import connection_created

logger = logging.getLogger(__name__)

RETRY_AFTER_SECONDS = 30


class _Outage:
    def __init__(self):
        self.lock = threading.Lock()
        self.since: float | None = None
        self.answered = 0

    def report(self, exc: BaseException) -> None:
        with self.lock:
            first = self.since is None
            if first:
                self.since = time.monotonic()
            self.answered += 1
        if first:
            logger.error(
                "database unreachable (%s: %s); answering 503 until a connection opens again",
                type(exc).__name__,
                str(exc).strip().splitlines()[0][:300] if str(exc).strip() else "",
            )

    def recovered(self) -> None:
        if self.since is None:
            return
        with self.lock:
            if self.since is None:
                return
            lasted, answered = time.monotonic() - self.since, self.answered
            self.since, self.answered = None, 0
        logger.warning(
            "database reachable again after %.0f s (%d requests answered 503 meanwhile)",
            lasted,
            answered,
        )


outage = _Outage()


def _on_connection_created(sender, connection, **kwargs) -> None:
    if connection.alias == DEFAULT_DB_ALIAS:
        outage.recovered()


connection_created.connect(_on_connection_created, dispatch_uid="annuminas.outage.recovered")


def database_unreachable(exc: BaseException | None) -> bool:
    """Is ``exc`` the database being out of reach (not a query's own failure)?"""
    if not isinstance(exc, OperationalError | InterfaceError):
        return False
    wrapper = connections[DEFAULT_DB_ALIAS]
    if wrapper.connection is None:
        return True  # connecting failed
    try:
        return not wrapper.is_usable()
    except Exception:  # asking failed too
        return True
