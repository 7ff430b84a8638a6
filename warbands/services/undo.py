"""Undo the last roster change: the safety net at the table.

Each undoable service (hire, buy, sell, stash, give, dismiss, retire, a hired sword's hire or
dismissal) is wrapped by ``undoable``: under the service's own transaction it locks the warband,
snapshots the roster (``snapshots.warband_snapshot``), runs the service and keeps one
``UndoPoint`` per warband — the roster before, and the version the change left.

``warband_undo`` puts that roster back while the warband is still at that version (nothing has
changed since: no later write, no battle), through ``snapshots.warband_restore``: rows come back
as they were, and the money moves by a compensating ledger entry ("Undone: the purchase of …"),
never by deleting one. A change made inside a ``roster_batch`` (the post-battle sequence and its
decisions) is not undoable, nor one made inside ``no_undo_point()`` (a decision's answer): the
organiser's revert covers those.
"""

from __future__ import annotations

import functools
from collections.abc import Callable, Iterator
from contextlib import contextmanager
from contextvars import ContextVar
from typing import Any, TypeVar

from django.db import transaction
from django.utils.translation import gettext as _

from annuminas.errors import Conflict

from .. import constraints
from ..ledger_texts import catalogue_term, undo_text
from ..models import HiredSword, LedgerEntry, UndoPoint, Warband
from .snapshots import warband_restore, warband_snapshot
from .unit import current_batch, lock_warband, roster_atomic, sync_instance

_F = TypeVar("_F", bound=Callable[..., Any])

# The keyword that names what a service changes, and how to find its warband from it.
_HOLDERS = ("warband", "fighter", "group", "item")


_off: ContextVar[bool] = ContextVar("undo_off", default=False)


@contextmanager
def no_undo_point() -> Iterator[None]:
    """Roster services called inside keep no undo point: the change answers something else
    (a post-battle decision) that an undo must not take back."""
    token = _off.set(True)
    try:
        yield
    finally:
        _off.reset(token)


def _warband_id(kwargs: dict[str, Any]) -> int:
    for key in _HOLDERS:
        value = kwargs.get(key)
        if value is not None:
            return value.pk if key == "warband" else value.warband_id
    raise TypeError("An undoable service names its warband, fighter, group or item.")


def undoable(
    code: str | Callable[..., str], describe: Callable[..., dict[str, Any]]
) -> Callable[[_F], _F]:
    """Keep what the roster was before this service ran, so its owner can undo it.

    ``code`` (or ``code(**kwargs)``) names the change and ``describe(**kwargs)`` gives the
    parameters of its words (see ``ledger_texts.UNDO_TEXTS``), both read before the service
    changes anything."""

    def decorate(service: _F) -> _F:
        @functools.wraps(service)
        def wrapper(**kwargs: Any) -> Any:
            warband_id = _warband_id(kwargs)
            if _off.get() or current_batch(warband_id) is not None or kwargs.get("rare_found"):
                return service(**kwargs)  # the post-battle sequence and its decisions
            with transaction.atomic():
                locked = lock_warband(warband_id, kwargs.get("expected_version"))
                before = warband_snapshot(warband=locked)
                name = code(**kwargs) if callable(code) else code
                params = describe(**kwargs)
                result = service(**kwargs)
                version = Warband.objects.values_list("version", flat=True).get(pk=warband_id)
                _keep(
                    UndoPoint(
                        warband_id=warband_id,
                        version_after=version,
                        code=name,
                        params=params,
                        snapshot=before,
                    )
                )
            return result

        return wrapper  # type: ignore[return-value]

    return decorate


def _keep(point: UndoPoint) -> None:
    """Insert or replace the warband's one undo point in one statement (an upsert on its key:
    ``update_or_create`` spent a savepoint, a read and a write on every roster change)."""
    UndoPoint.objects.bulk_create(
        [point],
        update_conflicts=True,
        unique_fields=["warband"],
        update_fields=["version_after", "code", "params", "snapshot", "created_at"],
    )


def undo_offer(warband: Warband) -> UndoPoint | None:
    """The change its owner can undo now, if any (``warband.undo_point`` may be prefetched
    with ``select_related("undo_point")``)."""
    try:
        point = warband.undo_point
    except UndoPoint.DoesNotExist:
        return None
    return point if point.version_after == warband.version else None


def undo_point_text(point: UndoPoint) -> str:
    """ "the purchase of Espada", in the reader's language."""
    return undo_text(point.code, point.params)


@roster_atomic
def warband_undo(*, warband: Warband, expected_version: int | None = None) -> str:
    """Undo the warband's last roster change while nothing has changed since; returns what
    was undone, in words. ``Conflict`` (409) when there is nothing to undo."""
    locked = lock_warband(warband.pk, expected_version)
    point = UndoPoint.objects.filter(warband=locked).first()
    if point is None or point.version_after != locked.version:
        raise Conflict(
            _(
                "There is nothing to undo: only the last change can be undone, and only while "
                "nothing else has changed in the warband since."
            ),
            code="nothing_to_undo",
        )
    constraints.check_undo(warband=locked)  # e.g. one of its battles is under way
    words = undo_point_text(point)
    warband_restore(
        warband=locked,
        snapshot=point.snapshot,
        source=None,
        reason=LedgerEntry.Reason.REVERT,
        code="undone",
        params={"change": {"undo": point.code, "params": point.params}},
        always_record=True,  # the history says what was undone, money or not
        check_rules=True,  # what comes back must still be allowed (a campaign's house rules)
    )
    point.delete()
    locked.refresh_from_db()
    sync_instance(warband, locked)
    return words


# --- what each undoable change says ------------------------------------------------------


def describe_hire(*, fighter_type, name: str, count: int = 1, group=None, **_: Any) -> dict:
    if hire_code(fighter_type=fighter_type, group=group) == "hired_hero":
        return {"name": name}
    return {"count": count, "type": catalogue_term(fighter_type)}


def hire_code(*, fighter_type, group=None, **_: Any) -> str:
    hero = fighter_type.role in ("leader", "hero") and group is None
    return "hired_hero" if hero else "hired_henchmen"


def describe_item(*, item=None, equipment=None, **_: Any) -> dict:
    return {"item": catalogue_term(equipment or item.equipment)}


def describe_assign(*, item, fighter=None, group=None, **_: Any) -> dict:
    holder = fighter if fighter is not None else group
    return {"item": catalogue_term(item.equipment), "holder": holder.name}


def describe_who(*, fighter=None, group=None, **_: Any) -> dict:
    return {"name": (fighter if fighter is not None else group).name}


def describe_sword(*, hired_sword, name: str = "", **_: Any) -> dict:
    if not name:
        terms = hired_sword
        if not isinstance(terms, HiredSword):  # an id: an unknown one is the service's refusal
            terms = HiredSword.objects.select_related("fighter_type").filter(pk=terms).first()
        name = terms.display_name if terms is not None else ""
    return {"name": name}
