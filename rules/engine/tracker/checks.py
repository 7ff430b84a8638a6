"""``check`` entries: whether the check is due now, and what its rolled outcome changes.

The rout test comes first in a side's turn (nothing else of that side happens until it is
taken); stupidity and rally are due at the start of the turn for the warriors concerned; fear
only against an enemy that causes it; all alone only when fighting two or more enemies; a
fleeing warrior charged (by the side to move) runs again. :func:`prompted` offers the last
three when the log shows they may be due.
"""

from __future__ import annotations

from collections.abc import Callable, Mapping
from typing import TYPE_CHECKING, Any

from rules.engine.i18n import gettext_noop as _
from rules.engine.tracker.entries import recover, set_status, settle_winner
from rules.engine.tracker.errors import TrackerError
from rules.engine.tracker.model import (
    CHECK_KINDS,
    FLEEING,
    IN_PLAY,
    KNOCKED_DOWN,
    OUT_OF_ACTION,
    FighterState,
    fear_immune,
    need,
    whole_id,
)
from rules.engine.tracker.setup import FEAR

if TYPE_CHECKING:
    from rules.engine.tracker.state import BattleState

Outcome = str | None
"""The outcome rolled, or ``None`` while the entry is checked before its dice are rolled."""


def _outcome(state: BattleState, payload: Mapping[str, Any]) -> Outcome:
    if state.preview:
        return None
    result = payload.get("result")
    if not isinstance(result, Mapping) or "outcome" not in result:
        raise TrackerError(
            _("A check needs its result (the outcome rolled)."),
            code="entry.invalid",
            field="result",
        )
    return result["outcome"]


def apply_check(state: BattleState, seq: int, payload: Mapping[str, Any]) -> None:
    state.require_open()
    state.require_started()
    check = need(payload, "check")
    if check not in CHECK_KINDS:
        raise TrackerError(
            _("%(check)s is not a check of the battle; use one of %(choices)s."),
            code="entry.invalid",
            field="check",
            check=check,
            choices=", ".join(CHECK_KINDS),
        )
    outcome = _outcome(state, payload)
    if check == "rout":
        _rout(state, payload, outcome)
        return
    state.require_rout_first()
    fighter = state.fighter(whole_id(payload, "fighter"), "fighter")
    FIGHTER_CHECKS[check](state, seq, fighter, payload, outcome)


def _rout(state: BattleState, payload: Mapping[str, Any], outcome: Outcome) -> None:
    """Chequeo de retirada: a failed test routs the warband; a passed one lets the turn go on
    (with its recovery phase, held back until the test was taken)."""
    side = whole_id(payload, "side")
    if side not in state.order:
        raise TrackerError(
            _("Warband %(id)s is not in this battle."),
            code="entry.unknown_side",
            field="side",
            id=side,
        )
    if not state.rout_test_due(side):
        raise TrackerError(
            _("No rout test is due for this warband now."),
            code="entry.check_not_due",
            field="check",
        )
    if state.preview:
        return
    state.side_turn.rout_tested = True
    if outcome == "routed":
        state.routed[side] = False
        settle_winner(state)
    else:
        recover(state, side)


def _start_of_turn(
    state: BattleState,
    seq: int,
    fighter: FighterState,
    payload: Mapping[str, Any],
    outcome: Outcome,
) -> None:
    """Stupidity and rally: once per warrior, at the start of his side's turn."""
    check = payload["check"]
    due = {(c["check"], c.get("fighter")) for c in state.checks_due() if c["check"] == check}
    if (check, fighter.id) not in due:
        raise TrackerError(
            _("No %(check)s test is due for %(fighter)s now."),
            code="entry.check_not_due",
            field="check",
            check=check,
            fighter=fighter.name,
        )
    if state.preview:
        return
    state.side_turn.tested.add((check, fighter.id))
    if check == "rally" and outcome == "rallied":
        fighter.status = IN_PLAY


def _charged_while_fleeing(
    state: BattleState,
    seq: int,
    fighter: FighterState,
    payload: Mapping[str, Any],
    outcome: Outcome,
) -> None:
    """Cargado mientras huye: the charger comes from the warband whose turn it is; the fleeing
    warrior runs another 5D6 cm before any blow is struck (seed 000)."""
    if fighter.status != FLEEING:
        raise TrackerError(
            _("%(fighter)s is not fleeing."),
            code="entry.check_not_due",
            field="fighter",
            fighter=fighter.name,
        )
    if fighter.side == state.side:
        raise TrackerError(
            _("Only the warband whose turn it is charges: %(fighter)s is not charged now."),
            code="entry.check_not_due",
            field="fighter",
            fighter=fighter.name,
        )
    if state.preview:
        return
    state.touch()
    state.side_turn.tested.add(("charged-while-fleeing", fighter.id))


