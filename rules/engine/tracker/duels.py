"""``challenge`` entries (Personajes y combate › Desafíos), where the campaign uses that
optional rule.

* ``{"step": "issue", "fighter": <hero>}`` — a hero in base contact issues a challenge at the
  start of a combat, before any blow of its close-combat phase; the active player decides first
  (``params.active_player_declined`` lets his opponent issue one), one challenge per hero at a
  time. In a log that knows the combats, the hero must be in a combat whose phase this turn is
  not logged yet, and the hero who accepts must be in the same combat.
* ``{"step": "accept", "fighter": <enemy hero>}`` — the duel is fought until one of the two is
  out of action (or flees): nobody else may attack either of them, and they fight each other only.
* ``{"step": "refuse", "fighter": <enemy hero>}`` — "¡Buuu! ¡Cobardica!": the challenger's player
  names the hero who refused; he may not fight this turn and nobody uses his Leadership this turn.
  A hero with no room to step back (``params.can_step_back: false``) cannot refuse.

``issued`` names the seq of the challenge answered (optional when only one awaits an answer). An
issued challenge must be answered before the next turn. :func:`resolve` returns the engine's
result for the step, the same one the fold uses, so the log stores it with the entry.
"""

from __future__ import annotations

from collections.abc import Mapping
from typing import Any

from rules.engine.challenges import challenge_allowed, challenge_overkill, refuse_challenge
from rules.engine.checks import CheckResult
from rules.engine.i18n import gettext_noop as _
from rules.engine.tracker.data import BattleData
from rules.engine.tracker.errors import TrackerError
from rules.engine.tracker.model import (
    CHALLENGE_STEPS,
    IN_PLAY,
    Duel,
    FighterState,
    entry_params,
    one_of,
    whole_id,
)

PARAMS = {
    "issue": ("in_base_contact", "active_player_declined"),
    "accept": ("in_base_contact",),
    "refuse": ("can_step_back",),
}


def fighting(state: BattleData, fighter_id: int) -> Duel | None:
    """The duel this warrior is fighting now, if any."""
    return next((d for d in state.duels if d.fighting and d.opponent(fighter_id) is not None), None)


def pending(state: BattleData) -> list[Duel]:
    return [d for d in state.duels if d.status == "issued"]


def require_may_fight(
    state: BattleData, actor: FighterState, target: FighterState, field: str
) -> None:
    """A hero who refused a challenge does not fight this turn; duellists fight each other only."""
    if actor.id in state.side_turn.refused:
        raise TrackerError(
            _("%(fighter)s refused a challenge: he may not fight this turn."),
            code="entry.refused_challenge",
            field=field,
            fighter=actor.name,
        )
    for fighter, other, name in ((target, actor, "target"), (actor, target, field)):
        duel = fighting(state, fighter.id)
        if duel is not None and duel.opponent(fighter.id) != other.id:
            raise TrackerError(
                _("%(fighter)s is fighting a challenge: only his opponent fights him."),
                code="entry.in_challenge",
                field=name,
                fighter=fighter.name,
            )


def end_for(state: BattleData, fighter_id: int) -> None:
    """A duel ends when one of the two is out of action or flees."""
    for duel in state.duels:
        if duel.fighting and duel.opponent(fighter_id) is not None:
            duel.status = "over"


def _answered(state: BattleData, payload: Mapping[str, Any], fighter: FighterState) -> Duel:
    waiting = [d for d in pending(state) if d.side != fighter.side]
    issued = payload.get("issued")
    if issued is not None:
        waiting = [d for d in waiting if d.seq == issued]
    if len(waiting) != 1:
        raise TrackerError(
            _("No challenge awaits an answer from %(fighter)s (name it with issued)."),
            code="entry.check_not_due",
            field="issued",
            fighter=fighter.name,
        )
    return waiting[0]


def _allowed(
    state: BattleData, fighter: FighterState, params: Mapping[str, Any], **kw: bool
) -> CheckResult:
    result = challenge_allowed(
        rule_enabled=True,
        is_hero=fighter.hero,
        in_base_contact=params.get("in_base_contact", True),
        challenge_in_progress=fighting(state, fighter.id) is not None
        or any(d.challenger == fighter.id for d in pending(state)),
        **kw,
    )
    if not result.passed:
        raise TrackerError(
            _("%(fighter)s may not take part in a challenge now: %(reasons)s."),
            code="entry.challenge_not_allowed",
            field="fighter",
            fighter=fighter.name,
            reasons=", ".join(result.details["reasons"]),
        )
    return result


