"""Load a content pack (a folder of YAML files) into the catalogue: upsert by slug.

Idempotent: the pack's files are hashed; when the hash matches the one recorded on the
``ContentPack`` nothing is written at all (so organisers' admin edits survive a re-run). A
changed file re-applies the whole pack and bumps the pack's ``version`` (its revision).
"""

from __future__ import annotations

import hashlib
from dataclasses import dataclass, field
from pathlib import Path
from typing import Any

import yaml
from django.conf import settings
from django.core.exceptions import ValidationError
from django.db import transaction
from django.utils import timezone
from django.utils.translation import gettext as _

from .models import (
    PROFILE_FIELDS,
    ContentPack,
    Equipment,
    EquipmentList,
    EquipmentListEntry,
    FighterType,
    HiredSword,
    Race,
    Skill,
    SkillList,
    SpecialRule,
    WarbandType,
)
from .packs.document import SECTIONS, document_check
from .packs.known import known_default

DEFAULT_PACK_PATH = Path(__file__).resolve().parent / "content"
# The non-playable warband type that holds a pack's hired swords' fighter types.
HIRED_SWORDS_TYPE_SLUG = "espadas-de-alquiler"
# Keys of a hired sword's row that are not its fighter type's.
HIRED_SWORD_KEYS = ("upkeep", "rating", "equipment", "may_hire", "may_not_hire", "role")
# A row's texts in the site's other languages: a block per language beside the Spanish
# (``en: {name: Sword, description: Parry.}``), stored in the row's ``translations``.
TRANSLATED_FIELDS = ("name", "description", "strength")
NAME_MAX_LENGTH = 120


@dataclass
class LoadResult:
    pack: ContentPack
    changed: bool
    counts: dict[str, int] = field(default_factory=dict)


def parse_profile(text: Any, *, where: str) -> dict[str, float | int]:
    """``"10 3 3 3 3 1 3 1 7"`` → ``{"m": 10, "ws": 3, …}`` (M may be a half, e.g. 7.5)."""
    parts = str(text).split()
    if len(parts) != len(PROFILE_FIELDS):
        raise ValidationError(
            _("%(where)s: a profile needs 9 values (M HA HP F R H I A L): %(text)r")
            % {"where": where, "text": text}
        )
    try:
        values: dict[str, float | int] = {"m": float(parts[0])}
        values.update(
            {name: int(value) for name, value in zip(PROFILE_FIELDS[1:], parts[1:], strict=True)}
        )
    except ValueError as exc:
        raise ValidationError(
            _("%(where)s: not a profile: %(text)r") % {"where": where, "text": text}
        ) from exc
    return values


def pack_files(path: Path) -> tuple[list[tuple[str, bytes]], str]:
    """The pack's files (name, bytes) and their combined hash."""
    files = sorted(path.glob("*.yaml"))
    if not files:
        raise ValidationError(_("No *.yaml files in %(path)s") % {"path": path})
    digest = hashlib.sha256()
    contents = []
    for file in files:
        raw = file.read_bytes()
        digest.update(file.name.encode() + b"\0" + raw + b"\0")
        contents.append((file.name, raw))
    return contents, digest.hexdigest()


# libyaml's safe loader where PyYAML was built with it (the wheels are): the same documents,
# read about ten times faster than the pure-Python one (the default pack's files: 0.16 s → 0.017 s).
SAFE_LOADER = getattr(yaml, "CSafeLoader", yaml.SafeLoader)


def read_pack(files: list[tuple[str, bytes]], path: Path) -> dict[str, Any]:
    data: dict[str, Any] = {}
    for name, raw in files:
        content = yaml.load(raw, Loader=SAFE_LOADER) or {}  # noqa: S506 - a safe loader
        for key, value in content.items():
            if key not in SECTIONS:
                raise ValidationError(
                    _("%(file)s: unknown section %(key)r") % {"file": name, "key": key}
                )
            if key == "pack":
                data[key] = value
            else:
                data.setdefault(key, {}).update(value or {})
    if "pack" not in data:
        raise ValidationError(_("%(path)s: no file defines the `pack` section") % {"path": path})
    return data


def _check_fields(model, where: str, values: dict[str, Any]) -> None:
    """The model's own field limits (no negative cost, lengths, whole numbers) as an error that
    names the row, before the database would refuse it with an IntegrityError."""
    candidate = model(
        **{k: v for k, v in values.items() if not model._meta.get_field(k).is_relation}
    )
    relations = [f.name for f in model._meta.get_fields() if f.is_relation]
    try:
        candidate.clean_fields(
            exclude=[*relations, *(f.name for f in model._meta.fields if f.name not in values)]
        )
    except ValidationError as error:
        raise ValidationError(
            [
                f"{where}: {name}: {message}"
                for name, messages in error.message_dict.items()
                for message in messages
            ]
        ) from error


