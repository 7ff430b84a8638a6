"""One vocabulary of special rules: every key a warrior can carry, declared once.

A warrior's rules come from his fighter type (``special_rules``), his skills (by their slug),
the injuries of the post-battle sequence (``special_rule`` effects) and the items he carries
(the keys of an item's ``rules`` data). Each key is declared here once, with its label (an
English msgid; the Spanish is in the catalogue) and the engine steps that read it, or none:
then the players apply it, and the table page shows it beside the warrior.

* :data:`RULES` — keys a warrior carries (fighter types, skills, injuries);
* :data:`ITEM_KEYS` — the keys of an item's ``rules`` data;
* :data:`STEPS` — the engine steps that read keys, with their labels;
* :func:`rule` / :func:`item_key` — a declaration by key (``hatred:that_warband`` is ``hatred``
  aimed at someone: :func:`base_key`); :func:`unknown_rules` / :func:`unknown_item_keys` — what
  a content pack gives that nobody declared;
* :func:`effective_rules` — a warrior's keys with what his skills and items grant.

Adding a key: declare it here with the steps that read it (and make those steps read it, with a
test), add its Spanish label to the catalogue. A key no step reads is the players': declare it
with ``steps=()`` and a note saying what they do.
"""

from __future__ import annotations

from collections.abc import Iterable, Mapping
from dataclasses import dataclass
from typing import Any

from rules.engine.i18n import gettext_noop as _

# Steps of the engine that read keys -----------------------------------------------------------
SETUP = "setup"
FEAR_TESTS = "fear"
PSYCHOLOGY = "psychology"
LEADERSHIP = "leadership"
ROUT = "rout"
RECOVERY = "recovery"
STRIKE_ORDER = "strike-order"
CLOSE_COMBAT = "close-combat"
WOUNDS = "wounds"
INJURIES = "injuries"
SHOOTING = "shooting"
LOADOUT = "loadout"
POSTBATTLE = "postbattle"

STEPS: dict[str, str] = {
    SETUP: _("the battle's setup (profile and rules)"),
    FEAR_TESTS: _("fear tests"),
    PSYCHOLOGY: _("psychology tests (all alone, stupidity)"),
    LEADERSHIP: _("Leadership tests"),
    ROUT: _("the rout test"),
    RECOVERY: _("the recovery phase"),
    STRIKE_ORDER: _("the strike order"),
    CLOSE_COMBAT: _("close-combat attacks"),
    WOUNDS: _("to-wound rolls, criticals and saves"),
    INJURIES: _("injury rolls"),
    SHOOTING: _("shooting"),
    LOADOUT: _("buying and carrying equipment"),
    POSTBATTLE: _("the post-battle sequence"),
}

# Keys the engine reads by name ---------------------------------------------------------------
HATRED = "hatred"
FEAR = "fear"
STUPIDITY = "stupidity"
FRENZY = "frenzy"
IMMUNE_FEAR = "immune-fear"
IMMUNE_PSYCHOLOGY = "immune-psychology"
LARGE_TARGET = "large-target"
REGENERATION = "regeneration"
HARDY = "hardy"
ARM_LOST = "arm_lost"
BLINDED = "blinded_in_one_eye"
# skills (by their catalogue slug)
STRIKE_TO_INJURE = "golpe-a-matar"
COMBAT_MASTER = "maestro-de-combate"
WEB_OF_STEEL = "red-de-acero"
EXPERT_SWORDSMAN = "espadachin-experto"
STEP_ASIDE = "esquivar-golpes"
QUICK_SHOT = "disparo-rapido"
EAGLE_EYES = "ojo-de-aguila"
NIMBLE = "agil"
TRICK_SHOOTER = "tirador-certero"
BATTLE_TONGUE = "lengua-de-batalla"
MIGHTY_BLOW = "golpe-poderoso"
RESILIENT = "resistente"
FEARSOME = "temible"
STRONGMAN = "forzudo"
UNSTOPPABLE_CHARGE = "carga-imparable"
LIGHTNING_REFLEXES = "reflejos-rapidos"
JUMP_UP = "levantarse-de-un-salto"
LINEAGE = "linaje-de-numenor"
HAWK_EYES = "ojos-de-halcon"
THICK_SKULL = "cabeza-dura"
GRUDGE = "rencor-ancestral"
TERROR_OF_ANGMAR = "terror-de-angmar"
WITCH_KING_SERVANT = "siervo-del-rey-brujo"
BRUTALITY = "brutalidad"
# item keys
MISSILE_HIT_PENALTY = "missile_hit_penalty"
FIRST_WOUND_SAVE = "first_wound_save"
TO_WOUND_BONUS = "to_wound_bonus"
CRITICAL_BONUS = "critical_bonus"
REROLL_ROUT = "reroll_rout_test"
REROLL_LEADERSHIP = "reroll_leadership_cm"
REROLL_FIRST_FEAR = "reroll_first_fear_test"
ENEMY_LEADERSHIP_PENALTY = "enemy_leadership_penalty"
STAND_UP_FREE = "stand_up_free"
GRANTS_RULE = "grants_rule"
IMMUNE_FEAR_FIRST_ROUND = "immune_fear_first_round"
STUN_TO_KNOCKDOWN = "stunned_becomes_knocked_down"
SPECIAL_SAVE = "special_save"
TOUGHNESS_BONUS = "toughness_bonus"
FOR_KINDS = "for_kinds"
ONCE_PER_BATTLE = "once_per_battle"

