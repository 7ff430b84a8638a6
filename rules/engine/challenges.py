"""Desafíos (challenges between heroes), an optional campaign rule taken from
Personajes y combate › Desafíos.

* Issuing: at the start of each close combat, before any blow, one challenge per combat while
  none is in progress. The active player decides first; if he issues none, his opponent may.
  Only a hero (a character) in base contact with an enemy of that combat may issue or accept.
* Refusing ("¡Buuu! ¡Cobardica!"): the challenger's player picks which eligible hero refused.
  He may not fight this turn, and his side may not use his Leadership this turn. A hero with no
  room to step back (no friends to hide behind, a full line) cannot refuse.
* While the challenge lasts, nobody else may attack the two duellists.
* Acobardamiento: wounds caused beyond those the loser had left still count for combat
  resolution, up to +5.
* Killing blows: the first unsaved killing blow removes every wound the target has left; every
  other unsaved wound (even another natural 6) counts as an excess wound.
"""

from __future__ import annotations

from collections.abc import Sequence
from typing import Any

from rules.engine.checks import CheckResult
from rules.engine.errors import SpecError
from rules.engine.explain import Explainer
from rules.engine.i18n import gettext_noop as _

MAX_OVERKILL = 5


def _flag(name: str, value: Any) -> bool:
    if not isinstance(value, bool):
        raise SpecError(_("%(field)s must be true or false."), field=name)
    return value


def challenge_allowed(
    *,
    rule_enabled: bool,
    is_hero: bool,
    in_base_contact: bool,
    challenge_in_progress: bool = False,
    active_player: bool = True,
    active_player_declined: bool = False,
) -> CheckResult:
    """May this warrior issue (or accept) a challenge now?"""
    for name, value in (
        ("rule_enabled", rule_enabled),
        ("is_hero", is_hero),
        ("in_base_contact", in_base_contact),
        ("challenge_in_progress", challenge_in_progress),
        ("active_player", active_player),
        ("active_player_declined", active_player_declined),
    ):
        _flag(name, value)
    ex = Explainer()
    reasons = []
    if not rule_enabled:
        reasons.append("rule_disabled")
    if not is_hero:
        reasons.append("not_a_hero")
    if not in_base_contact:
        reasons.append("not_in_base_contact")
    if challenge_in_progress:
        reasons.append("challenge_in_progress")
    if not active_player and not active_player_declined:
        reasons.append("active_player_first")
    if reasons:
        ex.add(
            "challenge.not_allowed",
            _("No challenge: %(reasons)s."),
            reasons=", ".join(reasons),
        )
        return CheckResult("challenge", False, "not_allowed", {"reasons": reasons}, tuple(ex.steps))
    ex.add("challenge.allowed", _("He may issue or accept a challenge."))
    return CheckResult("challenge", True, "allowed", {}, tuple(ex.steps))


def refuse_challenge(*, can_step_back: bool = True) -> CheckResult:
    """The effects of refusing: the refuser does not fight this turn and his side may not use his
    Leadership this turn (pass ``leader_refused_challenge=True`` to the leadership checks)."""
    _flag("can_step_back", can_step_back)
    ex = Explainer()
    if not can_step_back:
        ex.add("challenge.cannot_refuse", _("He has no room to step back: he cannot refuse."))
        return CheckResult("challenge-refusal", False, "must_accept", {}, tuple(ex.steps))
    ex.add(
        "challenge.refused",
        _("Challenge refused: he may not fight this turn and nobody may use his Leadership."),
    )
    effects = {"may_fight": False, "leadership_usable": False, "lasts": "this_turn"}
    return CheckResult("challenge-refusal", True, "refused", effects, tuple(ex.steps))


def _count(name: str, value: Any) -> int:
    if isinstance(value, bool) or not isinstance(value, int) or value < 0:
        raise SpecError(_("%(field)s must be a whole number from 0."), field=name)
    return value


def challenge_overkill(*, wounds_caused: int, wounds_remaining: int) -> CheckResult:
    """Acobardamiento: wounds beyond those the duellist had left add up to +5 to the combat
    resolution."""
    caused = _count("wounds_caused", wounds_caused)
    remaining = _count("wounds_remaining", wounds_remaining)
    inflicted = min(caused, remaining)
    bonus = min(MAX_OVERKILL, caused - inflicted)
    ex = Explainer()
    ex.add(
        "challenge.overkill",
        _("%(caused)d wounds against %(remaining)d left: %(inflicted)d inflicted, +%(bonus)d."),
        caused=caused,
        remaining=remaining,
        inflicted=inflicted,
        bonus=bonus,
    )
    return CheckResult(
        "challenge-overkill",
        None,
        "resolved",
        {"inflicted": inflicted, "excess": caused - inflicted, "combat_resolution_bonus": bonus},
        tuple(ex.steps),
    )


def killing_blow_wounds(*, unsaved: Sequence[bool], wounds_remaining: int) -> CheckResult:
    """Ordering of killing blows in a challenge: ``unsaved`` lists the unsaved wounds in order,
    ``True`` for a killing blow. The first killing blow takes every wound left; all the other
    unsaved wounds are excess wounds (for acobardamiento)."""
    remaining = _count("wounds_remaining", wounds_remaining)
    if not isinstance(unsaved, list | tuple) or not all(isinstance(u, bool) for u in unsaved):
        raise SpecError(_("unsaved must be a list of true/false."), field="unsaved")
    ex = Explainer()
    if any(unsaved):
        inflicted = remaining
        excess = len(unsaved) - 1
        ex.add(
            "challenge.killing_blow",
            _("A killing blow takes his %(remaining)d wounds; %(excess)d more are excess."),
            remaining=remaining,
            excess=excess,
        )
    else:
        inflicted = min(len(unsaved), remaining)
        excess = len(unsaved) - inflicted
        ex.add(
            "challenge.wounds",
            _("%(inflicted)d wounds inflicted, %(excess)d excess."),
            inflicted=inflicted,
            excess=excess,
        )
    return CheckResult(
        "challenge-killing-blow",
        None,
        "resolved",
        {
            "inflicted": inflicted,
            "excess": excess,
            "combat_resolution_bonus": min(MAX_OVERKILL, excess),
        },
        tuple(ex.steps),
    )
