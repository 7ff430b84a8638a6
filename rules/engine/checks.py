"""Checks and movement rules of seed 000 (and flee/pursuit of seed 002), one function per rule.

Every function takes keyword parameters (plain JSON-able values) and, when it rolls, a ``dice``;
it returns a :class:`CheckResult` that explains itself. :data:`CHECKS` maps the API's kind names
to these functions; :func:`run_check` validates a parameter dict and calls one.
"""

from __future__ import annotations

import inspect
import math
from collections.abc import Callable, Mapping, Sequence
from dataclasses import dataclass, field
from typing import Any

from rules.engine.combat import (
    DEFAULT_RULES,
    AttackerSpec,
    DefenderSpec,
    PhasePlan,
    PhaseResult,
    RuleOptions,
    ToHit,
    WoundProfile,
    resolve_automatic_hits,
    resolve_plan,
    spec_from_dict,
)
from rules.engine.dice import Dice
from rules.engine.errors import RulesError, SpecError
from rules.engine.explain import Explainer, Step, explained_dict, jsonable
from rules.engine.i18n import gettext_noop as _
from rules.engine.tables import OUT_OF_ACTION, STUNNED, to_wound_needed

LEADER_RANGE_CM = 15
ALL_ALONE_RANGE_CM = 15
RUN_BLOCK_RANGE_CM = 20
UNSEEN_CHARGE_RANGE_CM = 10
JUMP_STEP_CM = 5
MAX_JUMP_CM = 15
EDGE_RANGE_CM = 3
DIVING_CHARGE_REACH_CM = 5
FLEE_DICE = "5D6"
FAST_FLEE_DICE = "8D6"
FAST_MOVER_CM = 15

ATTRIBUTES = ("m", "ws", "bs", "s", "t", "w", "i", "a", "ld")
WARRIOR_STATUSES = ("standing", "knocked_down", "stunned", "out_of_action", "fleeing", "hidden")
TERRAINS = ("open", "difficult", "very_difficult")


@dataclass(frozen=True)
class CheckResult:
    """Result of a check: ``passed`` (``None`` when no roll decided it), a machine ``outcome``,
    JSON-able ``details``, the ``steps`` explaining it and the ``rolls`` it used."""

    kind: str
    passed: bool | None
    outcome: str
    details: dict[str, Any] = field(default_factory=dict, hash=False)
    steps: tuple[Step, ...] = ()
    rolls: tuple[Any, ...] = ()

    def to_dict(self) -> dict[str, Any]:
        return {
            "kind": self.kind,
            "passed": self.passed,
            "outcome": self.outcome,
            "details": jsonable(self.details),
            **explained_dict(self.steps, self.rolls),
        }


def _result(
    kind: str, ex: Explainer, passed: bool | None, outcome: str, **details: Any
) -> CheckResult:
    return CheckResult(kind, passed, outcome, details, tuple(ex.steps), ex.rolls())


def _whole(name: str, value: Any, low: int = 0, high: int = 10) -> int:
    if isinstance(value, bool) or not isinstance(value, int) or not low <= value <= high:
        raise SpecError(
            _("%(field)s must be a whole number from %(low)d to %(high)d, not %(value)r."),
            field=name,
            low=low,
            high=high,
            value=value,
        )
    return value


MAX_DISTANCE_CM = 10_000  # a table is a couple of metres; anything past this is a typo


def _distance(name: str, value: Any) -> float:
    if (
        isinstance(value, bool)
        or not isinstance(value, int | float)
        or not 0 <= value <= MAX_DISTANCE_CM
    ):
        raise SpecError(
            _("%(field)s must be a distance in cm, from 0 to %(max)d."),
            field=name,
            max=MAX_DISTANCE_CM,
        )
    return value


def _status(name: str, value: Any) -> str:
    if value not in WARRIOR_STATUSES:
        raise SpecError(
            _("%(field)s must be one of %(choices)s."),
            field=name,
            choices=", ".join(WARRIOR_STATUSES),
        )
    return value


def _models(name: str, value: Any) -> list[Mapping[str, Any]]:
    if not isinstance(value, list | tuple):
        raise SpecError(_("%(field)s must be a list."), field=name)
    for item in value:
        if not isinstance(item, Mapping):
            raise SpecError(_("Each entry of %(field)s must be an object."), field=name)
        _status(name, item.get("status", "standing"))
        if "distance_cm" in item:
            _distance(name, item["distance_cm"])
    return list(value)


def _number(value: float) -> float | int:
    return int(value) if float(value).is_integer() else value


# Shared rolls ------------------------------------------------------------------------------------


def _attribute_roll(ex: Explainer, dice: Dice, value: int, attribute: str, purpose: str) -> bool:
    roll = dice.roll("D6", purpose or f"{attribute} test")
    passed = value > 0 and roll.total != 6 and roll.total <= value
    if roll.total == 6:
        ex.add("attribute_check.six", _("Rolled a 6: the test always fails."), attribute=attribute)
    elif value == 0:
        ex.add(
            "attribute_check.zero",
            _("%(attribute)s 0: the test always fails."),
            attribute=attribute.upper(),
        )
    else:
        ex.add(
            "attribute_check.rolled",
            _("%(attribute)s test: rolled %(face)d against %(value)d: passed.")
            if passed
            else _("%(attribute)s test: rolled %(face)d against %(value)d: failed."),
            attribute=attribute.upper(),
            face=roll.total,
            value=value,
            passed=passed,
        )
    return passed


