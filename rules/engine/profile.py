"""Characteristic profiles (perfil de atributos).

Attribute names are English in code; the rulebook's Spanish names are M (Movimiento), HA (Habilidad
de Armas), HP (Habilidad de Proyectiles), F (Fuerza), R (Resistencia), H (Heridas),
I (Iniciativa), A (Ataques) and L (Liderazgo). Movement is in centimetres (a human moves 10 cm;
racial maximums converted from inches ×2.5 may be halves, e.g. a dwarf's 7.5 cm).
"""

from __future__ import annotations

from dataclasses import asdict, dataclass, replace
from typing import Any

from rules.engine.errors import ProfileError
from rules.engine.i18n import gettext_noop as _

CHARACTERISTICS = ("ws", "bs", "s", "t", "w", "i", "a", "ld")
FIELDS = ("m", *CHARACTERISTICS)
SPANISH_NAMES = {
    "m": "M",
    "ws": "HA",
    "bs": "HP",
    "s": "F",
    "t": "R",
    "w": "H",
    "i": "I",
    "a": "A",
    "ld": "L",
}
MAX_CHARACTERISTIC = 10
MAX_MOVEMENT_CM = 50


def check_characteristic(field: str, value: Any, *, maximum: int = MAX_CHARACTERISTIC) -> int:
    """Validate one characteristic value (0..``maximum``) and return it."""
    if isinstance(value, bool) or not isinstance(value, int):
        raise ProfileError(
            _("%(name)s must be a whole number, not %(value)r."),
            field=field,
            name=SPANISH_NAMES.get(field, field),
            value=value,
        )
    if not 0 <= value <= maximum:
        raise ProfileError(
            _("%(name)s must be between 0 and %(maximum)d, not %(value)d."),
            field=field,
            name=SPANISH_NAMES.get(field, field),
            maximum=maximum,
            value=value,
        )
    return value


@dataclass(frozen=True)
class Profile:
    """Perfil de atributos: M (cm), HA, HP, F, R, H, I, A, L.

    Each characteristic is 0..10 (0 means no ability at all, e.g. HP 0 cannot shoot); M is
    0..50 cm in steps of 0.5 cm.
    """

    m: float
    ws: int
    bs: int
    s: int
    t: int
    w: int
    i: int
    a: int
    ld: int

    def __post_init__(self) -> None:
        if isinstance(self.m, bool) or not isinstance(self.m, int | float):
            raise ProfileError(
                _("M must be a number of centimetres, not %(value)r."), field="m", value=self.m
            )
        if not 0 <= self.m <= MAX_MOVEMENT_CM or (self.m * 2) != int(self.m * 2):
            raise ProfileError(
                _("M must be between 0 and %(maximum)d cm in steps of 0.5 cm, not %(value)s."),
                field="m",
                maximum=MAX_MOVEMENT_CM,
                value=self.m,
            )
        for field in CHARACTERISTICS:
            check_characteristic(field, getattr(self, field))

    @classmethod
    def from_dict(cls, data: dict[str, Any]) -> Profile:
        """Build from ``{"m": 10, "ws": 3, …}``; Spanish keys (``HA``, ``F``…) are accepted too."""
        spanish_to_field = {spanish.lower(): field for field, spanish in SPANISH_NAMES.items()}
        values: dict[str, Any] = {}
        for key, value in data.items():
            field = key.lower()
            field = field if field in FIELDS else spanish_to_field.get(field, "")
            if not field:
                raise ProfileError(_("%(name)s is not a characteristic."), field=key, name=key)
            values[field] = value
        missing = [field for field in FIELDS if field not in values]
        if missing:
            raise ProfileError(
                _("The profile lacks %(name)s."),
                field=missing[0],
                name=SPANISH_NAMES[missing[0]],
            )
        return cls(**values)

    @classmethod
    def from_inches(cls, m: float, *rest: int) -> Profile:
        """A profile whose M is in Mordheim inches (converted ×2.5 to cm)."""
        return cls(m * 2.5, *rest)

    def with_changes(self, **changes: Any) -> Profile:
        return replace(self, **changes)

    def to_dict(self) -> dict[str, Any]:
        data = asdict(self)
        if isinstance(self.m, float) and self.m.is_integer():
            data["m"] = int(self.m)
        return data


HUMAN = Profile(10, 3, 3, 3, 3, 1, 3, 1, 7)
"""The rulebook's typical human warrior, Mablung: M10 HA3 HP3 F3 R3 H1 I3 A1 L7."""
