"""A circuit breaker: after a backend fails, stop trying it for a while.

A request that meets an unreachable Redis must not pay a connect timeout on every call: the first
failure opens the breaker, and for ``retry_after`` seconds callers skip the backend at once (the
cache answers a miss, a follow-up task is left to the sweepers). The next call after that tries
again; each retry that fails doubles the pause, up to ``max_retry_after``, so a long outage costs
one timeout a minute, not one every few seconds. The breaker is per process and shared by its
threads; it logs when it opens and when the backend answers again, never once per call.
"""

from __future__ import annotations

import logging
import threading
import time

logger = logging.getLogger(__name__)


class CircuitBreaker:
    def __init__(self, name: str, *, retry_after: float, max_retry_after: float = 60.0):
        self.name = name
        self.retry_after = retry_after
        self.max_retry_after = max(max_retry_after, retry_after)
        self._pause = retry_after
        self._open_until = 0.0
        self._opened_at: float | None = None
        self._skipped = 0
        self._lock = threading.Lock()

    def skipping(self) -> bool:
        """True while callers should not try the backend (the call is counted as skipped)."""
        if time.monotonic() >= self._open_until:
            return False
        with self._lock:
            self._skipped += 1
        return True

    def failed(self, error: BaseException) -> None:
        """The backend failed: open the breaker for ``retry_after`` seconds, or, when a retry
        after the pause failed, for twice the last pause."""
        now = time.monotonic()
        with self._lock:
            first = self._opened_at is None
            if first:
                self._opened_at, self._pause = now, self.retry_after
            elif now >= self._open_until:  # a retry failed (not a call already under way)
                self._pause = min(self._pause * 2, self.max_retry_after)
            self._open_until = now + self._pause
        if first:
            logger.warning(
                "%s unreachable (%s: %s); tried again in %.0f s, then less and less often",
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
            self._pause = self.retry_after
        logger.warning(
            "%s answers again after %.0f s (%d calls skipped meanwhile)",
            self.name,
            down_for,
            skipped,
        )