def _upsert(model, slug: str, values: dict[str, Any], counts: dict[str, int]):
    _check_fields(model, f"{model._meta.verbose_name} {slug}", values)
    obj, created = model.objects.update_or_create(slug=slug, defaults=values)
    counts[model.__name__] = counts.get(model.__name__, 0) + 1
    return obj


@transaction.atomic
def content_pack_load(*, path: Path = DEFAULT_PACK_PATH, force: bool = False) -> LoadResult:
    """Load the pack in ``path``. Nothing is written when its files did not change."""
    files, content_hash = pack_files(Path(path))
    unchanged = ContentPack.objects.filter(content_hash=content_hash).first()
    if unchanged is not None and not force:
        return LoadResult(pack=unchanged, changed=False)
    data = read_pack(files, Path(path))
    # The one check of a pack's content, as for a pack built on the site.
    problems = document_check(data, known=known_default())
    if problems:
        raise ValidationError([str(problem) for problem in problems])
    if data.get("tables"):  # checked above, as any pack's; the default catalogue's are the engine's
        raise ValidationError(
            _(
                "The default pack plays by the rules engine's tables; a league's own tables go "
                "in its own pack."
            )
        )
    pack = _pack_save(data["pack"], content_hash=content_hash, path=path)
    loader = _PackLoader(pack)
    loader.races(data.get("races") or {})
    loader.special_rules(data.get("special_rules") or {})
    loader.skill_lists(data.get("skill_lists") or {})
    loader.equipment(data.get("equipment") or {})
    loader.equipment_lists(data.get("equipment_lists") or {})
    for type_slug, row in (data.get("warband_types") or {}).items():
        loader.warband_type(type_slug, row)
    loader.hired_swords(data.get("hired_swords") or {})
    return LoadResult(pack=pack, changed=True, counts=loader.counts)


def _pack_save(meta: dict[str, Any], *, content_hash: str, path: Path) -> ContentPack:
    """The pack's row (locked), a new revision when its files changed."""
    slug = meta["slug"]
    pack = ContentPack.objects.select_for_update().filter(slug=slug).first()
    if pack is None:
        pack = ContentPack(slug=slug, version=1)
    elif pack.content_hash != content_hash:
        pack.version += 1
    pack.name = meta.get("name", slug)
    pack.description = meta.get("description", "")
    pack.declared_version = str(meta.get("version", ""))
    pack.settings = meta.get("settings", {})
    pack.content_hash = content_hash
    pack.source = str(path)
    pack.loaded_at = timezone.now()
    pack.save()
    return pack


def translation_languages() -> list[str]:
    """The languages a pack may add texts in: the site's, except Spanish (the pack's own)."""
    return [code for code, _name in settings.LANGUAGES if code != settings.LANGUAGE_CODE]


def _translations(row: dict[str, Any], where: str) -> dict[str, dict[str, str]]:
    """The row's ``en:`` (and any other language's) block, checked: text for name,
    description or strength only."""
    found: dict[str, dict[str, str]] = {}
    for language in translation_languages():
        block = row.get(language)
        if block is None:
            continue
        if (
            not isinstance(block, dict)
            or not set(block) <= set(TRANSLATED_FIELDS)
            or not all(isinstance(text, str) for text in block.values())
        ):
            raise ValidationError(
                _("%(where)s: `%(language)s` must give text for %(fields)s only")
                % {"where": where, "language": language, "fields": ", ".join(TRANSLATED_FIELDS)}
            )
        if len(block.get("name", "")) > NAME_MAX_LENGTH:
            raise ValidationError(
                _("%(where)s: the `%(language)s` name is longer than %(max)d characters")
                % {"where": where, "language": language, "max": NAME_MAX_LENGTH}
            )
        texts = {key: text.strip() for key, text in block.items() if text.strip()}
        if texts:
            found[language] = texts
    return found


def _named(pack: ContentPack, row: dict[str, Any], where: str) -> dict[str, Any]:
    return {
        "pack": pack,
        "name": row["name"],
        "description": row.get("description", ""),
        "translations": _translations(row, where),
    }


