"""Build the engine's attacker/defender/shooter descriptions from API or form input.

The public API speaks in the game's short names (``ws``, ``bs``, ``s``, ``t``, ``w``, ``a``),
with a numeric ``armour_save`` before Strength modifiers; the engine speaks in equipment slugs.
This module is the one translation between the two, shared by the REST API and the odds page.
"""

from dataclasses import dataclass
from typing import Any

from rules.engine import (
    WEAPONS,
    AttackerSpec,
    DefenderSpec,
    Dice,
    OddsResult,
    PhaseResult,
    RulesError,
    ShooterSpec,
    SpecError,
    melee_odds,
    resolve_phase,
    resolve_shooting,
    shooting_odds,
)
from rules.engine.i18n import gettext_noop

# A numeric save maps exactly onto the armour that gives it (only the number matters here).
SAVE_TO_ARMOUR: dict[int, tuple[str, ...]] = {
    6: ("armadura-ligera",),
    5: ("armadura-pesada",),
    4: ("armadura-enana",),
    3: ("cota-de-mithril",),
    2: ("cota-de-mithril", "escudo"),
}
PARRY_MODES = ("none", "single", "reroll")


@dataclass(frozen=True)
class Situation:
    kind: str  # "melee" or "shooting"
    attacker: AttackerSpec | ShooterSpec
    defender: DefenderSpec

    def resolve(self, dice: Dice) -> PhaseResult:
        """Roll it: a melee phase (Combate cuerpo a cuerpo) or a shooting phase (Disparos)."""
        if self.kind == "melee":
            return resolve_phase(self.attacker, self.defender, dice=dice)
        return resolve_shooting(self.attacker, self.defender, dice=dice)

    def odds(self) -> OddsResult:
        """Its exact odds, melee or shooting."""
        if self.kind == "melee":
            return melee_odds(self.attacker, self.defender)
        return shooting_odds(self.attacker, self.defender)


class SituationError(Exception):
    """Bad input, with the API field it concerns (``attacker.weapon``)."""

    def __init__(self, error: RulesError, prefix: str):
        self.error = error
        self.prefix = prefix
        super().__init__(str(error))


def _defender(data: dict[str, Any], *, large_target: bool) -> DefenderSpec:
    armour = list(data.get("armour") or [])
    save = data.get("armour_save")
    if save is not None:
        armour.extend(SAVE_TO_ARMOUR[save])
    if data.get("helmet"):
        armour.append("yelmo")
    status = "standing"
    if data.get("stunned"):
        status = "stunned"
    elif data.get("knocked_down"):
        status = "knocked_down"
    return DefenderSpec(
        ws=data["ws"],
        toughness=data["t"],
        wounds=data.get("w", 1),
        strength=data.get("s", 3),
        armour=tuple(armour),
        weapons=tuple(data.get("weapons") or ()),
        parry=data.get("parry"),
        status=status,
        large=large_target or bool(data.get("large")),
    )


def _shooting_distance(weapon: str, modifiers: dict[str, Any], given: float | None) -> float:
    if given is not None:
        return given
    item = WEAPONS[weapon]
    reach = item.range_cm or 0
    # Inside half range unless the caller says the target is at long range.
    return reach * 0.75 if modifiers.get("long_range") else reach / 4


def build_situation(data: dict[str, Any]) -> Situation:
    """``data`` is already type-checked by the serializer; the engine checks the rest."""
    kind = data["kind"]
    attacker = data["attacker"]
    modifiers = data.get("modifiers") or {}
    try:
        defender = _defender(data["defender"], large_target=bool(modifiers.get("large_target")))
    except RulesError as error:
        raise SituationError(error, "defender") from error
    try:
        if kind == "melee":
            charging = bool(attacker.get("charging"))
            spec: AttackerSpec | ShooterSpec = AttackerSpec(
                ws=attacker["ws"],
                strength=attacker["s"],
                attacks=attacker.get("a", 1),
                weapon=attacker.get("weapon") or None,
                offhand=attacker.get("offhand") or None,
                first_round=charging or attacker.get("first_round", True),
                hatred=bool(attacker.get("hatred")),
                frenzy=bool(attacker.get("frenzy")),
                diving_charge=bool(attacker.get("diving_charge")),
                fear_failed=bool(attacker.get("fear_failed")),
            )
        else:
            weapon = attacker.get("weapon") or "arco"
            if weapon not in WEAPONS or WEAPONS[weapon].kind != "missile":
                raise SpecError(
                    gettext_noop("%(weapon)s is not a missile weapon."),
                    field="weapon",
                    weapon=weapon,
                )
            spec = ShooterSpec(
                bs=attacker["bs"],
                weapon=weapon,
                strength=attacker.get("s", 3),
                shots=attacker.get("a", 1),
                distance_cm=_shooting_distance(weapon, modifiers, attacker.get("distance_cm")),
                cover=bool(modifiers.get("cover")),
                moved=bool(modifiers.get("moved")),
            )
    except RulesError as error:
        raise SituationError(error, "attacker") from error
    return Situation(kind=kind, attacker=spec, defender=defender)
