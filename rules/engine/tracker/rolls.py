"""Roll the checks of a battle through the engine's check functions, with the battle's state.

The state supplies what the table would otherwise type: each warrior's Leadership, whether the
leader can lend his (stunned, out of action or fleeing, he cannot), every warrior's status for
the rout test, the enemies the log shows a warrior fighting. The player adds only what the
table knows (distances, enemies the log did not see).

Flight is always 5D6 cm, whatever the warrior's M: seed 000 ("Solo ante el Peligro": "corre
5D6 centímetros"; a failed rally "o cargan contra él, corre otros 5D6 centímetros"; "Si un
guerrero es cargado mientras huye ... corre otros 5D6 centímetros"). The 8D6 above M 15 cm is
seed 002's rule for units fleeing a mass battle's combat (``flee_and_pursuit``), not this one.
"""

from __future__ import annotations

from collections.abc import Mapping
from typing import Any

from rules.engine.checks import (
    FLEE_DICE,
    all_alone_test,
    fear_test,
    rally_test,
    rout_test,
    stupidity_test,
)
from rules.engine.dice import Dice
from rules.engine.explain import explained_dict
from rules.engine.tracker.checks import all_alone_enemies
from rules.engine.tracker.model import FighterState, entry_params, fear_immune
from rules.engine.tracker.state import BattleState

PARAMS = {
    "rout": (),
    "stupidity": ("in_combat", "movement_cm", "leader_distance_cm"),
    "rally": ("nearby", "leader_distance_cm"),
    "fear": ("situation", "leader_distance_cm"),
    "all-alone": ("enemies", "friends"),
    "charged-while-fleeing": (),
}


def _leader_params(
    state: BattleState, fighter: FighterState, params: Mapping[str, Any]
) -> dict[str, Any]:
    """Jefes: within 15 cm (the player gives the distance) the leader's L may be used."""
    leader = state.leader(fighter.side)
    distance = params.get("leader_distance_cm")
    if leader is None or leader.id == fighter.id or distance is None:
        return {}
    if leader.id in state.side_turn.refused:
        return {}  # seed 004: nobody uses the L of a leader who refused a challenge this turn
    return {
        "leader_leadership": leader.leadership,
        "leader_distance_cm": distance,
        "leader_status": leader.engine_status,
    }


def check_params(state: BattleState, payload: Mapping[str, Any]) -> dict[str, Any]:
    """The engine parameters of a ``check`` entry: the state's values plus the player's."""
    check = payload["check"]
    params = entry_params(payload, PARAMS[check])
    if check == "rout":
        return {
            "warriors": [
                {"leadership": f.leadership, "status": f.engine_status, "leader": f.leader}
                for f in state.side_fighters(payload["side"])
            ]
        }
    fighter = state.fighter(payload["fighter"])
    leader = _leader_params(state, fighter, params)
    if check == "stupidity":
        extra = {k: params[k] for k in ("in_combat", "movement_cm") if k in params}
        return {"leadership": fighter.leadership, **extra, **leader}
    if check == "rally":
        extra = {"nearby": params["nearby"]} if "nearby" in params else {}
        return {"leadership": fighter.leadership, **extra, **leader}
    if check == "fear":
        # The side to move charges; the others are charged (seed 000, "Miedo" a and b).
        moving = "charging" if fighter.side == state.side else "charged"
        return {
            "leadership": fighter.leadership,
            "situation": params.get("situation", moving),
            "causes_fear": fear_immune(fighter),
            **leader,
        }
    if check == "all-alone":
        extra = {"friends": params["friends"]} if "friends" in params else {}
        enemies = all_alone_enemies(state, fighter, params)
        return {"leadership": fighter.leadership, "enemies": enemies, **extra}
    return {}


def roll_check(state: BattleState, payload: Mapping[str, Any], *, dice: Dice) -> dict[str, Any]:
    """Validate a ``check`` entry against ``state``, roll it, and return its ``result``."""
    state.validate("check", payload)
    check = payload["check"]
    params = check_params(state, payload)
    if check == "rout":
        result = rout_test(**params, dice=dice)
    elif check == "stupidity":
        result = stupidity_test(**params, dice=dice)
    elif check == "rally":
        result = rally_test(**params, dice=dice)
        if result.outcome != "rallied":
            return _with_flight(result.to_dict(), dice)
    elif check == "fear":
        result = fear_test(**params, dice=dice)
    elif check == "all-alone":
        result = all_alone_test(**params, dice=dice)
    else:  # charged while fleeing: he runs another 5D6 cm before any blow is struck
        start = len(dice.record)
        roll = dice.roll(FLEE_DICE, "flee")
        return {
            "kind": "charged-while-fleeing",
            "passed": None,
            "outcome": "flees",
            "details": {"flee_cm": roll.total},
            **explained_dict((), tuple(dice.record[start:])),
        }
    return result.to_dict()


def _with_flight(result: dict[str, Any], dice: Dice) -> dict[str, Any]:
    """A failed rally: he runs another 5D6 cm towards the nearest table edge."""
    roll = dice.roll(FLEE_DICE, "flee")
    return {
        **result,
        "details": {**result.get("details", {}), "flee_cm": roll.total},
        "rolls": [*result.get("rolls", []), roll.to_dict()],
    }
