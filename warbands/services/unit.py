"""The roster unit of work: lock the warband row, check its version, write, finish.

Every roster service (``warbands.services.*`` and ``warbands.postbattle``) is built from these:

- ``roster_atomic``: the service's transaction (no savepoint inside a ``roster_batch``);
- ``lock_warband``: ``select_for_update`` on the warband row, ``expected_version`` checked
  (a stale one raises ``Conflict`` → 409);
- ``roster_fighter`` / ``roster_group``: a fighter or group of that locked warband, or a
  ``ValidationError`` a player understands;
- ``finish_change``: refresh rating and advances due, bump ``version``, run the house-rule
  ``constraints`` (a failing one rolls it all back); a passed-in ``Warband`` instance is
  refreshed with the new values.

Batching: ``with roster_batch(warband=w):`` runs many services on one warband as ONE change
(one lock, one rating refresh, one version bump, one constraints check at the end); the
post-battle sequence uses it. Given the roster its caller already read under the lock
(``roster=``), a batch reads nothing: the services work on those instances, and their writes
(``roster_save``) go out as one ``bulk_update`` per model when the batch ends.
"""

from __future__ import annotations

import functools
from collections.abc import Callable, Iterator
from contextlib import contextmanager
from contextvars import ContextVar
from dataclasses import dataclass
from dataclasses import field as dataclass_field
from typing import Any, TypeVar

from django.conf import settings
from django.core.exceptions import ValidationError
from django.db import transaction
from django.utils import timezone
from django.utils.translation import get_language
from django.utils.translation import gettext as _

from annuminas.errors import Conflict
from annuminas.tasks import enqueue_safely

from .. import constraints
from ..bulk import rows_update
from ..models import EquipmentItem, Fighter, HenchmanGroup, LedgerEntry, Warband
from .rating import roster_compute, roster_refresh

IN_ROSTER = Fighter.IN_ROSTER
SYNCED_FIELDS = (
    *("name", "notes", "share_token", "share_notes"),
    *("treasury", "finds", "rating", "version", "updated_at"),
)


@dataclass
class RosterBatch:
    """The state of one ``roster_batch``: the warband row it holds locked, and what its
    services changed (applied once, when the batch ends)."""

    warband: Warband
    changed: bool = False  # something was written: bump the version at the end
    fresh: bool = False  # rating and advances due computed in this batch, nothing changed since
    check: bool = False  # the roster changed: run the house-rule constraints at the end
    fields: frozenset[str] = frozenset()  # warband columns written only in memory so far
    # The warband's fighters and groups as the last ``refresh()`` read them (advances due
    # included); empty before the first refresh. With a loaded roster: the caller's instances,
    # which the services change in place.
    fighters: list[Fighter] = dataclass_field(default_factory=list)
    groups: list[HenchmanGroup] = dataclass_field(default_factory=list)
    loaded: bool = False  # ``fighters`` and ``groups`` are the whole roster, read under the lock
    # Rows changed in memory, by model: pk → (row, the fields to write when the batch ends).
    pending: dict[type, dict[int, tuple[Any, set[str]]]] = dataclass_field(default_factory=dict)
    # Ledger lines of a loaded batch, in order: inserted with the batch's one write.
    ledger: list[LedgerEntry] = dataclass_field(default_factory=list)
    # The warband's equipment items (with their ``equipment``) when the caller read them with
    # the roster; the ids of those lost, deleted with the batch's one write.
    items: list[EquipmentItem] | None = None
    dropped: list[int] = dataclass_field(default_factory=list)

    def refresh(self) -> int:
        """Recompute rating and every advances due now, unless nothing changed since the last
        time (a step that reads them mid-batch); returns the rating. The warband row itself is
        saved when the batch ends."""
        if self.fresh:
            return self.warband.rating
        if self.loaded:
            fighters, groups = roster_compute(self.warband, self.fighters, self.groups)
            for row in (*fighters, *groups):
                self.note(row, ["advances_due"])
        else:
            self.fighters, self.groups = roster_refresh(self.warband)
        self.fresh = True
        return self.warband.rating

    def note(self, row: Fighter | HenchmanGroup, fields: list[str]) -> None:
        """Remember ``fields`` of this loaded row for the batch's one write."""
        _, noted = self.pending.setdefault(type(row), {}).setdefault(row.pk, (row, set()))
        noted.update(fields)

    def flush(self) -> None:
        """Write the rows changed in memory: one ``bulk_update`` per model, one insert for
        the ledger lines."""
        _bulk_write(self.pending)
        self.pending = {}
        _ledger_write(self.ledger)
        self.ledger = []
        _items_delete(self.dropped)
        self.dropped = []

    def _close(self) -> None:
        if not self.changed:
            self.flush()
            return
        self.refresh()
        self.flush()
        self.warband.version += 1
        self.warband.save(update_fields=sorted({*self.fields, "rating", "version", "updated_at"}))
        if self.check:
            constraints.check(warband=self.warband)


