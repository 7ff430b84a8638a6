"""A warrior of the battle as the combat engine sees him: his weapons in hand, how he attacks,
how he is attacked and how he shoots, from his profile, his items and his rules as the battle
stands (:mod:`rules.engine.vocabulary` names every key read here).

Weapons in hand (Combatir con dos armas; Armas y armaduras): unless the table says otherwise,
his main weapon is the first close-combat weapon he carries that is not a dagger (a dagger
otherwise; empty hands fight with a hand weapon); a second one-handed weapon gives +1 attack,
else a buckler parries. A two-handed weapon leaves no hand free; a spear or a flail leaves none
for a second weapon (a flail, none for a buckler); a warrior who lost an arm holds one weapon.
"""

from __future__ import annotations

from collections.abc import Mapping
from dataclasses import dataclass
from typing import Any

from rules.engine import vocabulary as v
from rules.engine.combat import AttackerSpec, DefenderSpec, ShooterSpec
from rules.engine.equipment import ARMOUR, HELMET, MELEE, MISSILE, SHIELD, Equipment
from rules.engine.i18n import gettext_noop as _
from rules.engine.tracker.data import DOWN, BattleData
from rules.engine.tracker.errors import TrackerError
from rules.engine.tracker.model import FighterState

DAGGER = "daga"
SPECIAL_SAVES = {v.STEP_ASIDE: 5, v.REGENERATION: 4}
HAWK_EYES_FROM_CM = 45
EAGLE_EYES_CM = 15
STUN_SPENT = "stun-to-knockdown"
CHARM_SPENT = "lucky-charm"


@dataclass(frozen=True)
class Hands:
    """What he holds: ``weapon`` (``None``: a hand weapon), ``offhand`` (a second weapon) or
    ``buckler``."""

    weapon: Equipment | None
    offhand: Equipment | None = None
    buckler: Equipment | None = None


def _bucklers(items: list[Equipment]) -> list[Equipment]:
    return [item for item in items if item.kind == SHIELD and item.parry]


def default_hands(state: BattleData, fighter: FighterState) -> Hands:
    setup = state.setups[fighter.id]
    melee = setup.carried(MELEE)
    main = next((w for w in melee if w.slug != DAGGER), melee[0] if melee else None)
    one_arm = state.has(fighter, v.ARM_LOST)
    if main is None or main.two_handed or one_arm:
        return Hands(main)
    rest = list(melee)
    rest.remove(main)
    second = next((w for w in rest if not w.two_handed and not w.no_second_weapon), None)
    if second is not None and not main.no_second_weapon:
        return Hands(main, offhand=second)
    buckler = next(iter(_bucklers(setup.carried(SHIELD))), None)
    return Hands(main, buckler=None if main.no_buckler else buckler)


def chosen_hands(state: BattleData, fighter: FighterState, choice: Mapping[str, Any]) -> Hands:
    """The weapons the table says he fights with this phase (a ``loadouts`` row)."""
    setup = state.setups[fighter.id]
    melee = {w.slug: w for w in setup.carried(MELEE)}
    bucklers = {b.slug: b for b in _bucklers(setup.carried(SHIELD))}
    weapon_slug, off_slug = choice.get("weapon") or None, choice.get("offhand") or None
    if weapon_slug is not None and weapon_slug not in melee:
        raise _not_carried(fighter, weapon_slug)
    main = melee.get(weapon_slug) if weapon_slug else None
    if off_slug is None:
        return Hands(main)
    if main is not None and main.two_handed or state.has(fighter, v.ARM_LOST):
        raise TrackerError(
            _("%(fighter)s has no hand free for %(item)s."),
            code="entry.no_hand_free",
            field="loadouts",
            fighter=fighter.name,
            item=off_slug,
        )
    if off_slug in bucklers:
        if main is not None and main.no_buckler:
            raise _no_second(fighter, main)
        return Hands(main, buckler=bucklers[off_slug])
    spare = [w for w in setup.carried(MELEE) if w.slug == off_slug]
    if weapon_slug == off_slug:
        spare = spare[1:]
    if not spare:
        raise _not_carried(fighter, off_slug)
    if (main is not None and main.no_second_weapon) or spare[0].no_second_weapon:
        raise _no_second(fighter, main or spare[0])
    if spare[0].two_handed:
        raise TrackerError(
            _("%(fighter)s has no hand free for %(item)s."),
            code="entry.no_hand_free",
            field="loadouts",
            fighter=fighter.name,
            item=off_slug,
        )
    return Hands(main, offhand=spare[0])


