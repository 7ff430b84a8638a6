"""Charges and combats: ``charge``, ``close-combat``, ``hits`` and ``disengage`` entries.

* ``charge`` (¡A la carga!): a warrior of the side to move charges one or more enemies. It opens
  a combat, or joins the one they are in. Before charging an enemy who causes fear he must have
  passed a fear test against him this turn; an enemy he charges who fears him must test
  (required). A fleeing enemy charged runs another 5D6 cm before any blow (required), and is not
  caught. ``failed``: a failed charge (out of reach) — he may not shoot this turn.
* ``close-combat``: one combat's whole close-combat phase, rolled through the engine
  (:func:`rules.engine.combat.resolve_fight`, whose docstring lists the rules of the phase).
  ``blows`` says how a warrior fighting several enemies splits his attacks (required then),
  ``loadouts`` the weapons he fights with when not his usual ones.
* ``hits`` (Huir de un combate): the automatic hits of the enemies a warrior fled from.
* ``disengage`` (Retirada de un combate): a warrior whose enemies in contact are all down leaves
  the fight; a knocked-down warrior crawls away from an enemy who fights someone else.
"""

from __future__ import annotations

from collections.abc import Mapping
from typing import Any

from rules.engine import vocabulary as v
from rules.engine.combat import Blow, Warrior
from rules.engine.i18n import gettext_noop as _
from rules.engine.tracker.data import DOWN, BattleData
from rules.engine.tracker.due import can_strike
from rules.engine.tracker.duels import fighting
from rules.engine.tracker.errors import TrackerError
from rules.engine.tracker.model import (
    FLEEING,
    FROM_ENGINE,
    IN_PLAY,
    KNOCKED_DOWN,
    OUT_OF_ACTION,
    STUNNED,
    Combat,
    FighterState,
    flag,
    id_list,
    whole_id,
)
from rules.engine.tracker.specs import (
    attacker_spec,
    chosen_hands,
    default_hands,
    defender_spec,
    hates,
)
from rules.engine.tracker.turns import worsen

MAX_BLOWS = 40
CANNOT_CHARGE = {
    "charged": _("%(fighter)s has already charged this turn."),
    "stood_up": _("%(fighter)s stood up this turn: he may not charge."),
    "rallied": _("%(fighter)s rallied this turn: he may do nothing else."),
    "stupid": _("%(fighter)s failed his stupidity test: he does not charge."),
    "failed_charge": _("%(fighter)s already failed a charge this turn."),
}


# --- charge ------------------------------------------------------------------------------------
def apply_charge(state: BattleData, seq: int, payload: Mapping[str, Any]) -> None:
    state.require_started_turn()
    charger = state.fighter(whole_id(payload, "charger"), "charger")
    targets = [state.fighter(t, "targets") for t in id_list(payload, "targets")]
    for target in targets:
        _may_be_charged(state, charger, target)
    _may_charge(state, charger)
    failed, diving = flag(payload, "failed"), flag(payload, "diving")
    if state.preview:
        return
    state.touch()
    turn = state.side_turn
    if failed:
        turn.failed_charge.add(charger.id)
        return
    if state.engaged(charger.id):
        state.leave_combat(charger.id)  # his enemies there are all down: he may leave them
    turn.charged.add(charger.id)
    if diving:
        turn.diving.add(charger.id)
    fleeing = [t.id for t in targets if t.status == FLEEING]
    turn.must_flee.update(fleeing)
    reached = [t for t in targets if t.status != FLEEING]
    if not reached:
        return
    state.engage(charger.id, [t.id for t in reached])
    turn.was_charged.update(t.id for t in reached)
    for target in reached:
        if state.causes_fear(charger) and state.fear_immune(target) is None:
            turn.fear_due.setdefault(target.id, set()).add(charger.id)
    if state.has(charger, v.UNSTOPPABLE_CHARGE):
        turn.spear_blocked.update(t.id for t in reached)


def _may_charge(state: BattleData, charger: FighterState) -> None:
    if charger.side != state.side:
        raise TrackerError(
            _("Only the warband whose turn it is charges."),
            code="entry.not_your_turn",
            field="charger",
        )
    if state.setup.strict and (state.side_turn.fought or state.side_turn.shot):
        raise TrackerError(
            _(
                "Charges are declared at the start of the movement phase, before any shooting "
                "or close combat of the turn (El turno › Movimiento)."
            ),
            code="entry.turn_sequence",
            field="charger",
        )
    state.require_able(charger, "charger", allowed=(IN_PLAY,))
    turn = state.side_turn
    for name, template in CANNOT_CHARGE.items():
        if charger.id in getattr(turn, name):
            raise TrackerError(
                template, code="entry.cannot_charge", field="charger", fighter=charger.name
            )
    standing = [e for e in state.contacts(charger.id) if state.fighters[e].status not in DOWN]
    if standing:
        raise TrackerError(
            _(
                "%(fighter)s is fighting %(enemy)s: a warrior in close combat cannot leave it "
                "(Retirada de un combate)."
            ),
            code="entry.engaged",
            field="charger",
            fighter=charger.name,
            enemy=state.fighters[standing[0]].name,
        )


