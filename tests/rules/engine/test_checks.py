"""Every worked example of the rulebook, plus the other checks, with fixed faces."""

import json

import pytest

from rules.engine import (
    CHECKS,
    AttackerSpec,
    DefenderSpec,
    Dice,
    RulesError,
    SpecError,
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

MABLUNG_I = 3
MABLUNG_L = 7


# Chequeos de atributo: Mablung (I3) jumps from an 8 cm wall.
@pytest.mark.parametrize(
    ("face", "passed"), [(1, True), (2, True), (3, True), (4, False), (5, False), (6, False)]
)
def test_mablung_initiative_test(face, passed):
    result = attribute_check(value=MABLUNG_I, dice=Dice(faces=[face]))
    assert result.passed is passed
    assert result.rolls[0].faces == (face,)
    assert result.steps[0].code == (
        "attribute_check.six" if face == 6 else "attribute_check.rolled"
    )


def test_a_six_always_fails_even_with_a_high_value():
    result = attribute_check(value=10, dice=Dice(faces=[6]))
    assert result.passed is False
    assert result.steps[0].code == "attribute_check.six"


def test_a_value_of_zero_always_fails():
    result = attribute_check(value=0, dice=Dice(faces=[1]))
    assert result.passed is False
    assert result.steps[0].code == "attribute_check.zero"


# Chequeos de liderazgo: Mablung's L7 → 7 or less on 2D6.
@pytest.mark.parametrize(
    ("faces", "passed"), [([1, 1], True), ([3, 4], True), ([4, 4], False), ([6, 6], False)]
)
def test_mablung_leadership_test(faces, passed):
    result = leadership_test(leadership=MABLUNG_L, dice=Dice(faces=faces))
    assert result.passed is passed
    assert result.rolls[0].expression == "2D6"
    assert result.details["leadership_used"] == 7


def test_leader_within_15_cm_lends_his_leadership():
    result = leadership_test(
        leadership=6, leader_leadership=8, leader_distance_cm=15, dice=Dice(faces=[4, 4])
    )
    assert result.passed is True
    assert result.details["leadership_used"] == 8


@pytest.mark.parametrize("status", ["stunned", "out_of_action", "fleeing"])
def test_leader_unable_to_lend_leadership(status):
    result = leadership_test(
        leadership=6,
        leader_leadership=8,
        leader_distance_cm=5,
        leader_status=status,
        dice=Dice(faces=[4, 4]),
    )
    assert result.passed is False
    assert result.details["leadership_used"] == 6


def test_knocked_down_leader_still_lends_leadership_but_not_beyond_15_cm():
    near = leadership_test(
        leadership=6,
        leader_leadership=8,
        leader_distance_cm=10,
        leader_status="knocked_down",
        dice=Dice(faces=[4, 4]),
    )
    far = leadership_test(
        leadership=6, leader_leadership=8, leader_distance_cm=15.5, dice=Dice(faces=[4, 4])
    )
    assert near.details["leadership_used"] == 8
    assert far.details["leadership_used"] == 6


def test_leader_who_refused_a_challenge_lends_nothing():
    result = leadership_test(
        leadership=6,
        leader_leadership=9,
        leader_distance_cm=1,
        leader_refused_challenge=True,
        dice=Dice(faces=[4, 3]),
    )
    assert result.details["leadership_used"] == 6 and result.passed is False


# Fase de recuperación: rally.
def test_rally_passes_and_fails():
    assert rally_test(leadership=7, dice=Dice(faces=[3, 4])).outcome == "rallied"
    assert rally_test(leadership=7, dice=Dice(faces=[5, 4])).outcome == "keeps_fleeing"


def test_cannot_rally_when_the_nearest_model_is_an_enemy():
    nearby = [
        {"side": "enemy", "distance_cm": 4, "status": "standing"},
        {"side": "friend", "distance_cm": 8},
    ]
    result = rally_test(leadership=10, nearby=nearby, dice=Dice(faces=[]))
    assert result.outcome == "cannot_rally" and result.passed is False and result.rolls == ()


@pytest.mark.parametrize("status", ["stunned", "knocked_down", "fleeing"])
def test_enemies_down_or_fleeing_do_not_prevent_rallying(status):
    nearby = [
        {"side": "enemy", "distance_cm": 4, "status": status},
        {"side": "friend", "distance_cm": 8},
    ]
    assert rally_test(leadership=7, nearby=nearby, dice=Dice(faces=[1, 1])).outcome == "rallied"


# El chequeo de retirada: a twelve-strong warband tests from three out of action.
def _warband(out_of_action, leader_status="standing", size=12):
    warriors = [
        {"leadership": 8 if i == 0 else 6, "status": "standing", "leader": i == 0}
        for i in range(size)
    ]
    warriors[0]["status"] = leader_status
    for i in range(1, out_of_action + 1):
        warriors[-i]["status"] = "out_of_action"
    return warriors


def test_rout_test_not_needed_with_two_of_twelve_out():
    result = rout_test(warriors=_warband(2), dice=Dice(faces=[]))
    assert result.outcome == "not_required" and result.details["threshold"] == 3


def test_rout_test_needed_with_three_of_twelve_out_uses_leader():
    result = rout_test(warriors=_warband(3), dice=Dice(faces=[4, 4]))
    assert result.outcome == "stands" and result.details["leadership_used"] == 8
    failed = rout_test(warriors=_warband(3), dice=Dice(faces=[5, 4]))
    assert failed.outcome == "routed" and failed.passed is False


def test_rout_threshold_rounds_up():
    assert rout_test(warriors=_warband(1, size=5), dice=Dice(faces=[])).outcome == "not_required"
    assert rout_test(warriors=_warband(2, size=5), dice=Dice(faces=[1, 1])).outcome == "stands"


@pytest.mark.parametrize("status", ["stunned", "out_of_action"])
def test_rout_without_the_leader_uses_highest_leadership_of_able_warriors(status):
    warriors = _warband(3, leader_status=status)
    warriors[1]["leadership"] = 7
    warriors[2]["status"] = "stunned"
    warriors[2]["leadership"] = 9
    result = rout_test(warriors=warriors, dice=Dice(faces=[4, 3]))
    assert result.details["leadership_used"] == 7 and result.outcome == "stands"


def test_voluntary_rout_needs_two_out_of_action():
    assert (
        rout_test(warriors=_warband(2), voluntary=True, dice=Dice(faces=[])).outcome
        == "routed_voluntarily"
    )
    with pytest.raises(RulesError):
        rout_test(warriors=_warband(1), voluntary=True, dice=Dice(faces=[]))


# Solo ante el peligro.
def test_all_alone_not_required_with_a_friend_near_or_one_enemy():
    assert all_alone_test(leadership=7, enemies=1, dice=Dice(faces=[])).outcome == "not_required"
    friends = [{"distance_cm": 12, "status": "standing"}]
    assert (
        all_alone_test(leadership=7, enemies=2, friends=friends, dice=Dice(faces=[])).outcome
        == "not_required"
    )


@pytest.mark.parametrize("status", ["stunned", "out_of_action", "fleeing"])
def test_all_alone_friends_down_do_not_count(status):
    friends = [{"distance_cm": 5, "status": status}]
    assert (
        all_alone_test(leadership=7, enemies=2, friends=friends, dice=Dice(faces=[3, 3])).outcome
        == "holds"
    )


def test_all_alone_failure_flees_5d6_with_automatic_hits():
    result = all_alone_test(leadership=7, enemies=2, dice=Dice(faces=[6, 5, 1, 2, 3, 4, 5]))
    assert result.outcome == "flees" and result.details == {"automatic_hits": 2, "flee_cm": 15}


def test_all_alone_failure_resolves_hits_when_fighters_are_given():
    attackers = [{"strength": 3}, {"strength": 3}]
    # L test 6+5 fails; two automatic hits: wounds 1 (fail), 4 (wound), injury 2 (knocked down);
    # then 5D6 flee.
    faces = [6, 5, 1, 4, 2, 1, 1, 1, 1, 1]
    result = all_alone_test(
        leadership=7,
        enemies=2,
        attackers=attackers,
        defender={"toughness": 3},
        dice=Dice(faces=faces),
    )
    assert result.outcome == "flees"
    assert result.details["hits"]["outcome"] == "knocked_down"
    assert result.details["flee_cm"] == 5


# Miedo.
def test_fear_charged_and_failed_needs_sixes():
    result = fear_test(leadership=7, situation="charged", dice=Dice(faces=[5, 5]))
    assert result.outcome == "hits_only_on_6"


def test_fear_charging_and_failed_cannot_charge():
    assert (
        fear_test(leadership=7, situation="charging", dice=Dice(faces=[6, 2])).outcome
        == "cannot_charge"
    )
    assert (
        fear_test(leadership=7, situation="charging", dice=Dice(faces=[1, 2])).outcome == "passed"
    )


def test_fear_causing_and_frenzied_models_ignore_fear():
    assert fear_test(leadership=7, causes_fear=True, dice=Dice(faces=[])).outcome == "immune"
    assert (
        fear_test(leadership=7, frenzied_in_charge_range=True, dice=Dice(faces=[])).outcome
        == "immune"
    )


# Furia asesina, odio.
def test_frenzy_doubles_attacks_then_adds_the_second_weapon():
    result = frenzy(attacks=2, second_weapon=True, enemy_in_charge_range=True)
    assert result.details == {"attacks": 5, "must_charge": True, "immune": True}


@pytest.mark.parametrize("status", ["knocked_down", "stunned"])
def test_frenzy_is_lost_when_knocked_down_or_stunned(status):
    result = frenzy(attacks=1, status=status)
    assert result.outcome == "lost" and result.details["attacks"] == 1


def test_hatred_only_in_first_round():
    assert hatred(first_round=True).outcome == "reroll_misses"
    assert hatred(first_round=False).outcome == "no_effect"


# Estupidez.
def test_stupidity_passed():
    assert stupidity_test(leadership=4, dice=Dice(faces=[2, 2])).outcome == "acts_normally"


def test_stupidity_failed_in_combat_does_not_attack():
    assert (
        stupidity_test(leadership=4, in_combat=True, dice=Dice(faces=[3, 2])).outcome
        == "does_not_attack"
    )


@pytest.mark.parametrize(
    ("face", "outcome"), [(1, "moves_forward"), (3, "moves_forward"), (4, "drools"), (6, "drools")]
)
def test_stupidity_table_out_of_combat(face, outcome):
    result = stupidity_test(leadership=4, movement_cm=15, dice=Dice(faces=[3, 2, face]))
    assert result.outcome == outcome
    if outcome == "moves_forward":
        assert result.details["distance_cm"] == 7.5


# Correr y cargar.
def test_running_doubles_movement():
    result = run(movement_cm=10, enemies=[{"distance_cm": 25, "status": "standing"}])
    assert result.outcome == "may_run" and result.details["distance_cm"] == 20


def test_running_blocked_by_an_enemy_within_20_cm():
    result = run(movement_cm=10, enemies=[{"distance_cm": 20, "status": "standing"}])
    assert result.outcome == "cannot_run"


@pytest.mark.parametrize("status", ["stunned", "knocked_down", "fleeing", "hidden"])
def test_enemies_down_fleeing_or_hidden_do_not_block_running(status):
    assert run(movement_cm=10, enemies=[{"distance_cm": 5, "status": status}]).outcome == "may_run"


def test_charge_double_movement_and_failed_charge():
    assert charge(movement_cm=10).details["charge_range_cm"] == 20
    assert charge(movement_cm=10, distance_cm=20).outcome == "charges"
    failed = charge(movement_cm=10, distance_cm=21)
    assert failed.outcome == "failed_charge" and failed.details["moves_cm"] == 10


# Ocultarse: I3 spots hidden enemies within 9 cm.
def test_spotting_hidden_enemies_with_initiative_three():
    assert spot_hidden(initiative=3, distance_cm=9).passed is True
    assert spot_hidden(initiative=3, distance_cm=9.5).passed is False
    assert spot_hidden(initiative=3, distance_cm=9).details["range_cm"] == 9


def test_detect_unseen_enemy_within_10_cm_needs_an_initiative_test():
    assert (
        detect_unseen_enemy(initiative=3, distance_cm=10, dice=Dice(faces=[3])).outcome
        == "may_charge"
    )
    assert (
        detect_unseen_enemy(initiative=3, distance_cm=10, dice=Dice(faces=[4])).outcome
        == "cannot_charge"
    )
    assert detect_unseen_enemy(initiative=3, distance_cm=11, dice=Dice(faces=[])).passed is None


# Terreno: 10 cm in very difficult terrain → 3 cm.
@pytest.mark.parametrize(
    ("terrain", "movement", "distance"),
    [
        ("open", 10, 10),
        ("difficult", 10, 5),
        ("very_difficult", 10, 3),
        ("very_difficult", 12, 3),
        ("difficult", 15, 7.5),
    ],
)
def test_terrain_movement(terrain, movement, distance):
    assert (
        terrain_movement(movement_cm=movement, terrain=terrain).details["distance_cm"] == distance
    )


def test_terrain_rejects_unknown_kind():
    with pytest.raises(SpecError):
        terrain_movement(movement_cm=10, terrain="swamp")


# Caídas: 10 cm → D3 hits at F4, no saves, no criticals.
def test_falling_strength_is_height_over_three_rounded_up():
    assert falling_strength(10) == 4
    assert falling_strength(12) == 4
    assert falling_strength(3) == 1
    assert falling_strength(15) == 5
    assert falling_strength(60) == 10


def test_falling_ten_cm_gives_d3_hits_at_strength_four():
    # D3 = 2 hits; to wound F4 vs R3 needs 3+: a 6 (no critical) and a 2; injury 3 → stunned.
    result = falling(height_cm=10, toughness=3, dice=Dice(faces=[2, 6, 2, 3]))
    assert result.details == {"strength": 4, "hits": 2, "wounds_lost": 1}
    assert result.outcome == "stunned"
    codes = [step.code for step in result.steps]
    assert "critical.vital" not in codes and "save.none" in codes


def test_falling_ignores_armour_but_multi_wound_models_lose_wounds():
    result = falling(height_cm=10, toughness=3, wounds=3, dice=Dice(faces=[3, 4, 4, 1]))
    assert result.outcome == "wounded" and result.details["wounds_lost"] == 2


# Bajar de un salto: the goblin jumps 12 cm → two I tests.
def test_goblin_jumping_12_cm_takes_two_initiative_tests():
    result = jump_down(initiative=3, height_cm=12, dice=Dice(faces=[1, 2]))
    assert result.outcome == "lands" and result.details["tests"] == 2
    assert len(result.rolls) == 2


def test_goblin_failing_the_jump_falls_at_strength_four_not_five():
    # The rulebook's goblin example (Bajar de un salto) says "1D3 impactos de F5" for a 12 cm
    # jump, but its own falling rule ("la distancia que ha caído dividida entre 3 redondeando
    # hacia arriba") gives 12 / 3 = F4 (the F5 is Mordheim's 5" drop left unconverted). The
    # engine follows the rule.
    faces = [2, 5, 1, 1]  # pass, fail; D3 = 1 hit; to wound 1 fails
    result = jump_down(initiative=3, height_cm=12, toughness=3, dice=Dice(faces=faces))
    assert result.outcome == "falls"
    assert result.details["fall"]["strength"] == 4
    assert result.details["fall"]["outcome"] == "unharmed"


def test_jump_first_failure_stops_the_tests():
    result = jump_down(initiative=3, height_cm=15, dice=Dice(faces=[4]))
    assert result.outcome == "falls" and len(result.rolls) == 1


def test_jump_limits():
    assert jump_down(initiative=3, height_cm=4, dice=Dice(faces=[])).details["tests"] == 0
    assert jump_down(initiative=3, height_cm=16, dice=Dice(faces=[])).outcome == "not_allowed"


def test_diving_charge_bonus_and_failure():
    result = diving_charge(initiative=4, height_cm=10, enemy_distance_cm=5, dice=Dice(faces=[4, 3]))
    assert result.outcome == "charges"
    assert result.details == {"strength_bonus": 1, "to_hit_bonus": 1, "tests": 2}
    failed = diving_charge(initiative=4, height_cm=10, enemy_distance_cm=5, dice=Dice(faces=[5]))
    assert failed.outcome == "falls" and failed.passed is False
    assert (
        diving_charge(initiative=4, height_cm=10, enemy_distance_cm=6, dice=Dice(faces=[])).outcome
        == "not_allowed"
    )


# Trepar.
def test_climbing():
    assert (
        climb(initiative=3, height_cm=8, movement_cm=10, dice=Dice(faces=[3])).outcome == "climbs"
    )
    assert (
        climb(initiative=3, height_cm=11, movement_cm=10, dice=Dice(faces=[])).outcome
        == "cannot_climb"
    )
    assert (
        climb(initiative=3, height_cm=8, movement_cm=10, dice=Dice(faces=[4])).outcome
        == "cannot_move"
    )
    down = climb(
        initiative=3,
        height_cm=9,
        movement_cm=10,
        direction="down",
        toughness=3,
        dice=Dice(faces=[6, 1, 2]),
    )
    assert down.outcome == "falls" and down.details["fall"]["strength"] == 3


# Cruzar de un salto los huecos.
def test_jumping_gaps():
    crossed = jump_gap(initiative=3, gap_cm=6, movement_left_cm=10, dice=Dice(faces=[2]))
    assert crossed.outcome == "crosses" and crossed.details["movement_left_cm"] == 4
    assert (
        jump_gap(initiative=3, gap_cm=8, movement_left_cm=7, dice=Dice(faces=[])).outcome == "falls"
    )
    assert (
        jump_gap(initiative=3, gap_cm=6, movement_left_cm=10, dice=Dice(faces=[5])).outcome
        == "falls"
    )
    assert (
        jump_gap(initiative=3, gap_cm=16, movement_left_cm=20, dice=Dice(faces=[])).outcome
        == "not_allowed"
    )


# Guerreros derribados o aturdidos near an edge.
def test_edge_fall():
    assert (
        edge_fall(initiative=3, distance_to_edge_cm=4, dice=Dice(faces=[])).outcome
        == "not_required"
    )
    assert edge_fall(initiative=3, distance_to_edge_cm=3, dice=Dice(faces=[3])).outcome == "stays"
    fell = edge_fall(
        initiative=3,
        distance_to_edge_cm=2,
        fall_height_cm=10,
        toughness=3,
        dice=Dice(faces=[4, 1, 1]),
    )
    assert fell.outcome == "falls" and fell.details["fall"]["strength"] == 4


# Huida y persecución (the mass battle rule).
def test_flee_and_pursuit_caught_on_equal_roll():
    result = flee_and_pursuit(
        fleeing_movement_cm=10,
        pursuer_movement_cm=10,
        dice=Dice(faces=[1, 2, 3, 4, 5, 5, 4, 3, 2, 1]),
    )
    assert result.details["flee_cm"] == 15 and result.details["pursuit_cm"] == 15
    assert result.outcome == "destroyed"


def test_flee_and_pursuit_escape_and_8d6_for_fast_movers():
    faces = [6] * 5 + [1] * 8
    result = flee_and_pursuit(
        fleeing_movement_cm=10, pursuer_movement_cm=20, dice=Dice(faces=faces)
    )
    assert result.rolls[1].expression == "8D6"
    assert result.outcome == "escaped" and result.details["pursuit_cm"] == 8


def test_pursuit_compulsory_unless_leadership_test_passed():
    held = flee_and_pursuit(
        fleeing_movement_cm=10,
        pursuer_movement_cm=10,
        hold=True,
        pursuer_leadership=7,
        dice=Dice(faces=[3, 3, 1, 1, 1, 1, 1]),
    )
    assert held.outcome == "escaped" and held.details["pursued"] is False
    forced = flee_and_pursuit(
        fleeing_movement_cm=10,
        pursuer_movement_cm=10,
        hold=True,
        pursuer_leadership=7,
        dice=Dice(faces=[6, 3] + [1] * 5 + [2] * 5),
    )
    assert forced.details["pursued"] is True and forced.outcome == "destroyed"
    obstacle = flee_and_pursuit(
        fleeing_movement_cm=10,
        pursuer_movement_cm=10,
        hold=True,
        defending_obstacle=True,
        dice=Dice(faces=[1] * 5),
    )
    assert obstacle.details["pursued"] is False and len(obstacle.rolls) == 1


# Registry.
def test_registry_has_every_api_kind():
    expected = {
        "attribute",
        "leadership",
        "rally",
        "rout",
        "all-alone",
        "fear",
        "stupidity",
        "falling",
        "jump",
        "climb",
        "gap",
        "spot",
        "terrain",
        "run",
        "edge",
        "flee-pursuit",
    }
    assert expected <= set(CHECKS)


def test_run_check_by_kind_with_a_params_dict():
    result = run_check("attribute", {"value": 3}, dice=Dice(faces=[3]))
    assert result.passed is True
    data = json.loads(json.dumps(result.to_dict()))
    assert data["steps"][0]["message"].startswith("%(attribute)s test")
    assert data["rolls"][0]["faces"] == [3]


def test_run_check_refuses_unknown_missing_and_bad_params():
    with pytest.raises(RulesError):
        run_check("nope", {}, dice=Dice(faces=[]))
    with pytest.raises(SpecError) as info:
        run_check("attribute", {"value": 3, "bogus": 1}, dice=Dice(faces=[]))
    assert info.value.field == "bogus"
    with pytest.raises(SpecError) as info:
        run_check("attribute", {}, dice=Dice(faces=[]))
    assert info.value.field == "value"
    with pytest.raises(SpecError):
        run_check("attribute", {"value": "3"}, dice=Dice(faces=[1]))


def test_check_parameters_describe_each_kind():
    params = check_parameters("jump")
    assert params["initiative"]["required"] is True
    assert params["toughness"] == {"type": "int | None", "required": False, "default": None}
    for kind in CHECKS:
        assert "dice" not in check_parameters(kind)


@pytest.mark.parametrize("kind", sorted(CHECKS))
def test_every_check_result_is_json(kind):
    samples = {
        "attribute": {"value": 3},
        "leadership": {"leadership": 7},
        "rally": {"leadership": 7},
        "rout": {"warriors": _warband(3)},
        "all-alone": {"leadership": 7, "enemies": 2},
        "fear": {"leadership": 7},
        "frenzy": {"attacks": 1},
        "hatred": {"first_round": True},
        "stupidity": {"leadership": 4},
        "falling": {"height_cm": 10, "toughness": 3},
        "jump": {"initiative": 3, "height_cm": 12, "toughness": 3},
        "diving-charge": {"initiative": 3, "height_cm": 10, "enemy_distance_cm": 3},
        "climb": {"initiative": 3, "height_cm": 5, "movement_cm": 10},
        "gap": {"initiative": 3, "gap_cm": 5, "movement_left_cm": 10},
        "spot": {"initiative": 3, "distance_cm": 5},
        "detect": {"initiative": 3, "distance_cm": 5},
        "terrain": {"movement_cm": 10, "terrain": "difficult"},
        "run": {"movement_cm": 10},
        "charge": {"movement_cm": 10, "distance_cm": 12},
        "edge": {"initiative": 3, "distance_to_edge_cm": 1},
        "flee-pursuit": {"fleeing_movement_cm": 10, "pursuer_movement_cm": 10},
        "flee-combat": {"attackers": [{"strength": 4}], "defender": {"toughness": 3}},
        "charged-while-fleeing": {},
    }
    result = run_check(kind, samples[kind], dice=Dice(11))
    data = json.loads(json.dumps(result.to_dict()))
    assert data["steps"], kind
    for step in data["steps"]:
        assert step["message"] % step["params"]


def test_bad_values_name_their_field():
    with pytest.raises(SpecError) as info:
        attribute_check(value=11, dice=Dice(faces=[1]))
    assert info.value.field == "value"
    with pytest.raises(SpecError) as info:
        run(movement_cm=-1)
    assert info.value.field == "movement_cm"
    with pytest.raises(SpecError):
        rally_test(
            leadership=7, nearby=[{"side": "enemy", "status": "dancing"}], dice=Dice(faces=[])
        )


def test_flee_from_combat_gives_each_enemy_an_automatic_hit():
    attackers = [AttackerSpec(strength=3), AttackerSpec(strength=3), AttackerSpec(strength=3)]
    # three automatic hits: wound rolls 1, 2, 3 all fail against R4 (needs 5+).
    result = run_check(
        "flee-combat",
        {"attackers": attackers, "defender": DefenderSpec(toughness=4)},
        dice=Dice(faces=[1, 2, 3]),
    )
    assert result.hits == 3 and result.outcome == "unharmed"
