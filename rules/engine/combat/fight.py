"""One combat's close-combat phase (Combate cuerpo a cuerpo): every warrior in it strikes, in
strike order, against the enemies he is in base contact with.

The rules of the phase, from Reglas › Combate cuerpo a cuerpo:

* Quién ataca antes: chargers first the turn they charge, then by Iniciativa (ties rolled off),
  a two-handed weapon always last, a warrior who stood up this turn after everyone
  (:func:`~rules.engine.combat.strikes.strike_order`).
* A warrior knocked down, stunned or taken out of action before his turn to strike does not
  strike ("Las miniaturas derribadas no pueden luchar").
* Parada: a warrior parries once per phase, and only the hits of the first enemy who hits him
  (the one with the highest Iniciativa); hit first with a 6, he has lost his parry.
* Impactos críticos: one per warrior per close-combat phase, whatever the enemies he splits his
  attacks between.
* Atacar a guerreros aturdidos o derribados: all the attacks of one warrior are resolved
  together (:func:`~rules.engine.combat.resolve.resolve_plan`), so he cannot knock an enemy
  down and take him out of action in the same phase; a second warrior striking later can.
  While engaged with an enemy still standing, a warrior may not attack one who is down.
* Attacks declared against an enemy already out of action (or one who may not be attacked any
  more) go to the one enemy in contact he may still attack; with several, they are lost.
"""

from __future__ import annotations

from collections.abc import Sequence
from dataclasses import dataclass, field, replace
from typing import Any

from rules.engine.combat.plans import melee_plan
from rules.engine.combat.resolve import PhaseResult, resolve_plan
from rules.engine.combat.specs import (
    DEFAULT_RULES,
    SEVERITY,
    STANDING,
    AttackerSpec,
    DefenderSpec,
    RuleOptions,
)
from rules.engine.combat.strikes import Combatant, strike_order
from rules.engine.dice import Dice
from rules.engine.errors import SpecError
from rules.engine.explain import Explainer, Step, explained_dict
from rules.engine.i18n import gettext_noop as _
from rules.engine.tables import KNOCKED_DOWN, OUT_OF_ACTION, STUNNED

DOWN = (KNOCKED_DOWN, STUNNED)


@dataclass(frozen=True)
class Blow:
    """What a warrior does against one enemy: ``attacks`` of his (the last one with his second
    weapon when ``offhand``); ``hatred``: whether he hates this enemy (``None``: as his spec
    says)."""

    target: int
    attacks: int
    offhand: bool = False
    hatred: bool | None = None


@dataclass(frozen=True)
class Warrior:
    """A warrior in the combat as the phase starts.

    ``defence``: how he is attacked (his status and wounds left now, his armour and parry).
    ``attack``: how he attacks, or ``None`` when he does not strike this phase (the caller says
    why in ``idle``). ``blows``: his attacks split between the enemies ``contacts`` he is in base
    contact with. ``charged``: strikes first this turn (he charged, or lightning reflexes);
    ``stood_up``: stood up this turn (last); ``first_round``: his first round in this combat.
    ``strongman`` / ``spear_blocked``: see :class:`~rules.engine.combat.strikes.Combatant`.
    """

    id: int
    side: int
    initiative: int
    defence: DefenderSpec
    name: str = ""
    attack: AttackerSpec | None = None
    blows: tuple[Blow, ...] = ()
    contacts: tuple[int, ...] = ()
    charged: bool = False
    stood_up: bool = False
    first_round: bool = True
    strongman: bool = False
    spear_blocked: bool = False
    idle: str = ""

    @property
    def attacks(self) -> int:
        return sum(blow.attacks for blow in self.blows)

    @property
    def who(self) -> str:
        return self.name or str(self.id)

    def combatant(self) -> Combatant:
        attack = self.attack
        return Combatant(
            str(self.id),
            self.initiative,
            charged=self.charged,
            stood_up=self.stood_up,
            weapon=None if attack is None else attack.weapon,
            first_round=self.first_round,
            items=() if attack is None else attack.items,
            strongman=self.strongman,
            spear_blocked=self.spear_blocked,
        )


