"""The battle state as a fold over the log, and the rules that accept or refuse each entry.

A log is a list of entries ``(seq, kind, payload)``; the first is the ``setup``. Folding them in
order gives each fighter's state (in play, derribado, aturdido, fuera de combate, huyendo) and
wounds left, the turn and the side to move, the routs, and the checks due now. Entries are
never edited: a ``correction`` points at an earlier entry and replaces (or voids) it, and the
whole log is folded again, so a correction that would make a later entry impossible is refused.

Dice are never rolled here: ``check`` and ``attack`` entries carry the engine's ``result``
(rolled once, when the entry was written — see :mod:`rules.engine.tracker.rolls`), so folding
the same log always gives the same state.

Turn sequence (seed 000, "Secuencia de Turno"): each side's turn starts with the rout test
when a quarter or more are out of action (on the warriors as they stand when the turn starts, so
a leader stunned in the enemy's turn cannot lead it; nothing else of that side happens until it
is taken), then the recovery phase — stunned warriors become knocked down, knocked-down warriors
stand up — a rally test for each fleeing warrior, and stupidity for warriors with the rule.
Voluntary rout is offered at the start of any of the side's turns once two or more are out of
action.
"""

from __future__ import annotations

import copy
from collections.abc import Iterable, Mapping
from dataclasses import dataclass, field
from typing import Any

from rules.engine.i18n import gettext_noop as _
from rules.engine.tracker.errors import TrackerError
from rules.engine.tracker.setup import (
    FEAR,
    IMMUNE_TO_FEAR,
    STUPIDITY,
    BattleSetupData,
    setup_from_dict,
)

IN_PLAY = "in_play"
KNOCKED_DOWN = "knocked_down"
STUNNED = "stunned"
OUT_OF_ACTION = "out_of_action"
FLEEING = "fleeing"
STATUSES = (IN_PLAY, KNOCKED_DOWN, STUNNED, OUT_OF_ACTION, FLEEING)
SEVERITY = {IN_PLAY: 0, FLEEING: 0, KNOCKED_DOWN: 1, STUNNED: 2, OUT_OF_ACTION: 3}
ENGINE_STATUS = {IN_PLAY: "standing", FLEEING: "fleeing"}
"""Tracker status → the engine's warrior status (the others are spelled alike)."""

KINDS = ("setup", "turn", "status", "check", "attack", "rout", "finish", "note", "correction")
CHECK_KINDS = ("rout", "stupidity", "rally", "fear", "all-alone", "charged-while-fleeing")
START_OF_TURN_CHECKS = ("rout", "stupidity", "rally")
ATTACK_MODES = ("melee", "shooting")
INJURY_OUTCOMES = ("unharmed", "wounded", KNOCKED_DOWN, STUNNED, OUT_OF_ACTION)
CORRECTABLE = ("turn", "status", "check", "attack", "rout", "note")
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
    tested: set[tuple[str, int]] = field(default_factory=set)
    fleeing_at_start: frozenset[int] = frozenset()


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


def _need(payload: Mapping[str, Any], name: str) -> Any:
    if name not in payload or payload[name] in (None, ""):
        raise TrackerError(_("%(name)s is required."), code="entry.required", field=name, name=name)
    return payload[name]


def _id(payload: Mapping[str, Any], name: str) -> int:
    value = _need(payload, name)
    if isinstance(value, bool) or not isinstance(value, int):
        raise TrackerError(
            _("%(name)s must be an id (a whole number)."),
            code="entry.invalid",
            field=name,
            name=name,
        )
    return value


