"""Hired swords (espadas de alquiler): hiring one for its fee, paying its upkeep after a battle,
or letting it leave. The terms are catalogue data (``HiredSword``); the campaigns' house rules
that forbid some of them run as registered ``constraints`` when the roster changes."""

from __future__ import annotations

from django.core.exceptions import ValidationError
from django.utils.translation import gettext as _

from .. import limits
from ..ledger_texts import catalogue_term
from ..models import EquipmentItem, Fighter, HiredSword, LedgerEntry, Warband
from . import undo
from .hiring import _leave_roster, fighter_dismiss, hero_create, roster_limits_check
from .ledger import check_affordable, ledger_apply, ledger_event
from .unit import (
    IN_ROSTER,
    finish_change,
    lock_warband,
    require_in_roster,
    roster_atomic,
    roster_fighter,
)


def hired_swords_for(warband_type) -> list[HiredSword]:
    """The catalogue's hired swords a warband of ``warband_type`` may hire."""
    swords = (
        HiredSword.objects.filter(fighter_type__pack_version_id=warband_type.pack_version_id)
        .select_related("fighter_type")
        .prefetch_related("allowed_warband_types", "excluded_warband_types")
    )
    return [sword for sword in swords if sword.may_serve(warband_type)]


def _terms(hired_sword: HiredSword | int) -> HiredSword:
    pk = hired_sword.pk if isinstance(hired_sword, HiredSword) else hired_sword
    found = (
        HiredSword.objects.select_related("fighter_type")
        .prefetch_related("allowed_warband_types", "excluded_warband_types", "equipment")
        .filter(pk=pk)
        .first()
    )
    if found is None:
        raise ValidationError({"hired_sword": _("There is no such hired sword.")})
    return found


@undo.undoable("hired_sword", undo.describe_sword)
@roster_atomic
def hired_sword_hire(
    *,
    warband: Warband,
    hired_sword: HiredSword | int,
    name: str = "",
    expected_version: int | None = None,
) -> Fighter:
    """Hire a hired sword: the fee through the ledger, its own equipment with it.

    Refused when the warband's type may not hire it, when the warband already has as many as
    the data allows (one unless it says otherwise), when the treasury is short, when the
    warband would be over its size, or (the registered house-rule constraints) when a campaign
    it plays in forbids it. It does not count against the hero limit.
    """
    locked = lock_warband(warband, expected_version)
    terms = _terms(hired_sword)
    fighter_type = terms.fighter_type
    if not terms.may_serve(locked.warband_type):
        raise ValidationError(
            {
                "hired_sword": _("%(sword)s does not serve a %(type)s warband.")
                % {"sword": fighter_type.display_name, "type": locked.warband_type.display_name}
            }
        )
    most = fighter_type.max_count or 1
    already = locked.fighters.filter(hired_sword=terms, status__in=IN_ROSTER).count()
    if already >= most:
        raise ValidationError(
            {
                "hired_sword": _(
                    "%(sword)s already serves this warband; a warband may hire %(max)d at most."
                )
                % {"sword": fighter_type.display_name, "max": most}
            }
        )
    name = limits.clean_name(name or fighter_type.display_name)
    fee = fighter_type.cost
    check_affordable(locked, fee, _("Hiring %(name)s") % {"name": fighter_type.display_name})
    hired = hero_create(locked, fighter_type, name, hired_sword=terms)
    EquipmentItem.objects.bulk_create(
        EquipmentItem(warband=locked, equipment=item, fighter=hired, unit_price=0)
        for item in terms.equipment.all()
    )
    roster_limits_check(locked)
    ledger_apply(
        warband=locked,
        amount=-fee,
        reason=LedgerEntry.Reason.HIRE,
        code="hired_sword_hired",
        params={"name": name, "type": catalogue_term(fighter_type)},
        source=hired,
    )
    finish_change(locked, caller=warband)
    return hired


@roster_atomic
def hired_sword_pay_upkeep(*, fighter: Fighter, expected_version: int | None = None) -> Fighter:
    """Pay a hired sword's upkeep (after a battle) through the ledger; refused, with nothing
    written, when the treasury cannot pay it."""
    locked = lock_warband(fighter.warband_id, expected_version)
    fighter = _sword_in_roster(locked, fighter)
    upkeep = fighter.hired_sword.upkeep
    check_affordable(locked, upkeep, _("The upkeep of %(name)s") % {"name": fighter.name})
    ledger_apply(
        warband=locked,
        amount=-upkeep,
        reason=LedgerEntry.Reason.HIRE,
        code="hired_sword_upkeep",
        params={"name": fighter.name},
        source=fighter,
    )
    finish_change(locked, roster_changed=False)
    return fighter


@undo.undoable("sword_left", undo.describe_who)
@roster_atomic
def hired_sword_leave(*, fighter: Fighter, expected_version: int | None = None) -> Fighter:
    """The hired sword leaves the warband (unpaid): he stays on the record as retired, takes his
    own gear, and what the warband gave him goes to the stash."""
    locked = lock_warband(fighter.warband_id, expected_version)
    fighter = _sword_in_roster(locked, fighter)
    _leave_roster(locked, fighter, status=Fighter.Status.RETIRED)
    ledger_event(
        locked,
        reason=LedgerEntry.Reason.DISMISS,
        code="hired_sword_left",
        params={"name": fighter.name},
        source=fighter,
    )
    finish_change(locked)
    return fighter


def _sword_in_roster(locked: Warband, fighter: Fighter | int) -> Fighter:
    fighter = roster_fighter(locked, fighter)
    if fighter.hired_sword_id is None:
        raise ValidationError(_("%(name)s is not a hired sword.") % {"name": fighter.name})
    return require_in_roster(fighter)


def fighter_or_sword_dismiss(*, fighter: Fighter, expected_version: int | None = None):
    """A warrior leaves the warband: a hired sword as hired swords do (``hired_sword_leave``),
    anyone else dismissed (``fighter_dismiss``)."""
    if fighter.hired_sword_id is not None:
        return hired_sword_leave(fighter=fighter, expected_version=expected_version)
    return fighter_dismiss(fighter=fighter, expected_version=expected_version)
