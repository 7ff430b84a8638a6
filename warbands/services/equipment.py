"""Equipment: price, buy, sell, stash, assign; the loadout and equipment-list checks."""

from __future__ import annotations

from django.core.exceptions import ValidationError
from django.utils.translation import gettext as _

from annuminas.errors import Conflict

from ..ledger_texts import catalogue_term, stash_term
from ..loadout import loadout_problem
from ..models import (
    Equipment,
    EquipmentItem,
    EquipmentListEntry,
    Fighter,
    FighterType,
    HenchmanGroup,
    LedgerEntry,
    Warband,
)
from ..progression import pack_setting
from . import undo
from .ledger import check_affordable, ledger_apply
from .rating import pack_settings
from .unit import (
    finish_change,
    group_size,
    lock_warband,
    require_in_roster,
    roster_atomic,
    roster_fighter,
    roster_group,
    roster_row,
)


def list_entry(locked: Warband, equipment: Equipment, *, fighter_type: FighterType | None):
    """The list entry that lets this holder buy ``equipment`` (stash: any list of the type)."""
    if fighter_type is not None:
        if fighter_type.equipment_list_id is None:
            raise ValidationError(
                _("%(fighter)s cannot carry equipment.") % {"fighter": fighter_type.display_name}
            )
        entry = (
            EquipmentListEntry.objects.select_related("equipment")
            .filter(equipment_list_id=fighter_type.equipment_list_id, equipment=equipment)
            .first()
        )
        if entry is None:
            raise ValidationError(
                _("%(item)s is not in the equipment list of %(fighter)s.")
                % {"item": equipment.display_name, "fighter": fighter_type.display_name}
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
            % {"item": equipment.display_name, "type": locked.warband_type.display_name}
        )
    return entry


def loadout_check(warband: Warband, *, fighter=None, group=None) -> None:
    """What a hero or group carries must be a legal loadout (hands, armour, pack options)."""
    holder = {"fighter": fighter} if fighter is not None else {"group": group}
    # Newest first, so a problem is reported about the item just added.
    items = [
        item.equipment
        for item in EquipmentItem.objects.filter(**holder)
        .select_related("equipment")
        .order_by("-pk")
    ]
    problem = loadout_problem(items, settings=pack_settings(warband))
    if problem:
        name = fighter.name if fighter is not None else group.name
        raise ValidationError(f"{name}: {problem}")


def to_stash(locked: Warband, items: list[EquipmentItem], copies: int) -> list[EquipmentItem]:
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


def hired_sword_takes_no_gear(fighter: Fighter) -> None:
    """A hired sword fights with the equipment he came with (Mordheim's hired swords: they
    cannot be given other equipment); only a pack that gives his type an equipment list lets
    the warband equip him."""
    if fighter.hired_sword_id is not None and fighter.fighter_type.equipment_list_id is None:
        raise ValidationError(
            _(
                "%(name)s is a hired sword: he fights with the equipment he came with and "
                "takes none from the warband."
            )
            % {"name": fighter.name}
        )


def _own_gear_stays(item: EquipmentItem) -> None:
    """A hired sword's own equipment goes where he goes: it is not sold or stashed."""
    fighter = item.fighter
    if fighter is not None and fighter.hired_sword_id is not None and item.unit_price == 0:
        own = fighter.hired_sword.equipment.filter(pk=item.equipment_id).exists()
        if own:
            raise ValidationError(
                _("%(item)s belongs to the hired sword %(name)s: it goes where he goes.")
                % {"item": item.equipment.display_name, "name": fighter.name}
            )


def _holder_has_dagger(*, fighter=None, group=None) -> bool:
    holder = {"fighter": fighter} if fighter is not None else {"group": group}
    return EquipmentItem.objects.filter(**holder, equipment__rules__first_free=True).exists()


def equipment_price(
    *, warband: Warband, equipment: Equipment, fighter=None, group=None
) -> tuple[int, int, EquipmentListEntry]:
    """(unit price, total, list entry) a purchase would cost now; raises when it is not allowed."""
    fighter_type = fighter.fighter_type if fighter else group.fighter_type if group else None
    entry = list_entry(warband, equipment, fighter_type=fighter_type)
    unit = entry.price
    if (
        (fighter is not None or group is not None)
        and equipment.rules.get("first_free")
        and pack_setting(pack_settings(warband), "free_dagger", True)
        and not _holder_has_dagger(fighter=fighter, group=group)
    ):
        unit = 0
    copies = group_size(group) if group is not None else 1
    return unit, unit * copies, entry


def _buyer(locked: Warband, fighter, group) -> tuple[Fighter | None, HenchmanGroup | None]:
    """Who receives a purchase: a hero in the roster, a group with members, or the stash."""
    if fighter is not None:
        fighter = roster_fighter(locked, fighter)
        if fighter.group_id is not None:
            group, fighter = fighter.group, None
        else:
            hired_sword_takes_no_gear(require_in_roster(fighter))
    if group is not None:
        group = roster_group(locked, group)
        if group_size(group) == 0:
            raise ValidationError(_("This group has no members left."))
    return fighter, group


