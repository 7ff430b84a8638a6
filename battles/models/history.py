"""The battles' change history (django-simple-history), with deletions in bulk.

simple-history writes a deletion's history row from each deleted object's ``post_delete``: one
INSERT per battle and per participant. ``History`` lets a bulk delete write those rows itself,
in one statement per model (``battles.common.writes.battles_delete``): inside
``history_written(models)`` the deletions of those models write no row of their own.
"""

from __future__ import annotations

from collections.abc import Iterator
from contextlib import contextmanager
from contextvars import ContextVar

from simple_history.models import HistoricalRecords

_WRITTEN: ContextVar[frozenset] = ContextVar("battles_history_written", default=frozenset())


class History(HistoricalRecords):
    """``HistoricalRecords`` whose deletion rows a bulk delete may write itself."""

    def post_delete(self, instance, using=None, **kwargs):
        if type(instance) in _WRITTEN.get():
            return
        super().post_delete(instance, using=using, **kwargs)


@contextmanager
def history_written(*models) -> Iterator[None]:
    """Deletions of ``models`` (in this thread) leave their history rows to the caller."""
    token = _WRITTEN.set(_WRITTEN.get() | frozenset(models))
    try:
        yield
    finally:
        _WRITTEN.reset(token)
