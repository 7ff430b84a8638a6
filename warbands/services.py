"""Every write to the catalogue's rosters: hire, buy, sell, stash, dismiss, retire, ledger.

Each public function is keyword-only and atomic. It locks the warband row
(``select_for_update``), checks ``expected_version`` when given (a stale one raises
``Conflict`` → 409), validates with a message a player understands, writes, records a
``LedgerEntry`` for any change of treasury or finds, refreshes rating and advances due, bumps
``version``, then runs the registered house-rule ``constraints`` (a failing one rolls it all
back). A passed-in ``Warband`` instance is refreshed with the new values on return.

Batching: ``with roster_batch(warband=w):`` runs many of these services on one warband as ONE
change (one lock, one rating refresh, one version bump, one constraints check at the end); the
post-battle sequence uses it. See ``roster_batch``.
"""

from __future__ import annotations

import functools
from collections.abc import Callable, Iterator
from contextlib import contextmanager
from contextvars import ContextVar
from dataclasses import dataclass
from dataclasses import field as dataclass_field
from typing import Any, TypeVar

from django.contrib.contenttypes.models import ContentType
from django.core.exceptions import ValidationError
from django.db import transaction
from django.db.models import Model, ProtectedError, RestrictedError
from django.utils import timezone
from django.utils.translation import gettext as _

from annuminas.api.errors import Conflict

from . import constraints, limits
from .import_format import import_document_check
from .loadout import loadout_problem
from .models import (
    CHARACTERISTIC_FIELDS,
    PROFILE_FIELDS,
    SPANISH_NAMES,
    Equipment,
    EquipmentItem,
    EquipmentListEntry,
    Fighter,
    FighterType,
    HenchmanGroup,
    LedgerEntry,
    Skill,
    Warband,
    WarbandType,
)
from .progression import (
    advances_due,
    henchman_thresholds,
    hero_thresholds,
    pack_setting,
    warrior_rating,
)

EXPORT_FORMAT = "annuminas.warband"
EXPORT_FORMAT_VERSION = 1
UPDATABLE_WARBAND_FIELDS = ("name", "notes")
IN_ROSTER = Fighter.IN_ROSTER

# --- batching --------------------------------------------------------------------------------


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
    # included); empty before the first refresh.
    fighters: list[Fighter] = dataclass_field(default_factory=list)
    groups: list[HenchmanGroup] = dataclass_field(default_factory=list)

    def refresh(self) -> int:
        """Recompute rating and every advances due now, unless nothing changed since the last
        time (a step that reads them mid-batch); returns the rating. The warband row itself is
        saved when the batch ends."""
        if not self.fresh:
            self.fighters, self.groups = _rating_refresh_rows(self.warband)
            self.fresh = True
        return self.warband.rating

    def _close(self) -> None:
        if not self.changed:
            return
        self.refresh()
        self.warband.version += 1
        self.warband.save(update_fields=sorted({*self.fields, "rating", "version", "updated_at"}))
        if self.check:
            constraints.check(warband=self.warband)


_batches: ContextVar[dict[int, RosterBatch] | None] = ContextVar("roster_batches", default=None)


def _batch_for(warband: Warband | int) -> RosterBatch | None:
    batches = _batches.get()
    if not batches:
        return None
    return batches.get(warband.pk if isinstance(warband, Warband) else warband)


@contextmanager
def roster_batch(
    *, warband: Warband | int, expected_version: int | None = None, savepoint: bool = True
) -> Iterator[RosterBatch]:
    """Run many roster services on one warband as a single change.

    Opens a transaction and locks the warband row once. Inside, every service of this module
    (and of ``warbands.postbattle``) on that warband reuses the locked row instead of locking
    it again, writes its rows as usual, but leaves the rating and advances-due refresh, the
    ``version`` bump, the warband row's own columns (treasury, finds) and the house-rule
    ``constraints`` to the end of the batch, which does each ONCE (the rules see the roster
    as the batch leaves it). A step that must read the advances due mid-batch calls
    ``batch.refresh()``. A passed-in ``Warband`` instance gets the new values at the end.

    Any error inside rolls the whole batch back (services run without savepoints inside a
    batch, so a caught error cannot leave half a change behind). ``savepoint=False`` also
    spares the batch's own savepoint when the caller's transaction fails as a whole anyway
    (an error then rolls the caller's transaction back). A batch inside a batch of the same
    warband joins it. Lock several warbands' batches in warband id order.
    """
    current = _batches.get() or {}
    pk = warband.pk if isinstance(warband, Warband) else warband
    if pk in current:
        _check_version(current[pk].warband, expected_version)
        yield current[pk]
        return
    with transaction.atomic(savepoint=savepoint and not current):
        batch = RosterBatch(_lock(warband, expected_version))
        token = _batches.set({**current, pk: batch})
        try:
            yield batch
        finally:
            _batches.reset(token)
        batch._close()
        _sync(warband, batch.warband)


_F = TypeVar("_F", bound=Callable[..., Any])


def _atomic(func: _F) -> _F:
    """``transaction.atomic`` for a service; inside a ``roster_batch`` without a savepoint."""

    @functools.wraps(func)
    def wrapper(*args: Any, **kwargs: Any) -> Any:
        with transaction.atomic(savepoint=not _batches.get()):
            return func(*args, **kwargs)

    return wrapper  # type: ignore[return-value]


# --- locking, version, finishing ----------------------------------------------------------


def _lock(warband: Warband | int, expected_version: int | None = None) -> Warband:
    """Lock the warband row and return a fresh instance; a stale version raises Conflict.

    Inside a ``roster_batch`` of that warband: the batch's locked instance (already locked).
    """
    batch = _batch_for(warband)
    if batch is not None:
        _check_version(batch.warband, expected_version)
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
    _check_version(locked, expected_version)
    return locked


def _check_version(locked: Warband, expected_version: int | None) -> None:
    if expected_version is not None:
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
                % {"current": locked.version, "expected": expected}
            )


def _settings(warband: Warband) -> dict[str, Any]:
    return warband.warband_type.pack.settings or {}


def _sync(target: Any, source: Warband) -> None:
    if isinstance(target, Warband) and target is not source:
        for field in ("name", "notes", "treasury", "finds", "rating", "version", "updated_at"):
            setattr(target, field, getattr(source, field))


def _finish(warband: Warband, *, caller: Any = None, roster_changed: bool = True) -> None:
    """Refresh rating and advances, bump the version, run the house-rule constraints.

    Inside a ``roster_batch`` of that warband: only noted, done once when the batch ends.
    """
    batch = _batch_for(warband)
    if batch is not None and batch.warband is warband:
        batch.changed = True
        batch.fresh = False
        batch.check = batch.check or roster_changed
        _sync(caller, warband)
        return
    _rating_refresh(warband)
    warband.version += 1
    warband.save(update_fields=["rating", "version", "updated_at"])
    if roster_changed:
        constraints.check(warband=warband)
    _sync(caller, warband)