def resolve(state: BattleData, payload: Mapping[str, Any]) -> CheckResult:
    """Check a ``challenge`` entry against the state; the engine's result for its step."""
    state.require_started_turn()
    if not state.setup.challenges:
        raise TrackerError(
            _("This campaign does not use challenges (Desafíos, an optional rule)."),
            code="entry.challenges_off",
            field="kind",
        )
    step = one_of(payload, "step", CHALLENGE_STEPS)
    params = entry_params(payload, PARAMS[step])
    fighter = state.fighter(whole_id(payload, "fighter"), "fighter")
    state.require_able(fighter, "fighter", allowed=(IN_PLAY,))
    if state.setup.strict:
        _in_a_combat(state, fighter, payload, step)
    if step == "issue":
        if fighter.id in state.side_turn.refused:
            raise TrackerError(
                _("%(fighter)s refused a challenge: he may not fight this turn."),
                code="entry.refused_challenge",
                field="fighter",
                fighter=fighter.name,
            )
        active = fighter.side == state.side
        declined = params.get("active_player_declined", False)
        return _allowed(
            state, fighter, params, active_player=active, active_player_declined=declined
        )
    _answered(state, payload, fighter)
    if step == "accept":
        return _allowed(state, fighter, params)
    if not fighter.hero:
        raise TrackerError(
            _("Only a hero refuses a challenge."), code="entry.invalid", field="fighter"
        )
    result = refuse_challenge(can_step_back=params.get("can_step_back", True))
    if not result.passed:
        raise TrackerError(
            _("%(fighter)s has no room to step back: he cannot refuse the challenge."),
            code="entry.must_accept",
            field="params.can_step_back",
            fighter=fighter.name,
        )
    return result


def _in_a_combat(
    state: BattleData, fighter: FighterState, payload: Mapping[str, Any], step: str
) -> None:
    """Desafíos: heroes in a combat, before its close-combat phase this turn; the one who
    answers is in the same combat."""
    combat = state.combat_of(fighter.id)
    if combat is None:
        raise TrackerError(
            _("%(fighter)s is in no combat: only a hero fighting may take part in a challenge."),
            code="entry.challenge_not_allowed",
            field="fighter",
            fighter=fighter.name,
        )
    if combat.id in state.side_turn.fought:
        raise TrackerError(
            _("Challenges are issued at the start of a combat, before any blow is struck."),
            code="entry.challenge_too_late",
            field="fighter",
        )
    if step != "issue":
        duel = _answered(state, payload, fighter)
        if state.combat_of(duel.challenger) is not combat:
            raise TrackerError(
                _("%(fighter)s is not in the challenger's combat."),
                code="entry.challenge_not_allowed",
                field="fighter",
                fighter=fighter.name,
            )


def apply_challenge(state: BattleData, seq: int, payload: Mapping[str, Any]) -> None:
    resolve(state, payload)
    fighter = state.fighters[payload["fighter"]]
    step = payload["step"]
    if step == "issue":
        state.duels.append(Duel(seq=seq, challenger=fighter.id, side=fighter.side))
        return
    duel = _answered(state, payload, fighter)
    duel.challenged = fighter.id
    duel.status = "accepted" if step == "accept" else "refused"
    if step == "refuse":
        state.side_turn.refused.add(fighter.id)
    state.touch()


def overkill(
    state: BattleData, payload: Mapping[str, Any], wounds_caused: int
) -> dict[str, Any] | None:
    """¡Acobardamiento!: in a duel, wounds beyond those left add up to +5 to the combat result.
    ``None`` when the attack is not between two duellists."""
    duel = fighting(state, payload["attacker"])
    if duel is None or duel.opponent(payload["attacker"]) != payload["target"]:
        return None
    target = state.fighters[payload["target"]]
    result = challenge_overkill(wounds_caused=wounds_caused, wounds_remaining=target.wounds)
    return result.to_dict()
