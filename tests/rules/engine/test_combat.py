"""Close combat and shooting resolved with fixed faces, traced by hand."""

import json

import pytest

from rules.engine import (
    AttackerSpec,
    Combatant,
    DefenderSpec,
    Dice,
    RuleOptions,
    ShooterSpec,
    SpecError,
    resolve_attack,
    resolve_automatic_hits,
    resolve_phase,
    resolve_shooting,
    spec_from_dict,
    strike_order,
)
from rules.engine.combat import melee_plan, shooting_plan

HUMAN = AttackerSpec()
TARGET = DefenderSpec()


def codes(result):
    return [step.code for step in result.steps]


# Armadura: Mablung in heavy armour with a shield saves on 4+ against a long bow (F3).
def test_mablung_heavy_armour_and_shield_save_on_four_against_long_bow():
    mablung = DefenderSpec(armour=("armadura-pesada", "escudo"))
    assert mablung.armour_save() == 4
    plan = shooting_plan(ShooterSpec(weapon="arco-largo", distance_cm=30), mablung)
    assert plan.groups[0][2].save == 4
    saved = resolve_shooting(
        ShooterSpec(weapon="arco-largo", distance_cm=30), mablung, dice=Dice(faces=[4, 4, 4])
    )
    assert saved.outcome == "unharmed" and "save.success" in codes(saved)
    hurt = resolve_shooting(
        ShooterSpec(weapon="arco-largo", distance_cm=30), mablung, dice=Dice(faces=[4, 4, 3, 5])
    )
    assert hurt.outcome == "out_of_action" and hurt.injuries == ("out_of_action",)


@pytest.mark.parametrize(
    ("armour", "save"),
    [
        ((), None),
        (("escudo",), 6),
        (("armadura-ligera",), 6),
        (("armadura-ligera", "escudo"), 5),
        (("armadura-pesada",), 5),
        (("armadura-enana",), 4),
        (("cota-de-mithril",), 3),
        (("cota-de-mithril", "escudo"), 2),
    ],
)
def test_armour_saves(armour, save):
    assert DefenderSpec(armour=armour).armour_save() == save


def test_strength_and_weapon_modifiers_to_the_save():
    heavy = DefenderSpec(armour=("armadura-pesada", "escudo"))  # 4+
    assert melee_plan(AttackerSpec(strength=4), heavy).groups[0][2].save == 5
    assert melee_plan(AttackerSpec(strength=4, weapon="hacha"), heavy).groups[0][2].save == 6
    assert melee_plan(AttackerSpec(strength=5, weapon="hacha"), heavy).groups[0][2].save is None
    assert (
        melee_plan(AttackerSpec(strength=3, weapon="daga"), DefenderSpec()).groups[0][2].save == 6
    )
    assert melee_plan(AttackerSpec(strength=3, weapon="daga"), heavy).groups[0][2].save == 3
    mithril = DefenderSpec(armour=("cota-de-mithril", "escudo"))
    assert melee_plan(AttackerSpec(strength=3, weapon="daga"), mithril).groups[0][2].save == 2
    elf_bow = shooting_plan(ShooterSpec(weapon="arco-elfico", distance_cm=10), heavy)
    assert elf_bow.groups[0][2].save == 5


# Parada.
def test_parry_beats_the_highest_hit_and_removes_it():
    result = resolve_phase(
        AttackerSpec(attacks=2), DefenderSpec(weapons=("espada",)), dice=Dice(faces=[5, 4, 6, 4, 3])
    )
    assert result.hits == 2 and result.parried is True
    assert result.wounding_hits == 1 and result.outcome == "stunned"
    assert "parry.success" in codes(result)


def test_a_six_to_hit_cannot_be_parried():
    result = resolve_phase(
        AttackerSpec(attacks=2), DefenderSpec(weapons=("espada",)), dice=Dice(faces=[6, 4, 1, 1])
    )
    assert result.parried is False and "parry.impossible" in codes(result)
    assert len(result.rolls) == 4


