"""Weapons and armour (Armas y armaduras), as data (a content pack may supply its own table).

``WEAPONS`` maps a slug to an :class:`Equipment` row; the combat code reads only these fields,
never the slugs, so a league's pack can add or change items without touching code. Prices are
in coronas de oro (co), ranges in centimetres.
"""

from __future__ import annotations

from collections.abc import Mapping
from dataclasses import asdict, dataclass
from typing import Any

from rules.engine.errors import SpecError
from rules.engine.i18n import gettext_noop as _

MELEE = "melee"
MISSILE = "missile"
ARMOUR = "armour"
SHIELD = "shield"
HELMET = "helmet"


@dataclass(frozen=True)
class Equipment:
    """One item. Only the fields that matter for its kind are set."""

    slug: str
    name: str
    kind: str
    price: int | None = None
    price_dice: str | None = None
    rarity: int | None = None
    strength_bonus: int = 0
    strength_bonus_first_round: int = 0
    enemy_save_bonus: int = 0
    save_modifier: int = 0
    parry: bool = False
    concussion: bool = False
    strikes_first_first_round: bool = False
    strikes_last: bool = False
    two_handed: bool = False
    no_second_weapon: bool = False
    no_buckler: bool = False
    mounted_only: bool = False
    range_cm: int | None = None
    strength: int | None = None
    uses_user_strength: bool = False
    no_range_or_move_penalties: bool = False
    move_or_fire: bool = False
    save: int | None = None
    save_bonus: int = 0
    movement_penalty_cm_with_shield: float = 0
    special_save_vs_stun: int | None = None
    notes: str = ""

    def to_dict(self) -> dict[str, Any]:
        return {key: value for key, value in asdict(self).items() if value not in (None, 0, "")}


def _items(*items: Equipment) -> dict[str, Equipment]:
    return {item.slug: item for item in items}


WEAPONS: dict[str, Equipment] = _items(
    Equipment(
        "daga",
        "Daga",
        MELEE,
        price=2,
        enemy_save_bonus=1,
        notes=_("The first dagger is free. The enemy gets +1 to his save (6+ if he has none)."),
    ),
    Equipment("maza", "Maza", MELEE, price=3, concussion=True, notes=_("Concussion.")),
    Equipment("martillo", "Martillo", MELEE, price=3, concussion=True, notes=_("Concussion.")),
    Equipment("hacha", "Hacha", MELEE, price=5, save_modifier=1, notes=_("Extra -1 to saves.")),
    Equipment("espada", "Espada", MELEE, price=10, parry=True, notes=_("Parry.")),
    Equipment(
        "lanza",
        "Lanza",
        MELEE,
        price=10,
        strikes_first_first_round=True,
        no_second_weapon=True,
        notes=_("Strikes first in the first round; only a shield or buckler in the other hand."),
    ),
    Equipment("alabarda", "Alabarda", MELEE, price=10, strength_bonus=1, two_handed=True),
    Equipment(
        "mangual",
        "Mangual",
        MELEE,
        price=15,
        strength_bonus_first_round=1,
        no_second_weapon=True,
        no_buckler=True,
        notes=_("No second weapon or buckler."),
    ),
    Equipment(
        "lucero-del-alba",
        "Lucero del alba",
        MELEE,
        price=15,
        strength_bonus_first_round=1,
        no_second_weapon=True,
        no_buckler=True,
        notes=_("No second weapon or buckler."),
    ),
    Equipment(
        "mayal",
        "Mayal",
        MELEE,
        price=15,
        strength_bonus_first_round=2,
        two_handed=True,
    ),
    Equipment(
        "arma-a-dos-manos",
        "Arma a dos manos",
        MELEE,
        price=15,
        strength_bonus=2,
        two_handed=True,
        strikes_last=True,
    ),
    Equipment(
        "lanza-de-caballeria",
        "Lanza de caballería",
        MELEE,
        price=40,
        rarity=8,
        strength_bonus=2,
        mounted_only=True,
    ),
    Equipment("arco-corto", "Arco corto", MISSILE, price=5, range_cm=40, strength=3),
    Equipment("arco", "Arco", MISSILE, price=10, range_cm=60, strength=3),
    Equipment("arco-largo", "Arco largo", MISSILE, price=15, range_cm=75, strength=3),
    Equipment(
        "arco-elfico",
        "Arco élfico",
        MISSILE,
        price=35,
        price_dice="3D6",
        rarity=12,
        range_cm=90,
        strength=3,
        save_modifier=1,
    ),
    Equipment(
        "ballesta", "Ballesta", MISSILE, price=25, range_cm=75, strength=4, move_or_fire=True
    ),
    Equipment("honda", "Honda", MISSILE, price=2, range_cm=45, strength=3),
    Equipment(
        "cuchillos-arrojadizos",
        "Cuchillos arrojadizos",
        MISSILE,
        price=15,
        range_cm=15,
        uses_user_strength=True,
        no_range_or_move_penalties=True,
    ),
    Equipment("armadura-ligera", "Armadura ligera", ARMOUR, price=20, save=6),
    Equipment(
        "armadura-pesada",
        "Armadura pesada",
        ARMOUR,
        price=50,
        save=5,
        movement_penalty_cm_with_shield=2.5,
    ),
    Equipment("armadura-enana", "Armadura enana", ARMOUR, save=4, notes=_("Rare.")),
    Equipment("cota-de-mithril", "Cota de mithril", ARMOUR, save=3, notes=_("Rare.")),
    Equipment("escudo", "Escudo", SHIELD, price=5, save_bonus=1),
    Equipment("escudo-pequeno", "Escudo pequeño (rodela)", SHIELD, price=5, parry=True),
    Equipment("yelmo", "Yelmo", HELMET, price=10, special_save_vs_stun=4),
)


