"""The entries that move the battle on: turns (with the recovery phase), statuses, attacks,
voluntary routs, the finish and notes. Each ``apply_<kind>(state, seq, payload)`` checks the
entry against the state and changes it, or raises :class:`TrackerError`."""

from __future__ import annotations

from collections.abc import Mapping
from typing import TYPE_CHECKING, Any

from rules.engine.i18n import gettext_noop as _
from rules.engine.tracker import duels
from rules.engine.tracker.errors import TrackerError
from rules.engine.tracker.model import (
    ATTACK_MODES,
    FLEEING,
    IN_PLAY,
    INJURY_OUTCOMES,
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

if TYPE_CHECKING:
    from rules.engine.tracker.state import BattleState


def apply_note(state: BattleState, seq: int, payload: Mapping[str, Any]) -> None:
    text = payload.get("text", "")
    if not isinstance(text, str) or not text.strip() or len(text) > MAX_NOTE:
        raise TrackerError(
            _("A note is text of up to %(max)d characters."),
            code="entry.invalid",
            field="text",
            max=MAX_NOTE,
        )


def apply_turn(state: BattleState, seq: int, payload: Mapping[str, Any]) -> None:
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
    pending = [c for c in state.checks_due() if c["required"]]
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


def recover(state: BattleState, side: int) -> None:
    """Fase de recuperación: stunned → knocked down; knocked down → back on his feet. It
    follows the rout test, which sees the warriors as the turn starts (a stunned leader
    cannot lend his Leadership to it)."""
    for fighter in state.side_fighters(side):
        if fighter.status == KNOCKED_DOWN:
            fighter.status = IN_PLAY
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


def apply_status(state: BattleState, seq: int, payload: Mapping[str, Any]) -> None:
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
        duels.require_may_fight(state, actor, target, "by")
    wounds = _wounds(payload)
    if wounds is not None:
        target.wounds = wounds
    state.touch()
    if actor is not None:
        state.side_turn.engage(actor.id, target.id)
    set_status(state, seq, target, status, actor, str(payload.get("weapon") or "")[:80])


def set_status(
    state: BattleState,
    seq: int,
    target: FighterState,
    status: str,
    actor: FighterState | None,
    weapon: str,
) -> None:
    target.status = status
    if status in (OUT_OF_ACTION, FLEEING):
        duels.end_for(state, target.id)
    if status == OUT_OF_ACTION:
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


def _attack_result(payload: Mapping[str, Any]) -> tuple[str, int]:
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
    return result["outcome"], lost


def _weapon(attacker: FighterState, payload: Mapping[str, Any]) -> str:
    """The weapon named must be one the attacker carries (empty: his default weapon)."""
    weapon = payload.get("weapon") or ""
    if not isinstance(weapon, str) or (weapon and weapon not in attacker.equipment):
        raise TrackerError(
            _("%(fighter)s does not carry %(weapon)s."),
            code="entry.invalid",
            field="weapon",
            fighter=attacker.name,
            weapon=str(weapon),
        )
    return weapon[:80]


def apply_attack(state: BattleState, seq: int, payload: Mapping[str, Any]) -> None:
    state.require_started_turn()
    mode = payload.get("mode", "melee")
    if mode not in ATTACK_MODES:
        raise TrackerError(_("mode must be melee or shooting."), code="entry.invalid", field="mode")
    attacker = state.fighter(whole_id(payload, "attacker"), "attacker")
    target = state.fighter(whole_id(payload, "target"), "target")
    state.require_able(attacker, "attacker", allowed=(IN_PLAY,))
    state.require_able(target, "target", allowed=(IN_PLAY, KNOCKED_DOWN, STUNNED, FLEEING))
    if attacker.side == target.side:
        raise TrackerError(
            _("A warrior does not fight his own side."), code="entry.same_side", field="target"
        )
    if mode == "shooting" and attacker.side != state.side:
        raise TrackerError(
            _("Only the warband whose turn it is shoots."),
            code="entry.not_your_turn",
            field="attacker",
        )
    duels.require_may_fight(state, attacker, target, "attacker")
    weapon = _weapon(attacker, payload)
    if state.preview:
        return
    outcome, lost = _attack_result(payload)
    state.touch()
    if mode == "melee":
        state.side_turn.engage(attacker.id, target.id)
    target.wounds = max(0, target.wounds - lost)
    if outcome in SEVERITY and SEVERITY[outcome] > SEVERITY[target.status]:
        set_status(state, seq, target, outcome, attacker, weapon)


def apply_rout(state: BattleState, seq: int, payload: Mapping[str, Any]) -> None:
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


def settle_winner(state: BattleState) -> None:
    standing = state.standing_sides
    if len(standing) == 1:
        state.winners = standing


def _finish_winners(state: BattleState, payload: Mapping[str, Any]) -> list[int]:
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


def apply_finish(state: BattleState, seq: int, payload: Mapping[str, Any]) -> None:
    winners = _finish_winners(state, payload)
    state.finished = True
    state.draw = bool(payload.get("draw")) and len(state.standing_sides) != 1
    state.winners = list(winners)
    state.finish_reason = str(payload.get("reason") or "")[:80]