def _leadership_roll(ex: Explainer, dice: Dice, leadership: int, purpose: str) -> bool:
    roll = dice.roll("2D6", purpose)
    passed = roll.total <= leadership
    ex.add(
        "leadership_test.rolled",
        _("2D6 = %(total)d against L%(leadership)d: passed.")
        if passed
        else _("2D6 = %(total)d against L%(leadership)d: failed."),
        total=roll.total,
        leadership=leadership,
        passed=passed,
    )
    return passed


def effective_leadership(
    ex: Explainer,
    *,
    leadership: int,
    leader_leadership: int | None,
    leader_distance_cm: float | None,
    leader_status: str,
    leader_refused_challenge: bool = False,
) -> int:
    """Jefes: within 15 cm of his leader a warrior may use the leader's L, unless the leader is
    stunned, out of action or fleeing (or refused a challenge this turn, seed 004)."""
    _whole("leadership", leadership)
    if leader_leadership is None:
        return leadership
    _whole("leader_leadership", leader_leadership)
    _status("leader_status", leader_status)
    if leader_distance_cm is None:
        raise SpecError(_("Give the leader's distance in cm."), field="leader_distance_cm")
    _distance("leader_distance_cm", leader_distance_cm)
    if leader_status in ("stunned", "out_of_action", "fleeing"):
        ex.add(
            "leadership.leader_unavailable",
            _("The leader is %(status)s and cannot lend his Leadership."),
            status=leader_status,
        )
        return leadership
    if leader_refused_challenge:
        ex.add(
            "leadership.leader_refused_challenge",
            _("The leader refused a challenge: nobody may use his Leadership this turn."),
        )
        return leadership
    if leader_distance_cm > LEADER_RANGE_CM:
        ex.add(
            "leadership.leader_too_far",
            _("The leader is %(distance)s cm away, more than %(range)d cm."),
            distance=_number(leader_distance_cm),
            range=LEADER_RANGE_CM,
        )
        return leadership
    if leader_leadership > leadership:
        ex.add(
            "leadership.leader_used",
            _("The leader is within %(range)d cm: his L%(leadership)d is used."),
            range=LEADER_RANGE_CM,
            leadership=leader_leadership,
        )
        return leader_leadership
    return leadership


# Characteristic tests ---------------------------------------------------------------------------


def attribute_check(
    *, value: int, dice: Dice, attribute: str = "i", purpose: str = ""
) -> CheckResult:
    """Chequeo de atributo: 1D6 ≤ the value passes; a 6 always fails; a value of 0 always fails."""
    _whole("value", value)
    if attribute not in ATTRIBUTES:
        raise SpecError(
            _("attribute must be one of %(choices)s."),
            field="attribute",
            choices=", ".join(ATTRIBUTES),
        )
    ex = Explainer(dice)
    passed = _attribute_roll(ex, dice, value, attribute, purpose)
    return _result("attribute", ex, passed, "passed" if passed else "failed", value=value)


def leadership_test(
    *,
    leadership: int,
    dice: Dice,
    leader_leadership: int | None = None,
    leader_distance_cm: float | None = None,
    leader_status: str = "standing",
    leader_refused_challenge: bool = False,
    purpose: str = "leadership test",
) -> CheckResult:
    """Chequeo de liderazgo: 2D6 ≤ L passes (the leader's L within 15 cm, see Jefes)."""
    ex = Explainer(dice)
    used = effective_leadership(
        ex,
        leadership=leadership,
        leader_leadership=leader_leadership,
        leader_distance_cm=leader_distance_cm,
        leader_status=leader_status,
        leader_refused_challenge=leader_refused_challenge,
    )
    passed = _leadership_roll(ex, dice, used, purpose)
    return _result("leadership", ex, passed, "passed" if passed else "failed", leadership_used=used)


def rally_test(
    *,
    leadership: int,
    dice: Dice,
    nearby: Sequence[Mapping[str, Any]] = (),
    leader_leadership: int | None = None,
    leader_distance_cm: float | None = None,
    leader_status: str = "standing",
) -> CheckResult:
    """Chequeo de reagrupamiento: 2D6 ≤ L. A warrior whose nearest model is an enemy cannot rally
    (enemies stunned, knocked down or fleeing are not counted). ``nearby``: models around him,
    each ``{"side": "friend"|"enemy", "distance_cm": …, "status": …}``."""
    ex = Explainer(dice)
    counted = [
        model
        for model in _models("nearby", nearby)
        if model.get("side") == "friend"
        or model.get("status", "standing") not in ("stunned", "knocked_down", "fleeing")
    ]
    if any(model.get("side") not in ("friend", "enemy") for model in nearby):
        raise SpecError(_("side must be friend or enemy."), field="nearby")
    if counted:
        nearest = min(counted, key=lambda model: model.get("distance_cm", 0))
        if nearest.get("side") == "enemy":
            ex.add(
                "rally_test.enemy_nearest",
                _("The nearest model is an enemy: the warrior cannot rally."),
            )
            return _result("rally", ex, False, "cannot_rally")
    used = effective_leadership(
        ex,
        leadership=leadership,
        leader_leadership=leader_leadership,
        leader_distance_cm=leader_distance_cm,
        leader_status=leader_status,
    )
    passed = _leadership_roll(ex, dice, used, "rally test")
    return _result(
        "rally", ex, passed, "rallied" if passed else "keeps_fleeing", leadership_used=used
    )


