"""``attack`` entries: a warrior's shooting (Disparos) and, in close combat, only a single free
blow (a hidden enemy's, Cargas contra enemigos ocultos); a whole close-combat phase is a
``close-combat`` entry.

Who may shoot (Disparos › Quién puede disparar): the warband whose turn it is, once per shooting
phase, nobody engaged in close combat, who ran, failed a charge, rallied, failed his stupidity,
or is down. Nobody shoots at a warrior in close combat ("el riesgo de impactar a tus camaradas
es demasiado grande"). A large target's +1 comes from its rules, never from the table.

A log set up before the tracker knew the combats (version 1) keeps its single melee attacks,
as they were written.
"""

from __future__ import annotations

from collections.abc import Mapping
from typing import Any

from rules.engine.i18n import gettext_noop as _
from rules.engine.tracker.data import BattleData
from rules.engine.tracker.duels import require_may_fight
from rules.engine.tracker.errors import TrackerError
from rules.engine.tracker.model import (
    ATTACK_MODES,
    FLEEING,
    IN_PLAY,
    INJURY_OUTCOMES,
    KNOCKED_DOWN,
    STUNNED,
    FighterState,
    flag,
    whole_id,
)
from rules.engine.tracker.turns import worsen

NO_SHOOTING = {
    "shot": _("%(fighter)s has already shot this turn."),
    "charged": _("%(fighter)s charged this turn: he may not shoot."),
    "failed_charge": _("%(fighter)s failed a charge this turn: he may not shoot."),
    "rallied": _("%(fighter)s rallied this turn: he may not shoot."),
    "stupid": _("%(fighter)s failed his stupidity test: he does not shoot this turn."),
}
SHOOTING_MODIFIERS = ("cover", "long_range", "moved", "large_target")
STRICT_MODIFIERS = ("cover", "long_range", "moved")


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


def apply_attack(state: BattleData, seq: int, payload: Mapping[str, Any]) -> None:
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
    require_may_fight(state, attacker, target, "attacker")
    weapon = _weapon(attacker, payload)
    if state.setup.strict:
        (_may_shoot if mode == "shooting" else _free_blow)(state, attacker, target, payload)
    if state.preview:
        return
    outcome, lost = _attack_result(payload)
    state.touch()
    if mode == "melee" and not state.setup.strict:
        state.side_turn.engage(attacker.id, target.id)
    if mode == "shooting":
        state.side_turn.shot.add(attacker.id)
    target.wounds = max(0, target.wounds - lost)
    worsen(state, seq, target, outcome, attacker, weapon)


def _may_shoot(
    state: BattleData, attacker: FighterState, target: FighterState, payload: Mapping[str, Any]
) -> None:
    if state.side_turn.fought:
        raise TrackerError(
            _("The shooting phase comes before the close-combat phase (El turno)."),
            code="entry.turn_sequence",
            field="mode",
        )
    for name, template in NO_SHOOTING.items():
        if attacker.id in getattr(state.side_turn, name):
            raise TrackerError(
                template, code="entry.cannot_shoot", field="attacker", fighter=attacker.name
            )
    if state.engaged(attacker.id):
        raise TrackerError(
            _("%(fighter)s is in close combat: warriors engaged in combat do not shoot."),
            code="entry.cannot_shoot",
            field="attacker",
            fighter=attacker.name,
        )
    if state.engaged(target.id):
        raise TrackerError(
            _(
                "%(fighter)s is in close combat: nobody shoots at a warrior in close combat "
                "(the risk of hitting a comrade is too great)."
            ),
            code="entry.cannot_shoot",
            field="target",
            fighter=target.name,
        )
    modifiers = payload.get("modifiers") or {}
    if not isinstance(modifiers, Mapping) or set(modifiers) - set(STRICT_MODIFIERS):
        raise TrackerError(
            _(
                "The shooting modifiers are %(choices)s; a large target's +1 comes from the "
                "target's rules."
            ),
            code="entry.invalid",
            field="modifiers",
            choices=", ".join(STRICT_MODIFIERS),
        )


def _free_blow(
    state: BattleData, attacker: FighterState, target: FighterState, payload: Mapping[str, Any]
) -> None:
    if not flag(payload, "free_attack"):
        raise TrackerError(
            _(
                "Close combat is logged a whole phase at a time: charge, then log the combat's "
                "close-combat phase. A single melee attack is only a free blow (free_attack)."
            ),
            code="entry.use_close_combat",
            field="mode",
        )
