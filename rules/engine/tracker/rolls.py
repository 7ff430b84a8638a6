"""Roll an entry of the battle through the engine, with the battle's state: checks, shots,
close-combat phases and automatic hits (:func:`roll_entry`).

The state supplies what the table would otherwise type: each warrior's Leadership (with his
lineage), whether the leader can lend his (stunned, out of action or fleeing, he cannot; 30 cm
with the battle tongue), every warrior's status for the rout test, the enemies he fights, his
weapons, armour and rules, the items that re-roll a failed test (the pipe-weed, the wine, the war
horn) or cost the enemy Leadership (the Witch-king's talisman). The player adds only what the
table knows (distances, a war horn blown within 15 cm, the talisman's bearer nearby).

Flight is always 5D6 cm, whatever the warrior's M (Liderazgo y psicología › Solo ante el
peligro: "corre 5D6 centímetros"; a failed rally "o cargan contra él, corre otros 5D6
centímetros"). The 8D6 above M 15 cm is the mass battle's rule for fleeing units, not this one.
"""

from __future__ import annotations

from collections.abc import Mapping
from typing import Any, cast

from rules.engine import vocabulary as v
from rules.engine.checks import DECLARED, FLEE_DICE
from rules.engine.combat import (
    AttackerSpec,
    resolve_attack,
    resolve_automatic_hits,
    resolve_fight,
    resolve_shooting,
)
from rules.engine.dice import Dice
from rules.engine.explain import jsonable
from rules.engine.i18n import gettext_noop as _
from rules.engine.tracker.checks import all_alone_count, war_horn
from rules.engine.tracker.errors import TrackerError
from rules.engine.tracker.melee import combat_for, fight_warriors
from rules.engine.tracker.model import FighterState, entry_params
from rules.engine.tracker.specs import (
    attacker_spec,
    default_hands,
    defender_spec,
    leadership,
    missile,
    shooter_spec,
)
from rules.engine.tracker.state import BattleState

PARAMS = {kind: row.table_params for kind, row in DECLARED.items() if row.battle}
"""What the table may add to each check of the battle (the registry's ``table_params``)."""
BATTLE_TONGUE_CM = 30
PIPE_WEED, WINE = "pipe-weed", "wine"
MAX_SHOTS = 2


def _leader_params(
    state: BattleState, fighter: FighterState, params: Mapping[str, Any]
) -> dict[str, Any]:
    """Jefes: within 15 cm (the player gives the distance) the leader's L may be used."""
    leader = state.leader(fighter.side)
    distance = params.get("leader_distance_cm")
    if leader is None or leader.id == fighter.id or distance is None:
        return {}
    if leader.id in state.side_turn.refused:
        return {}  # Desafíos: nobody uses the L of a leader who refused a challenge this turn
    return {
        "leader_leadership": leadership(state, leader),
        "leader_distance_cm": distance,
        "leader_status": leader.engine_status,
        **({"leader_range_cm": BATTLE_TONGUE_CM} if state.has(leader, v.BATTLE_TONGUE) else {}),
    }


def _talisman(state: BattleState, side: int, against: FighterState | None, given: bool) -> int:
    """The Witch-king's talisman: enemies within 15 cm of its bearer lose 1 L for fear and rout
    tests (the bearer feared is that close; otherwise the table says so with ``talisman``)."""
    if against is not None and state.gear(against, v.ENEMY_LEADERSHIP_PENALTY):
        return -int(state.gear(against, v.ENEMY_LEADERSHIP_PENALTY))
    if not given:
        return 0
    bearer = next(
        (
            f
            for enemy_side in state.order
            if enemy_side != side
            for f in [state.side_carries(enemy_side, v.ENEMY_LEADERSHIP_PENALTY)]
            if f is not None
        ),
        None,
    )
    if bearer is None:
        raise TrackerError(
            _("No enemy carries the Witch-king's talisman."),
            code="entry.invalid",
            field="params.talisman",
        )
    return -int(state.gear(bearer, v.ENEMY_LEADERSHIP_PENALTY))