def test_parry_must_beat_not_equal_the_hit():
    result = resolve_phase(HUMAN, DefenderSpec(weapons=("espada",)), dice=Dice(faces=[4, 4, 1]))
    assert result.parried is False and "parry.failure" in codes(result)


def test_sword_and_buckler_reroll_a_failed_parry_once():
    defender = DefenderSpec(weapons=("espada",), armour=("escudo-pequeno",))
    assert defender.parry_mode == "reroll"
    result = resolve_phase(HUMAN, defender, dice=Dice(faces=[4, 2, 5]))
    assert result.parried is True and result.rolls[2].reroll_of == 1
    assert result.outcome == "unharmed"


def test_two_swords_still_parry_once():
    assert DefenderSpec(weapons=("espada", "espada")).parry_mode == "single"
    assert DefenderSpec(armour=("escudo-pequeno",)).parry_mode == "single"
    assert DefenderSpec().parry_mode == "none"
    assert DefenderSpec(weapons=("espada",), parry="none").parry_mode == "none"


def test_strength_double_the_parrier_cannot_be_parried():
    result = resolve_phase(
        AttackerSpec(strength=6), DefenderSpec(weapons=("espada",)), dice=Dice(faces=[4, 2, 1])
    )
    assert "parry.too_strong" in codes(result) and result.outcome == "knocked_down"


# Impactos críticos.
def test_only_the_first_six_is_a_critical_in_a_phase():
    # hits 4, 4; wounds 6 (critical: 3 exposed, 2 wounds) and 6 (a normal wound); injuries 1, 1, 2.
    # The dice of a step come together, as at the table: both to-wound dice, then the critical.
    result = resolve_phase(
        AttackerSpec(attacks=2), TARGET, dice=Dice(faces=[4, 4, 6, 6, 3, 1, 1, 2])
    )
    assert result.criticals == ("exposed",)
    assert result.wounds_lost == 3 and result.injuries == ("knocked_down",) * 3
    assert result.outcome == "knocked_down"


def test_criticals_without_the_one_per_phase_limit():
    rules = RuleOptions(one_critical_per_phase=False)
    result = resolve_phase(
        AttackerSpec(attacks=2),
        TARGET,
        dice=Dice(faces=[4, 4, 6, 6, 3, 4, 1, 1, 1, 1]),
        rules=rules,
    )
    assert result.criticals == ("exposed", "exposed") and result.wounds_lost == 4


def test_no_critical_when_a_six_was_needed():
    result = resolve_phase(
        AttackerSpec(strength=3), DefenderSpec(toughness=5), dice=Dice(faces=[4, 6, 5])
    )
    assert result.criticals == () and result.outcome == "out_of_action"


def test_vital_critical_save_before_doubling():
    defender = DefenderSpec(armour=("armadura-ligera", "escudo"))
    result = resolve_phase(HUMAN, defender, dice=Dice(faces=[4, 6, 1, 5]))
    assert (
        result.criticals == ("vital",) and result.outcome == "unharmed" and result.wounds_lost == 0
    )
    hurt = resolve_phase(HUMAN, defender, dice=Dice(faces=[4, 6, 2, 4, 1, 3]))
    assert hurt.wounds_lost == 2 and hurt.outcome == "stunned"


def test_exposed_critical_ignores_armour():
    defender = DefenderSpec(armour=("cota-de-mithril", "escudo"))
    result = resolve_phase(HUMAN, defender, dice=Dice(faces=[4, 6, 4, 1, 1]))
    assert result.criticals == ("exposed",) and "save.success" not in codes(result)
    assert result.outcome == "knocked_down"


def test_master_strike_adds_two_to_injury_rolls():
    result = resolve_phase(HUMAN, TARGET, dice=Dice(faces=[4, 6, 6, 1, 1]))
    assert result.criticals == ("master",)
    assert result.injuries == ("stunned", "stunned")