def rout_test(
    *, warriors: Sequence[Mapping[str, Any]], dice: Dice, voluntary: bool = False
) -> CheckResult:
    """Chequeo de retirada, at the start of the turn, when 25% or more of the warband (rounded
    up) is out of action: 2D6 ≤ the leader's L, or, if the leader is out of action or stunned, the
    highest L among the warriors neither stunned nor out of action. Retirada voluntaria: allowed
    once two or more warriors are out of action. ``warriors``: every warrior of the warband,
    ``{"leadership": 7, "status": "standing", "leader": true}``."""
    models = _models("warriors", warriors)
    if not models:
        raise SpecError(_("The warband has no warriors."), field="warriors")
    for model in models:
        _whole("leadership", model.get("leadership"))
    ex = Explainer(dice)
    size = len(models)
    out = sum(1 for m in models if m.get("status") == OUT_OF_ACTION)
    threshold = math.ceil(size / 4)
    details: dict[str, Any] = {"size": size, "out_of_action": out, "threshold": threshold}
    if voluntary:
        if out < 2:
            raise RulesError(
                _("A voluntary rout needs two or more warriors out of action (%(count)d now)."),
                code="rout.voluntary_not_allowed",
                count=out,
            )
        ex.add("rout_test.voluntary", _("The warband withdraws voluntarily."))
        return _result("rout", ex, None, "routed_voluntarily", **details)
    ex.add(
        "rout_test.count",
        _("%(out)d of %(size)d out of action; a test is needed from %(threshold)d."),
        out=out,
        size=size,
        threshold=threshold,
    )
    if out < threshold:
        return _result("rout", ex, True, "not_required", **details)
    leader = next((m for m in models if m.get("leader")), None)
    able = [m for m in models if m.get("status") not in (STUNNED, OUT_OF_ACTION)]
    if leader is not None and leader in able:
        used = leader["leadership"]
        ex.add("rout_test.leader", _("The leader's L%(leadership)d is used."), leadership=used)
    elif able:
        used = max(m["leadership"] for m in able)
        ex.add(
            "rout_test.highest",
            _("The leader cannot test: the highest L among the others, L%(leadership)d, is used."),
            leadership=used,
        )
    else:
        ex.add("rout_test.nobody", _("Nobody is able to take the test: the warband routs."))
        return _result("rout", ex, False, "routed", **details)
    passed = _leadership_roll(ex, dice, used, "rout test")
    return _result(
        "rout", ex, passed, "stands" if passed else "routed", leadership_used=used, **details
    )


def all_alone_test(
    *,
    leadership: int,
    enemies: int,
    dice: Dice,
    friends: Sequence[Mapping[str, Any]] = (),
    attackers: Sequence[Any] | None = None,
    defender: Any | None = None,
) -> CheckResult:
    """Solo ante el peligro: fighting two or more enemies with no friend within 15 cm (friends
    stunned, out of action or fleeing do not count), an L test at the end of the combat phase.
    On a failure he flees: each enemy gets an automatic hit (resolved here when ``attackers``
    and ``defender`` are given) and, if he survives, he runs 5D6 cm away."""
    _whole("enemies", enemies, 0, 20)
    ex = Explainer(dice)
    near = [
        f
        for f in _models("friends", friends)
        if f.get("status", "standing") not in ("stunned", "out_of_action", "fleeing")
        and f.get("distance_cm", 0) <= ALL_ALONE_RANGE_CM
    ]
    if enemies < 2 or near:
        ex.add(
            "all_alone.not_required",
            _("Not alone: %(enemies)d enemies, %(friends)d friends within %(range)d cm."),
            enemies=enemies,
            friends=len(near),
            range=ALL_ALONE_RANGE_CM,
        )
        return _result("all-alone", ex, None, "not_required")
    _whole("leadership", leadership)
    if _leadership_roll(ex, dice, leadership, "all alone"):
        return _result("all-alone", ex, True, "holds")
    ex.add(
        "all_alone.flees",
        _("He turns to flee: each of the %(enemies)d enemies gets an automatic hit."),
        enemies=enemies,
    )
    details: dict[str, Any] = {"automatic_hits": enemies}
    if attackers is not None and defender is not None:
        hits = flee_from_combat(attackers=attackers, defender=defender, dice=dice)
        ex.steps.extend(hits.steps)
        details["hits"] = _phase_summary(hits)
        if hits.outcome in (OUT_OF_ACTION,):
            return _result("all-alone", ex, False, "out_of_action", **details)
    roll = dice.roll(FLEE_DICE, "flee")
    ex.add("all_alone.flee_distance", _("He flees %(distance)d cm."), distance=roll.total)
    return _result("all-alone", ex, False, "flees", flee_cm=roll.total, **details)


def flee_from_combat(
    *,
    attackers: Sequence[Any],
    defender: Any,
    dice: Dice,
    rules: Any = None,
) -> PhaseResult:
    """Huir de un combate: every enemy in the fight strikes one automatic hit (resolved at once)."""
    specs = [spec_from_dict(AttackerSpec, a) for a in attackers]
    target = spec_from_dict(DefenderSpec, defender)
    options = DEFAULT_RULES if rules is None else spec_from_dict(RuleOptions, rules)
    return resolve_automatic_hits(specs, target, dice=dice, rules=options)