def _source_fields(source: Model | None) -> dict[str, Any]:
    if source is None or source.pk is None:
        return {"source_type": None, "source_id": None}
    return {
        "source_type": ContentType.objects.get_for_model(source, for_concrete_model=False),
        "source_id": source.pk,
    }


# --- ledger --------------------------------------------------------------------------------


def _ledger_apply(
    *,
    warband: Warband,
    amount: int,
    finds_delta: int = 0,
    reason: str,
    description: str,
    source: Model | None = None,
) -> LedgerEntry:
    """Apply to a warband row this transaction already holds locked."""
    if reason not in LedgerEntry.Reason.values:
        raise ValidationError(_("Unknown ledger reason: %(reason)s.") % {"reason": reason})
    treasury = warband.treasury + int(amount)
    finds = warband.finds + int(finds_delta)
    if treasury < 0:
        raise ValidationError(
            _("Not enough coronas: this needs %(cost)d co and the treasury holds %(treasury)d co.")
            % {"cost": -int(amount), "treasury": warband.treasury}
        )
    if finds < 0:
        raise ValidationError(
            _("Not enough finds: this needs %(needed)d and the warband has %(finds)d.")
            % {"needed": -int(finds_delta), "finds": warband.finds}
        )
    warband.treasury = treasury
    warband.finds = finds
    batch = _batch_for(warband)
    if batch is not None and batch.warband is warband:
        batch.changed = True
        batch.fields |= {"treasury", "finds"}
    else:
        warband.save(update_fields=["treasury", "finds", "updated_at"])
    return LedgerEntry.objects.create(
        warband=warband,
        amount=int(amount),
        finds_delta=int(finds_delta),
        treasury_after=treasury,
        finds_after=finds,
        reason=reason,
        description=description[:255],
        **_source_fields(source),
    )


@_atomic
def ledger_record(
    *,
    warband: Warband,
    amount: int,
    finds_delta: int = 0,
    reason: str,
    description: str,
    source: Model | None = None,
    expected_version: int | None = None,
) -> LedgerEntry:
    """The only way treasury and finds change: append one entry (locks the warband row).

    Refuses to take the treasury or the finds below zero.
    """
    locked = _lock(warband, expected_version)
    entry = _ledger_apply(
        warband=locked,
        amount=amount,
        finds_delta=finds_delta,
        reason=reason,
        description=description,
        source=source,
    )
    batch = _batch_for(locked)
    if batch is not None:  # treasury and finds only: rating and advances due are unchanged
        batch.changed = True
        _sync(warband, locked)
    else:
        _finish(locked, caller=warband, roster_changed=False)
    return entry


# --- rating and limits ----------------------------------------------------------------------


def _rating_refresh(warband: Warband) -> int:
    """Recompute rating and every fighter's/group's advances due (warband row held locked)."""
    _rating_refresh_rows(warband)
    return warband.rating


def _rating_refresh_rows(warband: Warband) -> tuple[list[Fighter], list[HenchmanGroup]]:
    """``_rating_refresh``, returning the fighters and groups it read (advances due set)."""
    settings = _settings(warband)
    rating = 0
    fighters = list(warband.fighters.select_related("fighter_type"))
    groups = {group.pk: group for group in warband.groups.all()}
    changed_fighters = []
    for fighter in fighters:
        if fighter.status in IN_ROSTER:
            rating += warrior_rating(
                is_large=fighter.fighter_type.is_large,
                experience=fighter.experience,
                settings=settings,
            )
        due = 0
        if fighter.group_id is None and fighter.fighter_type.can_gain_experience:
            due = advances_due(
                hero_thresholds(settings),
                start=fighter.hired_experience,
                experience=fighter.experience,
                taken=len(fighter.advances),
            )
        if due != fighter.advances_due:
            fighter.advances_due = due
            changed_fighters.append(fighter)
    if changed_fighters:
        Fighter.objects.bulk_update(changed_fighters, ["advances_due"])
    changed_groups = []
    for group in groups.values():
        due = advances_due(
            henchman_thresholds(settings),
            start=0,
            experience=group.experience,
            taken=len(group.advances),
        )
        if due != group.advances_due:
            group.advances_due = due
            changed_groups.append(group)
    if changed_groups:
        HenchmanGroup.objects.bulk_update(changed_groups, ["advances_due"])
    warband.rating = rating
    return fighters, list(groups.values())


@_atomic
def warband_rating_refresh(*, warband: Warband) -> int:
    """Recompute the rating (5 per warrior, 20 per large creature, plus experience)."""
    locked = _lock(warband)
    before = locked.rating
    batch = _batch_for(locked)
    if batch is not None:  # computed now unless nothing changed since the batch last did
        rating = batch.refresh()
        batch.changed = batch.changed or rating != before
        _sync(warband, locked)
        return rating
    rating = _rating_refresh(locked)
    if rating != before:
        locked.version += 1
    locked.save(update_fields=["rating", "version", "updated_at"])
    _sync(warband, locked)
    return rating


def _roster_limits_check(warband: Warband) -> None:
    """The game's limits on the whole roster; raises with the first one broken."""
    warband_type = warband.warband_type
    fighters = list(
        warband.fighters.filter(status__in=IN_ROSTER).select_related("fighter_type", "group")
    )
    leaders = [f for f in fighters if f.is_leader]
    if len(leaders) > 1:
        raise ValidationError(
            _("A warband has exactly one leader: %(name)s already leads this one.")
            % {"name": leaders[0].name}
        )
    heroes = [f for f in fighters if f.is_hero]
    if len(heroes) > warband_type.max_heroes:
        raise ValidationError(
            _("A %(type)s warband has at most %(max)d heroes, the leader included.")
            % {"type": warband_type.name, "max": warband_type.max_heroes}
        )
    if len(fighters) > warband_type.max_size:
        raise ValidationError(
            _("A %(type)s warband has at most %(max)d warriors; this would make %(count)d.")
            % {"type": warband_type.name, "max": warband_type.max_size, "count": len(fighters)}
        )
    per_type: dict[int, list[Fighter]] = {}
    for fighter in fighters:
        per_type.setdefault(fighter.fighter_type_id, []).append(fighter)
    for members in per_type.values():
        fighter_type = members[0].fighter_type
        if fighter_type.warband_type_id != warband_type.pk:
            raise ValidationError(
                _("%(fighter)s cannot join a %(type)s warband.")
                % {"fighter": fighter_type.name, "type": warband_type.name}
            )
        if fighter_type.max_count is not None and len(members) > fighter_type.max_count:
            raise ValidationError(
                _("A warband may have at most %(max)d × %(fighter)s.")
                % {"max": fighter_type.max_count, "fighter": fighter_type.name}
            )
    per_group: dict[int, list[Fighter]] = {}
    for fighter in fighters:
        if fighter.group_id:
            per_group.setdefault(fighter.group_id, []).append(fighter)
    for members in per_group.values():
        group = members[0].group
        max_size = members[0].fighter_type.group_max_size
        if len(members) > max_size:
            raise ValidationError(
                _("The group %(group)s can have at most %(max)d members.")
                % {"group": group.name, "max": max_size}
            )