@dataclass(frozen=True)
class Struck:
    """One warrior's attacks against one enemy: who, how many, and what they did."""

    attacker: int
    target: int
    attacks: int
    declared: int
    result: PhaseResult

    def to_dict(self) -> dict[str, Any]:
        result = self.result.to_dict()
        result.pop("rolls", None)
        data = {
            "attacker": self.attacker,
            "target": self.target,
            "attacks": self.attacks,
            "result": result,
        }
        if self.declared != self.target:
            data["declared"] = self.declared
        return data


@dataclass(frozen=True)
class FightResult:
    """The phase: strike ``order``, each ``blow``, and every warrior as it ends (``fighters``:
    id → status, wounds left, the one-use protections he ``spent``, whether he ``criticals``)."""

    order: tuple[int, ...]
    blows: tuple[Struck, ...]
    fighters: dict[int, dict[str, Any]]
    steps: tuple[Step, ...]
    rolls: tuple[Any, ...]

    def to_dict(self) -> dict[str, Any]:
        return {
            "kind": "close-combat",
            "order": list(self.order),
            "blows": [blow.to_dict() for blow in self.blows],
            "fighters": {str(k): dict(v) for k, v in self.fighters.items()},
            **explained_dict(self.steps, self.rolls),
        }


@dataclass
class _Now:
    """A warrior during the phase."""

    status: str
    wounds: int
    parry_open: bool = True
    critical_spent: bool = False
    charm: int | None = None
    stun_to_knockdown: bool = False
    spent: list[str] = field(default_factory=list)


def _check(warriors: Sequence[Warrior]) -> dict[int, Warrior]:
    by_id = {w.id: w for w in warriors}
    if len(by_id) != len(warriors):
        raise SpecError(_("Each warrior appears once in a combat."), field="warriors")
    for warrior in warriors:
        for blow in warrior.blows:
            enemy = by_id.get(blow.target)
            if enemy is None or enemy.side == warrior.side or blow.target not in warrior.contacts:
                raise SpecError(
                    _("Warrior %(id)d attacks someone he is not fighting."),
                    field="blows",
                    id=warrior.id,
                )
        if warrior.attack is not None and warrior.attacks != _total(warrior.attack):
            raise SpecError(
                _("Warrior %(id)d has %(total)d attacks, not %(given)d."),
                field="blows",
                id=warrior.id,
                total=_total(warrior.attack),
                given=warrior.attacks,
            )
    return by_id


def _total(attack: AttackerSpec) -> int:
    return attack.total_attacks


def resolve_fight(
    warriors: Sequence[Warrior], *, dice: Dice, rules: RuleOptions = DEFAULT_RULES
) -> FightResult:
    """Roll one combat's close-combat phase."""
    by_id = _check(warriors)
    ex = Explainer(dice)
    now = {
        w.id: _Now(
            status=w.defence.status,
            wounds=w.defence.wounds,
            charm=w.defence.first_wound_save,
            stun_to_knockdown=w.defence.stun_to_knockdown,
        )
        for w in warriors
    }
    for warrior in warriors:
        if warrior.attack is None and warrior.idle:
            ex.add(
                "fight.idle",
                _("%(who)s does not strike: %(why)s."),
                who=warrior.who,
                why=warrior.idle,
            )
    strikers = [w for w in warriors if w.attack is not None and w.blows]
    order = strike_order([w.combatant() for w in strikers], dice=dice) if strikers else None
    ids = tuple(int(name) for name in order.order) if order else ()
    if order:
        ex.steps.extend(order.steps)
    blows: list[Struck] = []
    for striker_id in ids:
        striker = by_id[striker_id]
        if now[striker_id].status != STANDING:
            ex.add(
                "fight.struck_down",
                _("%(who)s is %(status)s before he can strike."),
                who=striker.who,
                status=now[striker_id].status,
            )
            continue
        for blow in _merged(striker.blows):
            struck = _strike(striker, blow, by_id, now, ex, dice, rules)
            if struck is not None:
                blows.append(struck)
    dice.scope = ""
    fighters = {
        wid: {"status": state.status, "wounds": state.wounds, "spent": list(state.spent)}
        for wid, state in now.items()
    }
    return FightResult(ids, tuple(blows), fighters, tuple(ex.steps), ex.rolls())