def _phase_summary(result: PhaseResult) -> dict[str, Any]:
    data = result.to_dict()
    return {k: v for k, v in data.items() if k not in ("steps", "rolls")}


def fear_test(
    *,
    leadership: int,
    dice: Dice,
    situation: str = "charged",
    causes_fear: bool = False,
    frenzied_in_charge_range: bool = False,
    leader_leadership: int | None = None,
    leader_distance_cm: float | None = None,
    leader_status: str = "standing",
) -> CheckResult:
    """Miedo: an L test when charged by a fear-causing enemy (``situation="charged"``: failed →
    only 6s hit in the first round) or wishing to charge one (``"charging"``: failed → cannot
    charge, stays put, a failed charge). Fear-causing models, and frenzied warriors within charge
    range, ignore fear."""
    if situation not in ("charged", "charging"):
        raise SpecError(_("situation must be charged or charging."), field="situation")
    ex = Explainer(dice)
    if causes_fear or frenzied_in_charge_range:
        ex.add("fear.immune", _("This warrior ignores fear."))
        return _result("fear", ex, None, "immune")
    used = effective_leadership(
        ex,
        leadership=leadership,
        leader_leadership=leader_leadership,
        leader_distance_cm=leader_distance_cm,
        leader_status=leader_status,
    )
    if _leadership_roll(ex, dice, used, "fear test"):
        return _result("fear", ex, True, "passed", leadership_used=used)
    if situation == "charged":
        ex.add("fear.sixes_to_hit", _("Failed: he needs 6s to hit in the first round of combat."))
        return _result("fear", ex, False, "hits_only_on_6", leadership_used=used)
    ex.add("fear.cannot_charge", _("Failed: he cannot charge and stays put (a failed charge)."))
    return _result("fear", ex, False, "cannot_charge", leadership_used=used)


def frenzy(
    *,
    attacks: int,
    dice: Dice | None = None,
    second_weapon: bool = False,
    status: str = "standing",
    enemy_in_charge_range: bool = False,
) -> CheckResult:
    """Furia asesina: must charge any enemy in charge range, fights with double A (the +1 of a
    second weapon is added after doubling), is immune to psychology within charge range, and
    loses frenzy for the rest of the battle once knocked down or stunned."""
    _whole("attacks", attacks)
    _status("status", status)
    ex = Explainer(dice)
    if status in ("knocked_down", "stunned"):
        ex.add("frenzy.lost", _("Knocked down or stunned: frenzy is lost for the battle."))
        total = attacks + (1 if second_weapon else 0)
        return _result("frenzy", ex, None, "lost", attacks=total, must_charge=False, immune=False)
    total = attacks * 2 + (1 if second_weapon else 0)
    ex.add(
        "frenzy.attacks",
        _("Frenzy: %(base)d attacks doubled%(extra)s = %(total)d."),
        base=attacks,
        extra=" +1" if second_weapon else "",
        total=total,
    )
    if enemy_in_charge_range:
        ex.add("frenzy.must_charge", _("An enemy is in charge range: he must charge."))
    return _result(
        "frenzy",
        ex,
        None,
        "frenzied",
        attacks=total,
        must_charge=enemy_in_charge_range,
        immune=enemy_in_charge_range,
    )


def hatred(*, first_round: bool, dice: Dice | None = None) -> CheckResult:
    """Odio: re-roll missed to-hit rolls in the first round of each close combat (the re-roll is
    made by :func:`rules.engine.combat.resolve_phase` with ``AttackerSpec(hatred=True)``)."""
    ex = Explainer(dice)
    if first_round:
        ex.add("hatred.reroll", _("Hatred: misses are re-rolled in this first round."))
        return _result("hatred", ex, None, "reroll_misses")
    ex.add("hatred.spent", _("After the first round, hatred gives no re-rolls."))
    return _result("hatred", ex, None, "no_effect")


def stupidity_test(
    *,
    leadership: int,
    dice: Dice,
    in_combat: bool = False,
    movement_cm: float = 10,
    leader_leadership: int | None = None,
    leader_distance_cm: float | None = None,
    leader_status: str = "standing",
) -> CheckResult:
    """Estupidez: an L test at the start of the turn. Failed in combat: he does not attack this
    turn. Failed out of combat, D6: 1-3 he lurches half his M straight ahead (no charge, stops
    3 cm from enemies, no shooting); 4-6 he stands drooling."""
    _distance("movement_cm", movement_cm)
    ex = Explainer(dice)
    used = effective_leadership(
        ex,
        leadership=leadership,
        leader_leadership=leader_leadership,
        leader_distance_cm=leader_distance_cm,
        leader_status=leader_status,
    )
    if _leadership_roll(ex, dice, used, "stupidity test"):
        return _result("stupidity", ex, True, "acts_normally")
    if in_combat:
        ex.add("stupidity.no_attacks", _("Stupid in combat: he does not attack this turn."))
        return _result("stupidity", ex, False, "does_not_attack")
    roll = dice.roll("D6", "stupidity")
    if roll.total <= 3:
        distance = _number(movement_cm / 2)
        ex.add(
            "stupidity.lurches",
            _("%(face)d: he lurches %(distance)s cm straight ahead."),
            face=roll.total,
            distance=distance,
        )
        return _result("stupidity", ex, False, "moves_forward", distance_cm=distance)
    ex.add("stupidity.drools", _("%(face)d: he stands drooling."), face=roll.total)
    return _result("stupidity", ex, False, "drools")


