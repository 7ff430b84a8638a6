"""The pieces of a battle's state: each warrior, the side's turn so far, the combats, the duels,
the report's events, and the helpers that read an entry's payload.

Plain data, no rules: the rules that change them live in the entry modules
(:mod:`~rules.engine.tracker.turns`, :mod:`~rules.engine.tracker.checks`,
:mod:`~rules.engine.tracker.melee`, :mod:`~rules.engine.tracker.shooting`,
:mod:`~rules.engine.tracker.duels`). Every piece turns into JSON and back (``to_snapshot`` /
``from_snapshot``), so the folded state can be stored beside the log.
"""

from __future__ import annotations

from collections.abc import Iterable, Mapping
from dataclasses import dataclass, field
from typing import Any, cast

from rules.engine.i18n import gettext_noop as _
from rules.engine.tracker.errors import TrackerError

IN_PLAY = "in_play"
KNOCKED_DOWN = "knocked_down"
STUNNED = "stunned"
OUT_OF_ACTION = "out_of_action"
FLEEING = "fleeing"
STATUSES = (IN_PLAY, KNOCKED_DOWN, STUNNED, OUT_OF_ACTION, FLEEING)
SEVERITY = {IN_PLAY: 0, FLEEING: 0, KNOCKED_DOWN: 1, STUNNED: 2, OUT_OF_ACTION: 3}
ENGINE_STATUS = {IN_PLAY: "standing", FLEEING: "fleeing"}
"""Tracker status → the engine's warrior status (the others are spelled alike)."""
FROM_ENGINE = {"standing": IN_PLAY}

START_OF_TURN_CHECKS = ("rout", "stupidity", "rally")
ATTACK_MODES = ("melee", "shooting")
INJURY_OUTCOMES = ("unharmed", "wounded", KNOCKED_DOWN, STUNNED, OUT_OF_ACTION)
CORRECTABLE = (
    "turn",
    "status",
    "check",
    "attack",
    "charge",
    "close-combat",
    "hits",
    "disengage",
    "challenge",
    "rout",
    "note",
)
CHALLENGE_STEPS = ("issue", "accept", "refuse")
MAX_NOTE = 500
MAX_TURNS = 99


@dataclass
class FighterState:
    """A warrior as the battle stands: status and wounds left, and what lasts the whole battle
    (``frenzy_lost`` once knocked down or stunned; ``spent``: one-use things used, such as the
    lucky charm or the lembas)."""

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
    frenzy_lost: bool = False
    spent: set[str] = field(default_factory=set)

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

    def to_snapshot(self) -> dict[str, Any]:
        return {
            "id": self.id,
            "status": self.status,
            "wounds": self.wounds,
            "frenzy_lost": self.frenzy_lost,
            "spent": sorted(self.spent),
        }

    def restore(self, data: Mapping[str, Any]) -> None:
        self.status = data["status"]
        self.wounds = data["wounds"]
        self.frenzy_lost = data.get("frenzy_lost", False)
        self.spent = set(data.get("spent", ()))


TURN_SETS = (
    "refused",
    "charged",
    "failed_charge",
    "stood_up",
    "rallied",
    "stupid",
    "shot",
    "fought",
    "spear_blocked",
    "diving",
    "must_flee",
    "was_charged",
)


