"""Post-battle tables, every entry and sub-roll with fixed faces."""

import json

import pytest

from rules.engine import (
    Dice,
    Profile,
    RulesError,
    SpecError,
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
from rules.engine.postbattle import (
    Effect,
    EffectKind,
    RareItem,
    characteristic_advance,
    injury_label,
    rare_items,
)

HUMAN = Profile(10, 3, 3, 3, 3, 1, 3, 1, 7)


@pytest.mark.parametrize(("face", "outcome"), [(1, "dead"), (2, "dead"), (3, "fine"), (6, "fine")])
def test_henchman_injury(face, outcome):
    result = henchman_injury(dice=Dice(faces=[face]))
    assert result.outcome == outcome
    expected = ({"type": "dead"}, {"type": "lose_equipment"}) if outcome == "dead" else ()
    assert result.effects == expected


def _injury(*faces, **kwargs):
    return serious_injury(dice=Dice(faces=list(faces)), **kwargs)


@pytest.mark.parametrize(
    ("faces", "outcome", "effects"),
    [
        ((1, 1), "dead", [{"type": "dead"}, {"type": "lose_equipment"}]),
        ((1, 5), "dead", [{"type": "dead"}, {"type": "lose_equipment"}]),
        ((2, 2), "leg_wound", [{"type": "characteristic", "field": "m", "delta": -2.5}]),
        ((2, 3, 1), "arm_wound", [{"type": "special_rule", "rule": "arm_lost"}]),
        ((2, 3, 2), "arm_wound", [{"type": "misses_battles", "count": 1}]),
        ((2, 4, 3), "madness", [{"type": "special_rule", "rule": "stupidity"}]),
        ((2, 4, 4), "madness", [{"type": "special_rule", "rule": "frenzy"}]),
        ((2, 5, 1), "smashed_leg", [{"type": "special_rule", "rule": "cannot_run"}]),
        ((2, 5, 6), "smashed_leg", [{"type": "misses_battles", "count": 1}]),
        ((2, 6), "chest_wound", [{"type": "characteristic", "field": "t", "delta": -1}]),
        (
            (3, 1),
            "blinded_in_one_eye",
            [
                {"type": "characteristic", "field": "bs", "delta": -1},
                {"type": "special_rule", "rule": "blinded_in_one_eye", "second_time": "retires"},
            ],
        ),
        ((3, 2), "old_battle_wound", [{"type": "special_rule", "rule": "old_battle_wound"}]),
        ((3, 3), "nervous_condition", [{"type": "characteristic", "field": "i", "delta": -1}]),
        ((3, 4), "hand_injury", [{"type": "characteristic", "field": "ws", "delta": -1}]),
        ((3, 5, 3), "deep_wound", [{"type": "misses_battles", "count": 3}]),
        ((3, 6), "robbed", [{"type": "lose_equipment"}]),
        ((4, 1), "full_recovery", []),
        ((5, 5), "full_recovery", []),
        (
            (5, 6, 2),
            "bitter_enmity",
            [{"type": "special_rule", "rule": "hatred", "target": "the_injurer"}],
        ),
        (
            (5, 6, 4),
            "bitter_enmity",
            [{"type": "special_rule", "rule": "hatred", "target": "that_leader"}],
        ),
        (
            (5, 6, 5),
            "bitter_enmity",
            [{"type": "special_rule", "rule": "hatred", "target": "that_warband"}],
        ),
        (
            (5, 6, 6),
            "bitter_enmity",
            [{"type": "special_rule", "rule": "hatred", "target": "every_warband_of_that_type"}],
        ),
        ((6, 1, 4), "captured", [{"type": "captured", "sale_value": 20}]),
        ((6, 2), "hardened", [{"type": "special_rule", "rule": "immune-fear"}]),
        ((6, 3), "hardened", [{"type": "special_rule", "rule": "immune-fear"}]),
        ((6, 4), "horrible_scars", [{"type": "special_rule", "rule": "fear"}]),
        ((6, 6), "survives_against_the_odds", [{"type": "experience", "amount": 1}]),
    ],
)
def test_serious_injury_entries(faces, outcome, effects):
    result = _injury(*faces)
    assert result.outcome == outcome
    assert list(result.effects) == effects
    assert len(result.rolls) == len(faces) - (1 if len(faces) >= 2 else 0)


def test_captured_offers_ransom_exchange_or_sale():
    result = _injury(6, 1, 6)
    assert result.pending_choices == (
        {"type": "captive", "options": ["ransom", "exchange", "sell"], "sale_value": 30},
    )


def test_multiple_injuries_rerolls_dead_captured_and_multiple():
    # 16: multiple, D6 = 2 more rolls: 11 dead (re-rolled), 61 captured (re-rolled), 21 multiple
    # (re-rolled), 22 leg wound; then 33 nervous condition.
    result = _injury(1, 6, 2, 1, 1, 6, 1, 2, 1, 2, 2, 3, 3)
    assert result.outcome == "multiple_injuries"
    assert [sub["outcome"] for sub in result.details["injuries"]] == [
        "leg_wound",
        "nervous_condition",
    ]
    assert {effect["field"] for effect in result.effects} == {"m", "i"}
    assert sum(1 for step in result.steps if step.code == "serious_injury.reroll") == 3


def test_sold_to_the_pits_won_by_input_or_d6():
    won = _injury(6, 5, pit_fight_won=True)
    assert won.effects == ({"type": "gold", "amount": 50}, {"type": "experience", "amount": 2})
    rolled = _injury(6, 5, 4)
    assert rolled.details["pit_fight_won"] is True and len(rolled.rolls) == 2


def test_sold_to_the_pits_lost_rolls_d66_on_11_to_35_and_loses_gear():
    # pit fight D6 3: lost; D66 36 (robbed, above 35) rolled again; 26 chest wound.
    result = _injury(6, 5, 3, 3, 6, 2, 6)
    assert result.details["pit_fight_won"] is False
    assert result.details["pit_injury"]["outcome"] == "chest_wound"
    assert result.effects == (
        {"type": "lose_equipment"},
        {"type": "characteristic", "field": "t", "delta": -1},
    )


def test_serious_injury_with_a_custom_table():
    table = ({"min": 11, "max": 66, "result": "full_recovery"},)
    assert _injury(1, 1, table=table).outcome == "full_recovery"


# Experience.
def test_experience_for_a_hero_and_a_henchman_group():
    hero = battle_experience(
        hero=True, survived=True, leader=True, won=True, enemies_out_of_action=2, scenario_bonus=1
    )
    assert hero.details["experience"] == 5
    assert hero.details["breakdown"] == {
        "survived": 1,
        "winning_leader": 1,
        "enemies_out_of_action": 2,
        "scenario": 1,
    }
    group = battle_experience(hero=False, survived=True, enemies_out_of_action=3)
    assert group.details["experience"] == 1
    dead = battle_experience(hero=True, survived=False)
    assert dead.outcome == "none" and dead.effects == ()


@pytest.mark.parametrize(
    ("gap", "bonus"),
    [
        (0, 0),
        (50, 0),
        (51, 1),
        (75, 1),
        (76, 2),
        (100, 2),
        (101, 3),
        (150, 3),
        (151, 4),
        (300, 4),
        (301, 5),
        (900, 5),
    ],
)
def test_underdog_bonus(gap, bonus):
    assert underdog_bonus(own_rating=100, enemy_rating=100 + gap) == bonus
    assert underdog_bonus(own_rating=100 + gap, enemy_rating=100) == 0


def test_underdog_bonus_counts_for_survivors():
    result = battle_experience(hero=False, survived=True, own_rating=100, enemy_rating=190)
    assert result.details["experience"] == 3


def test_advance_thresholds_crossed():
    assert advances_earned(old_xp=0, new_xp=2, hero=True) == [2]
    assert advances_earned(old_xp=3, new_xp=11, hero=True) == [4, 6, 8, 11]
    assert advances_earned(old_xp=11, new_xp=13, hero=True) == []
    assert advances_earned(old_xp=4, new_xp=9, hero=False) == [5, 9]
    assert advances_earned(old_xp=14, new_xp=30, hero=False) == []
    assert advances_earned(old_xp=0, new_xp=3, hero=True, thresholds=[1, 3]) == [1, 3]


# Hero advances.
@pytest.mark.parametrize(
    ("faces", "outcome", "field"),
    [
        ((1, 1), "skill", None),
        ((2, 3), "skill", None),
        ((3, 3, 1), "characteristic", "s"),
        ((3, 3, 4), "characteristic", "a"),
        ((4, 4, 3), "characteristic", "i"),
        ((4, 4, 6), "characteristic", "ld"),
        ((4, 5, 2), "characteristic", "w"),
        ((4, 5, 5), "characteristic", "t"),
        ((5, 5), "skill", None),
        ((6, 6), "skill", None),
    ],
)
def test_hero_advance_table(faces, outcome, field):
    result = hero_advance(dice=Dice(faces=list(faces)), profile=HUMAN, maximum="human")
    assert result.outcome == outcome
    if field:
        assert result.effects == ({"type": "characteristic", "field": field, "delta": 1},)
    else:
        assert result.pending_choices == ({"type": "skill"},)


def test_hero_advance_seven_is_a_choice():
    result = hero_advance(dice=Dice(faces=[3, 4]), profile=HUMAN, maximum="human")
    assert result.outcome == "choice"
    assert result.pending_choices == ({"type": "characteristic", "options": ["ws", "bs"]},)
    capped = hero_advance(
        dice=Dice(faces=[3, 4]), profile=HUMAN.with_changes(ws=6), maximum="human"
    )
    assert capped.effects == ({"type": "characteristic", "field": "bs", "delta": 1},)


def test_hero_advance_at_racial_maximum_rerolls_by_default():
    strong = HUMAN.with_changes(s=4)
    result = hero_advance(dice=Dice(faces=[3, 3, 2, 1, 1]), profile=strong, maximum="human")
    assert result.outcome == "skill" and len(result.rolls) == 3


def test_hero_advance_at_racial_maximum_may_choose_another():
    strong = HUMAN.with_changes(s=4)
    result = hero_advance(
        dice=Dice(faces=[3, 3, 2]), profile=strong, maximum="human", policy="choose"
    )
    assert result.outcome == "choice"
    assert result.pending_choices[0]["options"] == ["a", "ws", "bs", "i", "ld", "w", "t"]
    with pytest.raises(SpecError):
        hero_advance(dice=Dice(faces=[]), profile=HUMAN, maximum="human", policy="ask")


def test_hero_advance_accepts_profile_dicts_and_rejects_unknown_races():
    result = hero_advance(
        dice=Dice(faces=[3, 3, 1]),
        profile=HUMAN.to_dict(),
        maximum=Profile(10, 6, 6, 4, 4, 3, 6, 4, 9).to_dict(),
    )
    assert result.effects[0]["field"] == "s"
    with pytest.raises(SpecError):
        hero_advance(dice=Dice(faces=[]), profile=HUMAN, maximum="hobbit")


# Henchman advances.
@pytest.mark.parametrize(
    ("faces", "field"),
    [((1, 1), "i"), ((2, 2), "i"), ((2, 3), "s"), ((4, 4), "a"), ((4, 5), "ld")],
)
def test_henchman_advance_table(faces, field):
    result = henchman_advance(dice=Dice(faces=list(faces)), profile=HUMAN, maximum="human")
    assert result.effects == ({"type": "characteristic", "field": field, "delta": 1},)


@pytest.mark.parametrize("faces", [(3, 3), (3, 4)])
def test_henchman_advance_six_or_seven_is_a_choice(faces):
    result = henchman_advance(dice=Dice(faces=list(faces)), profile=HUMAN, maximum="human")
    assert result.pending_choices == ({"type": "characteristic", "options": ["ws", "bs"]},)


def test_henchman_characteristic_rises_at_most_once():
    result = henchman_advance(
        dice=Dice(faces=[2, 3, 4, 4]), profile=HUMAN, maximum="human", increases={"s": 1}
    )
    assert result.effects == ({"type": "characteristic", "field": "a", "delta": 1},)
    assert sum(1 for step in result.steps if step.code == "advance.unavailable") == 1


def test_the_lads_got_talent():
    result = henchman_advance(dice=Dice(faces=[5, 5]), profile=HUMAN, maximum="human")
    assert result.outcome == "lads_got_talent"
    assert result.effects == ({"type": "promotion"},)
    assert {"type": "skill_lists", "count": 2} in result.pending_choices
    rerolled = henchman_advance(
        dice=Dice(faces=[6, 6, 4, 5]), profile=HUMAN, maximum="human", heroes_at_maximum=True
    )
    assert rerolled.effects == ({"type": "characteristic", "field": "ld", "delta": 1},)


def test_a_table_that_never_gives_a_result_raises():
    table = ({"min": 2, "max": 12, "result": "characteristic", "options": ("s",)},)
    with pytest.raises(RulesError):
        henchman_advance(
            dice=Dice(0), profile=HUMAN, maximum="human", increases={"s": 1}, table=table
        )


# Exploration, selling, rating.
@pytest.mark.parametrize(
    ("faces", "finds"),
    [
        ((1,), 1),
        ((5,), 1),
        ((6,), 2),
        ((5, 6), 2),
        ((6, 6), 3),
        ((6, 6, 6), 4),
        ((5, 5, 5, 5, 5), 5),
        ((6, 6, 6, 6, 6, 1), 6),
        ((6, 6, 6, 6, 6, 6), 7),
    ],
)
def test_exploration_finds(faces, finds):
    result = exploration(dice=Dice(faces=list(faces)), heroes_not_out_of_action=len(faces))
    assert result.details["finds"] == finds


def test_exploration_dice_count_and_multiples():
    result = exploration(dice=Dice(faces=[2, 2, 2, 5, 5, 1]), heroes_not_out_of_action=6, won=True)
    assert result.details["dice"] == 6
    assert result.details["multiples"] == [
        {"face": 2, "count": 3, "kind": "triples"},
        {"face": 5, "count": 2, "kind": "doubles"},
    ]
    assert (
        exploration(dice=Dice(faces=[1, 2, 3]), heroes_not_out_of_action=2, won=True).details[
            "dice"
        ]
        == 3
    )
    none = exploration(dice=Dice(faces=[]), heroes_not_out_of_action=0)
    assert none.details["finds"] == 0 and none.rolls == ()


@pytest.mark.parametrize(
    ("finds", "size", "gold"),
    [
        (1, 1, 45),
        (1, 3, 45),
        (1, 4, 40),
        (2, 7, 50),
        (3, 12, 60),
        (4, 13, 60),
        (5, 16, 65),
        (6, 20, 70),
        (7, 9, 120),
        (8, 1, 155),
        (11, 16, 100),
        (0, 10, 0),
    ],
)
def test_sell_finds(finds, size, gold):
    assert sell_finds(finds=finds, warband_size=size) == gold


def test_warband_rating():
    warriors = [{"experience": 8}, {"experience": 0}, {"experience": 3, "large": True}]
    assert warband_rating(warriors=warriors) == 5 + 8 + 5 + 20 + 3


def test_table_results_are_json():
    result = _injury(1, 6, 1, 2, 2)
    data = json.loads(json.dumps(result.to_dict()))
    assert data["outcome"] == "multiple_injuries"
    assert data["rolls"][0]["expression"] == "D66"
    assert all(step["message"] % step["params"] for step in data["steps"])


def test_injuries_never_take_a_characteristic_below_one_but_movement_may_fall():
    assert injury_characteristic_change(field="t", current=3, delta=-1) == -1
    assert injury_characteristic_change(field="ws", current=1, delta=-1) == 0
    assert injury_characteristic_change(field="m", current=2.5, delta=-2.5) == -2.5


def test_the_second_lost_eye_retires_him():
    assert not blindness_retires(eyes_lost_before=0)
    assert blindness_retires(eyes_lost_before=1)


# Movement is in centimetres: an advance in M is one Mordheim inch, +2.5 cm
# (docs/rules-tables.md › Racial maximums; a human moves 10 cm, the rulebook's Mablung M10) —
# never +1 cm.
MOVEMENT_ROW = ({"min": 2, "max": 12, "result": "characteristic", "options": ("m",)},)


def test_an_advance_in_movement_is_one_inch_in_centimetres():
    outcome = hero_advance(
        dice=Dice(faces=[3, 4]), profile=HUMAN, maximum="elf", table=MOVEMENT_ROW
    )
    (effect,) = outcome.typed_effects
    assert (effect.kind, effect.field, effect.delta) == (EffectKind.CHARACTERISTIC, "m", 2.5)
    assert characteristic_advance("m") == 2.5 and characteristic_advance("ws") == 1
    group = henchman_advance(
        dice=Dice(faces=[3, 4]), profile=HUMAN, maximum="elf", table=MOVEMENT_ROW
    )
    assert group.typed_effects[0].delta == 2.5
    # At the racial maximum (a human's M10 is 4" × 2.5) the advance cannot be taken.
    with pytest.raises(RulesError):
        hero_advance(
            dice=Dice(faces=[3, 4] * 200), profile=HUMAN, maximum="human", table=MOVEMENT_ROW
        )


def test_effects_are_typed_and_injuries_name_what_they_leave():
    # 56 bitter enmity, D6 5: hatred of that whole warband
    outcome = serious_injury(dice=Dice(faces=[5, 6, 5]))
    assert outcome.typed_effects == (Effect(EffectKind.SPECIAL_RULE, rule="hatred:that_warband"),)
    assert outcome.lasting_injuries == ("bitter_enmity",)
    assert injury_label("bitter_enmity") == "Bitter enmity"
    # 41 full recovery leaves nothing on the sheet
    assert serious_injury(dice=Dice(faces=[4, 1])).lasting_injuries == ()


def test_rare_items_found_at_their_rarity_with_rolled_prices():
    offered = {
        "lembas": RareItem(rarity=9, price=25, price_dice="1D6"),
        "cota-de-mithril": RareItem(rarity=12, price=100),
        "cuerda-y-garfio": RareItem(rarity=5, price=5),
    }
    # 2D6 = 9: mithril is not found; lembas' price die rolls 4
    found = rare_items(dice=Dice(faces=[4, 5, 4]), offered=offered, who="Capitán")
    assert (found.total, found.found) == (9, ("cuerda-y-garfio", "lembas"))
    assert found.prices == {"cuerda-y-garfio": 5, "lembas": 29}
    nothing = rare_items(dice=Dice(faces=[1, 2]), offered=offered)
    assert (nothing.found, dict(nothing.prices)) == ((), {})
    # The same seed finds the same items at the same prices.
    assert rare_items(dice=Dice(seed=7), offered=offered) == rare_items(
        dice=Dice(seed=7), offered=offered
    )
