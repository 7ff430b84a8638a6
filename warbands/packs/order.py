"""The order a pack's entries and their keys are shown and exported in. PostgreSQL's jsonb
keeps no key order (it hands keys back by length), so every list of entries is sorted here:
the pack's pages, its forms and the YAML file a pack is exported as."""

from __future__ import annotations

from typing import Any

from .document import ROLES

# Each key's place in an entry.
KEY_ORDER = (
    "slug",
    "name",
    "description",
    "en",
    "version",
    "kind",
    "role",
    "race",
    "cost",
    "cost_dice",
    "upkeep",
    "rating",
    "rarity",
    "max",
    "group",
    "xp",
    "starting_treasury",
    "min_size",
    "max_size",
    "max_heroes",
    "profile",
    "range_cm",
    "strength",
    "save",
    "two_handed",
    "large",
    "experience",
    "playable",
    "rules",
    "skills",
    "equipment",
    "items",
    "may_hire",
    "may_not_hire",
    "effects",
    "settings",
    "credit",
    "fighter_types",
)


def entry_rank(slug: str, row: Any) -> tuple:
    """An entry's place in its section: by role (a warband's leader first), then by name, then
    by slug."""
    row = row if isinstance(row, dict) else {}
    role = row.get("role")
    rank = ROLES.index(role) if role in ROLES else len(ROLES)
    return (rank, str(row.get("name") or slug).casefold(), slug)


def keys_in_order(row: dict[str, Any]) -> dict[str, Any]:
    place = {key: n for n, key in enumerate(KEY_ORDER)}
    return {key: row[key] for key in sorted(row, key=lambda k: (place.get(k, len(place)), k))}
