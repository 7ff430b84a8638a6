"""The entries that move the battle on: turns (with the recovery phase), statuses, voluntary
routs, the finish and notes; and :func:`set_status`, the one way a warrior's status changes.

Each ``apply_<kind>(state, seq, payload)`` checks the entry against the state and changes it,
or raises :class:`TrackerError`.

Turn sequence (Reglas › El turno): each side's turn starts with the rout test when a quarter or
more are out of action (on the warriors as they stand when the turn starts, so a leader stunned
in the enemy's turn cannot lead it; nothing else of that side happens until it is taken), then
the recovery phase — stunned warriors become knocked down, knocked-down warriors stand up (and
strike last this turn) — a rally test for each fleeing warrior, and stupidity for warriors with
the rule. Voluntary rout is offered at the start of any of the side's turns once two or more are
out of action.
"""

from __future__ import annotations

from collections.abc import Mapping
from typing import Any

from rules.engine import vocabulary as v
from rules.engine.i18n import gettext_noop as _
from rules.engine.tracker.data import BattleData
from rules.engine.tracker.due import required
from rules.engine.tracker.duels import end_for, require_may_fight
from rules.engine.tracker.errors import TrackerError
from rules.engine.tracker.model import (
    FLEEING,
    IN_PLAY,
    KNOCKED_DOWN,
    MAX_NOTE,
    MAX_TURNS,
    OUT_OF_ACTION,
    SEVERITY,
    STATUSES,
    STUNNED,
    FighterState,
    OutOfAction,
    SideTurn,
    one_of,
    whole_id,
)

STAND_UP_SPENT = "stand-up-free"


def apply_note(state: BattleData, seq: int, payload: Mapping[str, Any]) -> None:
    text = payload.get("text", "")
    if not isinstance(text, str) or not text.strip() or len(text) > MAX_NOTE:
        raise TrackerError(
            _("A note is text of up to %(max)d characters."),
            code="entry.invalid",
            field="text",
            max=MAX_NOTE,
        )


def apply_turn(state: BattleData, seq: int, payload: Mapping[str, Any]) -> None:
    state.require_open()
    turn, side = whole_id(payload, "turn"), whole_id(payload, "side")
    expected = state.next_turn()
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
    pending = required(state)
    if pending:
        raise TrackerError(
            _("Take the checks due before the next turn: %(checks)s."),
            code="entry.checks_pending",
            field="turn",
            checks=", ".join(c["check"] for c in pending),
        )
    state.turn, state.side = turn, side
    state.side_turn = SideTurn(
        fleeing_at_start=frozenset(f.id for f in state.side_fighters(side) if f.status == FLEEING)
    )
    if not state.rout_test_due(side):
        recover(state, side)


def recover(state: BattleData, side: int) -> None:
    """Fase de recuperación: stunned → knocked down; knocked down → back on his feet, striking
    last this turn and unable to charge (an orc draught or jump up: without losing his action).
    It follows the rout test, which sees the warriors as the turn starts (a stunned leader
    cannot lend his Leadership to it)."""
    for fighter in state.side_fighters(side):
        if fighter.status == KNOCKED_DOWN:
            fighter.status = IN_PLAY
            if state.has(fighter, v.JUMP_UP):
                continue
            if state.gear(fighter, v.STAND_UP_FREE) and STAND_UP_SPENT not in fighter.spent:
                fighter.spent.add(STAND_UP_SPENT)
                continue
            state.side_turn.stood_up.add(fighter.id)
        elif fighter.status == STUNNED:
            fighter.status = KNOCKED_DOWN


def _wounds(payload: Mapping[str, Any]) -> int | None:
    wounds = payload.get("wounds")
    if wounds is not None and (
        isinstance(wounds, bool) or not isinstance(wounds, int) or not 0 <= wounds <= 10
    ):
        raise TrackerError(
            _("wounds must be a whole number from 0 to 10."), code="entry.invalid", field="wounds"
        )
    return wounds


