"""Which dice an entry needs, how many, and in what order, before or while they are rolled.

The steps of a roll depend on the dice already rolled (three to-hit dice; then one to-wound die
per hit; then an armour save per wound…), so :func:`dice_plan` takes the faces typed so far and
answers the steps they fill and the next one: its purpose, its dice, how many, and who rolls
against whom (``scope``, ``"12>31"``). A phone asks for exactly those dice, step by step; an
entry written with typed faces that run short is refused naming the step still missing, and one
with faces to spare is refused too (:func:`check_faces`).
"""

from __future__ import annotations

from collections.abc import Mapping, Sequence
from dataclasses import dataclass
from typing import Any

from rules.engine.dice import Dice, DiceShortfall, Roll, parse_expression
from rules.engine.i18n import gettext_noop as _
from rules.engine.tracker.errors import TrackerError
from rules.engine.tracker.payloads import ROLLED_KINDS
from rules.engine.tracker.rolls import roll_entry
from rules.engine.tracker.state import BattleState

STAGES: dict[str, tuple[str, ...]] = {
    "check": ("leadership test", "re-roll", "flee"),
    "attack": ("to hit", "to wound", "critical hit", "armour save", "special save", "injury"),
    "close-combat": (
        "strike order",
        "to hit",
        "re-roll: to hit",
        "parry",
        "to wound",
        "critical hit",
        "armour save",
        "special save",
        "lucky charm",
        "injury",
        "helmet",
    ),
    "hits": ("to wound", "critical hit", "armour save", "special save", "injury", "helmet"),
}
"""The order of the steps a rolled kind may take (each striker in turn, in a close combat)."""


@dataclass(frozen=True)
class PlanStep:
    """One step: ``purpose``, the ``dice`` of each roll (``D6``, ``2D6``…), ``rolls`` in the
    step, the ``faces`` typed for it (done steps) or still ``missing`` (the next step)."""

    purpose: str
    dice: str
    rolls: int
    scope: str = ""
    reroll: bool = False
    faces: tuple[int, ...] = ()
    missing: int = 0

    def to_dict(self) -> dict[str, Any]:
        return {
            "purpose": self.purpose,
            "dice": self.dice,
            "rolls": self.rolls,
            "scope": self.scope,
            "reroll": self.reroll,
            "faces": list(self.faces),
            "missing": self.missing,
        }


@dataclass(frozen=True)
class DicePlan:
    """The steps the typed faces fill (``done``), the ``next`` one (``None`` once complete),
    the faces ``used`` and the ``surplus`` typed beyond them."""

    kind: str
    done: tuple[PlanStep, ...]
    next: PlanStep | None
    used: int
    surplus: int

    @property
    def complete(self) -> bool:
        return self.next is None

    def to_dict(self) -> dict[str, Any]:
        return {
            "kind": self.kind,
            "complete": self.complete,
            "done": [step.to_dict() for step in self.done],
            "next": None if self.next is None else self.next.to_dict(),
            "used": self.used,
            "surplus": self.surplus,
            "stages": list(STAGES.get(self.kind, ())),
        }


def _steps(record: Sequence[Roll]) -> list[PlanStep]:
    """Consecutive rolls of one purpose, scope and kind (first roll or re-roll), as steps."""
    steps: list[PlanStep] = []
    for roll in record:
        key = (roll.purpose, roll.scope, roll.is_reroll, roll.expression)
        last = steps[-1] if steps else None
        if last is not None and (last.purpose, last.scope, last.reroll, last.dice) == key:
            steps[-1] = PlanStep(
                last.purpose,
                last.dice,
                last.rolls + 1,
                last.scope,
                last.reroll,
                (*last.faces, *roll.faces),
            )
        else:
            steps.append(
                PlanStep(roll.purpose, roll.expression, 1, roll.scope, roll.is_reroll, roll.faces)
            )
    return steps


def dice_plan(
    state: BattleState, kind: str, payload: Mapping[str, Any], faces: Sequence[int] = ()
) -> DicePlan:
    """The plan of a proposed entry with ``faces`` typed so far (none: its first step)."""
    if kind not in ROLLED_KINDS:
        return DicePlan(kind, (), None, 0, len(faces))
    dice = Dice(faces=list(faces))
    try:
        roll_entry(state, kind, payload, dice=dice)
    except DiceShortfall as short:
        steps = _steps(dice.record)
        per_roll = _faces(short.expression)
        current = steps[-1] if steps else None
        same = current is not None and (current.purpose, current.scope, current.reroll) == (
            short.purpose,
            short.scope,
            short.reroll,
        )
        typed = current.faces if current is not None and same else ()
        given_partly = len(faces) - sum(len(s.faces) for s in steps)
        rolls = (len(typed) + given_partly + short.missing) // per_roll
        step = PlanStep(
            short.purpose,
            short.expression,
            rolls,
            short.scope,
            short.reroll,
            (*typed, *faces[len(faces) - given_partly :]),
            short.missing,
        )
        return DicePlan(kind, tuple(steps[:-1] if same else steps), step, len(faces), 0)
    used = len(faces) - (dice.remaining_faces or 0)
    return DicePlan(kind, tuple(_steps(dice.record)), None, used, dice.remaining_faces or 0)


def _faces(expression: str) -> int:
    spec = parse_expression(expression)
    return 2 if spec.sides == 66 else spec.count


def check_faces(plan: DicePlan) -> None:
    """Refuse typed faces that run short (naming the step) or go beyond what the entry used."""
    if plan.next is not None:
        step = plan.next
        raise TrackerError(
            _(
                "The dice typed ran out: %(missing)d more faces are needed for %(purpose)s "
                "(%(dice)s%(scope)s)."
            ),
            code="dice.missing",
            field="faces",
            missing=step.missing,
            purpose=step.purpose,
            dice=step.dice,
            scope=f", {step.scope}" if step.scope else "",
        )
    if plan.surplus:
        raise TrackerError(
            _("%(surplus)d of the dice typed are not needed: this entry uses %(used)d."),
            code="dice.surplus",
            field="faces",
            surplus=plan.surplus,
            used=plan.used,
        )
