"""A content pack as one document, checked once for every door (the pages, the API, a YAML
file, ``manage.py load_content``).

The document has the sections of ``warbands/content/*.yaml`` (``pack``, ``races``,
``special_rules``, ``skill_lists``, ``equipment``, ``equipment_lists``, ``warband_types``,
``hired_swords``), each a mapping of slug → entry, and the campaign tables (``tables``: table
name → rows, as a campaign's overrides, checked by the same check,
``warbands.campaign_tables``). :func:`document_check` answers every problem at once, each
naming its entry and field (a table's row); a document with none may be stored and published.
"""

from __future__ import annotations

import re
from collections.abc import Callable, Iterable
from dataclasses import dataclass
from typing import Any

from django.utils.translation import gettext as _
from django.utils.translation import gettext_lazy

from rules.engine import vocabulary
from rules.engine.profile import FIELDS as PROFILE_FIELDS

from ..campaign_tables import tables_issues

SECTIONS = (
    "pack",
    "races",
    "special_rules",
    "skill_lists",
    "equipment",
    "equipment_lists",
    "warband_types",
    "hired_swords",
    "tables",
)
TABLES = "tables"  # the campaign tables: table name → rows, as a campaign's overrides
ENTRY_SECTIONS = tuple(s for s in SECTIONS[1:] if s != TABLES)
# The sections a report names entry by entry ("table exploration" with the others).
REPORTED_SECTIONS = (*ENTRY_SECTIONS, TABLES)
# What one section's entry is called in a report ("warband type guerreros: cost: …"), in the
# reader's language (the catalogue models' own names).
ENTRY_LABELS = {
    "races": gettext_lazy("race"),
    "special_rules": gettext_lazy("special rule"),
    "skill_lists": gettext_lazy("skill list"),
    "skills": gettext_lazy("skill"),
    "equipment": gettext_lazy("equipment"),
    "equipment_lists": gettext_lazy("equipment list"),
    "warband_types": gettext_lazy("warband type"),
    "fighter_types": gettext_lazy("fighter type"),
    "hired_swords": gettext_lazy("hired sword"),
    "tables": gettext_lazy("table"),
}
SLUG_RE = re.compile(r"^[a-z0-9][a-z0-9_-]*$")
SLUG_MAX_LENGTH = 60  # the catalogue's 80, less a version's prefix
NAME_MAX_LENGTH = 120
TEXT_MAX_LENGTH = 2000
MAX_ENTRIES = 2000
LANGUAGES = ("en",)
TRANSLATED = ("name", "description", "strength")
KINDS = ("melee", "missile", "armour", "shield", "helmet", "misc")
ROLES = ("leader", "hero", "henchman")
ROLE_DEFAULT_HIRED = "hero"

