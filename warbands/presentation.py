"""Plain-Python decoration of a prefetched sheet for templates (no queries)."""

from __future__ import annotations

from collections.abc import Mapping
from dataclasses import dataclass
from functools import cached_property, lru_cache
from typing import Any

from django.utils.safestring import SafeString, mark_safe
from django.utils.text import slugify
from django.utils.translation import gettext as _

from .models import PROFILE_FIELDS, Warband
from .models.catalogue import PROFILE_HEADERS
from .progression import next_threshold
from .services.equipment import sale_value
from .services.rating import advance_thresholds
from .services.undo import undo_offer, undo_point_text

HERO_BOXES = 90
HENCHMAN_BOXES = 14


def profile_rows(obj, base) -> list[dict]:
    rows = []
    for field in PROFILE_FIELDS:
        value, base_value = getattr(obj, field), getattr(base, field)
        if isinstance(value, float) and value.is_integer():
            value = int(value)
        rows.append(
            {
                "field": field,
                "label": PROFILE_HEADERS[field],
                "value": value,
                "base": base_value,
                "changed": value != base_value,
                "up": value > base_value,
            }
        )
    return rows


@dataclass(frozen=True)
class ExperienceGrid:
    """A fighter's experience boxes, decided once: each box's number and its CSS classes, and
    the grid as the screen and the printed sheet draw it (the templates print ``html`` or
    ``print_html`` as they are: a 90-box grid is 90 short strings joined, not 90 template
    loops)."""

    boxes: tuple[tuple[int, str], ...]

    @cached_property
    def html(self) -> SafeString:
        return mark_safe(  # noqa: S308 - box numbers and fixed class names only
            "".join(f'<span class="xp{css}" title="{n}"></span>' for n, css in self.boxes)
        )

    @cached_property
    def print_html(self) -> SafeString:
        return mark_safe(  # noqa: S308 - fixed class names only
            "".join(f'<span class="{css.strip()}"></span>' for _n, css in self.boxes)
        )


@lru_cache(maxsize=512)
def experience_grid(experience: int, thresholds: tuple[int, ...], boxes: int) -> ExperienceGrid:
    """The grid of ``boxes`` boxes, the first ``experience`` filled, the advance thresholds
    marked. Grids repeat across fighters and versions, so they are built once per process."""
    marks = set(thresholds)
    return ExperienceGrid(
        tuple(
            (n, (" filled" if n <= experience else "") + (" threshold" if n in marks else ""))
            for n in range(1, boxes + 1)
        )
    )


def rule_rows(slugs, index: Mapping[str, Any]) -> list[dict]:
    """Special rules in words (slug, name, description), in the order given; ``index`` holds
    the catalogue's rules by slug."""
    rows = []
    for slug in slugs:
        rule = index.get(slug)
        if rule is None:  # a rule the catalogue no longer has: its slug read as words
            rows.append(
                {"slug": slug, "name": slug.replace("-", " ").capitalize(), "description": ""}
            )
        else:
            rows.append(
                {
                    "slug": slug,
                    "name": rule.display_name,
                    "description": rule.display_description,
                }
            )
    return rows


def special_rule_rows(holder, index: Mapping[str, Any]) -> list[dict]:
    """The holder's special rules in words: its own (injuries add some) and its type's."""
    slugs = dict.fromkeys(
        [*(holder.fighter_type.special_rules or []), *(holder.special_rules or [])]
    )
    return rule_rows(slugs, index)


def _decorate_holder(holder, thresholds: tuple[int, ...], boxes: int, rules) -> None:
    """What the sheet shows of a hero or a group: profile, experience grid (at least ``boxes``
    boxes) and next advance, equipment, special rules in words."""
    holder.profile_rows = profile_rows(holder, holder.fighter_type)
    holder.xp_boxes = experience_grid(holder.experience, thresholds, max(boxes, holder.experience))
    holder.next_advance = next_threshold(thresholds, holder.experience)
    holder.items = list(holder.equipment.all())
    holder.rules = special_rule_rows(holder, rules)


def sale_question(item: str, value: int, copies: int = 1) -> str:
    """What the sell button asks; a group's item is sold for every member at once."""
    if copies > 1:
        return _(
            "Sell the %(item)s of all %(count)s members of the group for %(value)s co? They "
            "leave the warband."
        ) % {"item": item, "count": copies, "value": value}
    return _("Sell %(item)s for %(value)s co? It leaves the warband.") % {
        "item": item,
        "value": value,
    }