def _fear(
    state: BattleState,
    seq: int,
    fighter: FighterState,
    payload: Mapping[str, Any],
    outcome: Outcome,
) -> None:
    state.require_able(fighter, "fighter", allowed=(IN_PLAY, KNOCKED_DOWN, FLEEING))
    against = state.fighter(whole_id(payload, "against"), "against")
    if against.side == fighter.side or FEAR not in against.rules:
        raise TrackerError(
            _("%(enemy)s does not cause fear in %(fighter)s: no fear test is due."),
            code="entry.check_not_due",
            field="against",
            enemy=against.name,
            fighter=fighter.name,
        )
    if not state.preview:
        state.touch()
        state.side_turn.tested.add(("fear", fighter.id, against.id))


def engaged_enemies(state: BattleState, fighter: FighterState) -> list[int]:
    """The enemies the log shows him fighting hand to hand this turn, still in the fight."""
    return sorted(
        enemy
        for enemy in state.side_turn.melee.get(fighter.id, ())
        if state.fighters[enemy].status not in (OUT_OF_ACTION, FLEEING)
    )


def all_alone_enemies(state: BattleState, fighter: FighterState, params: Any) -> Any:
    """The number of enemies he fights: the player's, or else the log's."""
    if isinstance(params, Mapping) and "enemies" in params:
        return params["enemies"]
    return len(engaged_enemies(state, fighter))


def _all_alone(
    state: BattleState,
    seq: int,
    fighter: FighterState,
    payload: Mapping[str, Any],
    outcome: Outcome,
) -> None:
    """Solo ante el peligro: at the end of his combat phase, fighting two or more enemies."""
    state.require_able(fighter, "fighter", allowed=(IN_PLAY,))
    enemies = all_alone_enemies(state, fighter, payload.get("params"))
    if isinstance(enemies, bool) or not isinstance(enemies, int) or enemies < 2:
        raise TrackerError(
            _("All alone is tested only when fighting two or more enemies."),
            code="entry.check_not_due",
            field="params.enemies",
        )
    if state.preview:
        return
    state.touch()
    state.side_turn.tested.add(("all-alone", fighter.id))
    if outcome == "flees":
        set_status(state, seq, fighter, FLEEING, None, "")
    elif outcome == OUT_OF_ACTION:
        set_status(state, seq, fighter, OUT_OF_ACTION, None, "")


def _fear_prompts(state: BattleState, causer: FighterState) -> list[dict[str, Any]]:
    """Miedo: whoever wants to charge ``causer`` (the side to move) or is charged by him (when
    his side moves), and is not immune; one prompt per side that would test."""
    if causer.side == state.side:
        situation = "charged"
        testers = [
            f
            for f in state.fighters.values()
            if f.side != causer.side and f.status in (IN_PLAY, KNOCKED_DOWN)
        ]
    else:
        situation = "charging"
        testers = [f for f in state.side_fighters(state.side) if f.status == IN_PLAY]
    by_side: dict[int, list[int]] = {}
    for tester in testers:
        if not fear_immune(tester) and ("fear", tester.id, causer.id) not in state.side_turn.tested:
            by_side.setdefault(tester.side, []).append(tester.id)
    return [
        {
            "check": "fear",
            "side": side,
            "against": causer.id,
            "fighters": ids,
            "situation": situation,
            "required": False,
        }
        for side, ids in by_side.items()
    ]


def prompted(state: BattleState) -> list[dict[str, Any]]:
    """The checks the log shows may be due, which the table confirms (distances, charges it
    cannot see): a fleeing warrior of a side not moving may be charged; a warrior fighting two
    or more enemies may be all alone (no friend within 15 cm); a fear-causing enemy in play
    asks a fear test of whoever charges him or is charged by him. Not required: a turn may
    end without them."""
    tested = state.side_turn.tested
    due: list[dict[str, Any]] = []
    for fighter in state.fighters.values():
        if (
            fighter.status == FLEEING
            and fighter.side != state.side
            and ("charged-while-fleeing", fighter.id) not in tested
        ):
            due.append(
                {
                    "check": "charged-while-fleeing",
                    "side": fighter.side,
                    "fighter": fighter.id,
                    "required": False,
                }
            )
    for fighter in state.fighters.values():
        enemies = engaged_enemies(state, fighter)
        if (
            fighter.status == IN_PLAY
            and len(enemies) >= 2
            and ("all-alone", fighter.id) not in tested
        ):
            due.append(
                {
                    "check": "all-alone",
                    "side": fighter.side,
                    "fighter": fighter.id,
                    "enemies": enemies,
                    "required": False,
                }
            )
    for causer in state.fighters.values():
        if FEAR in causer.rules and causer.status != OUT_OF_ACTION:
            due += _fear_prompts(state, causer)
    return due


FighterCheck = Callable[["BattleState", int, FighterState, Mapping[str, Any], Outcome], None]
FIGHTER_CHECKS: dict[str, FighterCheck] = {
    "stupidity": _start_of_turn,
    "rally": _start_of_turn,
    "charged-while-fleeing": _charged_while_fleeing,
    "fear": _fear,
    "all-alone": _all_alone,
}