def _bulk_write(pending: dict[type, dict[int, tuple[Any, set[str]]]]) -> None:
    for model, rows in pending.items():
        fields = sorted({name for _, noted in rows.values() for name in noted})
        rows_update(model, [row for row, _ in rows.values()], fields)


def _ledger_write(entries: list[LedgerEntry]) -> None:
    if entries:
        LedgerEntry.objects.bulk_create(entries)


def _items_delete(pks: list[int]) -> None:
    if pks:
        EquipmentItem.objects.filter(pk__in=pks).delete()


def _close_together(batches: list[RosterBatch]) -> None:
    """End several loaded batches with one write: one ``bulk_update`` for the fighters, the
    groups and the warband rows of them all, then each changed warband's house rules."""
    changed = [batch for batch in batches if batch.changed]
    now = timezone.now()
    for batch in changed:
        batch.refresh()
        batch.warband.version += 1
        batch.warband.updated_at = now
    pending: dict[type, dict[int, tuple[Any, set[str]]]] = {}
    ledger: list[LedgerEntry] = []
    dropped: list[int] = []
    for batch in batches:
        for model, rows in batch.pending.items():
            pending.setdefault(model, {}).update(rows)
        batch.pending = {}
        ledger.extend(batch.ledger)
        batch.ledger = []
        dropped.extend(batch.dropped)
        batch.dropped = []
    _items_delete(dropped)
    _bulk_write(pending)
    _ledger_write(ledger)
    if changed:
        fields = {"rating", "version", "updated_at"}.union(*(batch.fields for batch in changed))
        rows_update(Warband, [batch.warband for batch in changed], sorted(fields))
    for batch in changed:
        if batch.check:
            constraints.check(warband=batch.warband)


_batches: ContextVar[dict[int, RosterBatch] | None] = ContextVar("roster_batches", default=None)


def current_batch(warband: Warband | int) -> RosterBatch | None:
    """The open ``roster_batch`` of this warband, if any."""
    batches = _batches.get()
    if not batches:
        return None
    return batches.get(warband.pk if isinstance(warband, Warband) else warband)


def batch_holding(warband: Warband) -> RosterBatch | None:
    """The open batch whose locked instance is this very ``warband`` object, if any."""
    batch = current_batch(warband)
    return batch if batch is not None and batch.warband is warband else None


@contextmanager
def roster_batch(
    *,
    warband: Warband | int,
    expected_version: int | None = None,
    savepoint: bool = True,
    roster: tuple[list[Fighter], list[HenchmanGroup]] | None = None,
) -> Iterator[RosterBatch]:
    """Run many roster services on one warband as a single change.

    Opens a transaction and locks the warband row once. Inside, every roster service on that
    warband reuses the locked row instead of locking it again, writes its rows as usual, but
    leaves the rating and advances-due refresh, the ``version`` bump, the warband row's own
    columns (treasury, finds) and the house-rule ``constraints`` to the end of the batch,
    which does each ONCE (the rules see the roster as the batch leaves it). A step that must
    read the advances due mid-batch calls ``batch.refresh()``. A passed-in ``Warband``
    instance gets the new values at the end.

    ``roster``: the caller already holds the lock on this very ``Warband`` instance (read with
    its ``warband_type`` and pack) and read ALL its fighters (with ``fighter_type``, its race,
    ``hired_sword`` and ``group`` set to these groups) and groups (with ``fighter_type`` and
    race) under it. The batch then reads nothing: the services change those instances and their
    fighter and group writes go out in one ``bulk_update`` per model when the batch ends.

    Any error inside rolls the whole batch back (services run without savepoints inside a
    batch, so a caught error cannot leave half a change behind). ``savepoint=False`` also
    spares the batch's own savepoint when the caller's transaction fails as a whole anyway
    (an error then rolls the caller's transaction back). A batch inside a batch of the same
    warband joins it. Lock several warbands' batches in warband id order.
    """
    current = _batches.get() or {}
    pk = warband.pk if isinstance(warband, Warband) else warband
    if pk in current:
        check_version(current[pk].warband, expected_version)
        yield current[pk]
        return
    with transaction.atomic(savepoint=savepoint and not current):
        if roster is not None and isinstance(warband, Warband):
            check_version(warband, expected_version)
            batch = RosterBatch(warband, fighters=list(roster[0]), groups=list(roster[1]))
            batch.loaded = True
        else:
            batch = RosterBatch(lock_warband(warband, expected_version))
        token = _batches.set({**current, pk: batch})
        try:
            yield batch
        finally:
            _batches.reset(token)
        batch._close()
        sync_instance(warband, batch.warband)


