"""A warband as text for a chat (Discord, WhatsApp): readable lines, then one data line that
carries the roster (``#ANNUMINAS1`` and the roster as compressed JSON in base64). The data line
survives being re-wrapped or re-spaced: every blank in it is dropped before it is read.

Reading it back builds the roster from the pack through the roster services (a starting
treasury, each warrior hired and each item bought at the pack's prices, all in the ledger), so
a text cannot bring money: the treasury it states must be what the pack's prices leave, or the
import is refused. A roster carries its warriors, groups, hired swords and items, not its
campaign history (experience, injuries, advances), which the JSON export file keeps. The
preview builds it in a transaction that is rolled back: the report's costs are the services'
own, and nothing is created until the player confirms.
"""

from __future__ import annotations

import base64
import binascii
import json
import re
import zlib
from dataclasses import dataclass, field
from typing import Any

from django.core.exceptions import PermissionDenied, ValidationError
from django.db import transaction
from django.utils.translation import gettext as _

from annuminas.errors import Conflict
from annuminas.validation import json_check

from .. import services as roster
from ..models import (
    ContentPack,
    Equipment,
    FighterType,
    PackVersion,
    Warband,
    WarbandType,
)
from ..models.catalogue import local_slug
from ..selectors import warband_sheet
from ..services.hired_swords import hired_sword_hire
from .services import may_read

MARKER = "#ANNUMINAS1"
TEXT_MAX_CHARS = 20_000
DATA_MAX_BYTES = 20_000
MAX_WARRIORS = 30
MAX_ITEMS = 15


def _slug(row) -> str:
    return local_slug(row.slug, row.pack_version_id)


def warband_chat_text(*, warband: Warband) -> str:
    """The warband as chat lines: its name, type and pack, treasury, each warrior with his
    gear, the stash, and the data line."""
    sheet = warband_sheet(warband_id=warband.pk)
    version = (
        PackVersion.objects.select_related("pack").filter(pk=sheet.warband_type.pack_version_id)
    ).first()
    pack_name = (
        f"{version.pack.name} v{version.number}" if version else sheet.warband_type.pack.name
    )
    warriors, lines = [], []
    lines.append(f"{sheet.name} — {sheet.warband_type.display_name} ({pack_name})")
    lines.append(
        _("Treasury: %(treasury)d co · Rating: %(rating)d")
        % {"treasury": sheet.treasury, "rating": sheet.rating}
    )
    swords = [fighter for fighter in sheet.heroes if fighter.hired_sword_id]
    for fighter in sheet.heroes:
        if fighter.hired_sword_id:
            continue
        items = [item.equipment for item in fighter.equipment.all()]
        warriors.append(
            {
                "type": _slug(fighter.fighter_type),
                "name": fighter.name,
                "items": [_slug(i) for i in items],
            }
        )
        lines.append(_line(fighter.name, 1, fighter.fighter_type, items))
    for group in sheet.groups.all():
        members = [m for m in group.members.all() if m.status in m.IN_ROSTER]
        if not members:
            continue
        items = [item.equipment for item in group.equipment.all()]
        warriors.append(
            {
                "type": _slug(group.fighter_type),
                "name": group.name,
                "count": len(members),
                "items": [_slug(i) for i in items],
            }
        )
        lines.append(_line(group.name, len(members), group.fighter_type, items))
    hired = []
    for fighter in swords:
        hired.append({"type": _slug(fighter.fighter_type), "name": fighter.name})
        items = [item.equipment for item in fighter.equipment.all()]
        line = _line(fighter.name, 1, fighter.fighter_type, items)
        lines.append(_("%(line)s (hired sword)") % {"line": line})
    stash = [item.equipment for item in sheet.stash]
    if stash:
        lines.append(_("Stash: %(items)s") % {"items": ", ".join(i.display_name for i in stash)})
    data = {
        "pack": version.pack.slug if version else sheet.warband_type.pack.slug,
        "version": version.number if version else None,
        "type": _slug(sheet.warband_type),
        "type_name": sheet.warband_type.name,
        "name": sheet.name,
        "treasury": sheet.treasury,
        "warriors": warriors,
        "stash": [_slug(i) for i in stash],
    }
    if hired:
        data["swords"] = hired
    packed = zlib.compress(json.dumps(data, ensure_ascii=False, separators=(",", ":")).encode(), 9)
    lines.append(f"{MARKER} {base64.b64encode(packed).decode()}")
    return "\n".join(lines) + "\n"


def _line(name: str, count: int, fighter_type: FighterType, items) -> str:
    many = f" ×{count}" if count > 1 else ""
    gear = ", ".join(item.display_name for item in items) or "—"
    return f"• {name}{many} — {fighter_type.display_name} — {gear}"