def apply_status(state: BattleData, seq: int, payload: Mapping[str, Any]) -> None:
    state.require_started_turn()
    target = state.fighter(whole_id(payload, "fighter"), "fighter")
    status = one_of(payload, "status", STATUSES)
    state.require_able(target, "fighter", allowed=(IN_PLAY, KNOCKED_DOWN, STUNNED, FLEEING))
    actor = None
    if payload.get("by") is not None:
        actor = state.fighter(payload.get("by"), "by")
        state.require_able(actor, "by", allowed=(IN_PLAY,))
        if actor.side == target.side:
            raise TrackerError(
                _("A warrior does not fight his own side."), code="entry.same_side", field="by"
            )
        require_may_fight(state, actor, target, "by")
    wounds = _wounds(payload)
    if wounds is not None:
        target.wounds = wounds
    state.touch()
    if actor is not None and not state.engaged(actor.id):
        state.side_turn.engage(actor.id, target.id)
    set_status(state, seq, target, status, actor, str(payload.get("weapon") or "")[:80])


def set_status(
    state: BattleData,
    seq: int,
    target: FighterState,
    status: str,
    actor: FighterState | None,
    weapon: str,
) -> None:
    """Change a warrior's status and what follows: out of action or fled, he leaves his combat
    (fleeing a fight, each enemy in contact strikes him an automatic hit: an entry is due) and
    any duel; knocked down or stunned, his frenzy is gone for the battle."""
    before = target.status
    target.status = status
    if status in (KNOCKED_DOWN, STUNNED):
        target.frenzy_lost = True
    if status in (OUT_OF_ACTION, FLEEING):
        end_for(state, target.id)
        if status == FLEEING and before == IN_PLAY:
            enemies = [e for e in state.contacts(target.id) if state.fighters[e].status == IN_PLAY]
            if enemies:
                state.pending_hits[target.id] = enemies
        state.leave_combat(target.id)
    if status == OUT_OF_ACTION:
        state.pending_hits.pop(target.id, None)
        state.out_of_action.append(
            OutOfAction(
                seq=seq,
                turn=state.turn,
                target=target.id,
                target_side=target.side,
                actor=actor.id if actor else None,
                actor_side=actor.side if actor else None,
                weapon=weapon,
            )
        )


def worsen(
    state: BattleData,
    seq: int,
    target: FighterState,
    outcome: str,
    actor: FighterState | None,
    weapon: str,
) -> None:
    """An attack's outcome: the status changes only if it is worse than the one he has."""
    if outcome in SEVERITY and SEVERITY[outcome] > SEVERITY[target.status]:
        set_status(state, seq, target, outcome, actor, weapon)


def apply_rout(state: BattleData, seq: int, payload: Mapping[str, Any]) -> None:
    """Retirada voluntaria, at the start of one of the side's turns (two or more out)."""
    state.require_open()
    state.require_started()
    side = whole_id(payload, "side")
    if side != state.side:
        raise TrackerError(
            _("A warband withdraws at the start of its own turn."),
            code="entry.not_due",
            field="side",
        )
    out = state.out_of_action_count(side)
    if out < 2 or state.side_turn.acted:
        raise TrackerError(
            _("A voluntary rout needs two or more warriors out of action (%(count)d now)."),
            code="entry.not_due",
            field="side",
            count=out,
        )
    state.routed[side] = True
    settle_winner(state)


def settle_winner(state: BattleData) -> None:
    standing = state.standing_sides
    if len(standing) == 1:
        state.winners = standing


def _finish_winners(state: BattleData, payload: Mapping[str, Any]) -> list[int]:
    draw = bool(payload.get("draw"))
    winner = payload.get("winner")
    standing = state.standing_sides
    if len(standing) == 1:
        if draw or winner not in (None, standing[0]):
            raise TrackerError(
                _("The warband that did not rout wins."), code="entry.invalid", field="winner"
            )
        return standing
    if draw:
        if winner is not None:
            raise TrackerError(_("A draw has no winner."), code="entry.invalid", field="winner")
        return []
    if winner not in standing:
        raise TrackerError(
            _("Say which warband won (one that did not rout), or mark a draw."),
            code="entry.invalid",
            field="winner",
        )
    return [winner]


def apply_finish(state: BattleData, seq: int, payload: Mapping[str, Any]) -> None:
    winners = _finish_winners(state, payload)
    state.finished = True
    state.draw = bool(payload.get("draw")) and len(state.standing_sides) != 1
    state.winners = list(winners)
    state.finish_reason = str(payload.get("reason") or "")[:80]