# Movement -----------------------------------------------------------------------------------------


def run(
    *, movement_cm: float, enemies: Sequence[Mapping[str, Any]] = (), dice: Dice | None = None
) -> CheckResult:
    """Correr: double M, unless an enemy is within 20 cm (enemies stunned, knocked down, fleeing
    or hidden do not count). ``enemies``: ``{"distance_cm": …, "status": …}``."""
    _distance("movement_cm", movement_cm)
    ex = Explainer(dice)
    blocking = [
        e
        for e in _models("enemies", enemies)
        if e.get("status", "standing") not in ("stunned", "knocked_down", "fleeing", "hidden")
        and e.get("distance_cm", 0) <= RUN_BLOCK_RANGE_CM
    ]
    if blocking:
        nearest = min(e.get("distance_cm", 0) for e in blocking)
        ex.add(
            "run.blocked",
            _("An enemy %(distance)s cm away (within %(range)d cm): he cannot run."),
            distance=_number(nearest),
            range=RUN_BLOCK_RANGE_CM,
        )
        return _result("run", ex, None, "cannot_run", distance_cm=_number(movement_cm))
    distance = _number(movement_cm * 2)
    ex.add("run.allowed", _("He may run %(distance)s cm."), distance=distance)
    return _result("run", ex, None, "may_run", distance_cm=distance)


def charge(
    *, movement_cm: float, distance_cm: float | None = None, dice: Dice | None = None
) -> CheckResult:
    """¡A la carga!: a charge covers double M; short of the target it is a failed charge (he moves
    his normal M towards the enemy and cannot shoot)."""
    _distance("movement_cm", movement_cm)
    ex = Explainer(dice)
    reach = _number(movement_cm * 2)
    if distance_cm is None:
        ex.add("charge.range", _("Charge range: %(reach)s cm."), reach=reach)
        return _result("charge", ex, None, "charge_range", charge_range_cm=reach)
    _distance("distance_cm", distance_cm)
    if distance_cm <= movement_cm * 2:
        ex.add(
            "charge.in_reach",
            _("%(distance)s cm is within the %(reach)s cm charge."),
            distance=_number(distance_cm),
            reach=reach,
        )
        return _result("charge", ex, True, "charges", charge_range_cm=reach)
    ex.add(
        "charge.failed",
        _("%(distance)s cm is beyond the %(reach)s cm charge: a failed charge."),
        distance=_number(distance_cm),
        reach=reach,
    )
    return _result(
        "charge", ex, False, "failed_charge", charge_range_cm=reach, moves_cm=_number(movement_cm)
    )


def spot_hidden(*, initiative: int, distance_cm: float, dice: Dice | None = None) -> CheckResult:
    """Ocultarse: a warrior always spots hidden enemies within 3×I cm (I3 → 9 cm)."""
    _whole("initiative", initiative)
    _distance("distance_cm", distance_cm)
    ex = Explainer(dice)
    reach = 3 * initiative
    spotted = distance_cm <= reach
    ex.add(
        "spot.result",
        _("I%(initiative)d spots hidden enemies within %(reach)d cm: %(distance)s cm, spotted.")
        if spotted
        else _(
            "I%(initiative)d spots hidden enemies within %(reach)d cm: %(distance)s cm, not seen."
        ),
        initiative=initiative,
        reach=reach,
        distance=_number(distance_cm),
    )
    return _result("spot", ex, spotted, "spotted" if spotted else "not_spotted", range_cm=reach)


def detect_unseen_enemy(*, initiative: int, distance_cm: float, dice: Dice) -> CheckResult:
    """Charging an enemy he cannot see (not declared hidden) within 10 cm: an I test to detect
    him; failed → no charge this turn (he may still move, shoot and cast)."""
    _distance("distance_cm", distance_cm)
    ex = Explainer(dice)
    if distance_cm > UNSEEN_CHARGE_RANGE_CM:
        ex.add(
            "detect.too_far",
            _("An unseen enemy can only be charged within %(range)d cm."),
            range=UNSEEN_CHARGE_RANGE_CM,
        )
        return _result("detect", ex, None, "cannot_charge")
    passed = _attribute_roll(ex, dice, _whole("initiative", initiative), "i", "detect unseen enemy")
    return _result("detect", ex, passed, "may_charge" if passed else "cannot_charge")


def terrain_movement(
    *, movement_cm: float, terrain: str = "open", dice: Dice | None = None
) -> CheckResult:
    """Terreno: open full M; difficult (terreno difícil) half M; very difficult (terreno muy
    difícil) a quarter of M rounded up (10 cm → 3 cm)."""
    _distance("movement_cm", movement_cm)
    if terrain not in TERRAINS:
        raise SpecError(
            _("terrain must be one of %(choices)s."), field="terrain", choices=", ".join(TERRAINS)
        )
    ex = Explainer(dice)
    if terrain == "difficult":
        distance = _number(movement_cm / 2)
    elif terrain == "very_difficult":
        distance = math.ceil(movement_cm / 4)
    else:
        distance = _number(movement_cm)
    ex.add(
        "terrain.movement",
        _("M %(movement)s cm in %(terrain)s terrain: %(distance)s cm."),
        movement=_number(movement_cm),
        terrain=terrain,
        distance=distance,
    )
    return _result("terrain", ex, None, terrain, distance_cm=distance)