def _not_carried(fighter: FighterState, slug: str) -> TrackerError:
    return TrackerError(
        _("%(fighter)s does not carry %(weapon)s."),
        code="entry.invalid",
        field="loadouts",
        fighter=fighter.name,
        weapon=slug,
    )


def _no_second(fighter: FighterState, weapon: Equipment) -> TrackerError:
    return TrackerError(
        _("%(fighter)s fights with %(weapon)s: it leaves no hand for a second weapon."),
        code="entry.no_hand_free",
        field="loadouts",
        fighter=fighter.name,
        weapon=weapon.slug,
    )


def _profile(state: BattleData, fighter: FighterState, name: str, default: int) -> int:
    return int(state.setups[fighter.id].profile.get(name, default))


def toughness(state: BattleData, fighter: FighterState) -> int:
    bonus = state.gear(fighter, v.TOUGHNESS_BONUS) or 0
    return min(10, max(1, _profile(state, fighter, "t", 3) + int(bonus)))


def leadership(state: BattleData, fighter: FighterState) -> int:
    """His L, +1 with the lineage of Númenor."""
    return min(10, fighter.leadership + (1 if state.has(fighter, v.LINEAGE) else 0))


def hates(state: BattleData, fighter: FighterState, enemy: FighterState, ticked: bool) -> bool:
    """Hatred: unaimed, every enemy; aimed (bitter enmity), when the table ticks it; the
    ancestral grudge, every Orc and Goblin."""
    if state.has(fighter, v.HATRED) or ticked:
        return True
    race = state.setups[enemy.id].race
    return state.has(fighter, v.GRUDGE) and race in ("orc", "goblin")


def attacker_spec(
    state: BattleData,
    fighter: FighterState,
    hands: Hands,
    *,
    first_round: bool,
    enemies: int,
    hated: bool = False,
) -> AttackerSpec:
    """How he attacks in this close-combat phase."""
    charged = fighter.id in state.side_turn.charged
    main = hands.weapon
    strength = _profile(state, fighter, "s", 3)
    strength += 1 if state.has(fighter, v.MIGHTY_BLOW) else 0
    strength += 1 if charged and state.has(fighter, v.BRUTALITY) else 0
    swordsman = (
        charged and state.has(fighter, v.EXPERT_SWORDSMAN) and main is not None and main.parry
    )
    return AttackerSpec(
        ws=_profile(state, fighter, "ws", 3),
        strength=min(10, strength),
        attacks=_profile(state, fighter, "a", 1),
        weapon=None if main is None else main.slug,
        offhand=None if hands.offhand is None else hands.offhand.slug,
        first_round=first_round,
        hatred=hated,
        frenzy=state.frenzied(fighter),
        diving_charge=fighter.id in state.side_turn.diving,
        fear_failed=state.side_turn.fear_failed(fighter.id),
        reroll_misses=swordsman,
        to_wound_modifier=int(state.gear(fighter, v.TO_WOUND_BONUS) or 0),
        critical_bonus=(1 if state.has(fighter, v.WEB_OF_STEEL) else 0)
        + item_critical_bonus(state, fighter, MELEE),
        injury_bonus=1 if state.has(fighter, v.STRIKE_TO_INJURE) else 0,
        extra_attacks=1 if enemies > 1 and state.has(fighter, v.COMBAT_MASTER) else 0,
        items=state.setups[fighter.id].catalogue_items,
    )