def _holder_equipment(*, fighter: Fighter | None, group: HenchmanGroup | None) -> list:
    holder = {"fighter": fighter} if fighter is not None else {"group": group}
    # Newest first, so a problem is reported about the item just added.
    return [
        item.equipment
        for item in EquipmentItem.objects.filter(**holder)
        .select_related("equipment")
        .order_by("-pk")
    ]


def _loadout_check(warband: Warband, *, fighter=None, group=None) -> None:
    items = _holder_equipment(fighter=fighter, group=group)
    problem = loadout_problem(items, settings=_settings(warband))
    if problem:
        name = fighter.name if fighter is not None else group.name
        raise ValidationError(f"{name}: {problem}")


# --- warbands ------------------------------------------------------------------------------


def _clean_name(name: Any, *, what: str = "name") -> str:
    return limits.clean_name(name, field=what)


@_atomic
def warband_create(*, owner, warband_type: WarbandType, name: str) -> Warband:
    """A new, empty warband with its starting treasury (recorded in the ledger)."""
    if not warband_type.playable:
        raise ValidationError(
            _("%(type)s is not a playable warband type.") % {"type": warband_type.name}
        )
    warband = Warband.objects.create(owner=owner, warband_type=warband_type, name=_clean_name(name))
    locked = _lock(warband)
    _ledger_apply(
        warband=locked,
        amount=warband_type.starting_treasury,
        reason=LedgerEntry.Reason.STARTING_TREASURY,
        description=_("Starting treasury"),
        source=locked,
    )
    _finish(locked)
    return locked


@_atomic
def warband_update(*, warband: Warband, expected_version: int | None, **fields: Any) -> Warband:
    """Change the name and/or notes."""
    unknown = set(fields) - set(UPDATABLE_WARBAND_FIELDS)
    if unknown:
        raise ValidationError(
            {field: _("This field cannot be changed here.") for field in sorted(unknown)}
        )
    locked = _lock(warband, expected_version)
    if "name" in fields:
        locked.name = _clean_name(fields["name"])
    if "notes" in fields:
        locked.notes = limits.clean_text(
            fields["notes"], field="notes", max_length=limits.NOTES_MAX_LENGTH
        )
    locked.save(update_fields=["name", "notes", "updated_at"])
    _finish(locked, caller=warband, roster_changed=False)
    return locked


def warband_rename(*, warband: Warband, name: str, expected_version: int | None = None) -> Warband:
    return warband_update(warband=warband, expected_version=expected_version, name=name)


@_atomic
def warband_delete(*, warband: Warband, expected_version: int | None = None) -> None:
    """Delete a warband and its roster; one that joined a campaign or played a battle stays on
    the campaign's record and is refused with ``Conflict`` (409)."""
    locked = _lock(warband, expected_version)
    try:
        locked.delete()
    except (ProtectedError, RestrictedError) as exc:
        # Raised while collecting what to delete, before any row is deleted.
        raise Conflict(
            _(
                "%(name)s has joined a campaign or played battles, which keep it on their "
                "record: it cannot be deleted."
            )
            % {"name": locked.name}
        ) from exc


# --- hiring, dismissing ----------------------------------------------------------------------


def _roster_fighter(locked: Warband, fighter: Fighter | int) -> Fighter:
    pk = fighter.pk if isinstance(fighter, Fighter) else fighter
    found = (
        Fighter.objects.select_related("fighter_type", "fighter_type__race", "group")
        .filter(pk=pk, warband=locked)
        .first()
    )
    if found is None:
        raise ValidationError(_("This warrior is not in this warband."))
    return found


def _roster_group(locked: Warband, group: HenchmanGroup | int) -> HenchmanGroup:
    pk = group.pk if isinstance(group, HenchmanGroup) else group
    found = (
        HenchmanGroup.objects.select_related("fighter_type", "fighter_type__race")
        .filter(pk=pk, warband=locked)
        .first()
    )
    if found is None:
        raise ValidationError(_("This henchman group is not in this warband."))
    return found


def _group_size(group: HenchmanGroup) -> int:
    return group.members.filter(status__in=IN_ROSTER).count()


@_atomic
def fighter_hire(
    *,
    warband: Warband,
    fighter_type: FighterType,
    name: str,
    count: int = 1,
    group: HenchmanGroup | None = None,
    expected_version: int | None = None,
) -> Fighter | HenchmanGroup:
    """Hire a hero (returns the Fighter) or a henchman group of ``count`` (returns the group).

    With ``group``, the ``count`` new henchmen join that group: they share its profile and
    experience, and pay for its equipment as well as their own cost.
    """
    locked = _lock(warband, expected_version)
    warband_type = locked.warband_type
    if fighter_type.warband_type_id != warband_type.pk:
        raise ValidationError(
            _("%(fighter)s cannot be hired by a %(type)s warband.")
            % {"fighter": fighter_type.name, "type": warband_type.name}
        )
    try:
        count = int(count)
    except (TypeError, ValueError) as exc:
        raise ValidationError({"count": _("How many? Give a whole number.")}) from exc
    if count < 1:
        raise ValidationError({"count": _("Hire at least one warrior.")})
    name = _clean_name(name)
    profile = {field: getattr(fighter_type, field) for field in PROFILE_FIELDS}

    if fighter_type.is_hero:
        if count != 1 or group is not None:
            raise ValidationError({"count": _("Heroes are hired one at a time.")})
        if fighter_type.is_leader:
            leader = locked.fighters.filter(is_leader=True, status__in=IN_ROSTER).first()
            if leader is not None:
                raise ValidationError(
                    _("A warband has exactly one leader: %(name)s already leads this one.")
                    % {"name": leader.name}
                )
        cost = fighter_type.cost
        _check_affordable(locked, cost, _("Hiring %(name)s") % {"name": fighter_type.name})
        hired: Fighter | HenchmanGroup = Fighter.objects.create(
            warband=locked,
            fighter_type=fighter_type,
            name=name,
            is_hero=True,
            is_leader=fighter_type.is_leader,
            experience=fighter_type.starting_experience,
            hired_experience=fighter_type.starting_experience,
            special_rules=list(fighter_type.special_rules),
            **profile,
        )
        description = _("Hired %(name)s (%(type)s)") % {"name": name, "type": fighter_type.name}
    else:
        if count > fighter_type.group_max_size:
            raise ValidationError(
                {
                    "count": _("A group of %(type)s has at most %(max)d members.")
                    % {"type": fighter_type.name, "max": fighter_type.group_max_size}
                }
            )
        if group is not None:
            group = _roster_group(locked, group)
            if group.fighter_type_id != fighter_type.pk:
                raise ValidationError(
                    _("Everyone in a henchman group is of the same type (%(type)s).")
                    % {"type": group.fighter_type.name}
                )
            equipment_cost = sum(item.unit_price for item in group.equipment.all())
            cost = (fighter_type.cost + equipment_cost) * count
            _check_affordable(
                locked,
                cost,
                _("Hiring %(count)d × %(name)s") % {"count": count, "name": fighter_type.name},
            )
            profile = {field: getattr(group, field) for field in PROFILE_FIELDS}
            experience = group.experience
            existing = group.members.count()
        else:
            cost = fighter_type.cost * count
            _check_affordable(
                locked,
                cost,
                _("Hiring %(count)d × %(name)s") % {"count": count, "name": fighter_type.name},
            )
            group = HenchmanGroup.objects.create(
                warband=locked,
                fighter_type=fighter_type,
                name=name,
                experience=0,
                special_rules=list(fighter_type.special_rules),
                **profile,
            )
            experience = 0
            existing = 0
        for number in range(existing + 1, existing + count + 1):
            Fighter.objects.create(
                warband=locked,
                group=group,
                fighter_type=fighter_type,
                name=_member_name(group.name, number),
                experience=experience,
                hired_experience=experience,
                special_rules=list(group.special_rules),
                **profile,
            )
        hired = group
        description = _("Hired %(count)d × %(type)s into %(group)s") % {
            "count": count,
            "type": fighter_type.name,
            "group": group.name,
        }
    _roster_limits_check(locked)
    _ledger_apply(
        warband=locked,
        amount=-cost,
        reason=LedgerEntry.Reason.HIRE,
        description=description,
        source=hired,
    )
    _finish(locked, caller=warband)
    return hired