CATALOGUE_FIELDS = frozenset(
    {
        "strength_bonus",
        "strength_bonus_first_round",
        "enemy_save_bonus",
        "parry",
        "concussion",
        "strikes_first_first_round",
        "strikes_last",
        "two_handed",
        "no_second_weapon",
        "no_buckler",
        "mounted_only",
        "range_cm",
        "strength",
        "uses_user_strength",
        "no_range_or_move_penalties",
        "move_or_fire",
        "save",
        "save_bonus",
        "movement_penalty_cm_with_shield",
        "special_save_vs_stun",
    }
)
"""Keys of a catalogue item's ``rules`` data that are fields of :class:`Equipment` as they are."""
KINDS = (MELEE, MISSILE, ARMOUR, SHIELD, HELMET)


def equipment_from_catalogue(
    slug: str, name: str, kind: str, rules: Mapping[str, Any]
) -> Equipment | None:
    """The engine's item for a catalogue row (``kind`` and ``rules`` data as the content pack
    writes them), or ``None`` for an item that is no weapon nor armour. The catalogue writes
    ``save_modifier`` as the change to the enemy's save (``-1``: an axe makes it one worse); the
    engine counts how much worse it gets (``1``)."""
    if kind not in KINDS:
        return None
    fields = {key: value for key, value in rules.items() if key in CATALOGUE_FIELDS}
    if rules.get("save_modifier"):
        fields["save_modifier"] = -int(rules["save_modifier"])
    if kind == SHIELD and rules.get("buckler"):
        fields["parry"] = True
    try:
        return Equipment(slug, name, kind, **fields)
    except TypeError:  # a value of the wrong type in a league's pack: use the defaults
        return WEAPONS.get(slug)


def equipment_item(
    slug: str,
    *,
    kinds: tuple[str, ...],
    field: str,
    table: Mapping[str, Equipment] | None = None,
    items: tuple[Equipment, ...] = (),
) -> Equipment:
    """The item ``slug`` of one of ``kinds`` (``items``: a warrior's own catalogue items, looked
    up first), or a :class:`SpecError` naming ``field``."""
    item = next((i for i in items if i.slug == slug), None)
    if item is None:
        item = (WEAPONS if table is None else table).get(slug)
    if item is None:
        raise SpecError(_("%(slug)s is not a known item."), field=field, slug=slug)
    if item.kind not in kinds:
        raise SpecError(_("%(slug)s cannot be used as %(field)s."), field=field, slug=slug)
    return item


def weapons_as_dict() -> dict[str, dict[str, Any]]:
    return {slug: item.to_dict() for slug, item in WEAPONS.items()}