class BattleState:
    """The fold of a battle log. Build it with :func:`fold`; add entries with :meth:`append`."""

    def __init__(self, setup: BattleSetupData) -> None:
        self.setup = setup
        self.order = [side.warband for side in setup.sides]
        self.fighters: dict[int, FighterState] = {
            f.id: FighterState(
                id=f.id,
                side=side.warband,
                name=f.name,
                leader=f.leader,
                hero=f.hero,
                leadership=f.leadership,
                wounds=f.wounds,
                rules=f.rules,
            )
            for side in setup.sides
            for f in side.fighters
        }
        self.turn = 0
        self.side: int | None = None
        self.side_turn = SideTurn()
        self.routed: dict[int, bool] = {}  # side → voluntary?
        self.finished = False
        self.winners: list[int] = []
        self.draw = False
        self.finish_reason = ""
        self.out_of_action: list[OutOfAction] = []
        self.entries: list[tuple[int, str, dict[str, Any]]] = []
        self.corrected: dict[int, int] = {}  # corrected seq → the correction's seq
        self.last_seq = 0
        self.preview = False  # validating a check or attack before its dice are rolled

    # --- reading -------------------------------------------------------------------------------
    def fighter(self, fighter_id: Any, name: str = "fighter") -> FighterState:
        fighter = self.fighters.get(fighter_id) if isinstance(fighter_id, int) else None
        if fighter is None:
            raise TrackerError(
                _("Fighter %(id)s is not in this battle."),
                code="entry.unknown_fighter",
                field=name,
                id=fighter_id,
            )
        return fighter

    def side_fighters(self, side: int) -> list[FighterState]:
        return [f for f in self.fighters.values() if f.side == side]

    def out_of_action_count(self, side: int) -> int:
        return sum(1 for f in self.side_fighters(side) if f.status == OUT_OF_ACTION)

    def leader(self, side: int) -> FighterState | None:
        return next((f for f in self.side_fighters(side) if f.leader), None)

    @property
    def ended(self) -> bool:
        """A rout left one warband (or none) on the field, or the battle was finished."""
        return self.finished or len(self.standing_sides) <= 1

    @property
    def standing_sides(self) -> list[int]:
        return [side for side in self.order if side not in self.routed]

    def next_turn(self) -> tuple[int, int]:
        """The turn and side that come next (routed warbands no longer take turns)."""
        standing = self.standing_sides
        if self.side is None:
            return 1, standing[0]
        later = [s for s in self.order[self.order.index(self.side) + 1 :] if s in standing]
        if later:
            return self.turn, later[0]
        return self.turn + 1, standing[0]

    def rout_test_due(self, side: int) -> bool:
        return (
            not self.ended
            and side == self.side
            and not self.side_turn.rout_tested
            and not self.side_turn.acted
            and self.out_of_action_count(side) >= self.setup.side(side).rout_threshold
        )

    def checks_due(self) -> list[dict[str, Any]]:
        """The checks the rules call for now, the required ones first."""
        if self.ended or self.side is None:
            return []
        side = self.side
        due: list[dict[str, Any]] = []
        if self.rout_test_due(side):
            due.append({"check": "rout", "side": side, "required": True})
        for fighter in self.side_fighters(side):
            if (
                STUPIDITY in fighter.rules
                and fighter.status in (IN_PLAY, KNOCKED_DOWN)
                and ("stupidity", fighter.id) not in self.side_turn.tested
            ):
                due.append(
                    {"check": "stupidity", "side": side, "fighter": fighter.id, "required": True}
                )
            if (
                fighter.status == FLEEING
                and fighter.id in self.side_turn.fleeing_at_start
                and ("rally", fighter.id) not in self.side_turn.tested
            ):
                due.append(
                    {"check": "rally", "side": side, "fighter": fighter.id, "required": True}
                )
        if not self.side_turn.acted and self.out_of_action_count(side) >= 2:
            due.append({"check": "voluntary-rout", "side": side, "required": False})
        return due

    def to_dict(self) -> dict[str, Any]:
        next_turn, next_side = self.next_turn() if not self.ended else (None, None)
        return {
            "turn": self.turn,
            "side_to_move": self.side,
            "next": None if self.ended else {"turn": next_turn, "side": next_side},
            "last_seq": self.last_seq,
            "ended": self.ended,
            "finished": self.finished,
            "winners": list(self.winners),
            "draw": self.draw,
            "scenario": self.setup.scenario,
            "sides": [
                {
                    "warband": side.warband,
                    "name": side.name,
                    "rout_threshold": side.rout_threshold,
                    "out_of_action": self.out_of_action_count(side.warband),
                    "routed": side.warband in self.routed,
                    "voluntary_rout": self.routed.get(side.warband, False),
                    "fighters": [f.to_dict() for f in self.side_fighters(side.warband)],
                }
                for side in self.setup.sides
            ],
            "checks_due": self.checks_due(),
            "out_of_action_events": [event.to_dict() for event in self.out_of_action],
            "corrected": {str(k): v for k, v in self.corrected.items()},
        }

    def report(self) -> dict[str, Any]:
        """What the battle report says: winners, routs, who took whom out of action."""
        return {
            "scenario": self.setup.scenario,
            "draw": self.draw,
            "winners": list(self.winners),
            "sides": [
                {
                    "warband": side.warband,
                    "routed": side.warband in self.routed,
                    "voluntary_rout": self.routed.get(side.warband, False),
                    "fighters": [f.id for f in side.fighters],
                }
                for side in self.setup.sides
            ],
            "out_of_action": [event.to_dict() for event in self.out_of_action],
            "heroes_out_of_action": [
                f.id for f in self.fighters.values() if f.hero and f.status == OUT_OF_ACTION
            ],
            "last_turn": self.turn,
        }

    # --- validation ----------------------------------------------------------------------------
    def _started(self) -> None:
        if self.side is None:
            raise TrackerError(
                _("The battle has not started: log the first turn."), code="entry.not_started"
            )

    def _open(self) -> None:
        if self.ended:
            raise TrackerError(
                _("The battle is over: only notes and the finish can be logged."),
                code="entry.battle_over",
            )

    def _able(self, fighter: FighterState, name: str, *, allowed: tuple[str, ...]) -> None:
        if fighter.status == OUT_OF_ACTION:
            raise TrackerError(
                _("%(fighter)s is out of action and can do nothing more in this battle."),
                code="entry.out_of_action",
                field=name,
                fighter=fighter.name,
            )
        if fighter.status not in allowed:
            raise TrackerError(
                _("%(fighter)s is %(status)s and cannot do that."),
                code="entry.cannot_act",
                field=name,
                fighter=fighter.name,
                status=fighter.status,
            )

    def _rout_first(self) -> None:
        if self.side is not None and self.rout_test_due(self.side):
            raise TrackerError(
                _("The rout test is due first, at the start of this turn."),
                code="entry.rout_test_due",
            )

    def _touch(self) -> None:
        self.side_turn.acted = True

    # --- entries -------------------------------------------------------------------------------
    def append(self, seq: int, kind: str, payload: Mapping[str, Any]) -> None:
        """Validate the entry against the state and apply it; raise :class:`TrackerError`. On an
        error the state may be half-changed: callers drop it (see :meth:`validate`)."""
        if kind not in KINDS:
            raise TrackerError(
                _("%(kind)s is not a kind of log entry."),
                code="entry.kind",
                field="kind",
                kind=kind,
            )
        if not isinstance(payload, Mapping):
            raise TrackerError(
                _("The payload is an object."), code="entry.invalid", field="payload"
            )
        if kind == "correction":
            self._correct(seq, payload)
            return
        if kind == "setup":
            raise TrackerError(_("The battle is already set up."), code="entry.setup_twice")
        if self.finished and kind != "note":
            raise TrackerError(
                _("The battle is finished: only notes can be logged."), code="entry.finished"
            )
        getattr(self, f"_apply_{kind}")(seq, payload)
        self.entries.append((seq, kind, dict(payload)))
        self.last_seq = max(self.last_seq, seq)

    def validate(self, kind: str, payload: Mapping[str, Any]) -> None:
        """Check an entry without changing this state; ``check`` and ``attack`` entries are
        checked before their dice are rolled (without a ``result``)."""
        preview = copy.deepcopy(self)
        preview.preview = kind in ("check", "attack")
        preview.append(self.last_seq + 1, kind, payload)

    def corrected_entries(self) -> list[tuple[int, str, dict[str, Any]]]:
        return [entry for entry in self.entries if entry[1] == "correction"]

    def _apply_note(self, seq: int, payload: Mapping[str, Any]) -> None:
        text = payload.get("text", "")
        if not isinstance(text, str) or not text.strip() or len(text) > MAX_NOTE:
            raise TrackerError(
                _("A note is text of up to %(max)d characters."),
                code="entry.invalid",
                field="text",
                max=MAX_NOTE,
            )

    def _apply_turn(self, seq: int, payload: Mapping[str, Any]) -> None:
        self._open()
        turn, side = _id(payload, "turn"), _id(payload, "side")
        expected = self.next_turn()
        if (turn, side) != expected:
            raise TrackerError(
                _("Out of order: next comes turn %(turn)d of warband %(side)d."),
                code="entry.turn_order",
                field="turn",
                turn=expected[0],
                side=expected[1],
            )
        if turn > MAX_TURNS:
            raise TrackerError(_("Too many turns."), code="entry.turn_order", field="turn")
        pending = [c for c in self.checks_due() if c["required"]]
        if pending:
            raise TrackerError(
                _("Take the checks due before the next turn: %(checks)s."),
                code="entry.checks_pending",
                field="turn",
                checks=", ".join(c["check"] for c in pending),
            )
        self.turn, self.side = turn, side
        self.side_turn = SideTurn(
            fleeing_at_start=frozenset(
                f.id for f in self.side_fighters(side) if f.status == FLEEING
            )
        )
        if not self.rout_test_due(side):
            self._recover(side)

    def _recover(self, side: int) -> None:
        """Fase de recuperación: stunned → knocked down; knocked down → back on his feet. It
        follows the rout test, which sees the warriors as the turn starts (a stunned leader
        cannot lend his Leadership to it)."""
        for fighter in self.side_fighters(side):
            if fighter.status == KNOCKED_DOWN:
                fighter.status = IN_PLAY
            elif fighter.status == STUNNED:
                fighter.status = KNOCKED_DOWN

    def _apply_status(self, seq: int, payload: Mapping[str, Any]) -> None:
        self._open()
        self._started()
        self._rout_first()
        target = self.fighter(_id(payload, "fighter"), "fighter")
        status = _need(payload, "status")
        if status not in STATUSES:
            raise TrackerError(
                _("status must be one of %(choices)s."),
                code="entry.invalid",
                field="status",
                choices=", ".join(STATUSES),
            )
        self._able(target, "fighter", allowed=(IN_PLAY, KNOCKED_DOWN, STUNNED, FLEEING))
        actor = None
        if payload.get("by") is not None:
            actor = self.fighter(payload.get("by"), "by")
            self._able(actor, "by", allowed=(IN_PLAY,))
            if actor.side == target.side:
                raise TrackerError(
                    _("A warrior does not fight his own side."), code="entry.same_side", field="by"
                )
        wounds = payload.get("wounds")
        if wounds is not None:
            if isinstance(wounds, bool) or not isinstance(wounds, int) or not 0 <= wounds <= 10:
                raise TrackerError(
                    _("wounds must be a whole number from 0 to 10."),
                    code="entry.invalid",
                    field="wounds",
                )
            target.wounds = wounds
        self._touch()
        self._set_status(seq, target, status, actor, str(payload.get("weapon") or "")[:80])

    def _set_status(
        self, seq: int, target: FighterState, status: str, actor: FighterState | None, weapon: str
    ) -> None:
        target.status = status
        if status == OUT_OF_ACTION:
            self.out_of_action.append(
                OutOfAction(
                    seq=seq,
                    turn=self.turn,
                    target=target.id,
                    target_side=target.side,
                    actor=actor.id if actor else None,
                    actor_side=actor.side if actor else None,
                    weapon=weapon,
                )
            )

    def _apply_attack(self, seq: int, payload: Mapping[str, Any]) -> None:
        self._open()
        self._started()
        self._rout_first()
        mode = payload.get("mode", "melee")
        if mode not in ATTACK_MODES:
            raise TrackerError(
                _("mode must be melee or shooting."), code="entry.invalid", field="mode"
            )
        attacker = self.fighter(_id(payload, "attacker"), "attacker")
        target = self.fighter(_id(payload, "target"), "target")
        self._able(attacker, "attacker", allowed=(IN_PLAY,))
        self._able(target, "target", allowed=(IN_PLAY, KNOCKED_DOWN, STUNNED, FLEEING))
        if attacker.side == target.side:
            raise TrackerError(
                _("A warrior does not fight his own side."), code="entry.same_side", field="target"
            )
        if mode == "shooting" and attacker.side != self.side:
            raise TrackerError(
                _("Only the warband whose turn it is shoots."),
                code="entry.not_your_turn",
                field="attacker",
            )
        if self.preview:
            return
        result = payload.get("result")
        if not isinstance(result, Mapping) or result.get("outcome") not in INJURY_OUTCOMES:
            raise TrackerError(
                _("An attack needs its result (the outcome rolled)."),
                code="entry.invalid",
                field="result",
            )
        lost = result.get("wounds_lost", 0)
        if isinstance(lost, bool) or not isinstance(lost, int) or lost < 0:
            raise TrackerError(_("wounds_lost must be a whole number."), code="entry.invalid")
        self._touch()
        target.wounds = max(0, target.wounds - lost)
        outcome = result["outcome"]
        if outcome in SEVERITY and SEVERITY[outcome] > SEVERITY[target.status]:
            self._set_status(seq, target, outcome, attacker, str(payload.get("weapon") or "")[:80])

    def _apply_rout(self, seq: int, payload: Mapping[str, Any]) -> None:
        """Retirada voluntaria, at the start of one of the side's turns (two or more out)."""
        self._open()
        self._started()
        side = _id(payload, "side")
        if side != self.side:
            raise TrackerError(
                _("A warband withdraws at the start of its own turn."),
                code="entry.not_due",
                field="side",
            )
        out = self.out_of_action_count(side)
        if out < 2 or self.side_turn.acted:
            raise TrackerError(
                _("A voluntary rout needs two or more warriors out of action (%(count)d now)."),
                code="entry.not_due",
                field="side",
                count=out,
            )
        self.routed[side] = True
        self._settle_winner()

    def _settle_winner(self) -> None:
        standing = self.standing_sides
        if len(standing) == 1:
            self.winners = standing

    def _apply_finish(self, seq: int, payload: Mapping[str, Any]) -> None:
        draw = bool(payload.get("draw"))
        winner = payload.get("winner")
        standing = self.standing_sides
        if len(standing) == 1:
            if draw or winner not in (None, standing[0]):
                raise TrackerError(
                    _("The warband that did not rout wins."), code="entry.invalid", field="winner"
                )
            winners = standing
        elif draw:
            if winner is not None:
                raise TrackerError(_("A draw has no winner."), code="entry.invalid", field="winner")
            winners = []
        else:
            if winner not in standing:
                raise TrackerError(
                    _("Say which warband won (one that did not rout), or mark a draw."),
                    code="entry.invalid",
                    field="winner",
                )
            winners = [winner]
        self.finished = True
        self.draw = draw and len(standing) != 1
        self.winners = list(winners)
        self.finish_reason = str(payload.get("reason") or "")[:80]

    def _apply_check(self, seq: int, payload: Mapping[str, Any]) -> None:
        self._open()
        self._started()
        check = _need(payload, "check")
        if check not in CHECK_KINDS:
            raise TrackerError(
                _("%(check)s is not a check of the battle; use one of %(choices)s."),
                code="entry.invalid",
                field="check",
                check=check,
                choices=", ".join(CHECK_KINDS),
            )
        preview = bool(self.preview)
        result = payload.get("result")
        if not preview and (not isinstance(result, Mapping) or "outcome" not in result):
            raise TrackerError(
                _("A check needs its result (the outcome rolled)."),
                code="entry.invalid",
                field="result",
            )
        outcome = None if preview else result["outcome"]
        if check == "rout":
            side = _id(payload, "side")
            if side not in self.order:
                raise TrackerError(
                    _("Warband %(id)s is not in this battle."),
                    code="entry.unknown_side",
                    field="side",
                    id=side,
                )
            if not self.rout_test_due(side):
                raise TrackerError(
                    _("No rout test is due for this warband now."),
                    code="entry.check_not_due",
                    field="check",
                )
            if preview:
                return
            self.side_turn.rout_tested = True
            if outcome == "routed":
                self.routed[side] = False
                self._settle_winner()
            else:
                self._recover(side)
            return
        if check != "rout" and self.side is not None:
            self._rout_first()
        fighter = self.fighter(_id(payload, "fighter"), "fighter")
        if check in ("stupidity", "rally"):
            due = {(c["check"], c.get("fighter")) for c in self.checks_due() if c["check"] == check}
            if (check, fighter.id) not in due:
                raise TrackerError(
                    _("No %(check)s test is due for %(fighter)s now."),
                    code="entry.check_not_due",
                    field="check",
                    check=check,
                    fighter=fighter.name,
                )
            if preview:
                return
            self.side_turn.tested.add((check, fighter.id))
            if check == "rally" and outcome == "rallied":
                fighter.status = IN_PLAY
            return
        if check == "charged-while-fleeing":
            if fighter.status != FLEEING:
                raise TrackerError(
                    _("%(fighter)s is not fleeing."),
                    code="entry.check_not_due",
                    field="fighter",
                    fighter=fighter.name,
                )
            return
        if check == "fear":
            self._able(fighter, "fighter", allowed=(IN_PLAY, KNOCKED_DOWN, FLEEING))
            against = self.fighter(_id(payload, "against"), "against")
            if against.side == fighter.side or FEAR not in against.rules:
                raise TrackerError(
                    _("%(enemy)s does not cause fear in %(fighter)s: no fear test is due."),
                    code="entry.check_not_due",
                    field="against",
                    enemy=against.name,
                    fighter=fighter.name,
                )
            if not preview:
                self._touch()
            return
        # all-alone: at the end of his combat phase, fighting two or more enemies
        self._able(fighter, "fighter", allowed=(IN_PLAY,))
        params = payload.get("params")
        enemies = params.get("enemies") if isinstance(params, Mapping) else None
        if isinstance(enemies, bool) or not isinstance(enemies, int) or enemies < 2:
            raise TrackerError(
                _("All alone is tested only when fighting two or more enemies."),
                code="entry.check_not_due",
                field="params.enemies",
            )
        if preview:
            return
        self._touch()
        if outcome == "flees":
            fighter.status = FLEEING
        elif outcome == OUT_OF_ACTION:
            self._set_status(seq, fighter, OUT_OF_ACTION, None, "")

    def _correct(self, seq: int, payload: Mapping[str, Any]) -> None:
        target_seq = _id(payload, "corrects")
        target = next((e for e in self.entries if e[0] == target_seq), None)
        if target is None or target[1] not in CORRECTABLE:
            raise TrackerError(
                _("Entry %(seq)s cannot be corrected."),
                code="entry.not_correctable",
                field="corrects",
                seq=target_seq,
            )
        if target_seq in self.corrected:
            raise TrackerError(
                _("Entry %(seq)s was already corrected by entry %(by)s; correct that one."),
                code="entry.not_correctable",
                field="corrects",
                seq=target_seq,
                by=self.corrected[target_seq],
            )
        if self.finished:
            raise TrackerError(
                _("The battle is finished: dispute the report instead."), code="entry.finished"
            )
        replacement = payload.get("replacement")
        if replacement is not None and not isinstance(replacement, Mapping):
            raise TrackerError(
                _("The replacement is an object."), code="entry.invalid", field="replacement"
            )
        corrections = [*self.corrected_entries(), (seq, "correction", dict(payload))]
        originals = [e for e in self.entries if e[1] != "correction"]
        rebuilt = fold_entries(self.setup, originals, corrections)
        self.__dict__.update(rebuilt.__dict__)