def _member_name(group_name: str, number: int) -> str:
    """The henchman's name "<group> <n>", the group's name shortened to fit a name."""
    suffix = f" {number}"
    return group_name[: limits.NAME_MAX_LENGTH - len(suffix)].rstrip() + suffix


def _check_affordable(locked: Warband, cost: int, what: str) -> None:
    if cost > locked.treasury:
        raise ValidationError(
            _(
                "Not enough coronas: %(what)s costs %(cost)d co and the treasury holds "
                "%(treasury)d co."
            )
            % {"what": what, "cost": cost, "treasury": locked.treasury}
        )


def _to_stash(locked: Warband, items: list[EquipmentItem], copies: int) -> list[EquipmentItem]:
    """Move items to the stash; a group's item becomes ``copies`` stash items (one per member)."""
    stashed = []
    for item in items:
        if item.group_id is not None:
            for _copy in range(copies):
                stashed.append(
                    EquipmentItem.objects.create(
                        warband=locked, equipment=item.equipment, unit_price=item.unit_price
                    )
                )
            item.delete()
        else:
            item.fighter = None
            item.save(update_fields=["fighter"])
            stashed.append(item)
    return stashed


def _leave_roster(locked: Warband, fighter: Fighter, *, status: str | None) -> list:
    """A fighter leaves (dismissed: deleted; retired: kept with that status); gear → stash."""
    if fighter.is_leader and fighter.status in IN_ROSTER:
        raise ValidationError(
            _("%(name)s leads the warband: make another hero the leader before he leaves.")
            % {"name": fighter.name}
        )
    stashed = _to_stash(locked, list(fighter.equipment.select_related("equipment")), 1)
    if fighter.group_id is not None:
        group_items = list(fighter.group.equipment.select_related("equipment"))
        for item in group_items:
            stashed.append(
                EquipmentItem.objects.create(
                    warband=locked, equipment=item.equipment, unit_price=item.unit_price
                )
            )
    if status is None:
        fighter.delete()
    else:
        fighter.status = status
        fighter.save(update_fields=["status"])
    return stashed


@_atomic
def fighter_dismiss(*, fighter: Fighter, expected_version: int | None = None) -> None:
    """Dismiss a warrior: he leaves the roster; his equipment goes to the stash."""
    locked = _lock(fighter.warband_id, expected_version)
    fighter = _roster_fighter(locked, fighter)
    name = fighter.name
    group = fighter.group
    stashed = _leave_roster(locked, fighter, status=None)
    if group is not None and not group.members.exists():
        group.delete()
    _ledger_apply(
        warband=locked,
        amount=0,
        reason=LedgerEntry.Reason.DISMISS,
        description=_("Dismissed %(name)s; %(count)d items to the stash")
        % {"name": name, "count": len(stashed)},
        source=None,
    )
    _finish(locked)


@_atomic
def group_dismiss(*, group: HenchmanGroup, expected_version: int | None = None) -> None:
    """Dismiss a whole henchman group; its equipment (one per member) goes to the stash."""
    locked = _lock(group.warband_id, expected_version)
    group = _roster_group(locked, group)
    members = _group_size(group)
    stashed = _to_stash(locked, list(group.equipment.select_related("equipment")), members)
    name = group.name
    group.members.all().delete()
    group.delete()
    _ledger_apply(
        warband=locked,
        amount=0,
        reason=LedgerEntry.Reason.DISMISS,
        description=_("Dismissed %(name)s; %(count)d items to the stash")
        % {"name": name, "count": len(stashed)},
    )
    _finish(locked)


@_atomic
def fighter_retire(*, fighter: Fighter, expected_version: int | None = None) -> Fighter:
    """Retire a warrior: he stays on the record as retired; his equipment goes to the stash."""
    locked = _lock(fighter.warband_id, expected_version)
    fighter = _roster_fighter(locked, fighter)
    if fighter.status not in IN_ROSTER:
        raise ValidationError(_("%(name)s is no longer in the roster.") % {"name": fighter.name})
    _leave_roster(locked, fighter, status=Fighter.Status.RETIRED)
    _finish(locked)
    return fighter


def _only_rename(fields: dict[str, Any]) -> None:
    unknown = set(fields) - {"name"}
    if unknown:
        raise ValidationError(
            {field: _("This field cannot be changed here.") for field in sorted(unknown)}
        )


def _rename(locked: Warband, target: Fighter | HenchmanGroup, fields: dict[str, Any]) -> None:
    if "name" in fields:
        target.name = _clean_name(fields["name"])
        target.save(update_fields=["name"])
    _finish(locked, roster_changed=False)


@_atomic
def fighter_update(
    *, fighter: Fighter, expected_version: int | None = None, **fields: Any
) -> Fighter:
    """Rename a warrior (the only field a player edits directly)."""
    _only_rename(fields)
    locked = _lock(fighter.warband_id, expected_version)
    fighter = _roster_fighter(locked, fighter)
    _rename(locked, fighter, fields)
    return fighter


@_atomic
def group_update(
    *, group: HenchmanGroup, expected_version: int | None = None, **fields: Any
) -> HenchmanGroup:
    """Rename a henchman group."""
    _only_rename(fields)
    locked = _lock(group.warband_id, expected_version)
    group = _roster_group(locked, group)
    _rename(locked, group, fields)
    return group