# Heights and falls --------------------------------------------------------------------------------


def falling_strength(height_cm: float) -> int:
    """Caídas: F = the height fallen divided by 3, rounded up (10 cm → F4), at most 10."""
    return max(1, min(10, math.ceil(height_cm / 3)))


def _fall(ex: Explainer, dice: Dice, height_cm: float, toughness: int, wounds: int) -> PhaseResult:
    strength = falling_strength(height_cm)
    hits = dice.roll("D3", "falling hits").total
    ex.add(
        "falling.hits",
        _("A fall of %(height)s cm: %(hits)d hits at F%(strength)d, no armour save, no criticals."),
        height=_number(height_cm),
        hits=hits,
        strength=strength,
    )
    profile = WoundProfile(
        strength=strength,
        needed=to_wound_needed(strength, toughness),
        criticals=False,
        save=None,
        concussion=False,
        parryable=False,
        weapon="falling",
    )
    plan = PhasePlan(
        kind="falling",
        groups=((hits, ToHit(needed=None, automatic=True), profile),),
        parry="none",
        wounds=wounds,
        knocked_down_mode=False,
        auto_out_of_action=False,
        start_severity=0,
        helmet_save=None,
        one_critical=False,
    )
    result = resolve_plan(plan, dice=dice)
    ex.steps.extend(result.steps)
    return result


def falling(*, height_cm: float, toughness: int, dice: Dice, wounds: int = 1) -> CheckResult:
    """Caídas: D3 hits of F = height/3 rounded up; no armour saves, no critical hits; each hit
    rolls to wound against R, then injuries as usual. He cannot move or hide this turn."""
    _distance("height_cm", height_cm)
    _whole("toughness", toughness, 1, 10)
    _whole("wounds", wounds)
    ex = Explainer(dice)
    result = _fall(ex, dice, height_cm, toughness, wounds)
    return _result(
        "falling",
        ex,
        None,
        result.outcome,
        strength=falling_strength(height_cm),
        hits=result.hits,
        wounds_lost=result.wounds_lost,
    )


def _fall_outcome(
    kind: str,
    ex: Explainer,
    dice: Dice,
    *,
    height_cm: float,
    toughness: int | None,
    wounds: int,
    **details: Any,
) -> CheckResult:
    details["fall_height_cm"] = _number(height_cm)
    if toughness is not None:
        _whole("toughness", toughness, 1, 10)
        result = _fall(ex, dice, height_cm, toughness, wounds)
        details["fall"] = {
            "outcome": result.outcome,
            "strength": falling_strength(height_cm),
            "hits": result.hits,
            "wounds_lost": result.wounds_lost,
        }
    return _result(kind, ex, False, "falls", **details)