@undo.undoable("bought", undo.describe_item)
@roster_atomic
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
    locked = lock_warband(warband, expected_version)
    fighter, group = _buyer(locked, fighter, group)
    unit, total, entry = equipment_price(
        warband=locked, equipment=equipment, fighter=fighter, group=group
    )
    if entry.is_rare and not rare_found:
        raise ValidationError(
            _("%(item)s is rare (%(rarity)d+): it can only be bought when found after a battle.")
            % {"item": equipment.display_name, "rarity": equipment.rarity}
        )
    if price is not None:
        if int(price) < 0:
            raise ValidationError({"price": _("A price cannot be negative.")})
        unit = int(price)
        total = unit * (group_size(group) if group is not None else 1)
    holder_name = fighter.name if fighter else group.name if group else _("the stash")
    check_affordable(
        locked,
        total,
        _("%(item)s for %(holder)s") % {"item": equipment.display_name, "holder": holder_name},
    )
    item = EquipmentItem.objects.create(
        warband=locked, equipment=equipment, fighter=fighter, group=group, unit_price=unit
    )
    if fighter is not None or group is not None:
        loadout_check(locked, fighter=fighter, group=group)
    ledger_apply(
        warband=locked,
        amount=-total,
        reason=LedgerEntry.Reason.BUY,
        code="bought",
        params={
            "item": catalogue_term(equipment),
            "holder": fighter.name if fighter else group.name if group else stash_term(),
        },
        source=item,
    )
    finish_change(locked, caller=warband)
    return item


def _roster_item(locked: Warband, item: EquipmentItem | int) -> EquipmentItem:
    found = roster_row(locked, EquipmentItem, item, ("equipment", "fighter", "group"))
    if found is None:
        raise Conflict(
            _("This item is no longer in the warband: reload and try again."), code="item_gone"
        )
    return found


def item_copies(item: EquipmentItem) -> int:
    """How many of the item the warband has: one for each member of a group, otherwise one."""
    return group_size(item.group) if item.group_id else 1


def sale_value(unit_price: int, copies: int = 1) -> int:
    """Half the price paid, rounded down, for every copy."""
    return (unit_price * copies) // 2


def item_sale_value(item: EquipmentItem) -> int:
    """What selling the item brings (a group's item: every member's)."""
    return sale_value(item.unit_price, item_copies(item))


@undo.undoable("sold", undo.describe_item)
@roster_atomic
def equipment_sell(*, item: EquipmentItem, expected_version: int | None = None) -> LedgerEntry:
    """Sell an item for half its price (rounded down)."""
    locked = lock_warband(item.warband_id, expected_version)
    item = _roster_item(locked, item)
    _own_gear_stays(item)
    value = item_sale_value(item)
    holder = item.fighter or item.group
    params = {
        "item": catalogue_term(item.equipment),
        "holder": holder.name if holder else stash_term(),
    }
    item.delete()
    entry = ledger_apply(
        warband=locked, amount=value, reason=LedgerEntry.Reason.SELL, code="sold", params=params
    )
    finish_change(locked)
    return entry


@undo.undoable("stashed", undo.describe_item)
@roster_atomic
def equipment_stash(
    *, item: EquipmentItem, expected_version: int | None = None
) -> list[EquipmentItem]:
    """Move an item to the warband's stash (a group's item: one per member)."""
    locked = lock_warband(item.warband_id, expected_version)
    item = _roster_item(locked, item)
    if item.in_stash:
        raise ValidationError(_("This item is already in the stash."))
    _own_gear_stays(item)
    copies = group_size(item.group) if item.group_id else 1
    stashed = to_stash(locked, [item], copies)
    finish_change(locked)
    return stashed


@undo.undoable("assigned", undo.describe_assign)
@roster_atomic
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
    locked = lock_warband(item.warband_id, expected_version)
    item = _roster_item(locked, item)
    if item.group_id is not None:
        raise ValidationError(_("Move the group's item to the stash first."))
    _own_gear_stays(item)
    if fighter is not None:
        fighter = roster_fighter(locked, fighter)
        if fighter.group_id is not None:
            group, fighter = fighter.group, None
    if fighter is not None:
        result = _assign_to_hero(locked, item, fighter)
    else:
        result = _assign_to_group(locked, item, roster_group(locked, group))
    finish_change(locked)
    return result


def _assign_to_hero(locked: Warband, item: EquipmentItem, fighter: Fighter) -> EquipmentItem:
    hired_sword_takes_no_gear(require_in_roster(fighter))
    list_entry(locked, item.equipment, fighter_type=fighter.fighter_type)
    item.fighter = fighter
    item.save(update_fields=["fighter"])
    loadout_check(locked, fighter=fighter)
    return item


def _assign_to_group(locked: Warband, item: EquipmentItem, group: HenchmanGroup) -> EquipmentItem:
    """One copy per member leaves the stash and becomes the group's item."""
    list_entry(locked, item.equipment, fighter_type=group.fighter_type)
    needed = group_size(group)
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
            % {"members": needed, "item": item.equipment.display_name, "count": len(copies)}
        )
    result = EquipmentItem.objects.create(
        warband=locked, equipment=item.equipment, group=group, unit_price=item.unit_price
    )
    EquipmentItem.objects.filter(pk__in=[c.pk for c in copies]).delete()
    loadout_check(locked, group=group)
    return result