@dataclass
class SideTurn:
    """What has happened so far in the current side's turn (the turn-scoped states)."""

    rout_tested: bool = False
    acted: bool = False
    tested: set[tuple[Any, ...]] = field(default_factory=set)
    """The checks taken this turn: ``(check, fighter)``, or ``("fear", fighter, enemy)``."""
    fleeing_at_start: frozenset[int] = frozenset()
    refused: set[int] = field(default_factory=set)
    """Heroes who refused a challenge: they may not fight, nor lend their L, this turn."""
    melee: dict[int, set[int]] = field(default_factory=dict)
    """Who fought whom hand to hand this turn in a log without combats (single attacks)."""
    charged: set[int] = field(default_factory=set)
    """Who charged this turn (they strike first in this turn's close combat)."""
    failed_charge: set[int] = field(default_factory=set)
    """Who failed a charge this turn (no shooting)."""
    stood_up: set[int] = field(default_factory=set)
    """Who stood up in this turn's recovery phase (strikes last, may not charge)."""
    rallied: set[int] = field(default_factory=set)
    """Who rallied this turn (may not move, shoot nor fight)."""
    stupid: set[int] = field(default_factory=set)
    """Who failed his stupidity test this turn (does not attack nor shoot)."""
    shot: set[int] = field(default_factory=set)
    fought: set[int] = field(default_factory=set)
    """The combats whose close-combat phase is logged this turn."""
    spear_blocked: set[int] = field(default_factory=set)
    """Who was charged this turn by an unstoppable charger (his spear does not strike first)."""
    diving: set[int] = field(default_factory=set)
    """Who charged this turn with a diving charge (+1 F, +1 to hit in this close combat)."""
    must_flee: set[int] = field(default_factory=set)
    """Fleeing warriors charged this turn: they run another 5D6 cm before any blow."""
    was_charged: set[int] = field(default_factory=set)
    """Who was charged this turn (lightning reflexes: he strikes first all the same)."""
    fear: dict[int, dict[int, str]] = field(default_factory=dict)
    """Fear tests taken this turn: fighter → the enemy feared → the outcome."""
    fear_due: dict[int, set[int]] = field(default_factory=dict)
    """Charged this turn by a warrior he fears: fighter → those chargers (a test is due)."""
    horn: bool = False
    """The war horn was blown this turn."""

    def engage(self, one: int, other: int) -> None:
        self.melee.setdefault(one, set()).add(other)
        self.melee.setdefault(other, set()).add(one)

    def fear_failed(self, fighter: int) -> bool:
        return "hits_only_on_6" in self.fear.get(fighter, {}).values()

    def to_snapshot(self) -> dict[str, Any]:
        data: dict[str, Any] = {
            "rout_tested": self.rout_tested,
            "acted": self.acted,
            "horn": self.horn,
            "tested": sorted([list(t) for t in self.tested], key=str),
            "fleeing_at_start": sorted(self.fleeing_at_start),
            "melee": {str(k): sorted(v) for k, v in self.melee.items()},
            "fear": {str(k): {str(e): o for e, o in v.items()} for k, v in self.fear.items()},
            "fear_due": {str(k): sorted(v) for k, v in self.fear_due.items()},
        }
        for name in TURN_SETS:
            data[name] = sorted(getattr(self, name))
        return data

    @classmethod
    def from_snapshot(cls, data: Mapping[str, Any]) -> SideTurn:
        turn = cls(
            rout_tested=data["rout_tested"],
            acted=data["acted"],
            horn=data.get("horn", False),
            tested={tuple(t) for t in data["tested"]},
            fleeing_at_start=frozenset(data["fleeing_at_start"]),
            melee={int(k): set(v) for k, v in data["melee"].items()},
            fear={int(k): {int(e): o for e, o in v.items()} for k, v in data["fear"].items()},
            fear_due={int(k): set(v) for k, v in data["fear_due"].items()},
        )
        for name in TURN_SETS:
            setattr(turn, name, set(data.get(name, ())))
        return turn


@dataclass
class Combat:
    """A close combat (Combate cuerpo a cuerpo): who is in base contact with whom. It lasts,
    turn after turn, until nobody on one side is left in it (out of action, fled, or moved
    away). ``rounds``: how many close-combat phases each warrior has fought in it (0: his first
    round is still to come)."""

    id: int
    pairs: set[tuple[int, int]] = field(default_factory=set)
    rounds: dict[int, int] = field(default_factory=dict)

    @property
    def members(self) -> set[int]:
        return {fighter for pair in self.pairs for fighter in pair}

    def contacts(self, fighter: int) -> list[int]:
        """The enemies in base contact with ``fighter``."""
        return sorted(b if a == fighter else a for a, b in self.pairs if fighter in (a, b))

    def engage(self, one: int, other: int) -> None:
        self.pairs.add((min(one, other), max(one, other)))
        self.rounds.setdefault(one, 0)
        self.rounds.setdefault(other, 0)

    def drop(self, fighter: int) -> None:
        self.pairs = {pair for pair in self.pairs if fighter not in pair}
        self.rounds.pop(fighter, None)

    def first_round(self, fighter: int) -> bool:
        return self.rounds.get(fighter, 0) == 0

    def to_dict(self) -> dict[str, Any]:
        return {
            "id": self.id,
            "fighters": sorted(self.members),
            "pairs": sorted([list(pair) for pair in self.pairs]),
            "rounds": {str(k): v for k, v in sorted(self.rounds.items())},
        }

    @classmethod
    def from_dict(cls, data: Mapping[str, Any]) -> Combat:
        return cls(
            id=data["id"],
            pairs={(a, b) for a, b in data["pairs"]},
            rounds={int(k): v for k, v in data["rounds"].items()},
        )


@dataclass
class Duel:
    """A challenge (desafío) from its issue to its end."""

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


def id_list(payload: Mapping[str, Any], name: str) -> list[int]:
    """A non-empty list of ids, each once."""
    value = need(payload, name)
    if (
        not isinstance(value, list | tuple)
        or not value
        or any(isinstance(x, bool) or not isinstance(x, int) for x in value)
        or len(set(value)) != len(value)
    ):
        raise TrackerError(
            _("%(name)s is a list of ids, each once."), code="entry.invalid", field=name, name=name
        )
    return list(value)


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
    return cast(str, value)


def flag(payload: Mapping[str, Any], name: str) -> bool:
    value = payload.get(name, False)
    if not isinstance(value, bool):
        raise TrackerError(
            _("%(name)s must be true or false."), code="entry.invalid", field=name, name=name
        )
    return value


def entry_params(payload: Mapping[str, Any], allowed: Iterable[str]) -> dict[str, Any]:
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