def sale_label(value: int, copies: int = 1) -> str:
    if copies > 1:
        return _("sell %(count)s (%(value)s co)") % {"count": copies, "value": value}
    return _("sell (%(value)s co)") % {"value": value}


def _for_sale(item, copies: int = 1) -> None:
    """What the sheet shows to sell an item: its value, the question and the button."""
    item.copies, item.sale_value = copies, sale_value(item.unit_price, copies)
    name = item.equipment.display_name
    item.sale_question = sale_question(name, item.sale_value, copies)
    item.sale_label = sale_label(item.sale_value, copies)


def decorate_sheet(warband: Warband) -> Warband:
    heroes_thresholds, group_thresholds = advance_thresholds(warband)
    rules = getattr(warband, "special_rule_index", {})
    for fighter in warband.heroes_all:
        _decorate_holder(fighter, heroes_thresholds, HERO_BOXES, rules)
        for item in fighter.items:
            _for_sale(item)
    for group in warband.group_list:
        size = len(group.roster_members)
        group.size = size
        _decorate_holder(group, group_thresholds, HENCHMAN_BOXES, rules)
        for item in group.items:
            _for_sale(item, size)
        group.cost_per_member = group.fighter_type.cost + sum(i.unit_price for i in group.items)
    for item in warband.stash:
        _for_sale(item)
    glossary = {}
    for holder in [*warband.heroes, *warband.group_list]:
        for rule in holder.rules:
            glossary.setdefault(rule["slug"], rule)
    warband.rule_glossary = sorted(glossary.values(), key=lambda rule: rule["name"])
    warband.hired_swords = [f for f in warband.heroes if f.hired_sword_id]
    warband.sources = sheet_sources(warband)
    offer = undo_offer(warband)
    warband.undo_change = undo_point_text(offer) if offer is not None else ""
    return warband


def sheet_sources(warband: Warband) -> list[tuple[str, str]]:
    """The credit notes ("Annúminas v3.0, p. 62") the warband's pack version gives its type,
    its warriors' types and their items, as (name, note), each once; none for the default
    catalogue. Reads the version already loaded with the sheet (``annotate_sheet``): no query.
    The page, the print view, the PDF and the API's ``/sheet/`` all show them."""
    version = warband.warband_type.pack_version
    document = version.document if version is not None else None
    if not isinstance(document, dict):
        return []
    own_type = (document.get("warband_types") or {}).get(warband.warband_type.local_slug) or {}
    fighters = {**(document.get("hired_swords") or {}), **(own_type.get("fighter_types") or {})}
    equipment = document.get("equipment") or {}
    sources: dict[tuple[str, int], tuple[str, str]] = {}

    def note(key, name: str, row) -> None:
        credit = row.get("credit") if isinstance(row, dict) else None
        if isinstance(credit, str) and credit.strip():
            sources.setdefault(key, (name, credit.strip()))

    note(("type", 0), warband.warband_type.display_name, own_type)
    items = list(warband.stash)
    for holder in [*warband.heroes, *warband.group_list]:
        kind = holder.fighter_type
        note(("fighter", kind.pk), kind.display_name, fighters.get(kind.local_slug))
        items += holder.equipment.all()  # prefetched with the sheet
    for item in items:
        if item.equipment.pack_version_id == version.pk:
            row = equipment.get(item.equipment.local_slug)
            note(("item", item.equipment_id), item.equipment.display_name, row)
    return list(sources.values())


def fighter_type_choices(fighter_types, *, hired: Mapping[int, int], rules) -> list[dict]:
    """What the hire dialog shows of each type: profile, cost, how many more, rules in words."""
    index = {rule.slug: rule for rule in rules}
    rows = []
    for fighter_type in fighter_types:
        count = hired.get(fighter_type.pk, 0)
        left = None if fighter_type.max_count is None else fighter_type.max_count - count
        rows.append(
            {
                "type": fighter_type,
                "profile": profile_rows(fighter_type, fighter_type),
                "hired": count,
                "left": max(0, left) if left is not None else None,
                "full": left is not None and left <= 0,
                "rules": rule_rows(fighter_type.special_rules or [], index),
            }
        )
    return rows


def download_filename(warband: Warband, extension: str) -> str:
    """A download's file name from the warband's name (``companía-del-baranduin.pdf`` becomes
    ``compania-del-baranduin.pdf``); ``banda-<id>`` when the name leaves nothing."""
    stem = slugify(warband.name)[:60].strip("-") or f"banda-{warband.pk}"
    return f"{stem}.{extension}"