def _jump_tests(
    kind: str,
    ex: Explainer,
    dice: Dice,
    initiative: int,
    height_cm: float,
    toughness: int | None,
    wounds: int,
    *,
    purpose: str,
) -> tuple[int, CheckResult | None]:
    """One Iniciativa test per full 5 cm jumped; the first failure is a fall from the height.
    Returns the number of tests and, when he fell, the result to answer with."""
    tests = int(height_cm // JUMP_STEP_CM)
    ex.add(
        "jump.tests",
        _("%(height)s cm: %(tests)d Iniciativa test(s)."),
        height=_number(height_cm),
        tests=tests,
    )
    for _n in range(tests):
        if not _attribute_roll(ex, dice, initiative, "i", purpose):
            fell = _fall_outcome(
                kind,
                ex,
                dice,
                height_cm=height_cm,
                toughness=toughness,
                wounds=wounds,
                tests=tests,
            )
            return tests, fell
    return tests, None


def jump_down(
    *,
    initiative: int,
    height_cm: float,
    dice: Dice,
    toughness: int | None = None,
    wounds: int = 1,
) -> CheckResult:
    """Bajar de un salto (at most 15 cm): one I test per full 5 cm jumped. A failure: he falls
    from where he jumped (resolved when ``toughness`` is given) and stops moving. The jump does
    not use up movement. Tests are rolled one at a time and stop at the first failure."""
    _whole("initiative", initiative)
    _distance("height_cm", height_cm)
    ex = Explainer(dice)
    if height_cm > MAX_JUMP_CM:
        ex.add("jump.too_high", _("He may jump down at most %(max)d cm."), max=MAX_JUMP_CM)
        return _result("jump", ex, None, "not_allowed")
    tests, fell = _jump_tests(
        "jump", ex, dice, initiative, height_cm, toughness, wounds, purpose="jump down"
    )
    if fell is not None:
        return fell
    return _result("jump", ex, True, "lands", tests=tests)


def diving_charge(
    *,
    initiative: int,
    height_cm: float,
    enemy_distance_cm: float,
    dice: Dice,
    toughness: int | None = None,
    wounds: int = 1,
) -> CheckResult:
    """Cargar de un salto onto an enemy within 5 cm of where he lands: one I test per full 5 cm
    (at most 15 cm). Success: +1 F and +1 to hit in the next close-combat phase. A failure: he
    falls, cannot move further and cannot charge."""
    _whole("initiative", initiative)
    _distance("height_cm", height_cm)
    _distance("enemy_distance_cm", enemy_distance_cm)
    ex = Explainer(dice)
    if height_cm > MAX_JUMP_CM or enemy_distance_cm > DIVING_CHARGE_REACH_CM:
        ex.add(
            "diving_charge.not_allowed",
            _(
                "A diving charge needs a drop of at most %(max)d cm "
                "and an enemy within %(reach)d cm."
            ),
            max=MAX_JUMP_CM,
            reach=DIVING_CHARGE_REACH_CM,
        )
        return _result("diving-charge", ex, None, "not_allowed")
    tests, fell = _jump_tests(
        "diving-charge", ex, dice, initiative, height_cm, toughness, wounds, purpose="diving charge"
    )
    if fell is not None:
        return fell
    ex.add("diving_charge.bonus", _("Diving charge: +1 F and +1 to hit in the next combat phase."))
    return _result(
        "diving-charge", ex, True, "charges", strength_bonus=1, to_hit_bonus=1, tests=tests
    )


def climb(
    *,
    initiative: int,
    height_cm: float,
    movement_cm: float,
    dice: Dice,
    direction: str = "up",
    toughness: int | None = None,
    wounds: int = 1,
) -> CheckResult:
    """Trepar: an I test; he cannot climb more than his M (and cannot run while climbing). Failed
    going up: he cannot move this turn. Failed going down: he falls from where he started."""
    _whole("initiative", initiative)
    _distance("height_cm", height_cm)
    _distance("movement_cm", movement_cm)
    if direction not in ("up", "down"):
        raise SpecError(_("direction must be up or down."), field="direction")
    ex = Explainer(dice)
    if height_cm > movement_cm:
        ex.add(
            "climb.too_high",
            _("%(height)s cm is more than his M of %(movement)s cm: he cannot climb it."),
            height=_number(height_cm),
            movement=_number(movement_cm),
        )
        return _result("climb", ex, None, "cannot_climb")
    if _attribute_roll(ex, dice, initiative, "i", "climb"):
        return _result("climb", ex, True, "climbs")
    if direction == "up":
        ex.add("climb.stuck", _("Failed going up: he cannot move this turn."))
        return _result("climb", ex, False, "cannot_move")
    return _fall_outcome("climb", ex, dice, height_cm=height_cm, toughness=toughness, wounds=wounds)


def jump_gap(
    *,
    initiative: int,
    gap_cm: float,
    movement_left_cm: float,
    dice: Dice,
    fall_height_cm: float | None = None,
    toughness: int | None = None,
    wounds: int = 1,
) -> CheckResult:
    """Cruzar de un salto los huecos (at most 15 cm; the distance comes off his movement): not
    enough movement left → he falls automatically; otherwise an I test or he falls."""
    _whole("initiative", initiative)
    _distance("gap_cm", gap_cm)
    _distance("movement_left_cm", movement_left_cm)
    ex = Explainer(dice)
    if gap_cm > MAX_JUMP_CM:
        ex.add("gap.too_wide", _("A gap wider than %(max)d cm cannot be jumped."), max=MAX_JUMP_CM)
        return _result("gap", ex, None, "not_allowed")
    height = 0 if fall_height_cm is None else _distance("fall_height_cm", fall_height_cm)
    if movement_left_cm < gap_cm:
        ex.add(
            "gap.short",
            _("Only %(left)s cm of movement left for a %(gap)s cm gap: he falls."),
            left=_number(movement_left_cm),
            gap=_number(gap_cm),
        )
        if fall_height_cm is None:
            return _result("gap", ex, False, "falls")
        return _fall_outcome("gap", ex, dice, height_cm=height, toughness=toughness, wounds=wounds)
    if _attribute_roll(ex, dice, initiative, "i", "jump gap"):
        return _result(
            "gap", ex, True, "crosses", movement_left_cm=_number(movement_left_cm - gap_cm)
        )
    if fall_height_cm is None:
        return _result("gap", ex, False, "falls")
    return _fall_outcome("gap", ex, dice, height_cm=height, toughness=toughness, wounds=wounds)


def edge_fall(
    *,
    initiative: int,
    distance_to_edge_cm: float,
    dice: Dice,
    fall_height_cm: float | None = None,
    toughness: int | None = None,
    wounds: int = 1,
) -> CheckResult:
    """Guerreros derribados o aturdidos within 3 cm of the edge of a roof: an I test or he slips
    and falls to the ground."""
    _whole("initiative", initiative)
    _distance("distance_to_edge_cm", distance_to_edge_cm)
    ex = Explainer(dice)
    if distance_to_edge_cm > EDGE_RANGE_CM:
        ex.add(
            "edge.safe", _("More than %(range)d cm from the edge: no test."), range=EDGE_RANGE_CM
        )
        return _result("edge", ex, None, "not_required")
    if _attribute_roll(ex, dice, initiative, "i", "edge"):
        return _result("edge", ex, True, "stays")
    if fall_height_cm is None:
        return _result("edge", ex, False, "falls")
    height = _distance("fall_height_cm", fall_height_cm)
    return _fall_outcome("edge", ex, dice, height_cm=height, toughness=toughness, wounds=wounds)


# Flee and pursuit (seed 002) -------------------------------------------------------------------


def flee_dice(movement_cm: float) -> str:
    """5D6 cm for M up to 15 cm, otherwise 8D6 cm."""
    return FLEE_DICE if movement_cm <= FAST_MOVER_CM else FAST_FLEE_DICE


def flee_and_pursuit(
    *,
    fleeing_movement_cm: float,
    pursuer_movement_cm: float,
    dice: Dice,
    hold: bool = False,
    pursuer_leadership: int | None = None,
    defending_obstacle: bool = False,
) -> CheckResult:
    """Huida y persecución: pursuit is compulsory unless the pursuer passes an L test (``hold``)
    or defends an obstacle (then he chooses freely). Both roll 5D6 (8D6 above M 15 cm); a pursuit
    roll equal to or above the flee roll catches and destroys the fleeing troops."""
    _distance("fleeing_movement_cm", fleeing_movement_cm)
    _distance("pursuer_movement_cm", pursuer_movement_cm)
    ex = Explainer(dice)
    pursues = True
    if hold:
        if defending_obstacle:
            ex.add("pursuit.obstacle", _("Defending an obstacle: he may stay without a test."))
            pursues = False
        else:
            if pursuer_leadership is None:
                raise SpecError(
                    _("Holding back needs the pursuer's L."), field="pursuer_leadership"
                )
            _whole("pursuer_leadership", pursuer_leadership)
            pursues = not _leadership_roll(ex, dice, pursuer_leadership, "hold back")
            if pursues:
                ex.add("pursuit.compelled", _("The test failed: he must pursue."))
    flee = dice.roll(flee_dice(fleeing_movement_cm), "flee")
    ex.add("flee.distance", _("The fleeing troops run %(distance)d cm."), distance=flee.total)
    if not pursues:
        ex.add("pursuit.holds", _("No pursuit: they escape."))
        return _result("flee-pursuit", ex, None, "escaped", flee_cm=flee.total, pursued=False)
    chase = dice.roll(flee_dice(pursuer_movement_cm), "pursuit")
    caught = chase.total >= flee.total
    ex.add(
        "pursuit.distance",
        _("Pursuit %(pursuit)d cm against flight %(flee)d cm: caught and destroyed.")
        if caught
        else _("Pursuit %(pursuit)d cm against flight %(flee)d cm: they escape."),
        pursuit=chase.total,
        flee=flee.total,
    )
    return _result(
        "flee-pursuit",
        ex,
        None,
        "destroyed" if caught else "escaped",
        flee_cm=flee.total,
        pursuit_cm=chase.total,
        pursued=True,
    )


# Registry ---------------------------------------------------------------------------------------

CHECKS: dict[str, Callable[..., Any]] = {
    "attribute": attribute_check,
    "leadership": leadership_test,
    "rally": rally_test,
    "rout": rout_test,
    "all-alone": all_alone_test,
    "fear": fear_test,
    "frenzy": frenzy,
    "hatred": hatred,
    "stupidity": stupidity_test,
    "falling": falling,
    "jump": jump_down,
    "diving-charge": diving_charge,
    "climb": climb,
    "gap": jump_gap,
    "spot": spot_hidden,
    "detect": detect_unseen_enemy,
    "terrain": terrain_movement,
    "run": run,
    "charge": charge,
    "edge": edge_fall,
    "flee-pursuit": flee_and_pursuit,
    "flee-combat": flee_from_combat,
}
"""API kind name → check function (keyword parameters plus ``dice``)."""


def check_parameters(kind: str) -> dict[str, dict[str, Any]]:
    """The parameters of a check: name → ``{"type": …, "required": bool, "default": …}``."""
    function = _check(kind)
    out: dict[str, dict[str, Any]] = {}
    for name, parameter in inspect.signature(function).parameters.items():
        if name == "dice":
            continue
        required = parameter.default is inspect.Parameter.empty
        out[name] = {
            "type": str(parameter.annotation),
            "required": required,
            "default": None if required else jsonable(parameter.default),
        }
    return out


def _check(kind: str) -> Callable[..., Any]:
    function = CHECKS.get(kind)
    if function is None:
        raise RulesError(
            _("%(kind)s is not a check; use one of %(choices)s."),
            code="check.unknown",
            kind=kind,
            choices=", ".join(CHECKS),
        )
    return function


def run_check(kind: str, params: Mapping[str, Any], *, dice: Dice) -> Any:
    """Call the check ``kind`` with ``params`` (unknown or missing parameters are refused)."""
    function = _check(kind)
    expected = check_parameters(kind)
    unknown = sorted(set(params) - set(expected))
    if unknown:
        raise SpecError(
            _("%(name)s is not a parameter of this check."), field=unknown[0], name=unknown[0]
        )
    missing = [name for name, spec in expected.items() if spec["required"] and name not in params]
    if missing:
        raise SpecError(_("%(name)s is required."), field=missing[0], name=missing[0])
    try:
        return function(**params, dice=dice)
    except (TypeError, AttributeError) as error:  # a list where a number was expected…
        raise SpecError(
            _("Bad parameter types: %(error)s."), field="params", error=str(error)
        ) from error
