"""The warband itself: create, update (name, notes, sharing), rename, delete, rating refresh.

Sharing is the owner's choice: a new warband has no share link. ``shared`` turns the link on
(a new token) or off (the token is dropped: the old link answers 404), ``rotate_share_link``
replaces the token of a shared warband, ``share_notes`` puts the notes on the shared copy.
"""

from __future__ import annotations

from typing import Any

from django.core.exceptions import ValidationError
from django.db.models import ProtectedError, RestrictedError
from django.utils.translation import gettext as _

from annuminas.errors import Conflict

from .. import limits
from ..models import LedgerEntry, Warband, WarbandType
from ..models.roster import new_share_token
from .ledger import ledger_apply
from .rating import roster_refresh
from .unit import current_batch, finish_change, lock_warband, roster_atomic, sync_instance

UPDATABLE_WARBAND_FIELDS = ("name", "notes", "shared", "share_notes", "rotate_share_link")


@roster_atomic
def warband_create(*, owner, warband_type: WarbandType, name: str) -> Warband:
    """A new, empty warband with its starting treasury (recorded in the ledger)."""
    if not warband_type.playable:
        raise ValidationError(
            _("%(type)s is not a playable warband type.") % {"type": warband_type.display_name}
        )
    warband = Warband.objects.create(
        owner=owner, warband_type=warband_type, name=limits.clean_name(name, field="name")
    )
    locked = lock_warband(warband)
    ledger_apply(
        warband=locked,
        amount=warband_type.starting_treasury,
        reason=LedgerEntry.Reason.STARTING_TREASURY,
        code="starting_treasury",
        source=locked,
    )
    finish_change(locked)
    return locked


@roster_atomic
def warband_update(*, warband: Warband, expected_version: int | None, **fields: Any) -> Warband:
    """Change the name, the notes and/or the sharing (see the module's docstring)."""
    unknown = set(fields) - set(UPDATABLE_WARBAND_FIELDS)
    if unknown:
        raise ValidationError(
            {field: _("This field cannot be changed here.") for field in sorted(unknown)}
        )
    locked = lock_warband(warband, expected_version)
    if "name" in fields:
        locked.name = limits.clean_name(fields["name"], field="name")
    if "notes" in fields:
        locked.notes = limits.clean_text(
            fields["notes"], field="notes", max_length=limits.NOTES_MAX_LENGTH
        )
    _sharing_set(
        locked,
        shared=fields.get("shared"),
        notes=fields.get("share_notes"),
        rotate=bool(fields.get("rotate_share_link")),
    )
    locked.save(update_fields=["name", "notes", "share_token", "share_notes", "updated_at"])
    finish_change(locked, caller=warband, roster_changed=False)
    return locked


def _sharing_set(warband: Warband, *, shared: bool | None, notes: bool | None, rotate: bool):
    if shared is not None:
        if not shared:
            warband.share_token = None
        elif not warband.share_token:
            warband.share_token = new_share_token()
    if rotate:
        if not warband.share_token:
            raise ValidationError(
                {"rotate_share_link": _("Sharing is off: turn it on to get a link.")}
            )
        warband.share_token = new_share_token()
    if notes is not None:
        warband.share_notes = bool(notes)


def warband_rename(*, warband: Warband, name: str, expected_version: int | None = None) -> Warband:
    return warband_update(warband=warband, expected_version=expected_version, name=name)


@roster_atomic
def warband_delete(*, warband: Warband, expected_version: int | None = None) -> None:
    """Delete a warband and its roster; one that joined a campaign or played a battle stays on
    the campaign's record and is refused with ``Conflict`` (409)."""
    locked = lock_warband(warband, expected_version)
    try:
        locked.delete()
    except (ProtectedError, RestrictedError) as exc:
        # Raised while collecting what to delete, before any row is deleted.
        raise Conflict(
            _(
                "%(name)s has joined a campaign or played battles, which keep it on their "
                "record: it cannot be deleted."
            )
            % {"name": locked.name},
            code="warband_on_record",
        ) from exc


@roster_atomic
def warband_rating_refresh(*, warband: Warband) -> int:
    """Recompute the rating (5 per warrior, 20 per large creature, plus experience)."""
    locked = lock_warband(warband)
    before = locked.rating
    batch = current_batch(locked)
    if batch is not None:  # computed now unless nothing changed since the batch last did
        rating = batch.refresh()
        batch.changed = batch.changed or rating != before
        sync_instance(warband, locked)
        return rating
    roster_refresh(locked)
    rating = locked.rating
    if rating != before:
        locked.version += 1
    locked.save(update_fields=["rating", "version", "updated_at"])
    sync_instance(warband, locked)
    return rating
