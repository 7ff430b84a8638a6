"""Reads of packs: a user's own, the public list, a version's contents."""

from __future__ import annotations

from typing import Any

from django.db.models import Count, Prefetch, Q
from django.utils.translation import gettext

from rules.engine.campaign_tables import CAMPAIGN_TABLES, table_names

from ..campaign_tables import table_label
from ..models import (
    ContentPack,
    Equipment,
    EquipmentList,
    FighterType,
    HiredSword,
    PackVersion,
    Race,
    Skill,
    SkillList,
    SpecialRule,
    WarbandType,
)
from .document import ENTRY_LABELS, ENTRY_SECTIONS, NESTED, TABLES, key_type
from .order import entry_rank


def packs_listed(*, user=None):
    """Public packs (and the default one), then the user's own, with their versions and the
    campaigns that play each version."""
    visible = Q(visibility=ContentPack.Visibility.PUBLIC) | Q(owner=None)
    if user is not None and user.is_authenticated:
        visible |= Q(owner=user)
    return (
        ContentPack.objects.filter(visible)
        .select_related("owner")
        .prefetch_related(
            Prefetch(
                "versions",
                queryset=PackVersion.objects.annotate(campaign_count=Count("campaigns")).order_by(
                    "-number"
                ),
            )
        )
        .order_by("name", "pk")
    )


SECTION_MODELS = {
    "races": Race,
    "special_rules": SpecialRule,
    "skill_lists": SkillList,
    "equipment": Equipment,
    "equipment_lists": EquipmentList,
    "warband_types": WarbandType,
    "hired_swords": HiredSword,
}


def contents_named(document: dict) -> list[tuple[str, int]]:
    """``contents`` with each section's name in the reader's language (the models' own)."""
    return [
        (
            SECTION_MODELS[section]._meta.verbose_name_plural
            if section in SECTION_MODELS
            else gettext("campaign tables"),
            count,
        )
        for section, count in contents(document).items()
    ]


def default_contents() -> list[tuple[str, int]]:
    """The default catalogue's entries by section (the default pack's rows)."""
    playable = {WarbandType: {"playable": True}}  # not the hired swords' holder
    rows = [
        (
            model._meta.verbose_name_plural,
            model.objects.filter(pack_version=None, **playable.get(model, {})).count(),
        )
        for section, model in SECTION_MODELS.items()
        if section != "hired_swords"
    ]
    swords = HiredSword.objects.filter(fighter_type__pack_version=None).count()
    return [*rows, (HiredSword._meta.verbose_name_plural, swords)]


def contents(document: dict) -> dict[str, int]:
    """How many entries of each section a document holds (and how many campaign tables)."""
    return {
        section: len(document.get(section) or {})
        for section in (*ENTRY_SECTIONS, TABLES)
        if document.get(section)
    }


def tables_named(document: dict) -> list[str]:
    """The campaign tables a document sets, by their names in the reader's language."""
    tables = document.get(TABLES)
    return [table_label(name) for name in table_names(tables)] if isinstance(tables, dict) else []


def draft_tables(document: dict) -> list[dict[str, Any]]:
    """Every campaign table, for the pack page: whether the draft sets it or leaves the
    default, and how many rows it has."""
    tables = document.get(TABLES)
    tables = tables if isinstance(tables, dict) else {}
    return [
        {
            "name": name,
            "label": table_label(name),
            "set": name in tables,
            "rows": len(tables[name]) if isinstance(tables.get(name), list | dict) else 0,
        }
        for name in CAMPAIGN_TABLES
    ]


def version_tables(version_id: int | None) -> dict[str, Any]:
    """A pack version's campaign tables (its document's ``tables`` only, not the whole
    document); empty without a version."""
    if version_id is None:
        return {}
    tables = (
        PackVersion.objects.filter(pk=version_id).values_list("document__tables", flat=True).first()
    )
    return tables if isinstance(tables, dict) else {}


def latest_published(pack: ContentPack) -> PackVersion | None:
    return pack.versions.filter(state=PackVersion.State.PUBLISHED).order_by("-number").first()


# An equipment's kind and a fighter type's role by their names (the models' own).
NAMES = {**dict(Equipment.Kind.choices), **dict(FighterType.Role.choices)}
KIND_MODELS = {**SECTION_MODELS, "skills": Skill, "fighter_types": FighterType}


def entries_of(document: dict, kind: str, parent: str = "") -> dict | None:
    """The ``kind`` entries of ``document`` (under ``parent`` for a nested kind); None: no
    such parent."""
    if kind not in NESTED:
        rows = document.get(kind)
        return rows if isinstance(rows, dict) else {}
    section, key = NESTED[kind]
    holder = (document.get(section) or {}).get(parent)
    if not isinstance(holder, dict):
        return None
    rows = holder.get(key)
    return rows if isinstance(rows, dict) else {}


def section_rows(kind: str, rows) -> dict:
    """One section of the draft as the pack page lists it: its name, and each entry's slug,
    name, credit and a short summary."""
    entries = []
    for slug, row in (rows or {}).items() if isinstance(rows, dict) else []:
        row = row if isinstance(row, dict) else {}
        facts = [
            str(NAMES.get(row[k], row[k]))
            for k in ("kind", "role", "cost", "profile")
            if row.get(k) is not None
        ]
        entries.append(
            {
                "slug": slug,
                "name": str(row.get("name") or slug),
                "credit": row.get("credit", ""),
                "facts": " · ".join(facts),
                "rank": entry_rank(slug, row),
            }
        )
    entries.sort(key=lambda entry: entry["rank"])
    return {"kind": kind, "label": KIND_MODELS[kind]._meta.verbose_name_plural, "rows": entries}


def draft_sections(document: dict) -> list[dict]:
    """Every entry section of the draft, in the document's order, for the pack page."""
    return [section_rows(section, document.get(section)) for section in ENTRY_SECTIONS]


def references(document: dict, section: str, slug: str) -> list[str]:
    """The entries of ``document`` that point at ``section``'s ``slug`` ("equipment list
    basico", "fighter type jefe"…), by the reference keys of ``TYPES``, sorted (a document
    stored in PostgreSQL's jsonb does not keep its keys' order)."""
    found = []

    def look(kind: str, entry_slug: str, row: Any) -> None:
        if not isinstance(row, dict):
            return
        for key, value in row.items():
            shape = key_type(kind, key)
            if shape[0] not in ("ref", "refs") or shape[1] != section:
                continue
            values = value if isinstance(value, list) else [value]
            slugs = [next(iter(v)) if isinstance(v, dict) and v else v for v in values]
            if slug in slugs:
                found.append(f"{ENTRY_LABELS[kind]} {entry_slug}")
                return

    for kind in ENTRY_SECTIONS:
        for entry_slug, row in (document.get(kind) or {}).items():
            look(kind, entry_slug, row)
            for child, (parent, key) in NESTED.items():
                if parent == kind and isinstance(row, dict) and isinstance(row.get(key), dict):
                    for child_slug, child_row in row[key].items():
                        look(child, child_slug, child_row)
    return sorted(found)