@_atomic
def fighter_make_leader(*, fighter: Fighter, expected_version: int | None = None) -> Fighter:
    """Make a hero the leader (e.g. after the leader's death); the old one becomes a hero."""
    locked = _lock(fighter.warband_id, expected_version)
    fighter = _roster_fighter(locked, fighter)
    if not fighter.is_hero or fighter.status not in IN_ROSTER:
        raise ValidationError(_("Only a hero in the roster can lead the warband."))
    locked.fighters.filter(is_leader=True).exclude(pk=fighter.pk).update(is_leader=False)
    fighter.is_leader = True
    fighter.save(update_fields=["is_leader"])
    _finish(locked)
    return fighter


# --- equipment -------------------------------------------------------------------------------


def _list_entry(locked: Warband, equipment: Equipment, *, fighter_type: FighterType | None):
    """The list entry that lets this holder buy ``equipment`` (stash: any list of the type)."""
    if fighter_type is not None:
        if fighter_type.equipment_list_id is None:
            raise ValidationError(
                _("%(fighter)s cannot carry equipment.") % {"fighter": fighter_type.name}
            )
        entry = (
            EquipmentListEntry.objects.select_related("equipment")
            .filter(equipment_list_id=fighter_type.equipment_list_id, equipment=equipment)
            .first()
        )
        if entry is None:
            raise ValidationError(
                _("%(item)s is not in the equipment list of %(fighter)s.")
                % {"item": equipment.name, "fighter": fighter_type.name}
            )
        return entry
    entry = (
        EquipmentListEntry.objects.select_related("equipment")
        .filter(
            equipment=equipment,
            equipment_list__in=FighterType.objects.filter(warband_type=locked.warband_type).values(
                "equipment_list"
            ),
        )
        .order_by("cost")
        .first()
    )
    if entry is None:
        raise ValidationError(
            _("%(item)s is in none of the equipment lists of a %(type)s warband.")
            % {"item": equipment.name, "type": locked.warband_type.name}
        )
    return entry


def _holder_has_dagger(*, fighter=None, group=None) -> bool:
    holder = {"fighter": fighter} if fighter is not None else {"group": group}
    return EquipmentItem.objects.filter(**holder, equipment__rules__first_free=True).exists()


def equipment_price(
    *, warband: Warband, equipment: Equipment, fighter=None, group=None
) -> tuple[int, int, EquipmentListEntry]:
    """(unit price, total, list entry) a purchase would cost now; raises when it is not allowed."""
    fighter_type = fighter.fighter_type if fighter else group.fighter_type if group else None
    entry = _list_entry(warband, equipment, fighter_type=fighter_type)
    unit = entry.price
    if (
        (fighter is not None or group is not None)
        and equipment.rules.get("first_free")
        and pack_setting(_settings(warband), "free_dagger", True)
        and not _holder_has_dagger(fighter=fighter, group=group)
    ):
        unit = 0
    copies = _group_size(group) if group is not None else 1
    return unit, unit * copies, entry


@_atomic
def equipment_buy(
    *,
    warband: Warband,
    equipment: Equipment,
    fighter: Fighter | None = None,
    group: HenchmanGroup | None = None,
    expected_version: int | None = None,
    rare_found: bool = False,
    price: int | None = None,
) -> EquipmentItem:
    """Buy an item for a hero, a henchman group (price × members) or the stash.

    Rare items need ``rare_found`` (the post-battle rare-items roll found it); then ``price``
    may give the price actually paid (e.g. 35+3D6 rolled).
    """
    if fighter is not None and group is not None:
        raise ValidationError(_("Buy for one warrior or for one group, not both."))
    locked = _lock(warband, expected_version)
    if fighter is not None:
        fighter = _roster_fighter(locked, fighter)
        if fighter.group_id is not None:
            group, fighter = fighter.group, None
        elif fighter.status not in IN_ROSTER:
            raise ValidationError(
                _("%(name)s is no longer in the roster.") % {"name": fighter.name}
            )
    if group is not None:
        group = _roster_group(locked, group)
        if _group_size(group) == 0:
            raise ValidationError(_("This group has no members left."))
    unit, total, entry = equipment_price(
        warband=locked, equipment=equipment, fighter=fighter, group=group
    )
    if entry.is_rare and not rare_found:
        raise ValidationError(
            _("%(item)s is rare (%(rarity)d+): it can only be bought when found after a battle.")
            % {"item": equipment.name, "rarity": equipment.rarity}
        )
    if price is not None:
        if int(price) < 0:
            raise ValidationError({"price": _("A price cannot be negative.")})
        unit = int(price)
        total = unit * (_group_size(group) if group is not None else 1)
    holder_name = fighter.name if fighter else group.name if group else _("the stash")
    _check_affordable(
        locked,
        total,
        _("%(item)s for %(holder)s") % {"item": equipment.name, "holder": holder_name},
    )
    item = EquipmentItem.objects.create(
        warband=locked, equipment=equipment, fighter=fighter, group=group, unit_price=unit
    )
    if fighter is not None or group is not None:
        _loadout_check(locked, fighter=fighter, group=group)
    _ledger_apply(
        warband=locked,
        amount=-total,
        reason=LedgerEntry.Reason.BUY,
        description=_("Bought %(item)s for %(holder)s")
        % {"item": equipment.name, "holder": holder_name},
        source=item,
    )
    _finish(locked, caller=warband)
    return item


def _roster_item(locked: Warband, item: EquipmentItem | int) -> EquipmentItem:
    pk = item.pk if isinstance(item, EquipmentItem) else item
    found = (
        EquipmentItem.objects.select_related("equipment", "fighter", "group")
        .filter(pk=pk, warband=locked)
        .first()
    )
    if found is None:
        raise Conflict(_("This item is no longer in the warband: reload and try again."))
    return found


def item_sale_value(item: EquipmentItem) -> int:
    """Half the price paid, rounded down (a group's item: for every member)."""
    copies = _group_size(item.group) if item.group_id else 1
    return (item.unit_price * copies) // 2


@_atomic
def equipment_sell(*, item: EquipmentItem, expected_version: int | None = None) -> LedgerEntry:
    """Sell an item for half its price (rounded down)."""
    locked = _lock(item.warband_id, expected_version)
    item = _roster_item(locked, item)
    value = item_sale_value(item)
    holder = item.fighter or item.group
    description = _("Sold %(item)s of %(holder)s") % {
        "item": item.equipment.name,
        "holder": holder.name if holder else _("the stash"),
    }
    item.delete()
    entry = _ledger_apply(
        warband=locked,
        amount=value,
        reason=LedgerEntry.Reason.SELL,
        description=description,
    )
    _finish(locked)
    return entry


@_atomic
def equipment_stash(
    *, item: EquipmentItem, expected_version: int | None = None
) -> list[EquipmentItem]:
    """Move an item to the warband's stash (a group's item: one per member)."""
    locked = _lock(item.warband_id, expected_version)
    item = _roster_item(locked, item)
    if item.in_stash:
        raise ValidationError(_("This item is already in the stash."))
    copies = _group_size(item.group) if item.group_id else 1
    stashed = _to_stash(locked, [item], copies)
    _finish(locked)
    return stashed