def _may_be_charged(state: BattleData, charger: FighterState, target: FighterState) -> None:
    if target.side == charger.side:
        raise TrackerError(
            _("A warrior does not fight his own side."), code="entry.same_side", field="targets"
        )
    state.require_able(target, "targets", allowed=(IN_PLAY, KNOCKED_DOWN, STUNNED, FLEEING))
    if not state.causes_fear(target) or state.fear_immune(charger) is not None:
        return
    outcome = state.side_turn.fear.get(charger.id, {}).get(target.id)
    if outcome is None:
        raise TrackerError(
            _(
                "%(enemy)s causes fear: %(fighter)s must pass a fear test before charging him "
                "(Miedo)."
            ),
            code="entry.fear_test_first",
            field="targets",
            enemy=target.name,
            fighter=charger.name,
        )
    if outcome == "cannot_charge":
        raise TrackerError(
            _("%(fighter)s failed his fear test against %(enemy)s: he cannot charge him."),
            code="entry.fear_failed",
            field="targets",
            enemy=target.name,
            fighter=charger.name,
        )


# --- close combat ------------------------------------------------------------------------------
def combat_for(state: BattleData, payload: Mapping[str, Any]) -> Combat:
    """The combat an entry names (``combat``, or one of its ``fighter``s)."""
    if payload.get("combat") is not None:
        return state.combat(payload["combat"])
    fighter = state.fighter(whole_id(payload, "fighter"), "fighter")
    combat = state.combat_of(fighter.id)
    if combat is None:
        raise TrackerError(
            _("%(fighter)s is in no combat."),
            code="entry.unknown_combat",
            field="fighter",
            fighter=fighter.name,
        )
    return combat


def _rows(payload: Mapping[str, Any], name: str) -> list[Mapping[str, Any]]:
    rows = payload.get(name) or []
    if not isinstance(rows, list) or len(rows) > MAX_BLOWS:
        raise TrackerError(
            _("%(name)s is a list of objects."), code="entry.invalid", field=name, name=name
        )
    for index, row in enumerate(rows):
        if not isinstance(row, Mapping):
            raise TrackerError(
                _("%(name)s is a list of objects."),
                code="entry.invalid",
                field=f"{name}.{index}",
                name=name,
            )
    return rows


def fight_warriors(state: BattleData, combat: Combat, payload: Mapping[str, Any]) -> list[Warrior]:
    """Every warrior of ``combat`` as the engine takes him for this phase (see the module's
    docstring); raises :class:`TrackerError` naming what the table must say."""
    loadouts = {}
    for row in _rows(payload, "loadouts"):
        fighter = state.fighter(row.get("fighter"), "loadouts")
        if fighter.id not in combat.members:
            raise _not_in_combat(fighter, "loadouts")
        loadouts[fighter.id] = row
    declared: dict[int, list[Mapping[str, Any]]] = {}
    for row in _rows(payload, "blows"):
        attacker = state.fighter(row.get("attacker"), "blows")
        if attacker.id not in combat.members:
            raise _not_in_combat(attacker, "blows")
        declared.setdefault(attacker.id, []).append(row)
    warriors = []
    for fighter_id in sorted(combat.members):
        fighter = state.fighters[fighter_id]
        hands = (
            chosen_hands(state, fighter, loadouts[fighter_id])
            if fighter_id in loadouts
            else default_hands(state, fighter)
        )
        warriors.append(_warrior(state, combat, fighter, hands, declared.get(fighter_id, [])))
    return warriors


def _not_in_combat(fighter: FighterState, field: str) -> TrackerError:
    return TrackerError(
        _("%(fighter)s is not in this combat."),
        code="entry.invalid",
        field=field,
        fighter=fighter.name,
    )


def _contacts(state: BattleData, combat: Combat, fighter: FighterState) -> list[int]:
    """The enemies he may fight: his duel opponent only, in a challenge; else those in base
    contact not in a challenge with someone else."""
    duel = fighting(state, fighter.id)
    if duel is not None:
        opponent = duel.opponent(fighter.id)
        return [] if opponent is None else [opponent]
    return [e for e in combat.contacts(fighter.id) if fighting(state, e) is None]


