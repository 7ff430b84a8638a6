"""``check`` entries: whether the check is due now, and what its rolled outcome changes.

The rout test comes first in a side's turn (nothing else of that side happens until it is
taken); stupidity and rally are due at the start of the turn for the warriors concerned; fear
only against an enemy that causes it (and never for a warrior immune to it); all alone only when
fighting two or more enemies, and never for a warrior immune to psychology; a fleeing warrior
charged runs again. What the outcome changes: a failed rout test routs the warband; a rallied
warrior stops fleeing but does nothing else this turn; a failed stupidity test keeps him from
attacking and shooting this turn; a failed fear test when charged leaves him hitting only on 6s
in the first round, when charging means a failed charge; failing all alone, he flees the combat
and each enemy strikes him an automatic hit (a ``hits`` entry is then due).
"""

from __future__ import annotations

from collections.abc import Callable, Mapping
from typing import Any, cast

from rules.engine import vocabulary as v
from rules.engine.checks import BATTLE_CHECKS
from rules.engine.i18n import gettext_noop as _
from rules.engine.tracker.data import BattleData
from rules.engine.tracker.due import all_alone_enemies, psychology_immune, start_of_turn
from rules.engine.tracker.errors import TrackerError
from rules.engine.tracker.model import (
    FLEEING,
    IN_PLAY,
    KNOCKED_DOWN,
    OUT_OF_ACTION,
    FighterState,
    need,
    whole_id,
)
from rules.engine.tracker.turns import recover, set_status, settle_winner

HORN = "war-horn"
Outcome = str | None
"""The outcome rolled, or ``None`` while the entry is checked before its dice are rolled."""


def _outcome(state: BattleData, payload: Mapping[str, Any]) -> Outcome:
    if state.preview:
        return None
    result = payload.get("result")
    if not isinstance(result, Mapping) or "outcome" not in result:
        raise TrackerError(
            _("A check needs its result (the outcome rolled)."),
            code="entry.invalid",
            field="result",
        )
    return cast(str, result["outcome"])


def apply_check(state: BattleData, seq: int, payload: Mapping[str, Any]) -> None:
    state.require_open()
    state.require_started()
    check = need(payload, "check")
    if check not in BATTLE_CHECKS:
        raise TrackerError(
            _("%(check)s is not a check of the battle; use one of %(choices)s."),
            code="entry.invalid",
            field="check",
            check=check,
            choices=", ".join(BATTLE_CHECKS),
        )
    outcome = _outcome(state, payload)
    if check == "rout":
        _rout(state, payload, outcome)
        return
    state.require_rout_first()
    fighter = state.fighter(whole_id(payload, "fighter"), "fighter")
    blown = war_horn(state, fighter, payload.get("params"))
    FIGHTER_CHECKS[check](state, seq, fighter, payload, outcome)
    if blown and not state.preview:
        state.side_turn.horn = True
        state.side_spent.setdefault(fighter.side, set()).add(HORN)


def war_horn(state: BattleData, fighter: FighterState, params: Any) -> bool:
    """The war horn: blown at the start of a turn, friends within 15 cm of its bearer (the table
    says so with ``params.war_horn``) re-roll a failed Leadership test that turn; once a battle
    when the item says so."""
    if not isinstance(params, Mapping) or not params.get("war_horn"):
        return False
    bearer = state.side_carries(fighter.side, v.REROLL_LEADERSHIP)
    spent = HORN in state.side_spent.get(fighter.side, set()) and not state.side_turn.horn
    if bearer is None or (spent and state.gear(bearer, v.ONCE_PER_BATTLE)):
        raise TrackerError(
            _("Nobody of this warband has a war horn left to blow this battle."),
            code="entry.invalid",
            field="params.war_horn",
        )
    return True


def _rout(state: BattleData, payload: Mapping[str, Any], outcome: Outcome) -> None:
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
    spend(state, side, payload)
    if outcome == "routed":
        state.routed[side] = False
        settle_winner(state)
    else:
        recover(state, side)