@_atomic
def equipment_assign(
    *,
    item: EquipmentItem,
    fighter: Fighter | None = None,
    group: HenchmanGroup | None = None,
    expected_version: int | None = None,
) -> EquipmentItem:
    """Reallocate equipment: give an item from the stash (or another hero) to a hero, or
    equip a henchman group from the stash (it needs one of the item per member)."""
    if (fighter is None) == (group is None):
        raise ValidationError(_("Give the item to one warrior or to one group."))
    locked = _lock(item.warband_id, expected_version)
    item = _roster_item(locked, item)
    if item.group_id is not None:
        raise ValidationError(_("Move the group's item to the stash first."))
    if fighter is not None:
        fighter = _roster_fighter(locked, fighter)
        if fighter.group_id is not None:
            group, fighter = fighter.group, None
    if fighter is not None:
        if fighter.status not in IN_ROSTER:
            raise ValidationError(
                _("%(name)s is no longer in the roster.") % {"name": fighter.name}
            )
        _list_entry(locked, item.equipment, fighter_type=fighter.fighter_type)
        item.fighter = fighter
        item.save(update_fields=["fighter"])
        _loadout_check(locked, fighter=fighter)
        result = item
    else:
        group = _roster_group(locked, group)
        _list_entry(locked, item.equipment, fighter_type=group.fighter_type)
        needed = _group_size(group)
        if not item.in_stash:
            raise ValidationError(_("A group is equipped from the stash."))
        copies = list(
            EquipmentItem.objects.filter(
                warband=locked, equipment=item.equipment, fighter=None, group=None
            ).order_by("pk")[:needed]
        )
        if len(copies) < needed:
            raise ValidationError(
                _(
                    "The group has %(members)d members: it needs %(members)d × %(item)s in "
                    "the stash and there are %(count)d."
                )
                % {"members": needed, "item": item.equipment.name, "count": len(copies)}
            )
        result = EquipmentItem.objects.create(
            warband=locked, equipment=item.equipment, group=group, unit_price=item.unit_price
        )
        EquipmentItem.objects.filter(pk__in=[c.pk for c in copies]).delete()
        _loadout_check(locked, group=group)
    _finish(locked)
    return result


# --- post-battle hooks (called by battles) --------------------------------------------------


def _record_event(locked: Warband, *, reason: str, description: str, source=None) -> None:
    _ledger_apply(warband=locked, amount=0, reason=reason, description=description, source=source)


@_atomic
def fighter_kill(*, fighter: Fighter, source: Model | None = None) -> Fighter:
    """He is dead: out of the roster; his equipment is lost and the loss recorded."""
    locked = _lock(fighter.warband_id)
    fighter = _roster_fighter(locked, fighter)
    if fighter.status == Fighter.Status.DEAD:
        return fighter
    lost = [item.equipment.name for item in fighter.equipment.select_related("equipment")]
    fighter.equipment.all().delete()
    group = fighter.group
    if group is not None:
        lost += [item.equipment.name for item in group.equipment.select_related("equipment")]
    fighter.status = Fighter.Status.DEAD
    fighter.misses_battles = 0
    fighter.save(update_fields=["status", "misses_battles"])
    if group is not None and _group_size(group) == 0:
        group.equipment.all().delete()
    _record_event(
        locked,
        reason=LedgerEntry.Reason.INJURY,
        description=_("%(name)s is dead; equipment lost: %(items)s")
        % {"name": fighter.name, "items": ", ".join(lost) or "—"},
        source=source or fighter,
    )
    _finish(locked)
    return fighter


@_atomic
def fighter_set_status(
    *,
    fighter: Fighter,
    status: str,
    misses_battles: int | None = None,
    source: Model | None = None,
) -> Fighter:
    """Set a warrior's status (``dead`` goes through ``fighter_kill``)."""
    if status not in Fighter.Status.values:
        raise ValidationError({"status": _("Unknown status: %(status)s.") % {"status": status}})
    if status == Fighter.Status.DEAD:
        return fighter_kill(fighter=fighter, source=source)
    locked = _lock(fighter.warband_id)
    fighter = _roster_fighter(locked, fighter)
    if fighter.status == Fighter.Status.DEAD:
        raise ValidationError(_("%(name)s is dead.") % {"name": fighter.name})
    returning = fighter.status not in IN_ROSTER and status in IN_ROSTER
    if (
        returning
        and fighter.is_leader
        and Fighter.objects.filter(warband=locked, is_leader=True, status__in=IN_ROSTER)
        .exclude(pk=fighter.pk)
        .exists()
    ):
        # Back from captivity while another now leads the warband: he returns as a hero.
        fighter.is_leader = False
    fighter.status = status
    if status == Fighter.Status.MISSES_NEXT:
        fighter.misses_battles = max(1, misses_battles or 1)
    elif misses_battles is not None:
        fighter.misses_battles = max(0, int(misses_battles))
    else:
        fighter.misses_battles = 0
    fighter.save(update_fields=["status", "misses_battles", "is_leader"])
    if returning:
        _roster_limits_check(locked)  # a returning captive must still fit the roster
    _finish(locked)
    return fighter


def _holder(locked: Warband, fighter, group):
    if (fighter is None) == (group is None):
        raise ValidationError(_("Give one warrior or one group."))
    if fighter is not None:
        fighter = _roster_fighter(locked, fighter)
        if fighter.group_id is not None:
            return None, _roster_group(locked, fighter.group_id)
        return fighter, None
    return None, _roster_group(locked, group)


@_atomic
def fighter_add_experience(
    *, fighter: Fighter | None = None, group: HenchmanGroup | None = None, amount: int
) -> int:
    """Add experience to a hero or to a henchman group (all its members); returns the total.

    Creatures that never gain experience (animals, trolls) stay at 0.
    """
    warband_id = (fighter or group).warband_id
    locked = _lock(warband_id)
    fighter, group = _holder(locked, fighter, group)
    amount = int(amount)
    if fighter is not None:
        if fighter.fighter_type.can_gain_experience:
            fighter.experience = max(0, fighter.experience + amount)
            fighter.save(update_fields=["experience"])
        total = fighter.experience
    else:
        if group.fighter_type.can_gain_experience:
            group.experience = max(0, group.experience + amount)
            group.save(update_fields=["experience"])
            group.members.update(experience=group.experience)
        total = group.experience
    _finish(locked)
    return total


def _apply_change(target, race, characteristic: str, delta: int) -> int:
    if characteristic not in PROFILE_FIELDS:
        raise ValidationError(
            {"characteristic": _("Unknown characteristic: %(name)s.") % {"name": characteristic}}
        )
    current = getattr(target, characteristic)
    maximum = getattr(race, f"max_{characteristic}")
    new = current + delta
    if delta > 0 and new > maximum:
        raise ValidationError(
            _("%(name)s is already at the racial maximum for %(char)s (%(max)s).")
            % {"name": target.name, "char": SPANISH_NAMES[characteristic], "max": maximum}
        )
    new = max(0, new)
    if characteristic in CHARACTERISTIC_FIELDS:
        new = int(new)
    setattr(target, characteristic, new)
    return new


