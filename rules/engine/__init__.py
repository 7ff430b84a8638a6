"""Annúminas rules engine: pure Python (standard library only, never Django).

Modules and public API:

* :mod:`~rules.engine.dice` — ``Dice(seed=None, faces=None)`` (``.roll(expr, purpose)``,
  ``.reroll(roll)``, ``.record``, ``.seed``, ``Dice.replay(rolls)``), ``Roll``,
  ``parse_expression``, ``DiceSpec``.
* :mod:`~rules.engine.i18n` — ``gettext_noop``: marks every message template.
* :mod:`~rules.engine.explain` — ``Step(code, message, params)``.
* :mod:`~rules.engine.errors` — ``RulesError`` (a ``ValueError``), ``DiceError``,
  ``ProfileError``, ``SpecError``.
* :mod:`~rules.engine.validation` — the field validators every spec and check shares.
* :mod:`~rules.engine.profile` — ``Profile(m, ws, bs, s, t, w, i, a, ld)``.
* :mod:`~rules.engine.tables` — default tables as data, ``tables_as_dict()``.
* :mod:`~rules.engine.equipment` — ``WEAPONS`` (weapons and armour by slug), ``Equipment``.
* :mod:`~rules.engine.checks` (package: leadership, psychology, movement, falls, pursuit,
  registry) — one function per check of the rules (and of flee and pursuit); ``CHECKS`` registry,
  ``run_check(kind, params, dice=...)``, ``check_parameters(kind)``, ``CheckResult``.
* :mod:`~rules.engine.combat` (package: specs, plans, resolve, strikes) — ``AttackerSpec``,
  ``DefenderSpec``, ``ShooterSpec``, ``RuleOptions``, ``resolve_attack``, ``resolve_phase``,
  ``resolve_shooting``, ``resolve_automatic_hits``, ``strike_order``, ``Combatant``,
  ``PhaseResult``, ``spec_from_dict``.
* :mod:`~rules.engine.odds` — ``melee_odds``, ``shooting_odds``, ``OddsResult`` (Fractions).
* :mod:`~rules.engine.simulate` — ``simulate_phase``, ``simulate_shooting``, ``simulate_duel``,
  ``Fighter``, ``SimulationResult``, ``DuelResult``.
* :mod:`~rules.engine.challenges` — optional "Desafíos" rule (Personajes y combate).
* :mod:`~rules.engine.postbattle` (package: injuries, experience, advances, finds) —
  ``serious_injury``, ``henchman_injury``, ``battle_experience``, ``underdog_bonus``,
  ``advances_earned``, ``hero_advance``, ``henchman_advance``, ``exploration``, ``sell_finds``,
  ``warband_rating``, ``TableResult``, ``injury_characteristic_change``, ``blindness_retires``.
"""

from rules.engine.challenges import (
    challenge_allowed,
    challenge_overkill,
    killing_blow_wounds,
    refuse_challenge,
)
from rules.engine.checks import (
    CHECKS,
    CheckResult,
    all_alone_test,
    attribute_check,
    charge,
    check_parameters,
    climb,
    detect_unseen_enemy,
    diving_charge,
    edge_fall,
    falling,
    falling_strength,
    fear_test,
    flee_and_pursuit,
    flee_from_combat,
    frenzy,
    hatred,
    jump_down,
    jump_gap,
    leadership_test,
    rally_test,
    rout_test,
    run,
    run_check,
    spot_hidden,
    stupidity_test,
    terrain_movement,
)
from rules.engine.combat import (
    DEFAULT_RULES,
    OUTCOMES,
    AttackerSpec,
    Combatant,
    DefenderSpec,
    PhaseResult,
    RuleOptions,
    ShooterSpec,
    StrikeOrderResult,
    resolve_attack,
    resolve_automatic_hits,
    resolve_phase,
    resolve_shooting,
    spec_from_dict,
    strike_order,
)
from rules.engine.dice import Dice, DiceSpec, Roll, parse_expression
from rules.engine.equipment import WEAPONS, Equipment
from rules.engine.errors import DiceError, ProfileError, RulesError, SpecError
from rules.engine.explain import Step
from rules.engine.i18n import gettext_noop
from rules.engine.odds import OddsResult, melee_odds, shooting_odds
from rules.engine.postbattle import (
    TableResult,
    advances_earned,
    battle_experience,
    blindness_retires,
    exploration,
    henchman_advance,
    henchman_injury,
    hero_advance,
    injury_characteristic_change,
    sell_finds,
    serious_injury,
    underdog_bonus,
    warband_rating,
)
from rules.engine.profile import Profile
from rules.engine.simulate import (
    DuelResult,
    Fighter,
    SimulationResult,
    simulate_duel,
    simulate_phase,
    simulate_shooting,
)
from rules.engine.tables import RACIAL_MAXIMUMS, tables_as_dict

__all__ = [
    "CHECKS",
    "DEFAULT_RULES",
    "OUTCOMES",
    "RACIAL_MAXIMUMS",
    "WEAPONS",
    "AttackerSpec",
    "CheckResult",
    "Combatant",
    "DefenderSpec",
    "Dice",
    "DiceError",
    "DiceSpec",
    "DuelResult",
    "Equipment",
    "Fighter",
    "OddsResult",
    "PhaseResult",
    "Profile",
    "ProfileError",
    "Roll",
    "RuleOptions",
    "RulesError",
    "ShooterSpec",
    "SimulationResult",
    "SpecError",
    "Step",
    "StrikeOrderResult",
    "TableResult",
    "advances_earned",
    "all_alone_test",
    "attribute_check",
    "battle_experience",
    "blindness_retires",
    "challenge_allowed",
    "challenge_overkill",
    "charge",
    "check_parameters",
    "climb",
    "detect_unseen_enemy",
    "diving_charge",
    "edge_fall",
    "exploration",
    "falling",
    "falling_strength",
    "fear_test",
    "flee_and_pursuit",
    "flee_from_combat",
    "frenzy",
    "gettext_noop",
    "hatred",
    "henchman_advance",
    "henchman_injury",
    "hero_advance",
    "injury_characteristic_change",
    "jump_down",
    "jump_gap",
    "killing_blow_wounds",
    "leadership_test",
    "melee_odds",
    "parse_expression",
    "rally_test",
    "refuse_challenge",
    "resolve_attack",
    "resolve_automatic_hits",
    "resolve_phase",
    "resolve_shooting",
    "rout_test",
    "run",
    "run_check",
    "sell_finds",
    "serious_injury",
    "shooting_odds",
    "simulate_duel",
    "simulate_phase",
    "simulate_shooting",
    "spec_from_dict",
    "spot_hidden",
    "strike_order",
    "stupidity_test",
    "tables_as_dict",
    "terrain_movement",
    "underdog_bonus",
    "warband_rating",
]