def _start_of_turn(
    state: BattleData,
    seq: int,
    fighter: FighterState,
    payload: Mapping[str, Any],
    outcome: Outcome,
) -> None:
    """Stupidity and rally: once per warrior, at the start of his side's turn."""
    check = payload["check"]
    due = {(c["check"], c.get("fighter")) for c in start_of_turn(state, state.side)}
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
        state.side_turn.rallied.add(fighter.id)
    if check == "stupidity" and outcome not in ("acts_normally", None):
        state.side_turn.stupid.add(fighter.id)


def _charged_while_fleeing(
    state: BattleData,
    seq: int,
    fighter: FighterState,
    payload: Mapping[str, Any],
    outcome: Outcome,
) -> None:
    """Cargado mientras huye: the charger comes from the warband whose turn it is; the fleeing
    warrior runs another 5D6 cm before any blow is struck."""
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
    state.side_turn.must_flee.discard(fighter.id)


def _fear(
    state: BattleData,
    seq: int,
    fighter: FighterState,
    payload: Mapping[str, Any],
    outcome: Outcome,
) -> None:
    state.require_able(fighter, "fighter", allowed=(IN_PLAY, KNOCKED_DOWN, FLEEING))
    against = state.fighter(whole_id(payload, "against"), "against")
    if against.side == fighter.side or not state.causes_fear(against):
        raise TrackerError(
            _("%(enemy)s does not cause fear in %(fighter)s: no fear test is due."),
            code="entry.check_not_due",
            field="against",
            enemy=against.name,
            fighter=fighter.name,
        )
    if state.setup.strict and ("fear", fighter.id, against.id) in state.side_turn.tested:
        raise TrackerError(
            _("%(fighter)s already tested his fear of %(enemy)s this turn."),
            code="entry.check_not_due",
            field="against",
            enemy=against.name,
            fighter=fighter.name,
        )
    if state.preview:
        return
    state.touch()
    state.side_turn.tested.add(("fear", fighter.id, against.id))
    state.side_turn.fear.setdefault(fighter.id, {})[against.id] = outcome or ""
    if outcome == "cannot_charge":
        state.side_turn.failed_charge.add(fighter.id)
    spend(state, fighter.side, payload)


def spend(state: BattleData, side: int, payload: Mapping[str, Any]) -> None:
    """What the roll used up, as its result says (``details.spent``: the pipe-weed, the wine)."""
    details = (payload.get("result") or {}).get("details") or {}
    for item in details.get("spent", ()):
        state.side_spent.setdefault(side, set()).add(item)


def _all_alone(
    state: BattleData,
    seq: int,
    fighter: FighterState,
    payload: Mapping[str, Any],
    outcome: Outcome,
) -> None:
    """Solo ante el peligro: at the end of his combat phase, fighting two or more enemies."""
    state.require_able(fighter, "fighter", allowed=(IN_PLAY,))
    immune = psychology_immune(state, fighter)
    if immune:
        raise TrackerError(
            _("%(fighter)s is immune to psychology (%(rule)s): no all alone test."),
            code="entry.immune",
            field="fighter",
            fighter=fighter.name,
            rule=immune,
        )
    enemies = all_alone_count(state, fighter, payload.get("params"))
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


def all_alone_count(state: BattleData, fighter: FighterState, params: Any) -> Any:
    """The number of enemies he fights: the player's, or else the log's."""
    if isinstance(params, Mapping) and "enemies" in params:
        return params["enemies"]
    return len(all_alone_enemies(state, fighter))


FighterCheck = Callable[[BattleData, int, FighterState, Mapping[str, Any], Outcome], None]
FIGHTER_CHECKS: dict[str, FighterCheck] = {
    "stupidity": _start_of_turn,
    "rally": _start_of_turn,
    "charged-while-fleeing": _charged_while_fleeing,
    "fear": _fear,
    "all-alone": _all_alone,
}