@_atomic
def fighter_apply_profile_change(
    *,
    fighter: Fighter | None = None,
    group: HenchmanGroup | None = None,
    characteristic: str,
    delta: int | float,
    source: Model | None = None,
) -> Any:
    """Raise or lower one characteristic (``m`` in cm), never above the racial maximum.

    A henchman's change applies to his whole group (they share one profile).
    """
    locked = _lock((fighter or group).warband_id)
    fighter, group = _holder(locked, fighter, group)
    if fighter is not None:
        _apply_change(fighter, fighter.fighter_type.race, characteristic, delta)
        fighter.save(update_fields=[characteristic])
        target = fighter
    else:
        value = _apply_change(group, group.fighter_type.race, characteristic, delta)
        group.save(update_fields=[characteristic])
        group.members.update(**{characteristic: value})
        target = group
    _finish(locked)
    return target


@_atomic
def fighter_add_advance(
    *,
    fighter: Fighter | None = None,
    group: HenchmanGroup | None = None,
    record: dict,
    characteristic: str | None = None,
    delta: int | float = 1,
    skill: Skill | None = None,
) -> Any:
    """Take one advance due: record it and apply its characteristic increase or new skill."""
    locked = _lock((fighter or group).warband_id)
    fighter, group = _holder(locked, fighter, group)
    target = fighter or group
    if target.advances_due < 1:
        raise ValidationError(_("%(name)s has no advance due.") % {"name": target.name})
    if characteristic:
        value = _apply_change(target, target.fighter_type.race, characteristic, delta)
        if group is not None:
            group.members.update(**{characteristic: value})
    if skill is not None:
        if fighter is None:
            raise ValidationError(_("Henchmen do not learn skills."))
        _check_skill(fighter, skill)
        fighter.skills.add(skill)
    target.advances = [*target.advances, {**record, "at": timezone.now().isoformat()}]
    target.save()
    _finish(locked)
    return target


def _check_skill(fighter: Fighter, skill: Skill) -> None:
    allowed = set(fighter.fighter_type.skill_lists.values_list("slug", flat=True))
    allowed |= set(fighter.skill_lists)
    if skill.skill_list.slug not in allowed:
        raise ValidationError(
            _("%(name)s cannot learn %(skill)s: %(list)s is not one of his skill lists.")
            % {"name": fighter.name, "skill": skill.name, "list": skill.skill_list.name}
        )
    if fighter.skills.filter(pk=skill.pk).exists():
        raise ValidationError(
            _("%(name)s already has %(skill)s.") % {"name": fighter.name, "skill": skill.name}
        )


@_atomic
def fighter_add_skill(*, fighter: Fighter, skill: Skill) -> Fighter:
    locked = _lock(fighter.warband_id)
    fighter = _roster_fighter(locked, fighter)
    if not fighter.is_hero:
        raise ValidationError(_("Henchmen do not learn skills."))
    _check_skill(fighter, skill)
    fighter.skills.add(skill)
    _finish(locked)
    return fighter


@_atomic
def fighter_add_injury(
    *,
    fighter: Fighter,
    code: str,
    label: str,
    battle_id: int | None = None,
    special_rule: str | None = None,
) -> Fighter:
    """Record a serious injury (heridas graves) on the sheet; an optional special rule too."""
    locked = _lock(fighter.warband_id)
    fighter = _roster_fighter(locked, fighter)
    record = {"code": code, "label": label}
    if battle_id is not None:
        record["battle_id"] = battle_id
    fighter.injuries = [*fighter.injuries, record]
    if special_rule and special_rule not in fighter.special_rules:
        fighter.special_rules = [*fighter.special_rules, special_rule]
    fighter.save(update_fields=["injuries", "special_rules"])
    _finish(locked)
    return fighter


# --- export / import -----------------------------------------------------------------------


def _profile(obj) -> dict[str, Any]:
    data = {field: getattr(obj, field) for field in PROFILE_FIELDS}
    if float(data["m"]).is_integer():
        data["m"] = int(data["m"])
    return data


def _items_export(items) -> list[dict[str, Any]]:
    return [{"item": item.equipment.slug, "price": item.unit_price} for item in items]


def warband_export(*, warband: Warband) -> dict[str, Any]:
    """The whole roster as JSON data (format ``annuminas.warband`` version 1, see README)."""
    from .selectors import warband_sheet

    sheet = warband_sheet(warband_id=warband.pk)
    ledger = sheet.ledger.order_by("pk")
    fighters = sheet.heroes_all
    return {
        "format": EXPORT_FORMAT,
        "format_version": EXPORT_FORMAT_VERSION,
        "exported_at": timezone.now().isoformat(),
        "content_pack": {
            "slug": sheet.warband_type.pack.slug,
            "version": sheet.warband_type.pack.version,
        },
        "warband": {
            "name": sheet.name,
            "type": sheet.warband_type.slug,
            "treasury": sheet.treasury,
            "finds": sheet.finds,
            "rating": sheet.rating,
            "notes": sheet.notes,
        },
        "ledger": [
            {
                "amount": entry.amount,
                "finds_delta": entry.finds_delta,
                "reason": entry.reason,
                "description": entry.description,
            }
            for entry in ledger
        ],
        "fighters": [
            {
                "name": fighter.name,
                "type": fighter.fighter_type.slug,
                "status": fighter.status,
                "is_leader": fighter.is_leader,
                "profile": _profile(fighter),
                "experience": fighter.experience,
                "hired_experience": fighter.hired_experience,
                "advances": fighter.advances,
                "skills": sorted(skill.slug for skill in fighter.skills.all()),
                "skill_lists": fighter.skill_lists,
                "injuries": fighter.injuries,
                "special_rules": fighter.special_rules,
                "misses_battles": fighter.misses_battles,
                "equipment": _items_export(fighter.equipment.all()),
            }
            for fighter in fighters
        ],
        "groups": [
            {
                "name": group.name,
                "type": group.fighter_type.slug,
                "profile": _profile(group),
                "experience": group.experience,
                "advances": group.advances,
                "special_rules": group.special_rules,
                "equipment": _items_export(group.equipment.all()),
                "members": [
                    {
                        "name": member.name,
                        "status": member.status,
                        "injuries": member.injuries,
                        "misses_battles": member.misses_battles,
                    }
                    for member in group.members.all()
                ],
            }
            for group in sheet.groups.all()
        ],
        "stash": _items_export(sheet.stash),
    }


def _import_error(message: str, **params) -> ValidationError:
    return ValidationError(
        _("Cannot import this warband: %(problem)s") % {"problem": message % params}
    )


def _get_slug(model, slug: Any, what: str, **filters):
    found = model.objects.filter(slug=slug, **filters).first() if isinstance(slug, str) else None
    if found is None:
        raise _import_error(_("unknown %(what)s “%(slug)s”."), what=what, slug=slug)
    return found