def chat_data(text: str) -> dict[str, Any]:
    """The roster in a chat text's data line, checked; ``ValidationError`` when there is none
    or it is damaged, too big or not of the right shape."""
    if not isinstance(text, str) or len(text) > TEXT_MAX_CHARS:
        raise ValidationError(_("The text is too long for a warband."))
    at = text.find(MARKER)
    if at < 0:
        raise ValidationError(
            _("No Annúminas data line (it starts with %(marker)s).") % {"marker": MARKER}
        )
    blob = re.sub(r"\s+", "", text[at + len(MARKER) :])
    blob = re.match(r"[A-Za-z0-9+/=]*", blob).group(0)
    try:
        packed = base64.b64decode(blob, validate=True)
        inflater = zlib.decompressobj()
        raw = inflater.decompress(packed, DATA_MAX_BYTES)
        if inflater.unconsumed_tail:
            raise ValidationError(_("The data line holds too much."))
        data = json.loads(raw.decode("utf-8"))
    except (binascii.Error, zlib.error, ValueError) as exc:
        raise ValidationError(
            _("The data line is damaged: copy the whole text again, last line included.")
        ) from exc
    json_check(data, max_bytes=DATA_MAX_BYTES, max_depth=4, max_string_length=200)
    return _shape(data)


def _shape(data: Any) -> dict[str, Any]:
    def fail(what: str):
        raise ValidationError(_("The data line is not a warband: %(what)s.") % {"what": what})

    if not isinstance(data, dict) or set(data) - {
        "pack", "version", "type", "type_name", "name", "treasury", "warriors", "stash", "swords"
    }:  # fmt: skip
        fail(_("unknown keys"))
    for key in ("pack", "type", "name"):
        if not isinstance(data.get(key), str):
            fail(key)
    if not isinstance(data.get("treasury"), int) or isinstance(data["treasury"], bool):
        fail("treasury")
    if data.get("version") is not None and not isinstance(data["version"], int):
        fail("version")
    warriors = data.get("warriors")
    if not isinstance(warriors, list) or len(warriors) > MAX_WARRIORS:
        fail("warriors")
    for row in warriors:
        if (
            not isinstance(row, dict)
            or set(row) - {"type", "name", "count", "items"}
            or not isinstance(row.get("type"), str)
            or not isinstance(row.get("name"), str)
            or not isinstance(row.get("count", 1), int)
            or not 1 <= row.get("count", 1) <= 20
            or not _slugs(row.get("items", []))
        ):
            fail("warriors")
    if not _slugs(data.get("stash", [])):
        fail("stash")
    swords = data.get("swords", [])
    if not isinstance(swords, list) or len(swords) > MAX_WARRIORS:
        fail("swords")
    for row in swords:
        if (
            not isinstance(row, dict)
            or set(row) != {"type", "name"}
            or not all(isinstance(row[key], str) for key in row)
        ):
            fail("swords")
    return data


def _slugs(value: Any) -> bool:
    return (
        isinstance(value, list)
        and len(value) <= MAX_ITEMS
        and all(isinstance(v, str) and len(v) <= 80 for v in value)
    )


@dataclass
class ChatReport:
    """What a chat text would build: each line matched (by slug or by name) or not, what it
    costs, the treasury left against the one the text states."""

    data: dict[str, Any]
    version: PackVersion | None = None
    lines: list[str] = field(default_factory=list)
    problems: list[str] = field(default_factory=list)
    treasury: int | None = None

    @property
    def ok(self) -> bool:
        return not self.problems


class _Refused(Exception):
    pass


def _version_of(data: dict[str, Any], user) -> PackVersion | None:
    """The pack version the text was built with, if one may read it; else the default pack."""
    pack = ContentPack.objects.filter(slug=data["pack"]).first()
    if pack is None or pack.owner_id is None or data.get("version") is None:
        return None
    version = pack.versions.filter(
        number=data["version"], state=PackVersion.State.PUBLISHED
    ).first()
    if version is None or not may_read(pack, user):
        raise ValidationError(
            _("The pack %(pack)s v%(number)s is not one you may read.")
            % {"pack": data["pack"], "number": data["version"]}
        )
    return version


def _match(model, version, slug: str, name: str, report: ChatReport, **filters):
    rows = model.objects.filter(pack_version=version, **filters)
    wanted = (version and f"v{version.pk}-{slug}") or slug
    found = rows.filter(slug=wanted).first()
    if found is not None:
        return found, _("by slug")
    found = rows.filter(name__iexact=name).first() if name else None
    if found is not None:
        return found, _("by name")
    return None, ""