TARGETED = ":"
"""``hatred:that_warband``: a key aimed at someone (the part after the colon)."""


@dataclass(frozen=True)
class Rule:
    """A special-rule key: ``label`` (msgid), ``steps`` that read it (empty: the players apply
    it), ``grants`` (the keys it gives: a skill that causes fear grants ``fear``), ``note`` (what
    the players do, when some of it is theirs), ``source`` (where it comes from)."""

    key: str
    label: str
    source: str
    steps: tuple[str, ...] = ()
    grants: tuple[str, ...] = ()
    note: str = ""

    @property
    def players(self) -> bool:
        """Nothing in the engine reads it: the players apply it at the table."""
        return not self.steps and not self.grants

    def to_dict(self) -> dict[str, Any]:
        return {
            "key": self.key,
            "label": self.label,
            "source": self.source,
            "steps": list(self.steps),
            "grants": list(self.grants),
            "players": self.players,
            "note": self.note,
        }


def _rules(*rows: Rule) -> dict[str, Rule]:
    return {row.key: row for row in rows}


FIGHTER, SKILL, INJURY, ITEM = "fighter", "skill", "injury", "item"

RULES: dict[str, Rule] = _rules(
    # Fighter types' rules (and some injuries give the same keys).
    Rule(
        HATRED,
        _("Hatred"),
        FIGHTER,
        (CLOSE_COMBAT,),
        note=_("Aimed at someone (bitter enmity): tick it when he fights the hated enemy."),
    ),
    Rule(FEAR, _("Causes fear"), FIGHTER, (FEAR_TESTS,)),
    Rule(STUPIDITY, _("Stupidity"), FIGHTER, (PSYCHOLOGY,)),
    Rule(
        FRENZY,
        _("Frenzy"),
        FIGHTER,
        (CLOSE_COMBAT, FEAR_TESTS, PSYCHOLOGY),
        note=_("He must charge any enemy within charge range."),
    ),
    Rule(IMMUNE_FEAR, _("Immune to fear"), FIGHTER, (FEAR_TESTS,)),
    Rule(IMMUNE_PSYCHOLOGY, _("Immune to psychology"), FIGHTER, (FEAR_TESTS, PSYCHOLOGY)),
    Rule(LARGE_TARGET, _("Large target"), FIGHTER, (SHOOTING,)),
    Rule(REGENERATION, _("Regeneration"), FIGHTER, (WOUNDS,)),
    Rule(HARDY, _("Hard to kill"), FIGHTER, (INJURIES,)),
    Rule("animal", _("Animal"), FIGHTER, note=_("No experience, no equipment, never the leader.")),
    Rule("animosity", _("Animosity"), FIGHTER),
    Rule("dunedain-blood", _("Blood of Númenor"), FIGHTER),
    Rule("elven-sight", _("Elven sight"), FIGHTER),
    Rule("no-fear-of-dark", _("Sons of the mountain"), FIGHTER),
    Rule("sunlight-weakness", _("Hatred of sunlight"), FIGHTER),
    Rule("bloodlust", _("Bloodlust"), FIGHTER),
    Rule("ranger-of-the-north", _("Ranger of the North"), FIGHTER),
    Rule("scout", _("Scout"), FIGHTER),
    Rule("halfling-stealth", _("Halfling stealth"), FIGHTER),
    Rule("healer", _("Healer"), FIGHTER),
    # Injuries of the post-battle sequence.
    Rule(ARM_LOST, _("Arm lost"), INJURY, (CLOSE_COMBAT,)),
    Rule("cannot_run", _("Cannot run"), INJURY, note=_("He may still charge.")),
    Rule(BLINDED, _("Blinded in one eye"), INJURY, (POSTBATTLE,)),
    Rule(
        "old_battle_wound",
        _("Old battle wound"),
        INJURY,
        note=_("Before each battle, a D6: on a 1 he cannot fight."),
    ),
    # Skills, by their slug in the catalogue.
    Rule(STRIKE_TO_INJURE, _("Strike to injure"), SKILL, (INJURIES,)),
    Rule(COMBAT_MASTER, _("Combat master"), SKILL, (CLOSE_COMBAT,)),
    Rule(
        "entrenamiento-con-armas",
        _("Weapons training"),
        SKILL,
        note=_("He may buy and use any close-combat weapon."),
    ),
    Rule(WEB_OF_STEEL, _("Web of steel"), SKILL, (WOUNDS,)),
    Rule(EXPERT_SWORDSMAN, _("Expert swordsman"), SKILL, (CLOSE_COMBAT,)),
    Rule(STEP_ASIDE, _("Step aside"), SKILL, (WOUNDS,)),
    Rule(QUICK_SHOT, _("Quick shot"), SKILL, (SHOOTING,)),
    Rule(EAGLE_EYES, _("Eagle eyes"), SKILL, (SHOOTING,)),
    Rule(
        "experto-en-armas",
        _("Weapons expert"),
        SKILL,
        note=_("He may buy and use any missile weapon."),
    ),
    Rule(NIMBLE, _("Nimble"), SKILL, (SHOOTING,)),
    Rule(TRICK_SHOOTER, _("Trick shooter"), SKILL, (SHOOTING,)),
    Rule("cazador", _("Hunter"), SKILL),
    Rule(BATTLE_TONGUE, _("Battle tongue"), SKILL, (LEADERSHIP,)),
    Rule("conocedor-de-las-ruinas", _("Ruin-wise"), SKILL),
    Rule("regatear", _("Haggle"), SKILL),
    Rule("buscador-de-hallazgos", _("Seeker of finds"), SKILL),
    Rule("estratega", _("Tactician"), SKILL),
    Rule(MIGHTY_BLOW, _("Mighty blow"), SKILL, (CLOSE_COMBAT,)),
    Rule("luchador-de-foso", _("Pit fighter"), SKILL, note=_("Inside ruins and buildings.")),
    Rule(RESILIENT, _("Resilient"), SKILL, (CLOSE_COMBAT,)),
    Rule(FEARSOME, _("Fearsome"), SKILL, grants=(FEAR,)),
    Rule(STRONGMAN, _("Strongman"), SKILL, (STRIKE_ORDER,)),
    Rule(UNSTOPPABLE_CHARGE, _("Unstoppable charge"), SKILL, (STRIKE_ORDER,)),
    Rule("salto", _("Leap"), SKILL),
    Rule("esprintar", _("Sprint"), SKILL),
    Rule("acrobata", _("Acrobat"), SKILL),
    Rule(LIGHTNING_REFLEXES, _("Lightning reflexes"), SKILL, (STRIKE_ORDER,)),
    Rule(JUMP_UP, _("Jump up"), SKILL, (RECOVERY,)),
    Rule("escalador", _("Scale sheer surfaces"), SKILL),
    Rule(LINEAGE, _("Lineage of Númenor"), SKILL, (SETUP,)),
    Rule("montaraz", _("Ranger"), SKILL),
    Rule("vista-lejana", _("Far sight"), SKILL),
    Rule("cancion-de-elbereth", _("Song of Elbereth"), SKILL),
    Rule("paso-sin-huella", _("Traceless step"), SKILL),
    Rule(HAWK_EYES, _("Hawk eyes"), SKILL, (SHOOTING,)),
    Rule(THICK_SKULL, _("Thick skull"), SKILL, (INJURIES,)),
    Rule(GRUDGE, _("Ancestral grudge"), SKILL, (CLOSE_COMBAT,)),
    Rule("minero-experto", _("Expert miner"), SKILL),
    Rule(TERROR_OF_ANGMAR, _("Terror of Angmar"), SKILL, grants=(FEAR,)),
    Rule(WITCH_KING_SERVANT, _("Servant of the Witch-king"), SKILL, (ROUT,), (IMMUNE_FEAR,)),
    Rule("conjuro-de-sombra", _("Shadow spell"), SKILL),
    Rule(BRUTALITY, _("Brutality"), SKILL, (CLOSE_COMBAT,)),
    Rule("rugido-de-guerra", _("War roar"), SKILL),
    Rule("latigo-del-capataz", _("Overseer's whip"), SKILL),
)
"""Every special-rule key a warrior may carry."""