def fold_entries(
    setup: BattleSetupData,
    entries: Iterable[tuple[int, str, Mapping[str, Any]]],
    corrections: Iterable[tuple[int, str, Mapping[str, Any]]] = (),
) -> BattleState:
    """Fold ``entries`` (not the setup, no corrections) with ``corrections`` applied in place:
    a corrected entry is replaced by the correction's ``replacement`` or, without one, voided."""
    fixes = {int(c[2]["corrects"]): (c[0], c[2]) for c in corrections}
    state = BattleState(setup)
    timeline = sorted(
        [(seq, kind, payload) for seq, kind, payload in entries if kind != "correction"]
        + [(c[0], "correction", c[2]) for c in corrections]
    )
    for seq, kind, payload in timeline:
        if kind == "correction":
            state.entries.append((seq, kind, dict(payload)))
            state.corrected[int(payload["corrects"])] = seq
            state.last_seq = max(state.last_seq, seq)
            continue
        if seq in fixes:
            replacement = fixes[seq][1].get("replacement")
            if replacement is not None:
                try:
                    _apply_effect(state, seq, kind, replacement)
                except TrackerError as error:
                    raise TrackerError(
                        _("The correction of entry %(seq)d does not fit the battle: %(why)s"),
                        code="entry.bad_correction",
                        field="replacement",
                        seq=seq,
                        why=str(error),
                    ) from error
            state.entries.append((seq, kind, dict(payload)))
            state.last_seq = max(state.last_seq, seq)
            continue
        try:
            state.append(seq, kind, payload)
        except TrackerError as error:
            if not fixes:
                raise
            raise TrackerError(
                _("After this correction, entry %(seq)d no longer fits the battle: %(why)s"),
                code="entry.bad_correction",
                field="corrects",
                seq=seq,
                why=str(error),
            ) from error
    return state