def _build(data: dict[str, Any], owner, version, report: ChatReport) -> Warband:
    """Build the roster through the services; what fails is a line of the report."""
    warband_type, how = _match(
        WarbandType, version, data["type"], data.get("type_name", ""), report, playable=True
    )
    if warband_type is None:
        report.problems.append(
            _("Warband type %(type)s: not in the pack.") % {"type": data["type"]}
        )
        raise _Refused
    report.lines.append(
        _("Warband type %(type)s: matched %(how)s.")
        % {"type": warband_type.display_name, "how": how}
    )
    warband = roster.warband_create(owner=owner, warband_type=warband_type, name=data["name"])
    for row in data["warriors"]:
        fighter_type, how = _match(
            FighterType, version, row["type"], row["name"], report, warband_type=warband_type
        )
        if fighter_type is None:
            report.problems.append(
                _("%(name)s: the type %(type)s is not in the pack.")
                % {"name": row["name"], "type": row["type"]}
            )
            continue
        before = warband.treasury
        try:
            hired = roster.fighter_hire(
                warband=warband,
                fighter_type=fighter_type,
                name=row["name"],
                count=row.get("count", 1),
            )
            holder = (
                {"group": hired}
                if fighter_type.role == FighterType.Role.HENCHMAN
                else {"fighter": hired}
            )
            for slug in row.get("items", []):
                item = _item(version, slug)
                if item is None:
                    report.problems.append(
                        _("%(name)s: the item %(item)s is not in the pack.")
                        % {"name": row["name"], "item": slug}
                    )
                    continue
                roster.equipment_buy(warband=warband, equipment=item, **holder)
        except ValidationError as exc:
            report.problems.append(f"{row['name']}: {' '.join(exc.messages)}")
            continue
        warband.refresh_from_db(fields=["treasury", "version"])
        report.lines.append(
            _("%(name)s (%(type)s, matched %(how)s): %(cost)d co")
            % {
                "name": row["name"],
                "type": fighter_type.display_name,
                "how": how,
                "cost": before - warband.treasury,
            }
        )
    for row in data.get("swords", []):
        _hire_sword(warband, version, row, report)
    _buy_stash(warband, version, data.get("stash", []), report)
    warband.refresh_from_db()
    report.treasury = warband.treasury
    if warband.treasury != data["treasury"]:
        report.problems.append(
            _("The text states %(stated)d co in the treasury; the pack's prices leave %(left)d co.")
            % {"stated": data["treasury"], "left": warband.treasury}
        )
    return warband


def _buy_stash(warband: Warband, version, slugs: list[str], report: ChatReport) -> None:
    for slug in slugs:
        item = _item(version, slug)
        if item is None:
            report.problems.append(
                _("Stash: the item %(item)s is not in the pack.") % {"item": slug}
            )
            continue
        try:
            roster.equipment_buy(warband=warband, equipment=item)
        except ValidationError as exc:
            report.problems.append(f"{item.display_name}: {' '.join(exc.messages)}")


def _hire_sword(warband: Warband, version, row: dict[str, str], report: ChatReport) -> None:
    """Hire the hired sword of a text's row (matched by its type's slug, else by name) at the
    pack's fee; what fails is a line of the report."""
    fighter_type, how = _match(
        FighterType, version, row["type"], row["name"], report, hired_sword__isnull=False
    )
    sword = fighter_type.hired_sword if fighter_type is not None else None
    if sword is None:
        report.problems.append(
            _("%(name)s: the hired sword %(type)s is not in the pack.")
            % {"name": row["name"], "type": row["type"]}
        )
        return
    before = warband.treasury
    try:
        hired_sword_hire(warband=warband, hired_sword=sword, name=row["name"])
    except ValidationError as exc:
        report.problems.append(f"{row['name']}: {' '.join(exc.messages)}")
        return
    warband.refresh_from_db(fields=["treasury", "version"])
    report.lines.append(
        _("%(name)s (hired sword %(type)s, matched %(how)s): %(cost)d co")
        % {
            "name": row["name"],
            "type": sword.fighter_type.display_name,
            "how": how,
            "cost": before - warband.treasury,
        }
    )


def _item(version, slug: str):
    """The version's item, or the default catalogue's one the version points at."""
    if version is not None:
        own = Equipment.objects.filter(pack_version=version, slug=f"v{version.pk}-{slug}").first()
        if own is not None:
            return own
    return Equipment.objects.filter(pack_version=None, slug=slug).first()


def warband_chat_import(*, owner, text: str, confirmed: bool) -> tuple[ChatReport, Warband | None]:
    """Read a chat text: the report of what it builds; with ``confirmed`` and nothing refused,
    the warband (owned by ``owner``), built from the pack through the roster services."""
    if not (owner and owner.is_authenticated):
        raise PermissionDenied(_("Log in to import a warband."))
    data = chat_data(text)
    report = ChatReport(data)
    report.version = _version_of(data, owner)
    warband = None
    try:
        with transaction.atomic():
            warband = _build(data, owner, report.version, report)
            if not (confirmed and report.ok):
                raise _Refused
    except _Refused:
        warband = None
    except Conflict:
        warband = None
        report.problems.append(_("The roster changed while it was built; try again."))
    return report, warband