def _warrior(
    state: BattleData,
    combat: Combat,
    fighter: FighterState,
    hands: Any,
    rows: list[Mapping[str, Any]],
) -> Warrior:
    turn = state.side_turn
    contacts = _contacts(state, combat, fighter)
    standing = [e for e in contacts if state.fighters[e].status == IN_PLAY]
    attackable = standing or [e for e in contacts if state.fighters[e].status in DOWN]
    why = can_strike(state, fighter) or ("" if attackable else "no_enemy")
    first_round = combat.first_round(fighter.id)
    common: dict[str, Any] = {
        "id": fighter.id,
        "side": fighter.side,
        "name": fighter.name,
        "initiative": int(state.setups[fighter.id].profile.get("i", 3)),
        "defence": defender_spec(state, fighter, hands, melee=True),
        "contacts": tuple(contacts),
        "charged": fighter.id in turn.charged
        or (fighter.id in turn.was_charged and state.has(fighter, v.LIGHTNING_REFLEXES)),
        "stood_up": fighter.id in turn.stood_up,
        "first_round": first_round,
        "strongman": state.has(fighter, v.STRONGMAN),
        "spear_blocked": fighter.id in turn.spear_blocked,
    }
    if why:
        if rows:
            raise TrackerError(
                _("%(fighter)s does not strike this phase (%(why)s)."),
                code="entry.cannot_attack",
                field="blows",
                fighter=fighter.name,
                why=why,
            )
        return Warrior(**common, idle=why)
    attack = attacker_spec(state, fighter, hands, first_round=first_round, enemies=len(attackable))
    blows = _blows(state, fighter, attackable, attack.total_attacks, bool(attack.offhand), rows)
    return Warrior(**common, attack=attack, blows=blows)


def _blows(
    state: BattleData,
    fighter: FighterState,
    attackable: list[int],
    total: int,
    offhand: bool,
    rows: list[Mapping[str, Any]],
) -> tuple[Blow, ...]:
    """His attacks split between the enemies he may attack: all on the one when he fights one,
    as the table declares when he fights several (before any die is rolled)."""
    targeted = bool(v.targeted(state.rules[fighter.id], v.HATRED))
    if not rows:
        if len(attackable) > 1:
            raise TrackerError(
                _(
                    "%(fighter)s fights %(enemies)s: say how he splits his %(total)d attacks "
                    "(blows)."
                ),
                code="entry.blows_needed",
                field="blows",
                fighter=fighter.name,
                enemies=", ".join(state.fighters[e].name for e in attackable),
                total=total,
            )
        rows = [{"target": attackable[0]}]
    blows, left = [], total
    for index, row in enumerate(rows):
        target = row.get("target")
        if target not in attackable:
            raise TrackerError(
                _("%(fighter)s may not attack %(enemy)s now."),
                code="entry.cannot_attack",
                field=f"blows.{index}.target",
                fighter=fighter.name,
                enemy=state.fighters[target].name if target in state.fighters else target,
            )
        count = row.get("attacks", left if index == len(rows) - 1 else None)
        if isinstance(count, bool) or not isinstance(count, int) or not 1 <= count <= left:
            raise TrackerError(
                _("%(fighter)s has %(total)d attacks to split."),
                code="entry.invalid",
                field=f"blows.{index}.attacks",
                fighter=fighter.name,
                total=total,
            )
        ticked = row.get("hated", False)
        if ticked and not targeted:
            raise TrackerError(
                _("%(fighter)s hates nobody in particular."),
                code="entry.invalid",
                field=f"blows.{index}.hated",
                fighter=fighter.name,
            )
        hatred = hates(state, fighter, state.fighters[target], bool(ticked))
        blows.append(Blow(target, count, bool(row.get("offhand")), hatred))
        left -= count
    if left:
        raise TrackerError(
            _("%(fighter)s has %(total)d attacks to split."),
            code="entry.invalid",
            field="blows",
            fighter=fighter.name,
            total=total,
        )
    if offhand and not any(b.offhand for b in blows):
        last = blows[-1]
        blows[-1] = Blow(last.target, last.attacks, True, last.hatred)
    return tuple(blows)


