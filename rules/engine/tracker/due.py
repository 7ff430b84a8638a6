"""What the rules call for now: the checks and entries due, the required ones first.

Required (the next turn waits for them): the rout test at the start of a side's turn;
stupidity and rally for the warriors concerned; an answer to a challenge; the fear test of a
warrior charged by an enemy he fears; the 5D6 cm of a fleeing warrior who was charged; the
automatic hits on a warrior who fled a combat; and, in a log that knows the combats, each
combat's close-combat phase. Offered (the table confirms what it alone sees — distances,
friends nearby): a voluntary rout, all alone, fear for whoever wants to charge an enemy who
causes it, and, in a log without combats, what its single attacks suggest.
"""

from __future__ import annotations

from typing import Any

from rules.engine import vocabulary as v
from rules.engine.tracker.data import BattleData
from rules.engine.tracker.model import FLEEING, IN_PLAY, KNOCKED_DOWN, OUT_OF_ACTION, FighterState

FRIENDS_WHO_COUNT = (IN_PLAY, KNOCKED_DOWN)
"""Friends who keep a warrior from being all alone (stunned, fleeing or out: they do not)."""


def checks_due(state: BattleData) -> list[dict[str, Any]]:
    """The checks the rules call for now (see the module's docstring)."""
    if state.ended or state.side is None:
        return []
    side = state.side
    due: list[dict[str, Any]] = []
    rout_due = state.rout_test_due(side)
    if rout_due:
        due.append({"check": "rout", "side": side, "required": True})
    due += start_of_turn(state, side)
    due += [
        {
            "check": "challenge",
            "side": duel.side,
            "fighter": duel.challenger,
            "issued": duel.seq,
            "required": True,
        }
        for duel in state.duels
        if duel.status == "issued"
    ]
    due += fear_when_charged(state)
    due += [
        {"check": "charged-while-fleeing", "side": f.side, "fighter": f.id, "required": True}
        for f in state.fighters.values()
        if f.id in state.side_turn.must_flee
        and ("charged-while-fleeing", f.id) not in state.side_turn.tested
    ]
    due += [
        {
            "check": "hits",
            "side": state.fighters[target].side,
            "fighter": target,
            "enemies": list(enemies),
            "required": True,
        }
        for target, enemies in sorted(state.pending_hits.items())
    ]
    due += combats_due(state)
    if not state.side_turn.acted and state.out_of_action_count(side) >= 2:
        due.append({"check": "voluntary-rout", "side": side, "required": False})
    return due if rout_due else due + prompted(state)


def required(state: BattleData) -> list[dict[str, Any]]:
    return [check for check in checks_due(state) if check["required"]]


def start_of_turn(state: BattleData, side: int | None) -> list[dict[str, Any]]:
    """Stupidity for the warriors with the rule, rally for those fleeing as the turn began."""
    due = []
    tested = state.side_turn.tested
    for fighter in state.side_fighters(side):
        if (
            state.has(fighter, v.STUPIDITY)
            and fighter.status in (IN_PLAY, KNOCKED_DOWN)
            and ("stupidity", fighter.id) not in tested
        ):
            due.append(
                {"check": "stupidity", "side": side, "fighter": fighter.id, "required": True}
            )
        if (
            fighter.status == FLEEING
            and fighter.id in state.side_turn.fleeing_at_start
            and ("rally", fighter.id) not in tested
        ):
            due.append({"check": "rally", "side": side, "fighter": fighter.id, "required": True})
    return due


def fear_when_charged(state: BattleData) -> list[dict[str, Any]]:
    """Miedo (a): charged by an enemy he fears, a warrior tests when the charge is declared."""
    by_charger: dict[int, list[int]] = {}
    for fighter_id, chargers in sorted(state.side_turn.fear_due.items()):
        for charger in sorted(chargers):
            if ("fear", fighter_id, charger) not in state.side_turn.tested:
                by_charger.setdefault(charger, []).append(fighter_id)
    return [
        {
            "check": "fear",
            "side": state.fighters[ids[0]].side,
            "against": charger,
            "fighters": ids,
            "situation": "charged",
            "required": True,
        }
        for charger, ids in by_charger.items()
    ]


def can_strike(state: BattleData, fighter: FighterState) -> str:
    """Why he does not strike this close-combat phase, or ``""``."""
    turn = state.side_turn
    if fighter.status != IN_PLAY:
        return fighter.status
    if fighter.id in turn.stupid:
        return "stupidity"
    if fighter.id in turn.refused:
        return "refused_challenge"
    if fighter.id in turn.rallied:
        return "rallied"
    return ""


