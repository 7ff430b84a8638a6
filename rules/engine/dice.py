"""Dice that record every roll: seeded, or fed with the faces a player rolled at the table.

Expressions are ``XDY`` with 1 ≤ X ≤ :data:`MAX_DICE` and Y in :data:`ALLOWED_SIDES` (D3 and D6,
the only dice the rules use), or ``D66`` (a tens die then a units die, 11..66). ``D`` alone means
one die (``D6`` = ``1D6``). Anything else (``5D``, ``D0``, ``0D6``, ``D7x``, ``101D6``) raises
:class:`~rules.engine.errors.DiceError`.

Same seed, same results in every process: a seeded :class:`Dice` draws from its own
``random.Random(seed)``; the global generator and ``hash()`` are never used. Given faces are
consumed in order, one per die (a D66 takes two: tens then units; a D3 takes a face 1..3).

Re-rolls follow the dice conventions of the rules' FAQ: a roll is re-rolled at most once (a
re-roll cannot be re-rolled again), re-rolling a sum (2D6) re-rolls all its dice, and re-rolls
happen before modifiers (callers apply modifiers to the re-rolled total). The record marks a
re-roll with ``reroll_of`` (the index of the roll it replaces).
"""

from __future__ import annotations

import random
import re
import secrets
from collections.abc import Iterable
from dataclasses import dataclass
from functools import lru_cache
from typing import Any

from rules.engine.errors import DiceError
from rules.engine.i18n import gettext_noop as _

MAX_DICE = 100
ALLOWED_SIDES = frozenset({3, 6})
D66_SIDES = 66
SEED_LIMIT = 2**31

_EXPRESSION = re.compile(r"^\s*(\d*)\s*[dD]\s*(\d+)\s*$")


@dataclass(frozen=True)
class DiceSpec:
    """A parsed expression: ``count`` dice of ``sides`` faces (``sides == 66`` for D66)."""

    count: int
    sides: int

    @property
    def expression(self) -> str:
        if self.sides == D66_SIDES:
            return "D66"
        return f"D{self.sides}" if self.count == 1 else f"{self.count}D{self.sides}"

    @property
    def minimum(self) -> int:
        return 11 if self.sides == D66_SIDES else self.count

    @property
    def maximum(self) -> int:
        return 66 if self.sides == D66_SIDES else self.count * self.sides


@lru_cache(maxsize=512)
def parse_expression(expression: str) -> DiceSpec:
    """Parse ``D6``, ``2D6``, ``D3``, ``5D6``, ``D66``… into a :class:`DiceSpec`."""
    if not isinstance(expression, str):
        raise DiceError(_("The dice expression must be text, like 2D6."), code="dice.expression")
    match = _EXPRESSION.match(expression)
    if match is None:
        raise DiceError(
            _("%(expression)s is not a dice expression: write XDY, like D6, 2D6, D3 or D66."),
            code="dice.expression",
            expression=expression,
        )
    count_text, sides_text = match.groups()
    count = int(count_text) if count_text else 1
    sides = int(sides_text)
    if sides == D66_SIDES:
        if count != 1:
            raise DiceError(
                _("D66 is rolled one at a time: %(expression)s is not allowed."),
                code="dice.expression",
                expression=expression,
            )
        return DiceSpec(1, D66_SIDES)
    if sides not in ALLOWED_SIDES:
        raise DiceError(
            _("A D%(sides)d is not a die of this game: use D3, D6 or D66."),
            code="dice.sides",
            sides=sides,
        )
    if not 1 <= count <= MAX_DICE:
        raise DiceError(
            _("Roll between 1 and %(limit)d dice at once, not %(count)d."),
            code="dice.count",
            count=count,
            limit=MAX_DICE,
        )
    return DiceSpec(count, sides)