def _merged(blows: tuple[Blow, ...]) -> list[Blow]:
    """One blow per target (all of a warrior's attacks on one enemy are resolved together)."""
    merged: dict[int, Blow] = {}
    for blow in blows:
        old = merged.get(blow.target)
        merged[blow.target] = (
            blow
            if old is None
            else Blow(
                blow.target, old.attacks + blow.attacks, old.offhand or blow.offhand, blow.hatred
            )
        )
    return list(merged.values())


def _target(striker: Warrior, declared: int, now: dict[int, _Now]) -> int | None:
    """The enemy his attacks go to: the one declared, unless he is out of action, or down while
    another enemy in contact still stands; then the one enemy he may attack, if only one."""
    standing = [c for c in striker.contacts if now[c].status == STANDING]
    able = standing or [c for c in striker.contacts if now[c].status in DOWN]
    if declared in able:
        return declared
    return able[0] if len(able) == 1 else None


def _strike(
    striker: Warrior,
    blow: Blow,
    by_id: dict[int, Warrior],
    now: dict[int, _Now],
    ex: Explainer,
    dice: Dice,
    rules: RuleOptions,
) -> Struck | None:
    if striker.attack is None:  # an idle warrior has no blows (the tracker gives him none)
        return None
    attack = striker.attack
    target_id = _target(striker, blow.target, now)
    if target_id is None:
        ex.add(
            "fight.attacks_lost",
            _("%(who)s's attacks on %(target)s are lost: he can no longer be attacked."),
            who=striker.who,
            target=by_id[blow.target].who,
        )
        return None
    if target_id != blow.target:
        ex.add(
            "fight.attacks_redirected",
            _("%(who)s turns his attacks from %(declared)s to %(target)s."),
            who=striker.who,
            declared=by_id[blow.target].who,
            target=by_id[target_id].who,
        )
    target, state, mine = by_id[target_id], now[target_id], now[striker.id]
    defender = replace(
        target.defence,
        status=state.status,
        wounds=state.wounds,
        parry=None if state.parry_open else "none",
        first_wound_save=state.charm,
        stun_to_knockdown=state.stun_to_knockdown,
    )
    dice.scope = f"{striker.id}>{target_id}"
    result = resolve_plan(
        melee_plan(_blow_attacker(attack, blow), defender, rules),
        dice=dice,
        critical_spent=mine.critical_spent,
    )
    mine.critical_spent = mine.critical_spent or bool(result.criticals)
    state.parry_open = state.parry_open and result.hits == 0
    state.wounds = max(0, state.wounds - result.wounds_lost)
    for spent in result.spent:
        state.spent.append(spent)
        if spent == "lucky-charm":
            state.charm = None
        else:
            state.stun_to_knockdown = False
    if result.outcome in SEVERITY and SEVERITY[result.outcome] > SEVERITY[state.status]:
        state.status = result.outcome
    return Struck(striker.id, target_id, blow.attacks, blow.target, result)


def _blow_attacker(attack: AttackerSpec, blow: Blow) -> AttackerSpec:
    """The attacker's spec for the attacks of one blow (frenzy and the second weapon were
    counted when his attacks were split)."""
    if blow.hatred is not None:
        attack = replace(attack, hatred=blow.hatred)
    if blow.offhand and attack.offhand is not None:
        if blow.attacks == 1:
            return replace(
                attack,
                attacks=1,
                weapon=attack.offhand,
                offhand=None,
                frenzy=False,
                extra_attacks=0,
            )
        return replace(attack, attacks=blow.attacks - 1, frenzy=False, extra_attacks=0)
    return replace(attack, attacks=blow.attacks, offhand=None, frenzy=False, extra_attacks=0)


FIGHT_STATUSES = (STANDING, KNOCKED_DOWN, STUNNED, OUT_OF_ACTION)