def _import_profile(data: Any, fallback) -> dict[str, Any]:
    """The profile of an imported warrior: numbers, and never above his race's maximum."""
    data = data if isinstance(data, dict) else {}
    race = fallback.race
    profile = {}
    for field in PROFILE_FIELDS:
        value = data.get(field, getattr(fallback, field))
        if isinstance(value, bool) or not isinstance(value, int | float) or value < 0:
            raise _import_error(_("%(name)s is not a valid value."), name=SPANISH_NAMES[field])
        if race is not None and value > getattr(race, f"max_{field}"):
            raise _import_error(
                _("%(name)s %(value)s is above the racial maximum of %(race)s (%(max)s)."),
                name=SPANISH_NAMES[field],
                value=value,
                race=race.name,
                max=getattr(race, f"max_{field}"),
            )
        profile[field] = value
    return profile


@_atomic
def warband_import(*, owner, data: Any) -> Warband:
    """Rebuild a warband from ``warband_export`` data, owned by ``owner``.

    Every door calls this with the parsed document as it came: it is checked field by field
    first (``import_format.import_document_check``: types, ranges, text bounds). The roster is
    validated with the same limits as hiring and buying; the ledger is replayed (or, without
    one, a single "import" entry gives the treasury and finds).
    """
    if not isinstance(data, dict) or data.get("format") != EXPORT_FORMAT:
        raise _import_error(_("this is not an Annúminas warband file."))
    if data.get("format_version") != EXPORT_FORMAT_VERSION:
        raise _import_error(
            _("format version %(version)s is not supported (only %(supported)d)."),
            version=data.get("format_version"),
            supported=EXPORT_FORMAT_VERSION,
        )
    data = import_document_check(data)
    head = data["warband"]
    warband_type = _get_slug(WarbandType, head.get("type"), _("warband type"))
    warband = Warband.objects.create(
        owner=owner,
        warband_type=warband_type,
        name=_clean_name(head.get("name", "")),
        notes=head.get("notes") or "",
        imported=True,
    )
    locked = _lock(warband)
    ledger = data.get("ledger")
    if isinstance(ledger, list) and ledger:
        for row in ledger:
            if not isinstance(row, dict):
                raise _import_error(_("a ledger row is not an object."))
            reason = row.get("reason", LedgerEntry.Reason.IMPORT)
            if reason not in LedgerEntry.Reason.values:
                raise _import_error(_("unknown ledger reason “%(reason)s”."), reason=reason)
            _ledger_apply(
                warband=locked,
                amount=int(row.get("amount", 0)),
                finds_delta=int(row.get("finds_delta", 0)),
                reason=reason,
                description=str(row.get("description", "")),
            )
    else:
        _ledger_apply(
            warband=locked,
            amount=int(head.get("treasury", 0)),
            finds_delta=int(head.get("finds", 0)),
            reason=LedgerEntry.Reason.IMPORT,
            description=_("Imported treasury and finds"),
        )
    for key in ("treasury", "finds"):
        if key in head and int(head[key]) != getattr(locked, key):
            raise _import_error(
                _("the %(field)s (%(value)s) does not match its ledger (%(sum)s)."),
                field=key,
                value=head[key],
                sum=getattr(locked, key),
            )

    def fighter_type_of(slug):
        return _get_slug(FighterType, slug, _("fighter type"), warband_type=warband_type)

    def add_items(rows, **holder):
        for row in rows or []:
            if not isinstance(row, dict):
                raise _import_error(_("an equipment row is not an object."))
            equipment = _get_slug(Equipment, row.get("item"), _("item"))
            # Only what the holder's equipment list (or, for the stash, the warband's) allows.
            owner_of_item = holder.get("fighter") or holder.get("group")
            _list_entry(
                locked,
                equipment,
                fighter_type=owner_of_item.fighter_type if owner_of_item else None,
            )
            EquipmentItem.objects.create(
                warband=locked,
                equipment=equipment,
                unit_price=max(0, int(row.get("price", equipment.cost))),
                **holder,
            )

    statuses = set(Fighter.Status.values)
    for row in data.get("fighters") or []:
        fighter_type = fighter_type_of(row.get("type"))
        if not fighter_type.is_hero:
            raise _import_error(
                _("%(type)s is a henchman: put it in a group."), type=fighter_type.name
            )
        status = row.get("status", Fighter.Status.ACTIVE)
        if status not in statuses:
            raise _import_error(_("unknown status “%(status)s”."), status=status)
        fighter = Fighter.objects.create(
            warband=locked,
            fighter_type=fighter_type,
            name=_clean_name(row.get("name", "")),
            status=status,
            is_hero=True,
            is_leader=bool(row.get("is_leader", fighter_type.is_leader)),
            experience=max(0, int(row.get("experience", fighter_type.starting_experience))),
            hired_experience=max(
                0, int(row.get("hired_experience", fighter_type.starting_experience))
            ),
            advances=list(row.get("advances") or []),
            skill_lists=list(row.get("skill_lists") or []),
            injuries=list(row.get("injuries") or []),
            special_rules=list(row.get("special_rules", fighter_type.special_rules) or []),
            misses_battles=max(0, int(row.get("misses_battles", 0))),
            **_import_profile(row.get("profile"), fighter_type),
        )
        skills = [_get_slug(Skill, slug, _("skill")) for slug in row.get("skills") or []]
        fighter.skills.set(skills)
        add_items(row.get("equipment"), fighter=fighter)
        _loadout_check(locked, fighter=fighter)
    for row in data.get("groups") or []:
        fighter_type = fighter_type_of(row.get("type"))
        if fighter_type.is_hero:
            raise _import_error(_("%(type)s is a hero, not a henchman."), type=fighter_type.name)
        profile = _import_profile(row.get("profile"), fighter_type)
        experience = max(0, int(row.get("experience", 0)))
        group = HenchmanGroup.objects.create(
            warband=locked,
            fighter_type=fighter_type,
            name=_clean_name(row.get("name", "")),
            experience=experience,
            advances=list(row.get("advances") or []),
            special_rules=list(row.get("special_rules", fighter_type.special_rules) or []),
            **profile,
        )
        members = row.get("members") or []
        if not members:
            raise _import_error(_("the group %(name)s has no members."), name=group.name)
        for member in members:
            status = member.get("status", Fighter.Status.ACTIVE)
            if status not in statuses:
                raise _import_error(_("unknown status “%(status)s”."), status=status)
            Fighter.objects.create(
                warband=locked,
                group=group,
                fighter_type=fighter_type,
                name=_clean_name(member.get("name", "")),
                status=status,
                experience=experience,
                hired_experience=0,
                injuries=list(member.get("injuries") or []),
                misses_battles=max(0, int(member.get("misses_battles", 0))),
                special_rules=list(group.special_rules),
                **profile,
            )
        add_items(row.get("equipment"), group=group)
        _loadout_check(locked, group=group)
    add_items(data.get("stash"))
    _roster_limits_check(locked)
    _finish(locked)
    return locked
