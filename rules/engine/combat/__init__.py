"""Shooting and close combat (Disparos, Combate cuerpo a cuerpo): specs, rolls, explanations.

The same :class:`PhasePlan` drives the dice (:func:`resolve_phase`, :func:`resolve_shooting`)
and the exact odds (:mod:`rules.engine.odds`), so both follow one model of a phase:

1. Roll to hit for every attack (hatred re-rolls misses once in the first round; a failed fear
   test means only 6s hit in the first round). Knocked-down defenders and defenders with HA 0 are
   hit automatically. Modifiers apply after re-rolls; an unmodified 1 misses when
   ``RuleOptions.natural_one_misses`` (default on).
2. Parry (Parada): one attempt per phase, against the highest to-hit result (the *modified*
   result, following the FAQ's "result" convention; ties: the earliest attack). The parry D6
   must beat it, so a 6 is never parried; hits with Fuerza ≥ twice the parrier's base F cannot
   be parried (if the highest hit is such a hit, there is no parry). Sword + buckler re-rolls a
   failed parry once; two swords still parry once.
3. Roll to wound for each remaining hit, main-hand hits first. The first natural 6 (when a 6 was
   not needed) is a critical hit (one per warrior per close-combat phase; shooting has no such
   limit); its D6 picks vital (save, then 2 wounds), exposed (2 wounds, no save) or master strike
   (2 wounds, no save, +2 on their injury rolls).
4. Armour saves (a natural 1 always fails: the best possible save is 2+).
5. Each unsaved wound costs 1 H; the wound that takes H to 0 and every later one roll on the
   injury table; the highest result applies (then a helmet's 4+ turns stunned into knocked
   down). A knocked-down defender in close combat goes out of action on any unsaved wound; a
   stunned one is taken out of action by any attack.

All the attacks of one warrior in a phase are resolved together and only then is the worst
injury applied, so a warrior with several attacks cannot knock down or stun an enemy and then
take him out of action in the same phase (Reglas › Combate cuerpo a cuerpo); a second attacker
striking later in the phase passes the new ``status`` in his :class:`DefenderSpec` and does
(:mod:`.fight` resolves a whole combat that way).

Modules: :mod:`.specs` (specs, rule options, statuses, :func:`spec_from_dict`) · :mod:`.plans`
(:class:`PhasePlan` for melee, shooting and automatic hits) · :mod:`.resolve` (rolling a plan,
:class:`PhaseResult`) · :mod:`.strikes` (the strike order) · :mod:`.fight` (one combat's whole
close-combat phase: every warrior in strike order, :func:`resolve_fight`).
"""

from rules.engine.combat.fight import Blow, FightResult, Warrior, resolve_fight
from rules.engine.combat.plans import (
    PhasePlan,
    ToHit,
    WoundProfile,
    automatic_hits_plan,
    melee_plan,
    shooting_plan,
)
from rules.engine.combat.resolve import (
    PhaseResult,
    injury_result,
    resolve_attack,
    resolve_automatic_hits,
    resolve_phase,
    resolve_plan,
    resolve_shooting,
)
from rules.engine.combat.specs import (
    AUTOMATIC,
    DEFAULT_RULES,
    HAND_WEAPON,
    MAX_ATTACKS,
    OUTCOMES,
    PARRY_MODES,
    SEVERITY,
    SEVERITY_NAMES,
    STANDING,
    STATUSES,
    AttackerSpec,
    DefenderSpec,
    RuleOptions,
    ShooterSpec,
    spec_from_dict,
)
from rules.engine.combat.strikes import Combatant, StrikeOrderResult, strike_order

__all__ = [
    "AUTOMATIC",
    "DEFAULT_RULES",
    "HAND_WEAPON",
    "MAX_ATTACKS",
    "OUTCOMES",
    "PARRY_MODES",
    "SEVERITY",
    "SEVERITY_NAMES",
    "STANDING",
    "STATUSES",
    "AttackerSpec",
    "Blow",
    "Combatant",
    "DefenderSpec",
    "FightResult",
    "PhasePlan",
    "PhaseResult",
    "RuleOptions",
    "ShooterSpec",
    "StrikeOrderResult",
    "ToHit",
    "Warrior",
    "WoundProfile",
    "automatic_hits_plan",
    "injury_result",
    "melee_plan",
    "resolve_attack",
    "resolve_automatic_hits",
    "resolve_fight",
    "resolve_phase",
    "resolve_plan",
    "resolve_shooting",
    "shooting_plan",
    "spec_from_dict",
    "strike_order",
]