COMMON = {"name", "description", "credit", *LANGUAGES}
KEYS = {
    "pack": {"slug", "name", "version", "description", "settings", "credit"},
    "races": COMMON | {"max"},
    "special_rules": COMMON,
    "skill_lists": COMMON | {"skills"},
    "skills": COMMON | {"effects"},
    "equipment": COMMON
    | {
        "kind",
        "cost",
        "cost_dice",
        "rarity",
        "two_handed",
        "range_cm",
        "strength",
        "save",
        "rules",
    },
    "equipment_lists": COMMON | {"items"},
    "warband_types": COMMON
    | {
        "race",
        "starting_treasury",
        "min_size",
        "max_size",
        "max_heroes",
        "playable",
        "fighter_types",
    },
    "fighter_types": COMMON
    | {
        "role",
        "race",
        "cost",
        "max",
        "group",
        "xp",
        "large",
        "experience",
        "rules",
        "equipment",
        "skills",
        "profile",
    },
    "hired_swords": COMMON
    | {
        "race",
        "cost",
        "max",
        "xp",
        "rules",
        "skills",
        "profile",
        "upkeep",
        "rating",
        "equipment",
        "may_hire",
        "may_not_hire",
        "role",
        "large",
        "experience",
        "group",
    },
}
# Whole numbers: (low, high) inclusive.
BOUNDS = {
    "cost": (0, 5000),
    "starting_treasury": (0, 10000),
    "min_size": (1, 50),
    "max_size": (1, 50),
    "max_heroes": (1, 50),
    "max": (1, 50),
    "group": (1, 20),
    "xp": (0, 90),
    "rarity": (2, 12),
    "range_cm": (0, 500),
    "save": (2, 6),
    "upkeep": (0, 1000),
    "rating": (0, 100),
}
# What each key of an entry holds, as the check reads it (and as the pages' one entry form
# shows it, ``warbands/packs/entries.py``): "text", "long" (text), "int" (whole number, within
# BOUNDS), "bool", "choice" (of a tuple), "profile", "ref" / "refs" (one / a list of slugs of
# a section), "rules" (the engine's rule keys), "mapping" (data as written, e.g. an item's
# rules), "nested" (entries of their own: edited one by one, under their parent).
TYPES: dict[str, tuple] = {
    "name": ("text",),
    "description": ("long",),
    "credit": ("text",),
    "kind": ("choice", KINDS),
    "role": ("choice", ROLES),
    **dict.fromkeys(BOUNDS, ("int",)),
    "cost_dice": ("text",),
    "strength": ("text",),
    "two_handed": ("bool", False),
    "playable": ("bool", True),
    "large": ("bool", False),
    "experience": ("bool", True),
    "profile": ("profile",),
    "race": ("ref", "races"),
    "skills": ("refs", "skill_lists"),
    "equipment": ("ref", "equipment_lists"),
    "items": ("refs", "equipment"),
    "may_hire": ("refs", "warband_types"),
    "may_not_hire": ("refs", "warband_types"),
    "rules": ("rules",),
    "effects": ("mapping",),
}
# Where a kind of entry reads a key otherwise.
TYPES_OF = {
    "races": {"max": ("profile",)},
    "equipment": {"rules": ("mapping",)},
    "skill_lists": {"skills": ("nested", "skills")},
    "warband_types": {"fighter_types": ("nested", "fighter_types")},
    "hired_swords": {"equipment": ("refs", "equipment")},
}
# Entries held inside another's: kind → (the parent's section, the parent's key).
NESTED = {"skills": ("skill_lists", "skills"), "fighter_types": ("warband_types", "fighter_types")}


def key_type(kind: str, key: str) -> tuple:
    """What ``key`` of a ``kind`` entry holds (``TYPES``); ("mapping",) when nothing says."""
    return TYPES_OF.get(kind, {}).get(key) or TYPES.get(key) or ("mapping",)


PROFILE_LIMIT = 10  # no characteristic above 10
MOVE_LIMIT = 30  # centimetres


@dataclass(frozen=True)
class Problem:
    """What is wrong, where: ``entry`` is "warband type guerreros", ``field`` the key."""

    section: str
    slug: str
    entry: str
    field: str
    message: str

    def __str__(self) -> str:
        where = f"{self.entry}: {self.field}" if self.field else self.entry
        return f"{where}: {self.message}"


# The default catalogue's slugs a pack may point at without defining them: section → slugs.
Known = Callable[[str], set[str]]


def no_known(_section: str) -> set[str]:
    return set()


def parse_profile(text: Any) -> dict[str, float] | None:
    """``"10 3 3 3 3 1 3 1 7"`` → ``{"m": 10.0, "ws": 3, …}``; None when it is not one."""
    if not isinstance(text, str | int | float) or isinstance(text, bool):
        return None
    parts = str(text).split()
    if len(parts) != len(PROFILE_FIELDS):
        return None
    try:
        values: dict[str, float] = {"m": float(parts[0])}
        values.update({f: int(v) for f, v in zip(PROFILE_FIELDS[1:], parts[1:], strict=True)})
    except ValueError:
        return None
    return values


