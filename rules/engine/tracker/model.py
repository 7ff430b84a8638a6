"""The pieces of a battle's state: each warrior, the side's turn so far, the report's events.

Plain data, no rules: the rules that change them live in :mod:`~rules.engine.tracker.entries`,
:mod:`~rules.engine.tracker.checks` and :mod:`~rules.engine.tracker.duels`.
"""

from __future__ import annotations

from collections.abc import Mapping
from dataclasses import dataclass, field
from typing import Any

from rules.engine.i18n import gettext_noop as _
from rules.engine.tracker.errors import TrackerError
from rules.engine.tracker.setup import IMMUNE_TO_FEAR

IN_PLAY = "in_play"
KNOCKED_DOWN = "knocked_down"
STUNNED = "stunned"
OUT_OF_ACTION = "out_of_action"
FLEEING = "fleeing"
STATUSES = (IN_PLAY, KNOCKED_DOWN, STUNNED, OUT_OF_ACTION, FLEEING)
SEVERITY = {IN_PLAY: 0, FLEEING: 0, KNOCKED_DOWN: 1, STUNNED: 2, OUT_OF_ACTION: 3}
ENGINE_STATUS = {IN_PLAY: "standing", FLEEING: "fleeing"}
"""Tracker status → the engine's warrior status (the others are spelled alike)."""

KINDS = (
    "setup",
    "turn",
    "status",
    "check",
    "attack",
    "challenge",
    "rout",
    "finish",
    "note",
    "correction",
)
CHECK_KINDS = ("rout", "stupidity", "rally", "fear", "all-alone", "charged-while-fleeing")
START_OF_TURN_CHECKS = ("rout", "stupidity", "rally")
ATTACK_MODES = ("melee", "shooting")
INJURY_OUTCOMES = ("unharmed", "wounded", KNOCKED_DOWN, STUNNED, OUT_OF_ACTION)
CORRECTABLE = ("turn", "status", "check", "attack", "challenge", "rout", "note")
CHALLENGE_STEPS = ("issue", "accept", "refuse")
MAX_NOTE = 500
MAX_TURNS = 99


@dataclass
class FighterState:
    id: int
    side: int
    name: str
    leader: bool
    hero: bool
    leadership: int
    wounds: int
    rules: tuple[str, ...]
    equipment: tuple[str, ...] = ()
    status: str = IN_PLAY

    @property
    def engine_status(self) -> str:
        return ENGINE_STATUS.get(self.status, self.status)

    def to_dict(self) -> dict[str, Any]:
        return {
            "id": self.id,
            "name": self.name,
            "status": self.status,
            "wounds": self.wounds,
            "leader": self.leader,
            "hero": self.hero,
            "leadership": self.leadership,
            "rules": list(self.rules),
        }


@dataclass
class SideTurn:
    """What has happened so far in the current side's turn."""

    rout_tested: bool = False
    acted: bool = False
    tested: set[tuple[Any, ...]] = field(default_factory=set)
    """The checks taken this turn: ``(check, fighter)``, or ``("fear", fighter, enemy)``."""
    fleeing_at_start: frozenset[int] = frozenset()
    refused: set[int] = field(default_factory=set)
    """Heroes who refused a challenge: they may not fight, nor lend their L, this turn."""
    melee: dict[int, set[int]] = field(default_factory=dict)
    """Who fought whom hand to hand this turn (melee attacks, blows logged with ``by``)."""

    def engage(self, one: int, other: int) -> None:
        self.melee.setdefault(one, set()).add(other)
        self.melee.setdefault(other, set()).add(one)


@dataclass
class Duel:
    """A challenge (desafío, seed 004) from its issue to its end."""

    seq: int
    challenger: int
    side: int
    challenged: int | None = None
    status: str = "issued"  # issued → accepted (fought until one falls) | refused; → over

    @property
    def fighting(self) -> bool:
        return self.status == "accepted"

    def opponent(self, fighter_id: int) -> int | None:
        if fighter_id == self.challenger:
            return self.challenged
        return self.challenger if fighter_id == self.challenged else None

    def to_dict(self) -> dict[str, Any]:
        return {
            "seq": self.seq,
            "challenger": self.challenger,
            "side": self.side,
            "challenged": self.challenged,
            "status": self.status,
        }


@dataclass(frozen=True)
class OutOfAction:
    """ "X deja fuera de combate a Y con Z" — for the battle report."""

    seq: int
    turn: int
    target: int
    target_side: int
    actor: int | None = None
    actor_side: int | None = None
    weapon: str = ""

    def to_dict(self) -> dict[str, Any]:
        return {
            "seq": self.seq,
            "turn": self.turn,
            "actor": self.actor,
            "actor_side": self.actor_side,
            "target": self.target,
            "target_side": self.target_side,
            "weapon": self.weapon,
        }


def need(payload: Mapping[str, Any], name: str) -> Any:
    if name not in payload or payload[name] in (None, ""):
        raise TrackerError(_("%(name)s is required."), code="entry.required", field=name, name=name)
    return payload[name]


def whole_id(payload: Mapping[str, Any], name: str) -> int:
    value = need(payload, name)
    if isinstance(value, bool) or not isinstance(value, int):
        raise TrackerError(
            _("%(name)s must be an id (a whole number)."),
            code="entry.invalid",
            field=name,
            name=name,
        )
    return value


def one_of(payload: Mapping[str, Any], name: str, choices: tuple[str, ...]) -> str:
    """The entry's ``name``, which must be one of ``choices``."""
    value = need(payload, name)
    if value not in choices:
        raise TrackerError(
            _("%(name)s must be one of %(choices)s."),
            code="entry.invalid",
            field=name,
            name=name,
            choices=", ".join(choices),
        )
    return value


def entry_params(payload: Mapping[str, Any], allowed: tuple[str, ...]) -> dict[str, Any]:
    """The entry's ``params``: an object naming only the ``allowed`` parameters (those the
    player gives for this check or step)."""
    params = payload.get("params") or {}
    if not isinstance(params, Mapping):
        raise TrackerError(_("params is an object."), code="entry.invalid", field="params")
    unknown = sorted(set(params) - set(allowed))
    if unknown:
        raise TrackerError(
            _("%(name)s is not a parameter of this check."),
            code="entry.invalid",
            field=f"params.{unknown[0]}",
            name=unknown[0],
        )
    return dict(params)


def fear_immune(fighter: FighterState) -> bool:
    return bool(IMMUNE_TO_FEAR & set(fighter.rules))