def _apply_effect(state: BattleState, seq: int, kind: str, payload: Mapping[str, Any]) -> None:
    """Apply a replacement payload without recording it as a separate entry."""
    getattr(state, f"_apply_{kind}")(seq, payload)


def fold(entries: Iterable[Mapping[str, Any]]) -> BattleState:
    """The state after a log: ``entries`` are ``{"seq", "kind", "payload"}`` in seq order, the
    first being the ``setup``."""
    items = [(int(e["seq"]), str(e["kind"]), e["payload"]) for e in entries]
    if not items or items[0][1] != "setup":
        raise TrackerError(_("A battle log starts with its setup."), code="entry.no_setup")
    setup = setup_from_dict(items[0][2])
    rest = items[1:]
    corrections = [e for e in rest if e[1] == "correction"]
    state = fold_entries(setup, [e for e in rest if e[1] != "correction"], corrections)
    state.last_seq = max(state.last_seq, items[0][0])
    return state


def start(setup_payload: Mapping[str, Any], seq: int = 1) -> BattleState:
    """The state right after the ``setup`` entry."""
    state = BattleState(setup_from_dict(setup_payload))
    state.last_seq = seq
    return state


def fear_immune(fighter: FighterState) -> bool:
    return bool(IMMUNE_TO_FEAR & set(fighter.rules))