def check_params(state: BattleState, payload: Mapping[str, Any]) -> dict[str, Any]:
    """The engine parameters of a ``check`` entry: the state's values plus the player's."""
    check = payload["check"]
    params = entry_params(payload, PARAMS[check])
    if check == "rout":
        return _rout_params(state, payload["side"], params)
    fighter = state.fighter(payload["fighter"])
    base = {"leadership": leadership(state, fighter)}
    if check == "charged-while-fleeing":
        return {}
    reroll = {"reroll_failed": True} if war_horn(state, fighter, params) else {}
    if check == "all-alone":
        extra = {"friends": params["friends"]} if "friends" in params else {}
        enemies = all_alone_count(state, fighter, params)
        return {**base, "enemies": enemies, **extra, **reroll}
    leader = _leader_params(state, fighter, params)
    if check == "stupidity":
        in_combat = state.engaged(fighter.id) if state.setup.strict else False
        extra = {k: params[k] for k in ("in_combat", "movement_cm") if k in params}
        combat = {"in_combat": True} if in_combat else {}
        return {**base, **extra, **combat, **leader, **reroll}
    if check == "rally":
        extra = {"nearby": params["nearby"]} if "nearby" in params else {}
        return {**base, **extra, **leader, **reroll}
    return _fear_params(state, fighter, payload, params, {**base, **leader, **reroll})


def _fear_params(
    state: BattleState,
    fighter: FighterState,
    payload: Mapping[str, Any],
    params: Mapping[str, Any],
    base: dict[str, Any],
) -> dict[str, Any]:
    """Miedo: the side to move charges, the others are charged; immune warriors ignore it; the
    warband's wine re-rolls its first failed fear test; the talisman costs 1 L."""
    against_id = payload.get("against")
    against = state.fighters.get(against_id) if against_id is not None else None
    moving = "charging" if fighter.side == state.side else "charged"
    modifier = _talisman(state, fighter.side, against, bool(params.get("talisman")))
    wine = state.side_carries(fighter.side, v.REROLL_FIRST_FEAR) is not None and WINE not in (
        state.side_spent.get(fighter.side, set())
    )
    return {
        **base,
        "situation": params.get("situation", moving),
        "causes_fear": state.fear_immune(fighter) is not None,
        **({"leadership_modifier": modifier} if modifier else {}),
        **({"reroll_failed": True} if wine else {}),
    }


def _rout_params(state: BattleState, side: int, params: Mapping[str, Any]) -> dict[str, Any]:
    """The rout test: every warrior as the turn starts; the pipe-weed (once) or a leader who
    serves the Witch-king re-roll a failure; the enemy's talisman costs 1 L."""
    leader = state.leader(side)
    servant = (
        leader is not None
        and leader.status not in ("stunned", "out_of_action")
        and state.has(leader, v.WITCH_KING_SERVANT)
    )
    weed = state.side_carries(side, v.REROLL_ROUT) is not None and PIPE_WEED not in (
        state.side_spent.get(side, set())
    )
    modifier = _talisman(state, side, None, bool(params.get("talisman")))
    return {
        "warriors": [
            {"leadership": leadership(state, f), "status": f.engine_status, "leader": f.leader}
            for f in state.side_fighters(side)
        ],
        **({"leadership_modifier": modifier} if modifier else {}),
        **({"reroll_failed": True} if servant or weed else {}),
    }


def _spent(state: BattleState, payload: Mapping[str, Any], result: dict[str, Any]) -> None:
    """Name what a re-roll used up (a servant's re-roll, a war horn's, costs nothing)."""
    rerolled = any(roll.get("reroll_of") is not None for roll in result.get("rolls", ()))
    if not rerolled or (payload.get("params") or {}).get("war_horn"):
        return
    check = payload["check"]
    if check == "rout":
        leader = state.leader(payload["side"])
        if leader is None or not state.has(leader, v.WITCH_KING_SERVANT):
            result["details"]["spent"] = [PIPE_WEED]
    elif check == "fear":
        result["details"]["spent"] = [WINE]


def roll_check(state: BattleState, payload: Mapping[str, Any], *, dice: Dice) -> dict[str, Any]:
    """Validate a ``check`` entry against ``state``, roll it, and return its ``result``."""
    state.validate("check", payload)
    check = payload["check"]
    result: dict[str, Any] = (
        DECLARED[check].function(**check_params(state, payload), dice=dice).to_dict()
    )
    if check == "rally" and result["outcome"] != "rallied":
        return _with_flight(result, dice)
    _spent(state, payload, result)
    return result


def _with_flight(result: dict[str, Any], dice: Dice) -> dict[str, Any]:
    """A failed rally: he runs another 5D6 cm towards the nearest table edge."""
    roll = dice.roll(FLEE_DICE, "flee")
    return {
        **result,
        "details": {**result.get("details", {}), "flee_cm": roll.total},
        "rolls": [*result.get("rolls", []), roll.to_dict()],
    }