# Derribado, aturdido, heridas múltiples.
def test_knocked_down_defender_is_hit_automatically_and_taken_out_by_a_wound():
    defender = DefenderSpec(status="knocked_down", weapons=("espada",))
    result = resolve_phase(AttackerSpec(attacks=2), defender, dice=Dice(faces=[4, 1]))
    assert result.outcome == "out_of_action" and result.hits == 2
    assert result.injuries == () and "parry.success" not in codes(result)


def test_knocked_down_defender_saved_wounds_leave_him_down():
    defender = DefenderSpec(status="knocked_down", armour=("armadura-pesada",))
    result = resolve_phase(HUMAN, defender, dice=Dice(faces=[4, 5]))
    assert result.outcome == "unharmed"


def test_stunned_defender_is_out_of_action_when_attacked():
    result = resolve_phase(HUMAN, DefenderSpec(status="stunned"), dice=Dice(faces=[]))
    assert result.outcome == "out_of_action" and result.rolls == ()


def test_defender_with_ws_zero_is_hit_automatically():
    result = resolve_phase(HUMAN, DefenderSpec(ws=0), dice=Dice(faces=[1]))
    assert result.hits == 1 and len(result.rolls) == 1


def test_multi_wound_defender_loses_wounds_then_rolls_injury():
    defender = DefenderSpec(wounds=2)
    result = resolve_phase(AttackerSpec(attacks=2), defender, dice=Dice(faces=[4, 5, 4, 4, 2]))
    assert result.wounds_lost == 2 and result.injuries == ("knocked_down",)
    one = resolve_phase(HUMAN, DefenderSpec(wounds=3), dice=Dice(faces=[4, 4]))
    assert one.outcome == "wounded" and one.wounds_lost == 1


def test_defender_already_at_zero_wounds_rolls_injury_for_each_wound():
    result = resolve_phase(HUMAN, DefenderSpec(wounds=0), dice=Dice(faces=[4, 4, 4]))
    assert result.outcome == "stunned"


def test_several_injuries_apply_the_highest():
    result = resolve_phase(AttackerSpec(attacks=2), TARGET, dice=Dice(faces=[4, 4, 4, 5, 5, 1]))
    assert (
        result.injuries == ("out_of_action", "knocked_down") and result.outcome == "out_of_action"
    )


def test_concussion_makes_a_two_stunned():
    plain = resolve_phase(HUMAN, TARGET, dice=Dice(faces=[4, 4, 2]))
    mace = resolve_phase(AttackerSpec(weapon="maza"), TARGET, dice=Dice(faces=[4, 4, 2]))
    assert plain.outcome == "knocked_down" and mace.outcome == "stunned"


def test_helmet_turns_stunned_into_knocked_down_on_four_plus():
    helmeted = DefenderSpec(armour=("yelmo",))
    saved = resolve_phase(HUMAN, helmeted, dice=Dice(faces=[4, 4, 3, 4]))
    failed = resolve_phase(HUMAN, helmeted, dice=Dice(faces=[4, 4, 3, 3]))
    assert saved.outcome == "knocked_down" and failed.outcome == "stunned"


# Odio, miedo, carga de un salto, armas.
def test_hatred_rerolls_misses_in_the_first_round():
    result = resolve_phase(AttackerSpec(hatred=True), TARGET, dice=Dice(faces=[2, 5, 1]))
    assert result.hits == 1 and result.rolls[1].reroll_of == 0
    later = resolve_phase(
        AttackerSpec(hatred=True, first_round=False), TARGET, dice=Dice(faces=[2])
    )
    assert later.hits == 0 and len(later.rolls) == 1


def test_failed_fear_needs_sixes_in_the_first_round():
    result = resolve_phase(
        AttackerSpec(attacks=2, fear_failed=True), TARGET, dice=Dice(faces=[5, 6, 1])
    )
    assert result.hits == 1


