"""The ledger: the only way treasury and finds change (append-only ``LedgerEntry`` rows)."""

from __future__ import annotations

from typing import Any

from django.conf import settings
from django.contrib.contenttypes.models import ContentType
from django.core.exceptions import ValidationError
from django.db.models import Model
from django.utils import translation
from django.utils.translation import gettext as _

from ..ledger_texts import ledger_text, ledger_text_check
from ..models import LedgerEntry, Warband
from .unit import batch_holding, finish_change, lock_warband, roster_atomic, sync_instance


def _source_fields(source: Model | None) -> dict[str, Any]:
    if source is None or source.pk is None:
        return {"source_type": None, "source_id": None}
    return {
        "source_type": ContentType.objects.get_for_model(source, for_concrete_model=False),
        "source_id": source.pk,
    }


def check_affordable(locked: Warband, cost: int, what: str) -> None:
    """Refuse a purchase the treasury cannot pay, naming ``what`` costs what."""
    if cost > locked.treasury:
        raise ValidationError(
            _(
                "Not enough coronas: %(what)s costs %(cost)d co and the treasury holds "
                "%(treasury)d co."
            )
            % {"what": what, "cost": cost, "treasury": locked.treasury}
        )


def _description_fields(description: str, code: str, params: dict | None) -> dict[str, Any]:
    """A coded line keeps its code and parameters, and its words in the site's language as the
    searchable ``description``; a plain ``description`` (imports, old callers) is kept as is."""
    if not code:
        return {"description": description[:255], "description_code": "", "description_params": {}}
    params = dict(params or {})
    ledger_text_check(code, params)
    with translation.override(settings.LANGUAGE_CODE):
        searchable = ledger_text(code, params)
    return {
        "description": searchable[:255],
        "description_code": code,
        "description_params": params,
    }


def ledger_apply(
    *,
    warband: Warband,
    amount: int,
    finds_delta: int = 0,
    reason: str,
    description: str = "",
    code: str = "",
    params: dict[str, Any] | None = None,
    source: Model | None = None,
) -> LedgerEntry:
    """Append one entry and move treasury and finds; expects the row locked by
    ``lock_warband`` (inside a ``roster_batch`` the row is saved when the batch ends, and in a
    batch that holds the roster in memory the entry is inserted then too).

    Say what happened with ``code`` and ``params`` (see ``warbands.ledger_texts``): the line
    is worded when shown, in the reader's language. A plain ``description`` is shown as given.
    """
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
    entry = LedgerEntry(
        warband=warband,
        amount=int(amount),
        finds_delta=int(finds_delta),
        treasury_after=treasury,
        finds_after=finds,
        reason=reason,
        **_description_fields(description, code, params),
        **_source_fields(source),
    )
    batch = batch_holding(warband)
    if batch is None:
        warband.save(update_fields=["treasury", "finds", "updated_at"])
        entry.save(force_insert=True)
        return entry
    batch.changed = True
    batch.fields |= {"treasury", "finds"}
    if batch.loaded:  # inserted with the batch's one write (the entry has no id until then)
        batch.ledger.append(entry)
    else:
        entry.save(force_insert=True)
    return entry


def ledger_event(
    locked: Warband,
    *,
    reason: str,
    description: str = "",
    code: str = "",
    params: dict[str, Any] | None = None,
    source=None,
) -> LedgerEntry:
    """A ledger row that moves no money: something happened to the roster (dismissed, dead)."""
    return ledger_apply(
        warband=locked,
        amount=0,
        reason=reason,
        description=description,
        code=code,
        params=params,
        source=source,
    )


@roster_atomic
def ledger_record(
    *,
    warband: Warband,
    amount: int,
    finds_delta: int = 0,
    reason: str,
    description: str = "",
    code: str = "",
    params: dict[str, Any] | None = None,
    source: Model | None = None,
    expected_version: int | None = None,
) -> LedgerEntry:
    """The only way treasury and finds change: append one entry (locks the warband row).

    Refuses to take the treasury or the finds below zero.
    """
    locked = lock_warband(warband, expected_version)
    entry = ledger_apply(
        warband=locked,
        amount=amount,
        finds_delta=finds_delta,
        reason=reason,
        description=description,
        code=code,
        params=params,
        source=source,
    )
    batch = batch_holding(locked)
    if batch is not None:  # treasury and finds only: rating and advances due are unchanged
        batch.changed = True
        sync_instance(warband, locked)
    else:
        finish_change(locked, caller=warband, roster_changed=False)
    return entry