class _Checker:
    def __init__(self, document: Any, known: Known) -> None:
        self.document = document
        self.known = known
        self.problems: list[Problem] = []

    def add(self, section: str, slug: str, field: str, message: str, *, label: str = "") -> None:
        entry = f"{ENTRY_LABELS.get(label or section, section)} {slug}".strip() if slug else section
        self.problems.append(Problem(section, slug, entry, field, message))

    # The shapes --------------------------------------------------------------------------
    def run(self) -> list[Problem]:
        doc = self.document
        if not isinstance(doc, dict):
            self.add("", "", "", _("a pack is a mapping of sections"))
            return self.problems
        for key in doc:
            if key not in SECTIONS:
                self.add("", str(key)[:60], "", _("unknown section"))
        pack = doc.get("pack")
        if pack is not None:
            self.pack_meta(pack)
        count = 0
        for section in ENTRY_SECTIONS:
            rows = doc.get(section)
            if rows is None:
                continue
            if not isinstance(rows, dict):
                self.add(section, "", "", _("must be a mapping of slug to entry"))
                continue
            count += len(rows)
            for slug, row in rows.items():
                self.entry(section, slug, row)
        if count > MAX_ENTRIES:
            self.add("", "", "", _("more than %(max)d entries") % {"max": MAX_ENTRIES})
        if doc.get(TABLES) is not None:
            self.tables(doc[TABLES])
        if not self.problems:
            self.references()
        return self.problems

    def pack_meta(self, pack: Any) -> None:
        if not isinstance(pack, dict):
            self.add("pack", "", "", _("must be a mapping"))
            return
        for key in pack:
            if key not in KEYS["pack"]:
                self.add("pack", "", str(key)[:60], _("unknown key"))
        for key in ("name", "description", "version", "credit", "slug"):
            if key in pack and not isinstance(pack[key], str | int | float):
                self.add("pack", "", key, _("must be text"))
        if "settings" in pack and not isinstance(pack["settings"], dict):
            self.add("pack", "", "settings", _("must be a mapping"))

    def tables(self, tables: Any) -> None:
        """The campaign tables, by the check a campaign's own overrides pass: each problem
        names its table ("table exploration") and its row ("row 3") or key."""
        if not isinstance(tables, dict):
            self.add(TABLES, "", "", _("must be a mapping of table name to rows"))
            return
        for issue in tables_issues(tables):
            self.add(TABLES, issue.table, issue.place if issue.table else "", issue.detail)

    def entry(self, section: str, slug: Any, row: Any, *, label: str = "") -> bool:
        """The entry's slug, keys and texts; False when it is not a mapping."""
        kind = label or section
        shown = str(slug)[:60]
        if not isinstance(slug, str) or not SLUG_RE.match(slug) or len(slug) > SLUG_MAX_LENGTH:
            self.add(
                section,
                shown,
                "slug",
                _("lower-case letters, digits, - and _ only, at most %(max)d")
                % {"max": SLUG_MAX_LENGTH},
                label=kind,
            )
        if not isinstance(row, dict):
            self.add(section, shown, "", _("must be a mapping"), label=kind)
            return False
        for key in row:
            if key not in KEYS[kind]:
                self.add(section, shown, str(key)[:60], _("unknown key"), label=kind)
        name = row.get("name")
        if not isinstance(name, str) or not name.strip():
            self.add(section, shown, "name", _("the Spanish name is required"), label=kind)
        elif len(name) > NAME_MAX_LENGTH:
            self.add(
                section,
                shown,
                "name",
                _("at most %(max)d characters") % {"max": NAME_MAX_LENGTH},
                label=kind,
            )
        for key in ("description", "credit"):
            if key in row and not self.text(row[key]):
                self.add(section, shown, key, _("must be text"), label=kind)
        for language in LANGUAGES:
            block = row.get(language)
            if block is None:
                continue
            if (
                not isinstance(block, dict)
                or not set(block) <= set(TRANSLATED)
                or not all(isinstance(t, str) and len(t) <= TEXT_MAX_LENGTH for t in block.values())
            ):
                self.add(
                    section,
                    shown,
                    language,
                    _("must give text for %(fields)s only") % {"fields": ", ".join(TRANSLATED)},
                    label=kind,
                )
            elif len(block.get("name", "")) > NAME_MAX_LENGTH:
                self.add(
                    section,
                    shown,
                    language,
                    _("the name is longer than %(max)d characters") % {"max": NAME_MAX_LENGTH},
                    label=kind,
                )
        for key, (low, high) in BOUNDS.items():
            if key in row and row[key] is not None and kind != "races":
                self.number(section, shown, key, row[key], low, high, label=kind)
        getattr(self, f"check_{kind}", lambda *a: None)(section, shown, row)
        return True

    @staticmethod
    def text(value: Any) -> bool:
        return isinstance(value, str) and len(value) <= TEXT_MAX_LENGTH

    def number(self, section, slug, key, value, low, high, *, label="") -> None:
        if isinstance(value, bool) or not isinstance(value, int) or not low <= value <= high:
            self.add(
                section,
                slug,
                key,
                _("a whole number from %(low)d to %(high)d") % {"low": low, "high": high},
                label=label,
            )

    def slugs(self, section, slug, key, value, *, label="") -> list[str]:
        if value is None:
            return []
        if not isinstance(value, list) or not all(isinstance(v, str) for v in value):
            self.add(section, slug, key, _("must be a list of slugs"), label=label)
            return []
        return value

    def profile(self, section, slug, key, value, *, label="") -> dict | None:
        profile = parse_profile(value)
        if profile is None:
            self.add(
                section, slug, key, _("a profile needs 9 values (M HA HP F R H I A L)"), label=label
            )
            return None
        bad = [
            f
            for f, v in profile.items()
            if v < 0 or v > (MOVE_LIMIT if f == "m" else PROFILE_LIMIT)
        ]
        if bad or (profile["m"] * 2) != int(profile["m"] * 2):
            self.add(section, slug, key, _("values out of range"), label=label)
            return None
        return profile

    # The sections ----------------------------------------------------------------------------
    def check_races(self, section, slug, row) -> None:
        self.profile(section, slug, "max", row.get("max"))

    def check_special_rules(self, section, slug, row) -> None:
        if vocabulary.unknown_rules([slug]):
            self.add(section, slug, "slug", _("not a rule the rules engine knows"))

    def check_skill_lists(self, section, slug, row) -> None:
        skills = row.get("skills")
        if skills is None:
            return
        if not isinstance(skills, dict):
            self.add(section, slug, "skills", _("must be a mapping of slug to skill"))
            return
        for skill_slug, skill in skills.items():
            self.entry(section, skill_slug, skill, label="skills")

    def check_skills(self, section, slug, row) -> None:
        if "effects" in row and not isinstance(row["effects"], dict):
            self.add(section, slug, "effects", _("must be a mapping"), label="skills")

    def check_equipment(self, section, slug, row) -> None:
        if row.get("kind") not in KINDS:
            self.add(section, slug, "kind", _("one of %(kinds)s") % {"kinds": ", ".join(KINDS)})
        if "cost" not in row:
            self.add(section, slug, "cost", _("required"))
        if "cost_dice" in row and not (
            isinstance(row["cost_dice"], str) and re.fullmatch(r"[1-6]?D6", row["cost_dice"])
        ):
            self.add(section, slug, "cost_dice", _('dice such as "2D6"'))
        if "strength" in row and not isinstance(row["strength"], str | int):
            self.add(section, slug, "strength", _("must be text"))
        if "two_handed" in row and not isinstance(row["two_handed"], bool):
            self.add(section, slug, "two_handed", _("yes or no"))
        rules = row.get("rules", {})
        if not isinstance(rules, dict):
            self.add(section, slug, "rules", _("must be a mapping"))
        elif unknown := vocabulary.unknown_item_keys(rules):
            self.add(
                section,
                slug,
                "rules",
                _("keys the rules engine does not know: %(keys)s") % {"keys": ", ".join(unknown)},
            )

    def check_equipment_lists(self, section, slug, row) -> None:
        items = row.get("items", [])
        if not isinstance(items, list):
            self.add(section, slug, "items", _("must be a list"))
            return
        seen = set()
        for entry in items:
            item, options = entry, {}
            if isinstance(entry, dict) and len(entry) == 1:
                ((item, options),) = entry.items()
                options = options or {}
            if not isinstance(item, str) or not isinstance(options, dict):
                self.add(section, slug, "items", _("each item is a slug or {slug: {cost, common}}"))
                continue
            if item in seen:
                self.add(section, slug, "items", _("%(item)s twice") % {"item": item})
            seen.add(item)
            if not set(options) <= {"cost", "common"}:
                self.add(
                    section, slug, "items", _("%(item)s: only cost and common") % {"item": item}
                )
            if options.get("cost") is not None:
                self.number(section, slug, "items", options["cost"], *BOUNDS["cost"])

    def fighter_common(self, section, slug, row, label) -> None:
        if "cost" not in row:
            self.add(section, slug, "cost", _("required"), label=label)
        self.profile(section, slug, "profile", row.get("profile"), label=label)
        rules = self.slugs(section, slug, "rules", row.get("rules"), label=label)
        if unknown := vocabulary.unknown_rules(rules):
            self.add(
                section,
                slug,
                "rules",
                _("rules the rules engine does not know: %(keys)s") % {"keys": ", ".join(unknown)},
                label=label,
            )
        self.slugs(section, slug, "skills", row.get("skills"), label=label)
        for key in ("large", "experience"):
            if key in row and not isinstance(row[key], bool):
                self.add(section, slug, key, _("yes or no"), label=label)

    def check_fighter_types(self, section, slug, row) -> None:
        if row.get("role") not in ROLES:
            self.add(
                section,
                slug,
                "role",
                _("one of %(roles)s") % {"roles": ", ".join(ROLES)},
                label="fighter_types",
            )
        self.fighter_common(section, slug, row, "fighter_types")
        if "equipment" in row and not isinstance(row["equipment"], str):
            self.add(
                section, slug, "equipment", _("an equipment list's slug"), label="fighter_types"
            )

    def check_hired_swords(self, section, slug, row) -> None:
        self.fighter_common(section, slug, row, "hired_swords")
        if "upkeep" not in row:
            self.add(section, slug, "upkeep", _("required"))
        for key in ("equipment", "may_hire", "may_not_hire"):
            self.slugs(section, slug, key, row.get(key))

    def check_warband_types(self, section, slug, row) -> None:
        if "playable" in row and not isinstance(row["playable"], bool):
            self.add(section, slug, "playable", _("yes or no"))
        low, high = row.get("min_size", 3), row.get("max_size", 15)
        if isinstance(low, int) and isinstance(high, int) and low > high:
            self.add(section, slug, "min_size", _("more than the maximum"))
        fighters = row.get("fighter_types")
        if not isinstance(fighters, dict) or not fighters:
            self.add(section, slug, "fighter_types", _("at least one fighter type"))
            return
        leaders = 0
        for fighter_slug, fighter in fighters.items():
            if self.entry(section, fighter_slug, fighter, label="fighter_types"):
                leaders += fighter.get("role") == "leader"
        if leaders != 1:
            self.add(section, slug, "fighter_types", _("needs exactly one leader type"))

    # What entries point at -----------------------------------------------------------------
    def defined(self, section: str) -> set[str]:
        return set(self.document.get(section) or {})

    def available(self, section: str) -> set[str]:
        return self.defined(section) | self.known(section)

    def race_maximum(self, race: str) -> dict | None:
        row = (self.document.get("races") or {}).get(race)
        if row is not None:
            return parse_profile(row.get("max"))
        return self.known_maximum(race)

    def known_maximum(self, race: str) -> dict | None:
        maxima = getattr(self.known, "race_maxima", None)
        return maxima(race) if maxima else None

    def refer(self, section, slug, key, targets: Iterable[str], where: str, *, label="") -> None:
        available = self.available(where)
        missing = [t for t in targets if t not in available]
        if missing:
            self.add(
                section,
                slug,
                key,
                _("unknown %(what)s: %(slugs)s")
                % {"what": ENTRY_LABELS[where], "slugs": ", ".join(missing)},
                label=label,
            )

    def references(self) -> None:
        doc = self.document
        for slug, row in (doc.get("equipment_lists") or {}).items():
            items = [next(iter(e)) if isinstance(e, dict) else e for e in row.get("items") or []]
            self.refer("equipment_lists", slug, "items", items, "equipment")
        for slug, row in (doc.get("warband_types") or {}).items():
            self.refer("warband_types", slug, "race", [row.get("race")], "races")
            for fighter_slug, fighter in row["fighter_types"].items():
                self.fighter_references(
                    "warband_types", fighter_slug, fighter, row.get("race"), "fighter_types"
                )
        for slug, row in (doc.get("hired_swords") or {}).items():
            self.fighter_references("hired_swords", slug, row, "human", "hired_swords")
            self.refer("hired_swords", slug, "equipment", row.get("equipment") or [], "equipment")
            for key in ("may_hire", "may_not_hire"):
                self.refer("hired_swords", slug, key, row.get(key) or [], "warband_types")

    def fighter_references(self, section, slug, row, default_race, label) -> None:
        race = row.get("race", default_race)
        self.refer(section, slug, "race", [race], "races", label=label)
        self.refer(section, slug, "skills", row.get("skills") or [], "skill_lists", label=label)
        if label == "fighter_types" and row.get("equipment"):
            self.refer(
                section, slug, "equipment", [row["equipment"]], "equipment_lists", label=label
            )
        maximum = self.race_maximum(race)
        profile = parse_profile(row.get("profile"))
        if maximum and profile:
            over = [f for f in PROFILE_FIELDS if profile[f] > maximum[f]]
            if over:
                self.add(
                    section,
                    slug,
                    "profile",
                    _("above the race's maximum in %(fields)s") % {"fields": ", ".join(over)},
                    label=label,
                )


def document_check(document: Any, *, known: Known = no_known) -> list[Problem]:
    """Every problem of ``document``; none: it may be stored and published. ``known(section)``
    gives the slugs of the default catalogue entries may point at without defining them."""
    return _Checker(document, known).run()