@contextmanager
def roster_batches(
    *,
    rosters: list[tuple[Warband, list[Fighter], list[HenchmanGroup]]],
    items: dict[int, list[EquipmentItem]] | None = None,
) -> Iterator[dict[int, RosterBatch]]:
    """``roster_batch(warband=w, roster=(fighters, groups), savepoint=False)`` for several
    warbands at once (each as described there: locked and read by the caller), ending them
    together with ONE write for all (``bulk_update`` per model). ``items``: each warband's
    equipment items (``equipment`` selected), read under the same lock, so losing them reads
    nothing either. Call it inside the caller's transaction; any error rolls that transaction
    back. A ``roster_batch`` on one of these warbands inside joins its batch."""
    current = _batches.get() or {}
    opened = {
        warband.pk: RosterBatch(
            warband,
            fighters=list(fighters),
            groups=list(groups),
            loaded=True,
            items=None if items is None else list(items.get(warband.pk, [])),
        )
        for warband, fighters, groups in rosters
    }
    if opened.keys() & current.keys():
        raise ValueError("A warband's roster is already held by an open batch.")
    token = _batches.set({**current, **opened})
    try:
        yield opened
    finally:
        _batches.reset(token)
    _close_together(list(opened.values()))


_F = TypeVar("_F", bound=Callable[..., Any])


def roster_atomic(func: _F) -> _F:
    """``transaction.atomic`` for a service; inside a ``roster_batch`` without a savepoint."""

    @functools.wraps(func)
    def wrapper(*args: Any, **kwargs: Any) -> Any:
        with transaction.atomic(savepoint=not _batches.get()):
            return func(*args, **kwargs)

    return wrapper  # type: ignore[return-value]


def lock_warband(warband: Warband | int, expected_version: int | None = None) -> Warband:
    """Lock the warband row and return a fresh instance; a stale version raises Conflict.

    Inside a ``roster_batch`` of that warband: the batch's locked instance (already locked).
    """
    batch = current_batch(warband)
    if batch is not None:
        check_version(batch.warband, expected_version)
        return batch.warband
    pk = warband.pk if isinstance(warband, Warband) else warband
    try:
        locked = (
            Warband.objects.select_for_update(of=("self",))
            .select_related("warband_type", "warband_type__pack")
            .get(pk=pk)
        )
    except Warband.DoesNotExist as exc:
        raise ValidationError(_("This warband no longer exists.")) from exc
    check_version(locked, expected_version)
    return locked


def check_version(locked: Warband, expected_version: int | None) -> None:
    """``None`` means "no check"; any other value must be the row's current version."""
    if expected_version is None:
        return
    try:
        expected = int(expected_version)
    except (TypeError, ValueError) as exc:
        raise ValidationError({"version": _("The version must be a whole number.")}) from exc
    if expected != locked.version:
        raise Conflict(
            _(
                "This warband was changed elsewhere (it is now at version %(current)d, "
                "you had version %(expected)d): reload it and try again."
            )
            % {"current": locked.version, "expected": expected},
            code="stale_version",
            version=locked.version,
        )


def sync_instance(target: Any, source: Warband) -> None:
    """Copy the locked row's new values to the caller's ``Warband`` instance (if it is one)."""
    if isinstance(target, Warband) and target is not source:
        for field in SYNCED_FIELDS:
            setattr(target, field, getattr(source, field))


def finish_change(warband: Warband, *, caller: Any = None, roster_changed: bool = True) -> None:
    """Refresh rating and advances, bump the version, run the house-rule constraints.

    Expects ``warband`` locked by ``lock_warband``. Inside a ``roster_batch`` of that warband:
    only noted, done once when the batch ends.
    """
    batch = batch_holding(warband)
    if batch is not None:
        batch.changed = True
        batch.fresh = False
        batch.check = batch.check or roster_changed
        sync_instance(caller, warband)
        return
    roster_refresh(warband)
    warband.version += 1
    warband.save(update_fields=["rating", "version", "updated_at"])
    if roster_changed:
        constraints.check(warband=warband)
    sync_instance(caller, warband)
    sheet_warm_after_commit(warband.pk)


def sheet_warm_after_commit(warband_id: int) -> None:
    """Once the write commits, render the warband's sheet ahead of its next view (a task, in the
    writer's language), so the first view after a write is warm. ``SHEET_WARM_ON_WRITE``
    turns it off (the test suite does, but for the tests of it)."""
    if not settings.SHEET_WARM_ON_WRITE:
        return
    language = get_language()
    transaction.on_commit(
        lambda: enqueue_safely("warbands.sheet_warm", warband_id, language), robust=True
    )


# --- rows of the locked warband --------------------------------------------------------------