def apply_close_combat(state: BattleData, seq: int, payload: Mapping[str, Any]) -> None:
    state.require_started_turn()
    combat = combat_for(state, payload)
    if combat.id in state.side_turn.fought:
        raise TrackerError(
            _("This combat has fought its close-combat phase this turn."),
            code="entry.already_fought",
            field="combat",
        )
    members = set(combat.members)
    if any(d.status == "issued" and d.challenger in members for d in state.duels):
        raise TrackerError(
            _("A challenge in this combat awaits its answer before any blow."),
            code="entry.checks_pending",
            field="combat",
        )
    warriors = fight_warriors(state, combat, payload)
    if state.preview:
        return
    result = payload.get("result")
    if not isinstance(result, Mapping) or not isinstance(result.get("fighters"), Mapping):
        raise TrackerError(
            _("A close-combat phase needs its result (the blows rolled)."),
            code="entry.invalid",
            field="result",
        )
    state.touch()
    _apply_fight(state, seq, result, {w.id: w for w in warriors})
    for part in state.combats:
        if part.members & members:
            state.side_turn.fought.add(part.id)
            for fighter_id in part.members & members:
                part.rounds[fighter_id] = part.rounds.get(fighter_id, 0) + 1


def _apply_fight(
    state: BattleData, seq: int, result: Mapping[str, Any], warriors: dict[int, Warrior]
) -> None:
    """Each warrior as the phase left him; who took whom out of action, with what."""
    takers: dict[int, int] = {}
    for blow in result.get("blows", ()):
        if blow["result"]["outcome"] == OUT_OF_ACTION:
            takers[blow["target"]] = blow["attacker"]
    for key, after in result["fighters"].items():
        fighter = state.fighters[int(key)]
        fighter.wounds = after["wounds"]
        fighter.spent.update(after.get("spent", ()))
        status = FROM_ENGINE.get(after["status"], after["status"])
        taker = takers.get(fighter.id)
        actor = None
        weapon = ""
        if taker is not None:
            actor = state.fighters[taker]
            attack = warriors[taker].attack
            if attack is not None:
                weapon = attack.weapon or ""
        worsen(state, seq, fighter, status, actor, weapon)


# --- automatic hits and leaving a combat -------------------------------------------------------
def apply_hits(state: BattleData, seq: int, payload: Mapping[str, Any]) -> None:
    state.require_open()
    state.require_started()
    target = state.fighter(whole_id(payload, "target"), "target")
    if target.id not in state.pending_hits:
        raise TrackerError(
            _("No automatic hits are due on %(fighter)s."),
            code="entry.not_due",
            field="target",
            fighter=target.name,
        )
    if state.preview:
        return
    result = payload.get("result")
    if not isinstance(result, Mapping) or "outcome" not in result:
        raise TrackerError(
            _("Automatic hits need their result (the dice rolled)."),
            code="entry.invalid",
            field="result",
        )
    enemies = state.pending_hits.pop(target.id)
    state.touch()
    target.wounds = max(0, target.wounds - int(result.get("wounds_lost", 0)))
    actor = state.fighters[enemies[0]]
    worsen(state, seq, target, result["outcome"], actor, "")


def apply_disengage(state: BattleData, seq: int, payload: Mapping[str, Any]) -> None:
    state.require_started_turn()
    fighter = state.fighter(whole_id(payload, "fighter"), "fighter")
    combat = state.combat_of(fighter.id)
    if combat is None:
        raise TrackerError(
            _("%(fighter)s is in no combat."),
            code="entry.unknown_combat",
            field="fighter",
            fighter=fighter.name,
        )
    if fighter.side != state.side:
        raise TrackerError(
            _("%(fighter)s moves in his own turn."),
            code="entry.not_your_turn",
            field="fighter",
            fighter=fighter.name,
        )
    state.require_able(fighter, "fighter", allowed=(IN_PLAY, KNOCKED_DOWN))
    contacts = [state.fighters[e] for e in combat.contacts(fighter.id)]
    if fighter.status == IN_PLAY and any(e.status not in DOWN for e in contacts):
        raise TrackerError(
            _(
                "%(fighter)s cannot leave the combat: an enemy in contact still stands "
                "(Retirada de un combate)."
            ),
            code="entry.engaged",
            field="fighter",
            fighter=fighter.name,
        )
    if fighter.status == KNOCKED_DOWN and any(len(combat.contacts(e.id)) < 2 for e in contacts):
        raise TrackerError(
            _(
                "%(fighter)s cannot crawl away: his enemy fights nobody else (a knocked-down "
                "warrior crawls away only from an enemy fighting another opponent)."
            ),
            code="entry.engaged",
            field="fighter",
            fighter=fighter.name,
        )
    if state.preview:
        return
    state.touch()
    state.leave_combat(fighter.id)