@dataclass(frozen=True)
class Roll:
    """One recorded roll: what was rolled, the faces, the total, why, what it re-rolls, and
    ``scope`` (who rolls against whom, when a phase has several fighters: ``"12>31"``)."""

    index: int
    expression: str
    faces: tuple[int, ...]
    total: int
    purpose: str = ""
    reroll_of: int | None = None
    scope: str = ""

    @property
    def is_reroll(self) -> bool:
        return self.reroll_of is not None

    def to_dict(self) -> dict[str, Any]:
        data = {
            "index": self.index,
            "expression": self.expression,
            "faces": list(self.faces),
            "total": self.total,
            "purpose": self.purpose,
            "reroll_of": self.reroll_of,
        }
        if self.scope:
            data["scope"] = self.scope
        return data


class DiceShortfall(DiceError):
    """Typed faces ran out: ``purpose`` and ``expression`` of the step that needs more,
    ``missing`` faces it still needs, ``scope`` of the roll (see :class:`Roll`)."""

    code = "dice.exhausted"

    def __init__(
        self,
        template: str,
        *,
        purpose: str,
        expression: str,
        missing: int,
        scope: str,
        reroll: bool = False,
        **params: Any,
    ) -> None:
        self.purpose = purpose
        self.expression = expression
        self.missing = missing
        self.scope = scope
        self.reroll = reroll
        super().__init__(template, purpose=purpose or "-", expression=expression, **params)


