"""Exploration (Exploración), selling finds (Venta de hallazgos) and rare items (objetos raros)."""

from __future__ import annotations

from collections import Counter
from collections.abc import Mapping, Sequence
from dataclasses import dataclass, field
from typing import Any

from rules.engine.dice import Dice
from rules.engine.errors import SpecError
from rules.engine.explain import Explainer
from rules.engine.i18n import gettext_noop as _
from rules.engine.postbattle._common import (
    TableResult,
    table_result,
    whole_count,
)
from rules.engine.tables import (
    EXPLORATION_FINDS_TABLE,
    EXPLORATION_MAX_DICE,
    RARE_ITEM_ROLL,
    SELL_FINDS_COLUMNS,
    SELL_FINDS_TABLE,
    Row,
    lookup,
)

MULTIPLE_NAMES = {2: "doubles", 3: "triples", 4: "quadruples", 5: "quintuples", 6: "sextuples"}


# Exploration, selling, rating --------------------------------------------------------------------


def exploration(
    *,
    dice: Dice,
    heroes_not_out_of_action: int,
    won: bool = False,
    extra_dice: int = 0,
    table: Sequence[Row] = EXPLORATION_FINDS_TABLE,
    max_dice: int = EXPLORATION_MAX_DICE,
) -> TableResult:
    """Exploración: one D6 per hero not put out of action, +1 die for the winner, at most 6; the
    total gives the finds; doubles, triples… are flagged (a special location of their own)."""
    count = min(
        max_dice,
        whole_count("heroes_not_out_of_action", heroes_not_out_of_action, 20)
        + (1 if won else 0)
        + whole_count("extra_dice", extra_dice, 6),
    )
    ex = Explainer(dice)
    if count == 0:
        ex.add("exploration.no_dice", _("Nobody explores: no finds."))
        return table_result(
            "exploration", ex, "none", (), (), dice=0, total=0, finds=0, multiples=[]
        )
    roll = dice.roll(f"{count}D6", "exploration")
    finds = int(lookup(table, roll.total, table="exploration")["result"])
    counts = Counter(roll.faces)
    multiples = [
        {"face": face, "count": n, "kind": MULTIPLE_NAMES.get(n, f"{n}x")}
        for face, n in sorted(counts.items())
        if n >= 2
    ]
    ex.add(
        "exploration.rolled",
        _("Dice rolled: %(count)d, total %(total)d; finds: %(finds)d."),
        count=count,
        total=roll.total,
        finds=finds,
    )
    for multiple in multiples:
        ex.add(
            "exploration.multiple",
            _("%(kind)s of %(face)d: a special location."),
            kind=multiple["kind"],
            face=multiple["face"],
        )
    effects = [{"type": "finds", "amount": finds}]
    return table_result(
        "exploration",
        ex,
        "finds",
        effects,
        (),
        dice=count,
        faces=list(roll.faces),
        total=roll.total,
        finds=finds,
        multiples=multiples,
    )


def sell_finds(
    *,
    finds: int,
    warband_size: int,
    table: Mapping[int, Sequence[int]] = SELL_FINDS_TABLE,
    columns: Sequence[Row] = SELL_FINDS_COLUMNS,
) -> int:
    """Venta de hallazgos (one batch per post-battle): co by finds × warband size."""
    whole_count("finds", finds)
    whole_count("warband_size", warband_size, 1000)
    if finds == 0:
        return 0
    if warband_size == 0:
        raise SpecError(_("A warband without warriors cannot sell."), field="warband_size")
    row = table[min(finds, max(table))]
    for index, column in enumerate(columns):
        high = column.get("max")
        if column["min"] <= warband_size and (high is None or warband_size <= high):
            return int(row[index])
    raise SpecError(_("No column for that warband size."), field="warband_size")


@dataclass(frozen=True)
class RareItem:
    """A rare item a warband's lists offer: the 2D6 needed, the list price and the price dice
    ("35+3D6": price 35, price dice "3D6", rolled when the item is found)."""

    rarity: int
    price: int
    price_dice: str = ""


@dataclass(frozen=True)
class RareItemsFound:
    """What one hero's search found: the roll, the items (by slug, sorted) and their prices."""

    total: int
    faces: tuple[int, ...]
    found: tuple[str, ...] = ()
    prices: Mapping[str, int] = field(default_factory=dict)

    def to_dict(self) -> dict[str, Any]:
        return {"total": self.total, "faces": list(self.faces), "found": list(self.found)}


def rare_items(*, dice: Dice, offered: Mapping[str, RareItem], who: str = "") -> RareItemsFound:
    """Objetos raros: a hero not put out of action rolls 2D6 and finds every rare item of his
    warband's lists whose rarity is at most the total; each one's price dice are rolled at once
    (so a replay finds the same price)."""
    roll = dice.roll(RARE_ITEM_ROLL, f"rare items: {who}".rstrip(": "))
    found = tuple(slug for slug in sorted(offered) if offered[slug].rarity <= roll.total)
    prices = {}
    for slug in found:
        item = offered[slug]
        extra = dice.roll(item.price_dice, f"price of {slug}").total if item.price_dice else 0
        prices[slug] = item.price + extra
    return RareItemsFound(roll.total, tuple(roll.faces), found, prices)
