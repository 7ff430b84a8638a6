"""Who strikes first in a close combat (Quién ataca antes)."""

from __future__ import annotations

from collections.abc import Sequence
from dataclasses import dataclass
from typing import Any

from rules.engine.dice import Dice
from rules.engine.equipment import MELEE, Equipment, equipment_item
from rules.engine.errors import SpecError
from rules.engine.explain import Explainer, Step, explained_dict
from rules.engine.i18n import gettext_noop as _
from rules.engine.profile import MAX_CHARACTERISTIC
from rules.engine.validation import whole_number

# Strike order ------------------------------------------------------------------------------------


@dataclass(frozen=True)
class Combatant:
    """A warrior in a fight, for the strike order (Quién ataca antes). ``items``: his own
    catalogue items; ``strongman``: a two-handed weapon does not make him strike last;
    ``spear_blocked``: his spear does not strike first (an unstoppable charge against him)."""

    name: str
    initiative: int
    charged: bool = False
    stood_up: bool = False
    weapon: str | None = None
    first_round: bool = True
    items: tuple[Equipment, ...] = ()
    strongman: bool = False
    spear_blocked: bool = False

    def __post_init__(self) -> None:
        whole_number("initiative", self.initiative, 0, MAX_CHARACTERISTIC)
        if self.weapon is not None:
            equipment_item(self.weapon, kinds=(MELEE,), field="weapon", items=self.items)

    @property
    def tier(self) -> int:
        """0 strikes first (charged this turn, or lanza in the first round), 1 by I,
        2 always last (arma a dos manos), 3 stood up this turn (last whatever else)."""
        if self.stood_up:
            return 3
        item = (
            None
            if self.weapon is None
            else equipment_item(self.weapon, kinds=(MELEE,), field="weapon", items=self.items)
        )
        if item is not None and item.strikes_last and not self.strongman:
            return 2
        spear = (
            item is not None
            and item.strikes_first_first_round
            and self.first_round
            and not self.spear_blocked
        )
        if self.charged or spear:
            return 0
        return 1


@dataclass(frozen=True)
class StrikeOrderResult:
    order: tuple[str, ...]
    steps: tuple[Step, ...]
    rolls: tuple[Any, ...]

    def to_dict(self) -> dict[str, Any]:
        return {"order": list(self.order), **explained_dict(self.steps, self.rolls)}


def strike_order(combatants: Sequence[Combatant], *, dice: Dice) -> StrikeOrderResult:
    """Who strikes first: chargers (and spears in the first round), then by Iniciativa, with a
    die roll-off for ties (tied dice are rolled again); two-handed weapons strike last, and a
    warrior who stood up this turn strikes after everyone."""
    ex = Explainer(dice)
    names = [c.name for c in combatants]
    if len(set(names)) != len(names):
        raise SpecError(_("Each combatant needs a different name."), field="name")
    groups: dict[tuple[int, int], list[Combatant]] = {}
    for combatant in combatants:
        groups.setdefault((combatant.tier, -combatant.initiative), []).append(combatant)
    order: list[str] = []
    for key in sorted(groups):
        tied = groups[key]
        if len(tied) > 1:
            tied = _roll_off(tied, dice, ex)
        order.extend(c.name for c in tied)
    ex.add("strike_order.result", _("Strike order: %(order)s."), order=", ".join(order))
    return StrikeOrderResult(tuple(order), tuple(ex.steps), ex.rolls())


def _roll_off(tied: list[Combatant], dice: Dice, ex: Explainer) -> list[Combatant]:
    rolls = {c.name: dice.roll("D6", f"strike order: {c.name}").total for c in tied}
    ex.add(
        "strike_order.roll_off",
        _("Equal Iniciativa: roll-off %(rolls)s."),
        rolls=", ".join(f"{name} {face}" for name, face in rolls.items()),
    )
    by_face: dict[int, list[Combatant]] = {}
    for combatant in tied:
        by_face.setdefault(rolls[combatant.name], []).append(combatant)
    ordered: list[Combatant] = []
    for face in sorted(by_face, reverse=True):
        same = by_face[face]
        ordered.extend(_roll_off(same, dice, ex) if len(same) > 1 else same)
    return ordered
