"""A circuit breaker: after a backend fails, stop trying it for a while.

A request that meets an unreachable Redis must not pay a connect timeout on every call: the first
failure opens the breaker, and for ``retry_after`` seconds callers skip the backend at once (the
cache answers a miss, a follow-up task is left to the sweepers). The next call after that tries
again. The breaker is per process and shared by its threads; it logs when it opens and when the
backend answers again, never once per call.
"""

from __future__ import annotations

import logging
import threading
import time

logger = logging.getLogger(__name__)


class CircuitBreaker:
    def __init__(self, name: str, *, retry_after: float):
        self.name = name
        self.retry_after = retry_after
        self._open_until = 0.0
        self._opened_at: float | None = None
        self._skipped = 0
        self._lock = threading.Lock()

    @property
    def is_open(self) -> bool:
        """True while callers should not try the backend; counts the call as skipped."""
        if time.monotonic() >= self._open_until:
            return False
        with self._lock:
            self._skipped += 1
        return True

    def failed(self, error: BaseException) -> None:
        """The backend failed: open (or keep open) the breaker for ``retry_after`` seconds."""
        now = time.monotonic()
        with self._lock:
            first = self._opened_at is None
            if first:
                self._opened_at = now
            self._open_until = now + self.retry_after
        if first:
            logger.warning(
                "%s unreachable (%s: %s); not tried again for %.0f s at a time until it answers",
                self.name,
                type(error).__name__,
                error,
                self.retry_after,
            )

    def succeeded(self) -> None:
        """The backend answered: close the breaker, saying so if it was open."""
        if self._opened_at is None:
            return
        with self._lock:
            if self._opened_at is None:
                return
            down_for, skipped = time.monotonic() - self._opened_at, self._skipped
            self._opened_at, self._open_until, self._skipped = None, 0.0, 0
        logger.warning(
            "%s answers again after %.0f s (%d calls skipped meanwhile)",
            self.name,
            down_for,
            skipped,
        )