class Dice:
    """A source of dice: a seed (``random.Random(seed)``) or the faces a player typed in.

    ``Dice()`` picks a seed with ``secrets.randbelow(2**31)`` and exposes it as ``seed``, so the
    result can be stored and replayed. ``Dice(faces=[3, 5, 1])`` uses those faces in order and has
    ``seed = None``. Every roll is appended to ``record``.
    """

    def __init__(self, seed: int | None = None, faces: Iterable[int] | None = None) -> None:
        if seed is not None and faces is not None:
            raise DiceError(
                _("Give either a seed or the faces rolled, not both."), code="dice.source"
            )
        self.record: list[Roll] = []
        self._rerolled: set[int] = set()
        self._faces: tuple[int, ...] | None = None
        self._position = 0
        self._batch_end = 0  # the face position where the current step's dice end
        self._rerolling = False
        self._rng: random.Random | None = None
        self.scope = ""
        if faces is not None:
            given = tuple(faces)
            for face in given:
                if isinstance(face, bool) or not isinstance(face, int):
                    raise DiceError(
                        _("Dice faces must be whole numbers, not %(face)r."),
                        code="dice.face",
                        face=face,
                    )
            self._faces = given
            self.seed: int | None = None
        else:
            if seed is None:
                seed = secrets.randbelow(SEED_LIMIT)
            if isinstance(seed, bool) or not isinstance(seed, int) or seed < 0:
                raise DiceError(
                    _("A dice seed is a whole number from 0, not %(seed)r."),
                    code="dice.seed",
                    seed=seed,
                )
            self.seed = seed
            self._rng = random.Random(seed)

    @classmethod
    def replay(cls, rolls: Iterable[Roll | dict[str, Any]]) -> Dice:
        """Dice giving back, in order, the faces of a recorded run (a ``record`` or its dicts)."""
        faces: list[int] = []
        for roll in rolls:
            roll_faces = roll.faces if isinstance(roll, Roll) else roll["faces"]
            faces.extend(int(face) for face in roll_faces)
        return cls(faces=faces)

    @property
    def source(self) -> str:
        return "faces" if self._faces is not None else "seed"

    @property
    def remaining_faces(self) -> int | None:
        """How many given faces are left (``None`` for seeded dice)."""
        return None if self._faces is None else len(self._faces) - self._position

    def _face(self, sides: int, expression: str, purpose: str) -> int:
        if self._rng is not None:
            return self._rng.randint(1, sides)
        given = self._faces or ()
        if self._position >= len(given):
            missing = max(self._batch_end, self._position + 1) - len(given)
            raise DiceShortfall(
                _(
                    "The given dice ran out: %(expression)s for %(purpose)s needs another face, "
                    "but all %(count)d faces were used."
                ),
                purpose=purpose or "",
                expression=expression,
                missing=missing,
                scope=self.scope,
                reroll=self._rerolling,
                count=len(given),
            )
        face = given[self._position]
        if not 1 <= face <= sides:
            raise DiceError(
                _("A D%(sides)d cannot show %(face)d (given face number %(position)d)."),
                code="dice.face",
                sides=sides,
                face=face,
                position=self._position + 1,
            )
        self._position += 1
        return face

    def _draw(self, spec: DiceSpec, expression: str, purpose: str) -> tuple[tuple[int, ...], int]:
        if spec.sides == D66_SIDES:
            tens = self._face(6, expression, purpose)
            units = self._face(6, expression, purpose)
            return (tens, units), tens * 10 + units
        faces = tuple(self._face(spec.sides, expression, purpose) for _i in range(spec.count))
        return faces, sum(faces)

    def roll(self, expression: str = "D6", purpose: str = "") -> Roll:
        """Roll ``expression`` (``D6``, ``2D6``, ``D66``…) and record it with its ``purpose``."""
        spec = parse_expression(expression)
        self._batch_end = max(self._batch_end, self._position + _faces_of(spec))
        faces, total = self._draw(spec, spec.expression, purpose)
        roll = Roll(len(self.record), spec.expression, faces, total, purpose, scope=self.scope)
        self.record.append(roll)
        return roll

    def roll_each(self, count: int, purpose: str, expression: str = "D6") -> list[Roll]:
        """Roll ``count`` dice one by one, as one step at the table ("3 to hit"): typed faces
        that run out in the middle say how many of the step are still missing."""
        spec = parse_expression(expression)
        self._batch_end = self._position + count * _faces_of(spec)
        return [self.roll(expression, purpose) for _n in range(count)]

    def reroll_each(self, rolls: list[Roll], purpose: str | None = None) -> list[Roll]:
        """Re-roll several rolls as one step (hatred's misses), each at most once."""
        self._batch_end = self._position + sum(
            _faces_of(parse_expression(roll.expression)) for roll in rolls
        )
        return [self.reroll(roll, purpose) for roll in rolls]

    def d6(self, purpose: str = "") -> int:
        """Roll one D6 and return its face."""
        return self.roll("D6", purpose).total

    def reroll(self, roll: Roll, purpose: str | None = None) -> Roll:
        """Re-roll ``roll`` (all of its dice), at most once, recording the link to the original."""
        if not 0 <= roll.index < len(self.record) or self.record[roll.index] is not roll:
            raise DiceError(
                _("Only a roll made with these dice can be re-rolled."), code="dice.reroll"
            )
        if roll.reroll_of is not None or roll.index in self._rerolled:
            raise DiceError(
                _("A roll is never re-rolled more than once (%(expression)s for %(purpose)s)."),
                code="dice.reroll",
                expression=roll.expression,
                purpose=roll.purpose or "-",
            )
        spec = parse_expression(roll.expression)
        why = roll.purpose if purpose is None else purpose
        self._batch_end = max(self._batch_end, self._position + _faces_of(spec))
        self._rerolling = True
        try:
            faces, total = self._draw(spec, spec.expression, why)
        finally:
            self._rerolling = False
        self._rerolled.add(roll.index)
        new = Roll(
            len(self.record), spec.expression, faces, total, why, roll.index, scope=self.scope
        )
        self.record.append(new)
        return new

    def forget(self) -> None:
        """Drop the record (long simulations); the generator state and the faces go on."""
        self.record.clear()
        self._rerolled.clear()

    def faces_used(self) -> list[int]:
        """Every face rolled so far, in order (feed them to ``Dice(faces=...)`` to replay)."""
        return [face for roll in self.record for face in roll.faces]

    def to_dict(self) -> dict[str, Any]:
        return {
            "seed": self.seed,
            "source": self.source,
            "record": [roll.to_dict() for roll in self.record],
        }


def _faces_of(spec: DiceSpec) -> int:
    """Typed faces one roll of ``spec`` takes (a D66 takes two)."""
    return 2 if spec.sides == D66_SIDES else spec.count


def roll_expression(expression: str, *, dice: Dice, purpose: str = "") -> Roll:
    """Roll a free expression (the API's ``/roll/``): thin wrapper kept for symmetry."""
    return dice.roll(expression, purpose)
