"""Export a roster as JSON data and import it back (format ``annuminas.warband`` v1)."""

from __future__ import annotations

from typing import Any

from django.core.exceptions import ValidationError
from django.utils import timezone
from django.utils.translation import gettext as _

from .. import limits
from ..import_format import import_document_check
from ..models import (
    PROFILE_FIELDS,
    SPANISH_NAMES,
    Equipment,
    EquipmentItem,
    Fighter,
    FighterType,
    HenchmanGroup,
    HiredSword,
    LedgerEntry,
    Skill,
    Warband,
    WarbandType,
)
from ..selectors import warband_sheet
from .equipment import list_entry, loadout_check
from .hiring import roster_limits_check
from .ledger import ledger_apply
from .unit import finish_change, lock_warband, roster_atomic

EXPORT_FORMAT = "annuminas.warband"
EXPORT_FORMAT_VERSION = 1
FIGHTER_STATUSES = frozenset(Fighter.Status.values)


def _profile(obj) -> dict[str, Any]:
    data = {field: getattr(obj, field) for field in PROFILE_FIELDS}
    if float(data["m"]).is_integer():
        data["m"] = int(data["m"])
    return data


def _items_export(items) -> list[dict[str, Any]]:
    return [{"item": item.equipment.slug, "price": item.unit_price} for item in items]


def _fighter_export(fighter: Fighter) -> dict[str, Any]:
    return {
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
        **({"hired_sword": fighter.fighter_type.slug} if fighter.hired_sword_id else {}),
    }


def _group_export(group: HenchmanGroup) -> dict[str, Any]:
    return {
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


def warband_export(*, warband: Warband) -> dict[str, Any]:
    """The whole roster as JSON data (format ``annuminas.warband`` version 1, see README)."""
    sheet = warband_sheet(warband_id=warband.pk)
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
                "description": entry.text,
            }
            for entry in sheet.ledger.order_by("pk")
        ],
        "fighters": [_fighter_export(fighter) for fighter in sheet.heroes_all],
        "groups": [_group_export(group) for group in sheet.groups.all()],
        "stash": _items_export(sheet.stash),
    }


# --- import ------------------------------------------------------------------------------------


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


def _import_status(row: dict) -> str:
    status = row.get("status", Fighter.Status.ACTIVE)
    if status not in FIGHTER_STATUSES:
        raise _import_error(_("unknown status “%(status)s”."), status=status)
    return status


@roster_atomic
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
        name=limits.clean_name(head.get("name", "")),
        notes=head.get("notes") or "",
        imported=True,
    )
    locked = lock_warband(warband)
    _import_ledger(locked, head, data.get("ledger"))
    for row in data.get("fighters") or []:
        _import_hero(locked, row)
    for row in data.get("groups") or []:
        _import_group(locked, row)
    _import_items(locked, data.get("stash"))
    roster_limits_check(locked)
    finish_change(locked)
    return locked


def _import_ledger(locked: Warband, head: dict, ledger: Any) -> None:
    """Replay the ledger (or one "import" entry), then check it adds up to the head's sums."""
    if isinstance(ledger, list) and ledger:
        for row in ledger:
            if not isinstance(row, dict):
                raise _import_error(_("a ledger row is not an object."))
            reason = row.get("reason", LedgerEntry.Reason.IMPORT)
            if reason not in LedgerEntry.Reason.values:
                raise _import_error(_("unknown ledger reason “%(reason)s”."), reason=reason)
            ledger_apply(
                warband=locked,
                amount=int(row.get("amount", 0)),
                finds_delta=int(row.get("finds_delta", 0)),
                reason=reason,
                description=str(row.get("description", "")),
            )
    else:
        ledger_apply(
            warband=locked,
            amount=int(head.get("treasury", 0)),
            finds_delta=int(head.get("finds", 0)),
            reason=LedgerEntry.Reason.IMPORT,
            code="imported",
        )
    for key in ("treasury", "finds"):
        if key in head and int(head[key]) != getattr(locked, key):
            raise _import_error(
                _("the %(field)s (%(value)s) does not match its ledger (%(sum)s)."),
                field=key,
                value=head[key],
                sum=getattr(locked, key),
            )


def _import_fighter_type(locked: Warband, slug: Any) -> FighterType:
    return _get_slug(FighterType, slug, _("fighter type"), warband_type=locked.warband_type)