@dataclass(frozen=True)
class ItemKey:
    """A key of an item's ``rules`` data: ``label``, ``steps`` that read it, ``note``."""

    key: str
    label: str
    steps: tuple[str, ...] = ()
    note: str = ""

    @property
    def players(self) -> bool:
        return not self.steps

    def to_dict(self) -> dict[str, Any]:
        return {
            "key": self.key,
            "label": self.label,
            "steps": list(self.steps),
            "players": self.players,
            "note": self.note,
        }


def _item_keys(*rows: ItemKey) -> dict[str, ItemKey]:
    return {row.key: row for row in rows}


ITEM_KEYS: dict[str, ItemKey] = _item_keys(
    # What a weapon or an armour is (rules.engine.equipment.Equipment reads these).
    ItemKey("strength", _("Strength"), (SHOOTING,)),
    ItemKey("range_cm", _("Range (cm)"), (SHOOTING, LEADERSHIP)),
    ItemKey("strength_bonus", _("Strength bonus"), (CLOSE_COMBAT,)),
    ItemKey("strength_bonus_first_round", _("Strength bonus in the first round"), (CLOSE_COMBAT,)),
    ItemKey("enemy_save_bonus", _("The enemy's save improves"), (WOUNDS,)),
    ItemKey("save_modifier", _("Save modifier"), (WOUNDS,)),
    ItemKey("parry", _("Parry"), (CLOSE_COMBAT,)),
    ItemKey("buckler", _("Buckler"), (CLOSE_COMBAT, LOADOUT)),
    ItemKey("concussion", _("Concussion"), (INJURIES,)),
    ItemKey("strikes_first_first_round", _("Strikes first in the first round"), (STRIKE_ORDER,)),
    ItemKey("strikes_last", _("Always strikes last"), (STRIKE_ORDER,)),
    ItemKey("two_handed", _("Two-handed"), (CLOSE_COMBAT, LOADOUT)),
    ItemKey("no_second_weapon", _("No second weapon"), (CLOSE_COMBAT, LOADOUT)),
    ItemKey("no_buckler", _("No buckler"), (CLOSE_COMBAT, LOADOUT)),
    ItemKey("mounted_only", _("Mounted only"), (LOADOUT,)),
    ItemKey("uses_user_strength", _("Uses the thrower's strength"), (SHOOTING,)),
    ItemKey("no_range_or_move_penalties", _("No penalty for range or moving"), (SHOOTING,)),
    ItemKey("move_or_fire", _("Move or fire"), (SHOOTING,)),
    ItemKey("save", _("Armour save"), (WOUNDS,)),
    ItemKey("save_bonus", _("Save bonus (shield)"), (WOUNDS,)),
    ItemKey(
        "movement_penalty_cm_with_shield",
        _("Movement penalty with a shield"),
        (),
        _("He moves that much less when he also carries a shield."),
    ),
    ItemKey("special_save_vs_stun", _("Special save against being stunned"), (INJURIES,)),
    ItemKey("first_free", _("The first one is free"), (LOADOUT,)),
    # Rare items.
    ItemKey(MISSILE_HIT_PENALTY, _("Harder to hit with missiles"), (SHOOTING,)),
    ItemKey(STUN_TO_KNOCKDOWN, _("Ignores one stunned result"), (INJURIES,)),
    ItemKey(FIRST_WOUND_SAVE, _("Ignores the first wound"), (WOUNDS,)),
    ItemKey(CRITICAL_BONUS, _("Critical hit bonus"), (WOUNDS,)),
    ItemKey(FOR_KINDS, _("Only with these weapons"), (WOUNDS,)),
    ItemKey(ONCE_PER_BATTLE, _("Once per battle"), (LEADERSHIP,)),
    ItemKey(TO_WOUND_BONUS, _("To-wound bonus"), (WOUNDS,)),
    ItemKey(REROLL_ROUT, _("Re-rolls the first failed rout test"), (ROUT,)),
    ItemKey(REROLL_LEADERSHIP, _("Friends re-roll a failed Leadership test"), (LEADERSHIP,)),
    ItemKey(REROLL_FIRST_FEAR, _("Re-rolls the first failed fear test"), (FEAR_TESTS,)),
    ItemKey(ENEMY_LEADERSHIP_PENALTY, _("Enemies nearby lose Leadership"), (FEAR_TESTS, ROUT)),
    ItemKey(STAND_UP_FREE, _("Stands up without losing his action"), (RECOVERY,)),
    ItemKey(GRANTS_RULE, _("Grants a special rule"), (SETUP,)),
    ItemKey(IMMUNE_FEAR_FIRST_ROUND, _("Immune to fear in the first round"), (FEAR_TESTS,)),
    ItemKey(SPECIAL_SAVE, _("Special save"), (WOUNDS,)),
    ItemKey(TOUGHNESS_BONUS, _("Toughness bonus"), (SETUP,)),
    ItemKey("single_use", _("One use"), (), _("Strike it from the sheet once used.")),
    ItemKey(
        "single_battle", _("For one battle"), (), _("Strike it from the sheet after the battle.")
    ),
    ItemKey("reroll_serious_injury", _("Re-roll a serious injury"), (), _("After the battle.")),
    ItemKey("reroll_climb", _("Re-rolls failed climbing tests"), ()),
    ItemKey(
        "extra_wound_on",
        _("Fire arrows"),
        (),
        _("A wounding shot: on this roll or more, another wound; a to-hit 1 burns the archer."),
    ),
    ItemKey("detect_hidden_multiplier", _("Spots hidden enemies further"), ()),
    ItemKey(
        "wound_bonus_against",
        _("To-wound bonus against a faction"),
        (),
        _("+1 to wound the warriors of that faction's warbands."),
    ),
)
"""Every key an item's ``rules`` data may hold."""