def defender_spec(
    state: BattleData, fighter: FighterState, hands: Hands | None, *, melee: bool
) -> DefenderSpec:
    """How he is attacked: hand to hand (``melee``, holding ``hands``) or shot at."""
    setup = state.setups[fighter.id]
    worn = [i for i in setup.carried(ARMOUR, SHIELD, HELMET) if not (i.kind == SHIELD and i.parry)]
    held: list[str] = []
    if melee and hands is not None:
        held = [w.slug for w in (hands.weapon, hands.offhand, hands.buckler) if w is not None]
    saves = [
        save
        for key, save in SPECIAL_SAVES.items()
        if state.has(fighter, key) and (melee or key != v.STEP_ASIDE)  # step aside: blows only
    ]
    if state.gear(fighter, v.SPECIAL_SAVE):
        saves.append(int(state.gear(fighter, v.SPECIAL_SAVE)))
    charm = state.gear(fighter, v.FIRST_WOUND_SAVE)
    stun = state.gear(fighter, v.STUN_TO_KNOCKDOWN) or state.has(fighter, v.THICK_SKULL)
    return DefenderSpec(
        ws=_profile(state, fighter, "ws", 3),
        toughness=toughness(state, fighter),
        wounds=fighter.wounds,
        strength=_profile(state, fighter, "s", 3),
        armour=tuple(i.slug for i in worn),
        weapons=tuple(held),
        status=fighter.status if fighter.status in DOWN else "standing",
        large=state.has(fighter, v.LARGE_TARGET),
        special_save=min(saves) if saves else None,
        first_wound_save=None if charm is None or CHARM_SPENT in fighter.spent else int(charm),
        stun_to_knockdown=bool(stun) and STUN_SPENT not in fighter.spent,
        hard_to_kill=state.has(fighter, v.HARDY),
        strength_against=-1 if melee and state.has(fighter, v.RESILIENT) else 0,
        missile_hit_modifier=0 if melee else -int(state.gear(fighter, v.MISSILE_HIT_PENALTY) or 0),
        items=setup.catalogue_items,
    )


def item_critical_bonus(state: BattleData, fighter: FighterState, kind: str) -> int:
    """An item's bonus to critical-hit rolls (hunting arrows), with the weapons of ``for_kinds``
    only (all of them, when it names none)."""
    bonus = state.gear(fighter, v.CRITICAL_BONUS)
    kinds = state.gear(fighter, v.FOR_KINDS)
    if not bonus or (isinstance(kinds, list) and kind not in kinds):
        return 0
    return int(bonus)


def missile(state: BattleData, fighter: FighterState, slug: str) -> Equipment:
    """The missile weapon he shoots with (``slug``, or the first he carries)."""
    carried = state.setups[fighter.id].carried(MISSILE)
    if not carried:
        raise TrackerError(
            _("%(fighter)s carries no missile weapon."),
            code="entry.invalid",
            field="weapon",
            fighter=fighter.name,
        )
    if not slug:
        return carried[0]
    chosen = next((w for w in carried if w.slug == slug), None)
    if chosen is None:
        raise _not_carried(fighter, slug)
    return chosen


def shooter_spec(
    state: BattleData,
    fighter: FighterState,
    weapon: Equipment,
    *,
    shots: int,
    distance_cm: float,
    modifiers: Mapping[str, Any],
) -> ShooterSpec:
    """How he shoots: his HP, the weapon's range (and eagle eyes), cover (a trick shooter
    ignores it), moving (a nimble shooter may still fire a move-or-fire weapon), hawk eyes
    beyond 45 cm, black venom, hunting arrows."""
    hawk = state.has(fighter, v.HAWK_EYES) and distance_cm > HAWK_EYES_FROM_CM
    return ShooterSpec(
        bs=_profile(state, fighter, "bs", 3),
        weapon=weapon.slug,
        strength=_profile(state, fighter, "s", 3),
        shots=shots,
        distance_cm=distance_cm,
        cover=bool(modifiers.get("cover")) and not state.has(fighter, v.TRICK_SHOOTER),
        moved=bool(modifiers.get("moved")),
        to_hit_modifier=1 if hawk else 0,
        range_bonus_cm=EAGLE_EYES_CM if state.has(fighter, v.EAGLE_EYES) else 0,
        moves_and_fires=state.has(fighter, v.NIMBLE),
        to_wound_modifier=int(state.gear(fighter, v.TO_WOUND_BONUS) or 0),
        critical_bonus=item_critical_bonus(state, fighter, MISSILE),
        items=state.setups[fighter.id].catalogue_items,
    )