def combats_due(state: BattleData) -> list[dict[str, Any]]:
    """Each combat whose close-combat phase is not logged yet this turn, if anyone in it can
    strike (both sides fight, whoever's turn it is)."""
    due = []
    for combat in state.combats:
        if combat.id in state.side_turn.fought:
            continue
        fighters = sorted(combat.members)
        if any(not can_strike(state, state.fighters[f]) for f in fighters):
            due.append(
                {
                    "check": "close-combat",
                    "side": state.side,
                    "combat": combat.id,
                    "fighters": fighters,
                    "required": True,
                }
            )
    return due


def prompted(state: BattleData) -> list[dict[str, Any]]:
    """The checks the log shows may be due, which the table confirms (distances, charges it
    cannot see): a fleeing warrior of a side not moving may be charged (a log without
    charges); a warrior fighting two or more enemies may be all alone (no friend within 15 cm);
    an enemy in play who causes fear asks a fear test of whoever wants to charge him (or, in a
    log without charges, of whoever he charges). Not required: a turn may end without them."""
    tested = state.side_turn.tested
    due: list[dict[str, Any]] = []
    if not state.setup.strict:
        due += [
            {
                "check": "charged-while-fleeing",
                "side": fighter.side,
                "fighter": fighter.id,
                "required": False,
            }
            for fighter in state.fighters.values()
            if fighter.status == FLEEING
            and fighter.side != state.side
            and ("charged-while-fleeing", fighter.id) not in tested
        ]
    for fighter in state.fighters.values():
        enemies = all_alone_enemies(state, fighter)
        if (
            fighter.status == IN_PLAY
            and len(enemies) >= 2
            and ("all-alone", fighter.id) not in tested
            and not psychology_immune(state, fighter)
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
        if state.causes_fear(causer) and causer.status != OUT_OF_ACTION:
            due += _fear_prompts(state, causer)
    return due


def psychology_immune(state: BattleData, fighter: FighterState) -> str | None:
    """Immune to psychology (or frenzied, within charge range): no all-alone test."""
    if state.has(fighter, v.IMMUNE_PSYCHOLOGY):
        return v.IMMUNE_PSYCHOLOGY
    return v.FRENZY if state.frenzied(fighter) else None


def all_alone_enemies(state: BattleData, fighter: FighterState) -> list[int]:
    """The enemies he fights alone: in a combat, those in base contact with him still in the
    fight, unless a friend who counts fights beside him; in a log without combats, those the
    log shows him fighting hand to hand this turn."""
    combat = state.combat_of(fighter.id)
    if combat is not None:
        if combat.id not in state.side_turn.fought:
            return []
        friends = [
            f
            for f in combat.members
            if f != fighter.id
            and state.fighters[f].side == fighter.side
            and state.fighters[f].status in FRIENDS_WHO_COUNT
        ]
        return [] if friends else combat.contacts(fighter.id)
    return sorted(
        enemy
        for enemy in state.side_turn.melee.get(fighter.id, ())
        if state.fighters[enemy].status not in (OUT_OF_ACTION, FLEEING)
    )


def _fear_prompts(state: BattleData, causer: FighterState) -> list[dict[str, Any]]:
    """Miedo: whoever wants to charge ``causer`` (the side to move) tests first; in a log
    without charges, also whoever he may charge (when his side moves). One prompt per side."""
    if causer.side == state.side:
        if state.setup.strict:
            return []
        situation = "charged"
        testers = [
            f
            for f in state.fighters.values()
            if f.side != causer.side and f.status in (IN_PLAY, KNOCKED_DOWN)
        ]
    else:
        situation = "charging"
        turn = state.side_turn
        testers = [
            f
            for f in state.side_fighters(state.side)
            if f.status == IN_PLAY
            and f.id not in turn.charged
            and not (state.setup.strict and _held(state, f))
        ]
    by_side: dict[int, list[int]] = {}
    for tester in testers:
        if (
            state.fear_immune(tester) is None
            and ("fear", tester.id, causer.id) not in state.side_turn.tested
        ):
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


def _held(state: BattleData, fighter: FighterState) -> bool:
    """In base contact with an enemy still standing: he may not charge anyone."""
    return any(state.fighters[e].status == IN_PLAY for e in state.contacts(fighter.id))


DUE_KINDS = ("voluntary-rout", "challenge", "hits", "close-combat")
"""What :func:`checks_due` lists besides the battle's checks."""