class _PackLoader:
    """One load of one pack, section by section; remembers the rows it wrote (by slug) so a
    later section can refer to them, and counts them."""

    def __init__(self, pack: ContentPack) -> None:
        self.pack = pack
        self.counts: dict[str, int] = {}
        self.loaded: dict[type, dict[str, Any]] = {}

    def upsert(self, model, slug: str, values: dict[str, Any]):
        obj = _upsert(model, slug, values, self.counts)
        self.loaded.setdefault(model, {})[slug] = obj
        return obj

    def lookup(self, model, ref_slug: str, where: str):
        """A row of this load, or one already in the catalogue (another pack's)."""
        cache = self.loaded.setdefault(model, {})
        if ref_slug in cache:
            return cache[ref_slug]
        found = model.objects.filter(slug=ref_slug, pack_version=None).first()
        if found is None:
            raise ValidationError(
                _("%(where)s: unknown %(what)s %(slug)r")
                % {"where": where, "what": model._meta.verbose_name, "slug": ref_slug}
            )
        cache[ref_slug] = found
        return found

    def races(self, rows: dict[str, Any]) -> None:
        for race_slug, row in rows.items():
            maximum = parse_profile(row["max"], where=f"race {race_slug}")
            values = _named(self.pack, row, f"race {race_slug}")
            values.update({f"max_{name}": value for name, value in maximum.items()})
            self.upsert(Race, race_slug, values)

    def special_rules(self, rows: dict[str, Any]) -> None:
        for rule_slug, row in rows.items():
            self.upsert(SpecialRule, rule_slug, _named(self.pack, row, f"special rule {rule_slug}"))

    def skill_lists(self, rows: dict[str, Any]) -> None:
        for list_slug, row in rows.items():
            where = f"skill list {list_slug}"
            skill_list = self.upsert(SkillList, list_slug, _named(self.pack, row, where))
            for skill_slug, skill in (row.get("skills") or {}).items():
                named = _named(self.pack, skill, f"skill {skill_slug}")
                values = {**named, "skill_list": skill_list}
                self.upsert(Skill, skill_slug, {**values, "effects": skill.get("effects", {})})

    def equipment(self, rows: dict[str, Any]) -> None:
        for item_slug, row in rows.items():
            kind = row["kind"]
            if kind not in Equipment.Kind.values:
                raise ValidationError(
                    _("equipment %(slug)s: unknown kind %(kind)r")
                    % {"slug": item_slug, "kind": kind}
                )
            self.upsert(
                Equipment,
                item_slug,
                {
                    **_named(self.pack, row, f"equipment {item_slug}"),
                    "kind": kind,
                    "cost": row["cost"],
                    "cost_dice": row.get("cost_dice", ""),
                    "rarity": row.get("rarity"),
                    "two_handed": bool(row.get("two_handed", False)),
                    "range_cm": row.get("range_cm"),
                    "strength": str(row.get("strength", "")),
                    "armour_save": row.get("save"),
                    "rules": row.get("rules", {}),
                },
            )

    def equipment_lists(self, rows: dict[str, Any]) -> None:
        for list_slug, row in rows.items():
            equipment_list = self.upsert(
                EquipmentList, list_slug, _named(self.pack, row, f"equipment list {list_slug}")
            )
            kept = []
            for entry in row.get("items") or []:
                if isinstance(entry, dict):
                    ((item_slug, options),) = entry.items()
                else:
                    item_slug, options = entry, {}
                item = self.lookup(Equipment, item_slug, f"equipment list {list_slug}")
                entry_values = {"cost": options.get("cost"), "common": bool(options.get("common"))}
                _check_fields(
                    EquipmentListEntry, f"equipment list {list_slug}: {item_slug}", entry_values
                )
                EquipmentListEntry.objects.update_or_create(
                    equipment_list=equipment_list, equipment=item, defaults=entry_values
                )
                kept.append(item.pk)
            equipment_list.entries.exclude(equipment_id__in=kept).delete()

    def warband_type(self, type_slug: str, row: dict[str, Any]) -> None:
        race = self.lookup(Race, row["race"], f"warband type {type_slug}")
        warband_type = self.upsert(
            WarbandType,
            type_slug,
            {
                **_named(self.pack, row, f"warband type {type_slug}"),
                "race": race,
                "starting_treasury": row.get("starting_treasury", 500),
                "min_size": row.get("min_size", 3),
                "max_size": row.get("max_size", 15),
                "max_heroes": row.get("max_heroes", 6),
                "playable": row.get("playable", True),
            },
        )
        fighter_types = (row.get("fighter_types") or {}).items()
        roles = [
            self.fighter_type(warband_type, slug, ft, order=order, default_race=row["race"])
            for order, (slug, ft) in enumerate(fighter_types)
        ]
        if roles.count(FighterType.Role.LEADER) != 1:
            raise ValidationError(
                _("warband type %(slug)s: needs exactly one leader type") % {"slug": type_slug}
            )

    def fighter_type(
        self, warband_type: WarbandType, slug: str, ft: dict[str, Any], *, order: int, default_race
    ) -> str:
        """Upsert one fighter type of ``warband_type``; returns its role."""
        where = f"fighter type {slug}"
        role = ft["role"]
        if role not in FighterType.Role.values:
            raise ValidationError(
                _("%(where)s: unknown role %(role)r") % {"where": where, "role": role}
            )
        race = self.lookup(Race, ft.get("race", default_race), where)
        profile = parse_profile(ft["profile"], where=where)
        over = [name for name, value in profile.items() if value > getattr(race, f"max_{name}")]
        if over:
            raise ValidationError(
                _("%(where)s: profile above the racial maximum in %(over)s")
                % {"where": where, "over": over}
            )
        self._check_rules(ft.get("rules", []), where)
        list_slug = ft.get("equipment")
        values = {
            **_named(self.pack, ft, where),
            "warband_type": warband_type,
            "race": race,
            "role": role,
            "cost": ft["cost"],
            "max_count": 1 if role == FighterType.Role.LEADER else ft.get("max"),
            "group_max_size": ft.get("group", 5),
            "starting_experience": ft.get("xp", 0),
            "is_large": bool(ft.get("large", False)),
            "can_gain_experience": bool(ft.get("experience", True)),
            "special_rules": list(ft.get("rules", [])),
            "equipment_list": (self.lookup(EquipmentList, list_slug, where) if list_slug else None),
            "order": order,
            **profile,
        }
        fighter_type = self.upsert(FighterType, slug, values)
        fighter_type.skill_lists.set(
            [self.lookup(SkillList, skill, where) for skill in ft.get("skills", [])]
        )
        return role

    def hired_swords(self, rows: dict[str, Any]) -> None:
        """Each hired sword: a hero fighter type under the pack's non-playable "espadas de
        alquiler" warband type, and the hiring terms (``HiredSword``)."""
        if not rows:
            return
        first_race = next(iter(rows.values())).get("race", "human")
        holder = self.upsert(
            WarbandType,
            HIRED_SWORDS_TYPE_SLUG,
            {
                "pack": self.pack,
                "name": "Espadas de alquiler",
                "description": "No es una banda: las espadas de alquiler que cualquier banda "
                "puede contratar.",
                "translations": {
                    "en": {
                        "name": "Hired swords",
                        "description": "Not a warband: the hired swords any warband may hire.",
                    }
                },
                "race": self.lookup(Race, first_race, "hired swords"),
                "playable": False,
            },
        )
        for order, (slug, row) in enumerate(rows.items()):
            where = f"hired sword {slug}"
            self.fighter_type(
                holder,
                slug,
                {
                    **{k: v for k, v in row.items() if k not in HIRED_SWORD_KEYS},
                    "role": FighterType.Role.HERO,
                    "max": row.get("max", 1),
                },
                order=order,
                default_race="human",
            )
            fighter_type = self.loaded[FighterType][slug]
            values = {"upkeep": row["upkeep"], "rating_value": row.get("rating", 5)}
            _check_fields(HiredSword, where, values)
            terms, _created = HiredSword.objects.update_or_create(
                fighter_type=fighter_type, defaults=values
            )
            self.counts["HiredSword"] = self.counts.get("HiredSword", 0) + 1
            terms.allowed_warband_types.set(
                [self.lookup(WarbandType, t, where) for t in row.get("may_hire", [])]
            )
            terms.excluded_warband_types.set(
                [self.lookup(WarbandType, t, where) for t in row.get("may_not_hire", [])]
            )
            terms.equipment.set(
                [self.lookup(Equipment, item, where) for item in row.get("equipment", [])]
            )

    def _check_rules(self, rules: list[str], where: str) -> None:
        unknown = set(rules) - set(self.loaded.get(SpecialRule, {}))
        unknown -= set(SpecialRule.objects.values_list("slug", flat=True))
        if unknown:
            raise ValidationError(
                _("%(where)s: unknown special rules %(rules)s")
                % {"where": where, "rules": ", ".join(sorted(unknown))}
            )