def roll_close_combat(
    state: BattleState, payload: Mapping[str, Any], *, dice: Dice
) -> dict[str, Any]:
    """One combat's close-combat phase, in strike order (:func:`resolve_fight`)."""
    state.validate("close-combat", payload)
    warriors = fight_warriors(state, combat_for(state, payload), payload)
    return resolve_fight(warriors, dice=dice).to_dict()


def roll_hits(state: BattleState, payload: Mapping[str, Any], *, dice: Dice) -> dict[str, Any]:
    """Huir de un combate: each enemy he fled from strikes one automatic hit, with his weapon
    (its first-round bonus if their fight began this turn)."""
    state.validate("hits", payload)
    target = state.fighters[payload["target"]]
    turn = state.side_turn
    attackers = []
    for enemy_id in state.pending_hits[target.id]:
        enemy = state.fighters[enemy_id]
        first = enemy_id in turn.charged or enemy_id in turn.was_charged
        spec = attacker_spec(
            state, enemy, default_hands(state, enemy), first_round=first, enemies=1
        )
        attackers.append(spec)
    defence = defender_spec(state, target, None, melee=True)
    return resolve_automatic_hits(attackers, defence, dice=dice).to_dict()


def roll_attack(state: BattleState, payload: Mapping[str, Any], *, dice: Dice) -> dict[str, Any]:
    """A shot (or, in close combat, a single free blow) at one enemy."""
    state.validate("attack", payload)
    attacker = state.fighters[payload["attacker"]]
    target = state.fighters[payload["target"]]
    if payload.get("mode", "melee") != "shooting":
        spec = attacker_spec(
            state, attacker, default_hands(state, attacker), first_round=True, enemies=1
        )
        spec = _legacy_options(spec, payload) if not state.setup.strict else spec
        defence = defender_spec(state, target, default_hands(state, target), melee=True)
        return resolve_attack(spec, defence, dice=dice).to_dict()
    weapon = missile(state, attacker, str(payload.get("weapon") or ""))
    modifiers = payload.get("modifiers") or {}
    shots = _shots(state, attacker, payload, modifiers)
    distance = payload.get("distance_cm")
    if distance is None:
        reach = weapon.range_cm or 0
        distance = reach * 0.75 if modifiers.get("long_range") else reach / 4
    shooter = shooter_spec(
        state, attacker, weapon, shots=shots, distance_cm=distance, modifiers=modifiers
    )
    defence = defender_spec(state, target, None, melee=False)
    if not state.setup.strict and modifiers.get("large_target"):
        defence = type(defence)(**{**defence.__dict__, "large": True})
    return resolve_shooting(shooter, defence, dice=dice).to_dict()


def _shots(
    state: BattleState, attacker: FighterState, payload: Mapping[str, Any], modifiers: Any
) -> int:
    shots = payload.get("attacks", 1)
    if isinstance(shots, bool) or not isinstance(shots, int) or not 1 <= shots <= MAX_SHOTS:
        raise TrackerError(
            _("A warrior shoots once, twice with quick shot."),
            code="entry.invalid",
            field="attacks",
        )
    if shots > 1 and (not state.has(attacker, v.QUICK_SHOT) or modifiers.get("moved")):
        raise TrackerError(
            _("Only a warrior with quick shot who did not move shoots twice."),
            code="entry.invalid",
            field="attacks",
        )
    return shots


def _legacy_options(spec: AttackerSpec, payload: Mapping[str, Any]) -> AttackerSpec:
    """A log without combats: the table ticked what the state did not know."""
    options = payload.get("options") or {}
    flags: dict[str, bool | str] = {
        key: bool(options[key]) for key in ("hatred", "frenzy", "fear_failed") if key in options
    }
    if "first_round" in options or "charging" in options:
        flags["first_round"] = bool(options.get("first_round") or options.get("charging"))
    if options.get("offhand"):
        flags["offhand"] = str(options["offhand"])
    return type(spec)(**{**spec.__dict__, **flags})


def roll_entry(
    state: BattleState, kind: str, payload: Mapping[str, Any], *, dice: Dice
) -> dict[str, Any]:
    """The ``result`` of a rolled entry (its rolls included), after checking it fits."""
    roller = ROLLERS[kind]
    return cast(dict[str, Any], jsonable(roller(state, payload, dice=dice)))


ROLLERS = {
    "check": roll_check,
    "attack": roll_attack,
    "close-combat": roll_close_combat,
    "hits": roll_hits,
}
"""How each rolled kind of entry is rolled."""