def test_diving_charge_adds_one_to_hit_and_strength():
    attacker = AttackerSpec(diving_charge=True)
    plan = melee_plan(attacker, TARGET)
    assert plan.groups[0][2].strength == 4 and plan.groups[0][1].modifier == 1
    result = resolve_phase(attacker, TARGET, dice=Dice(faces=[3, 3, 1]))
    assert result.hits == 1 and result.outcome == "knocked_down"


def test_natural_one_misses_even_with_bonuses_by_default():
    attacker = AttackerSpec(ws=5, diving_charge=True)
    assert resolve_phase(attacker, TARGET, dice=Dice(faces=[1])).hits == 0
    rules = RuleOptions(natural_one_misses=False)
    assert (
        resolve_phase(attacker, DefenderSpec(ws=1), dice=Dice(faces=[2, 1]), rules=rules).hits == 1
    )


@pytest.mark.parametrize(
    ("weapon", "first_round", "strength"),
    [
        (None, True, 3),
        ("alabarda", True, 4),
        ("mangual", True, 4),
        ("mangual", False, 3),
        ("lucero-del-alba", True, 4),
        ("mayal", True, 5),
        ("mayal", False, 3),
        ("arma-a-dos-manos", False, 5),
        ("lanza-de-caballeria", False, 5),
    ],
)
def test_weapon_strength(weapon, first_round, strength):
    plan = melee_plan(AttackerSpec(weapon=weapon, first_round=first_round), TARGET)
    assert plan.groups[0][2].strength == strength


def test_frenzy_doubles_attacks_and_the_second_weapon_adds_one_after():
    attacker = AttackerSpec(attacks=2, frenzy=True, offhand="daga")
    assert attacker.total_attacks == 5
    plan = melee_plan(attacker, TARGET)
    assert [(count, profile.weapon) for count, _hit, profile in plan.groups] == [
        (4, "arma-de-mano"),
        (1, "daga"),
    ]


def test_a_two_handed_weapon_leaves_no_hand_for_a_second_weapon():
    with pytest.raises(SpecError) as info:
        AttackerSpec(weapon="alabarda", offhand="daga")
    assert info.value.field == "offhand"


def test_resolve_attack_makes_one_attack():
    result = resolve_attack(AttackerSpec(attacks=3, frenzy=True), TARGET, dice=Dice(faces=[3]))
    assert result.attacks == 1 and result.hits == 0


def test_fleeing_from_combat_gives_automatic_hits():
    result = resolve_automatic_hits(
        [AttackerSpec(), AttackerSpec(strength=4)], TARGET, dice=Dice(faces=[4, 3, 1, 6])
    )
    assert result.hits == 2 and result.outcome == "out_of_action"


# Disparos.
def test_shooting_out_of_range_is_lost():
    result = resolve_shooting(
        ShooterSpec(weapon="arco-corto", distance_cm=41), TARGET, dice=Dice(faces=[])
    )
    assert result.outcome == "unharmed" and result.rolls == ()
    assert "shooting.out_of_range" in codes(result)


def test_shooting_modifiers_and_impossible_shots():
    plan = shooting_plan(
        ShooterSpec(weapon="arco", distance_cm=31, cover=True, moved=True), DefenderSpec(large=True)
    )
    assert plan.groups[0][1].modifier == -2
    impossible = shooting_plan(
        ShooterSpec(bs=3, weapon="arco", distance_cm=31, cover=True, moved=True), TARGET
    )
    assert impossible.groups[0][1].needed is None
    assert (
        resolve_shooting(
            ShooterSpec(bs=3, weapon="arco", distance_cm=31, cover=True, moved=True),
            TARGET,
            dice=Dice(faces=[]),
        ).hits
        == 0
    )


def test_shooting_needs_four_with_bs3_and_half_range_is_short():
    result = resolve_shooting(
        ShooterSpec(weapon="arco", distance_cm=30), TARGET, dice=Dice(faces=[4, 3])
    )
    assert result.hits == 1 and "shooting.long_range" not in codes(result)