def base_key(key: str) -> str:
    """``hatred:that_warband`` → ``hatred``."""
    return key.split(TARGETED, 1)[0]


def rule(key: str) -> Rule | None:
    return RULES.get(base_key(key))


def item_key(key: str) -> ItemKey | None:
    return ITEM_KEYS.get(key)


def unknown_rules(keys: Iterable[str]) -> list[str]:
    """The keys nobody declared, in order."""
    return [key for key in keys if rule(key) is None]


def unknown_item_keys(data: Mapping[str, Any]) -> list[str]:
    return [key for key in data if key not in ITEM_KEYS]


def effective_rules(
    rules: Iterable[str], items: Iterable[Mapping[str, Any]] = ()
) -> frozenset[str]:
    """A warrior's keys, with what his skills grant and the rules his items grant
    (``grants_rule``: the mad-cap mushrooms make him frenzied)."""
    keys = set(rules)
    for item in items:
        granted = (item.get("rules") or {}).get(GRANTS_RULE)
        if isinstance(granted, str):
            keys.add(granted)
    for key in list(keys):
        declared = rule(key)
        if declared is not None:
            keys.update(declared.grants)
    return frozenset(keys)


def targeted(rules: Iterable[str], key: str) -> list[str]:
    """The targets of ``key`` among ``rules``: ``hatred:that_warband`` → ``["that_warband"]``."""
    prefix = key + TARGETED
    return [r[len(prefix) :] for r in rules if r.startswith(prefix)]


def catalogue() -> dict[str, Any]:
    """Every declaration as JSON (the API's ``/rules/vocabulary/``)."""
    return {
        "steps": dict(STEPS),
        "rules": [row.to_dict() for row in RULES.values()],
        "item_keys": [row.to_dict() for row in ITEM_KEYS.values()],
    }