def loaded_batch(warband: Warband | int) -> RosterBatch | None:
    """The open batch of this warband if it holds the roster in memory (``roster=``)."""
    batch = current_batch(warband)
    return batch if batch is not None and batch.loaded else None


def roster_row(locked: Warband, model, row_or_pk, related: tuple[str, ...]):
    """The row (or id) of ``model`` as a row of the locked warband, or ``None``."""
    pk = row_or_pk.pk if isinstance(row_or_pk, model) else row_or_pk
    batch = loaded_batch(locked)
    if batch is not None and model in (Fighter, HenchmanGroup):  # the rows the batch holds
        rows = batch.fighters if model is Fighter else batch.groups
        return next((row for row in rows if row.pk == pk), None)
    return model.objects.select_related(*related).filter(pk=pk, warband=locked).first()


def roster_save(locked: Warband, row: Fighter | HenchmanGroup, fields: list[str]) -> None:
    """Save these fields of a fighter or group of the locked warband: at once, or with the
    batch's one write when the batch holds the roster in memory."""
    batch = loaded_batch(locked)
    if batch is not None:
        batch.note(row, fields)
    else:
        row.save(update_fields=fields)


def roster_flush(locked: Warband) -> None:
    """Write what a batch holds in memory before reading the roster back from the database."""
    batch = loaded_batch(locked)
    if batch is not None:
        batch.flush()


def roster_members_set(locked: Warband, group: HenchmanGroup, **values: Any) -> None:
    """Give every member of the group (in the roster or not) these values, as a group's
    shared profile and experience require."""
    batch = loaded_batch(locked)
    if batch is None:
        group.members.update(**values)
        return
    for fighter in batch.fighters:
        if fighter.group_id == group.pk:
            for name, value in values.items():
                setattr(fighter, name, value)
            batch.note(fighter, list(values))


def roster_items(
    locked: Warband, *, fighter: Fighter | None = None, group: HenchmanGroup | None = None
) -> list[EquipmentItem]:
    """The items a fighter or a group of the locked warband holds (``equipment`` selected):
    from the batch when it holds them in memory."""
    batch = loaded_batch(locked)
    if batch is not None and batch.items is not None:
        if fighter is not None:
            return [item for item in batch.items if item.fighter_id == fighter.pk]
        return [item for item in batch.items if item.group_id == group.pk]
    holder = fighter if fighter is not None else group
    return list(holder.equipment.select_related("equipment"))


def roster_items_drop(locked: Warband, items: list[EquipmentItem]) -> None:
    """These items of the locked warband are gone: deleted now, or with the batch's write."""
    if not items:
        return
    batch = loaded_batch(locked)
    if batch is not None and batch.items is not None:
        gone = {item.pk for item in items}
        batch.items = [item for item in batch.items if item.pk not in gone]
        batch.dropped.extend(gone)
        return
    EquipmentItem.objects.filter(pk__in=[item.pk for item in items]).delete()


def roster_fighter(locked: Warband, fighter: Fighter | int) -> Fighter:
    """The fighter (or id) as a row of the locked warband; anyone else is refused."""
    found = roster_row(locked, Fighter, fighter, ("fighter_type", "fighter_type__race", "group"))
    if found is None:
        raise ValidationError(_("This warrior is not in this warband."))
    return found


def require_in_roster(fighter: Fighter) -> Fighter:
    """Refuse a warrior who has left the roster (dead, dismissed, retired, captured…)."""
    if fighter.status not in IN_ROSTER:
        raise ValidationError(_("%(name)s is no longer in the roster.") % {"name": fighter.name})
    return fighter


def roster_group(locked: Warband, group: HenchmanGroup | int) -> HenchmanGroup:
    """The henchman group (or id) as a row of the locked warband; any other is refused."""
    found = roster_row(locked, HenchmanGroup, group, ("fighter_type", "fighter_type__race"))
    if found is None:
        raise ValidationError(_("This henchman group is not in this warband."))
    return found


def roster_holder(locked: Warband, fighter, group) -> tuple[Fighter | None, HenchmanGroup | None]:
    """Exactly one of a hero or a group; a henchman stands for his group."""
    if (fighter is None) == (group is None):
        raise ValidationError(_("Give one warrior or one group."))
    if fighter is not None:
        fighter = roster_fighter(locked, fighter)
        if fighter.group_id is not None:
            return None, roster_group(locked, fighter.group_id)
        return fighter, None
    return None, roster_group(locked, group)


def group_size(group: HenchmanGroup) -> int:
    """Members of the group still in the roster."""
    batch = loaded_batch(group.warband_id)
    if batch is not None:
        return sum(1 for f in batch.fighters if f.group_id == group.pk and f.status in IN_ROSTER)
    return group.members.filter(status__in=IN_ROSTER).count()