def _import_items(locked: Warband, rows: Any, **holder) -> None:
    """Equipment rows, only what the holder's equipment list (stash: the warband's) allows."""
    owner_of_item = holder.get("fighter") or holder.get("group")
    for row in rows or []:
        if not isinstance(row, dict):
            raise _import_error(_("an equipment row is not an object."))
        equipment = _get_slug(Equipment, row.get("item"), _("item"))
        list_entry(
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


def _import_hired_sword(locked: Warband, slug: Any) -> HiredSword | None:
    """The hired sword a fighter row names (``hired_sword``), if it may serve this warband."""
    if slug is None:
        return None
    terms = (
        HiredSword.objects.select_related("fighter_type", "fighter_type__race")
        .filter(fighter_type__slug=slug)
        .first()
        if isinstance(slug, str)
        else None
    )
    if terms is None:
        raise _import_error(_("unknown %(what)s “%(slug)s”."), what=_("hired sword"), slug=slug)
    if not terms.may_serve(locked.warband_type):
        raise _import_error(
            _("%(sword)s does not serve a %(type)s warband."),
            sword=terms.fighter_type.name,
            type=locked.warband_type.name,
        )
    return terms


def _import_own_gear(locked: Warband, terms: HiredSword, fighter: Fighter, rows: Any) -> None:
    """A hired sword carries only his own equipment (never paid for)."""
    own = {item.slug: item for item in terms.equipment.all()}
    for row in rows or []:
        slug = row.get("item") if isinstance(row, dict) else None
        if slug not in own:
            raise _import_error(
                _("%(sword)s carries only his own equipment, not “%(item)s”."),
                sword=terms.fighter_type.name,
                item=slug,
            )
        EquipmentItem.objects.create(
            warband=locked, equipment=own[slug], fighter=fighter, unit_price=0
        )


def _import_hero(locked: Warband, row: dict) -> None:
    terms = _import_hired_sword(locked, row.get("hired_sword"))
    if terms is not None:
        fighter_type = terms.fighter_type
    else:
        fighter_type = _import_fighter_type(locked, row.get("type"))
    if not fighter_type.is_hero:
        raise _import_error(_("%(type)s is a henchman: put it in a group."), type=fighter_type.name)
    status = _import_status(row)
    fighter = Fighter.objects.create(
        warband=locked,
        fighter_type=fighter_type,
        name=limits.clean_name(row.get("name", "")),
        status=status,
        is_hero=True,
        is_leader=terms is None and bool(row.get("is_leader", fighter_type.is_leader)),
        hired_sword=terms,
        experience=max(0, int(row.get("experience", fighter_type.starting_experience))),
        hired_experience=max(0, int(row.get("hired_experience", fighter_type.starting_experience))),
        advances=list(row.get("advances") or []),
        skill_lists=list(row.get("skill_lists") or []),
        injuries=list(row.get("injuries") or []),
        special_rules=list(row.get("special_rules", fighter_type.special_rules) or []),
        misses_battles=max(0, int(row.get("misses_battles", 0))),
        **_import_profile(row.get("profile"), fighter_type),
    )
    skills = [_get_slug(Skill, slug, _("skill")) for slug in row.get("skills") or []]
    fighter.skills.set(skills)
    if terms is not None:
        _import_own_gear(locked, terms, fighter, row.get("equipment"))
        return
    _import_items(locked, row.get("equipment"), fighter=fighter)
    loadout_check(locked, fighter=fighter)


def _import_group(locked: Warband, row: dict) -> None:
    fighter_type = _import_fighter_type(locked, row.get("type"))
    if fighter_type.is_hero:
        raise _import_error(_("%(type)s is a hero, not a henchman."), type=fighter_type.name)
    profile = _import_profile(row.get("profile"), fighter_type)
    experience = max(0, int(row.get("experience", 0)))
    group = HenchmanGroup.objects.create(
        warband=locked,
        fighter_type=fighter_type,
        name=limits.clean_name(row.get("name", "")),
        experience=experience,
        advances=list(row.get("advances") or []),
        special_rules=list(row.get("special_rules", fighter_type.special_rules) or []),
        **profile,
    )
    members = row.get("members") or []
    if not members:
        raise _import_error(_("the group %(name)s has no members."), name=group.name)
    for member in members:
        status = _import_status(member)
        Fighter.objects.create(
            warband=locked,
            group=group,
            fighter_type=fighter_type,
            name=limits.clean_name(member.get("name", "")),
            status=status,
            experience=experience,
            hired_experience=0,
            injuries=list(member.get("injuries") or []),
            misses_battles=max(0, int(member.get("misses_battles", 0))),
            special_rules=list(group.special_rules),
            **profile,
        )
    _import_items(locked, row.get("equipment"), group=group)
    loadout_check(locked, group=group)