def test_natural_one_always_misses_as_a_rule_option():
    sharp = ShooterSpec(bs=6, weapon="arco", distance_cm=10)
    assert resolve_shooting(sharp, TARGET, dice=Dice(faces=[1])).hits == 0
    off = RuleOptions(natural_one_misses=False)
    assert resolve_shooting(sharp, TARGET, dice=Dice(faces=[1, 1]), rules=off).hits == 1


def test_crossbow_cannot_move_and_fire():
    result = resolve_shooting(
        ShooterSpec(weapon="ballesta", moved=True, distance_cm=10), TARGET, dice=Dice(faces=[])
    )
    assert result.attacks == 0 and "shooting.move_or_fire" in codes(result)


def test_throwing_knives_use_the_user_strength_without_penalties():
    plan = shooting_plan(
        ShooterSpec(weapon="cuchillos-arrojadizos", strength=4, distance_cm=14, moved=True), TARGET
    )
    assert plan.groups[0][1].modifier == 0 and plan.groups[0][2].strength == 4


def test_bs_zero_cannot_shoot():
    assert resolve_shooting(ShooterSpec(bs=0), TARGET, dice=Dice(faces=[])).attacks == 0


# Quién ataca antes.
def test_strike_order_charger_first_then_initiative():
    order = strike_order(
        [Combatant("fast", 5), Combatant("charger", 2, charged=True), Combatant("slow", 1)],
        dice=Dice(faces=[]),
    )
    assert order.order == ("charger", "fast", "slow")


def test_strike_order_ties_roll_off_and_stood_up_is_last():
    result = strike_order(
        [Combatant("up", 9, stood_up=True), Combatant("a", 3), Combatant("b", 3)],
        dice=Dice(faces=[2, 5]),
    )
    assert result.order == ("b", "a", "up")
    assert len(result.rolls) == 2


def test_strike_order_tied_roll_off_is_rolled_again():
    result = strike_order([Combatant("a", 3), Combatant("b", 3)], dice=Dice(faces=[4, 4, 1, 6]))
    assert result.order == ("b", "a")


def test_spear_strikes_first_in_the_first_round_and_great_weapon_last():
    first = strike_order(
        [Combatant("sword", 5), Combatant("spear", 2, weapon="lanza")], dice=Dice(faces=[])
    )
    assert first.order == ("spear", "sword")
    later = strike_order(
        [Combatant("sword", 5), Combatant("spear", 2, weapon="lanza", first_round=False)],
        dice=Dice(faces=[]),
    )
    assert later.order == ("sword", "spear")
    great = strike_order(
        [Combatant("great", 6, weapon="arma-a-dos-manos", charged=True), Combatant("other", 1)],
        dice=Dice(faces=[]),
    )
    assert great.order == ("other", "great")


# Specs.
def test_specs_validate_and_build_from_json():
    with pytest.raises(SpecError) as info:
        DefenderSpec(toughness=0)
    assert info.value.field == "toughness"
    with pytest.raises(SpecError):
        DefenderSpec(armour=("espada",))
    with pytest.raises(SpecError):
        AttackerSpec(weapon="arco")
    with pytest.raises(SpecError):
        DefenderSpec(status="asleep")
    defender = spec_from_dict(DefenderSpec, {"toughness": 4, "armour": ["armadura-ligera"]})
    assert defender.armour == ("armadura-ligera",)
    with pytest.raises(SpecError) as info:
        spec_from_dict(AttackerSpec, {"strenght": 4})
    assert info.value.field == "strenght"


def test_phase_result_to_dict_is_json_and_explains_itself():
    result = resolve_phase(
        AttackerSpec(attacks=2), DefenderSpec(weapons=("espada",)), dice=Dice(faces=[5, 4, 6, 4, 3])
    )
    data = json.loads(json.dumps(result.to_dict()))
    assert data["outcome"] == "stunned"
    assert [roll["purpose"] for roll in data["rolls"]] == [
        "to hit",
        "to hit",
        "parry",
        "to wound",
        "injury",
    ]
    assert all(step["message"] % step["params"] for step in data["steps"])
