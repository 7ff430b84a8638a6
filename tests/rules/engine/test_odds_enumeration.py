"""The exact odds against an independent count: every sequence of faces the phase can ask for.

The enumerator knows nothing of the rules: it asks ``resolve_plan`` (the code the battle log
uses) to resolve a phase with the faces typed so far; when the dice run short it tries every
face of the die asked for. Each complete sequence is one way the phase can go, weighed by the
chance of its faces, so the sum per outcome is the exact probability — which the odds'
dynamic programme must match to the last Fraction.
"""

from collections import defaultdict
from fractions import Fraction

import pytest

from rules.engine import AttackerSpec, DefenderSpec, RuleOptions, ShooterSpec
from rules.engine.combat import automatic_hits_plan, melee_plan, resolve_plan, shooting_plan
from rules.engine.dice import Dice, DiceShortfall
from rules.engine.odds import plan_odds


def enumerate_outcomes(plan) -> tuple[dict[str, Fraction], Fraction, int]:
    """Outcome probabilities, expected wounds and the number of distinct face sequences."""
    outcomes: dict[str, Fraction] = defaultdict(Fraction)
    expected = Fraction(0)
    paths = 0
    stack: list[tuple[list[int], Fraction]] = [([], Fraction(1))]
    while stack:
        faces, chance = stack.pop()
        try:
            result = resolve_plan(plan, dice=Dice(faces=faces))
        except DiceShortfall as short:
            sides = 3 if short.expression.endswith("D3") else 6
            stack += [([*faces, face], chance / sides) for face in range(1, sides + 1)]
            continue
        paths += 1
        outcomes[result.outcome] += chance
        expected += chance * result.wounds_lost
    return dict(outcomes), expected, paths


def assert_exact(plan) -> int:
    counted, expected, paths = enumerate_outcomes(plan)
    odds, odds_expected = plan_odds(plan)
    assert {key: value for key, value in odds.items() if value} == counted
    assert odds_expected == expected
    return paths


MELEE = [
    # Black venom (+1 to wound), a critical and injury bonus against a two-wound, hard-to-kill
    # hero in light armour with a rune's special save and an unused lucky charm.
    (
        AttackerSpec(to_wound_modifier=1, critical_bonus=1, injury_bonus=1),
        DefenderSpec(
            armour=("armadura-ligera",),
            special_save=5,
            first_wound_save=4,
            hard_to_kill=True,
            wounds=2,
        ),
    ),
    # A sword's parry; lembas turns one stunned result into knocked down.
    (AttackerSpec(ws=4), DefenderSpec(weapons=("espada",), stun_to_knockdown=True)),
    # A mace's concussion against heavy armour, shield and helmet.
    (AttackerSpec(strength=4, weapon="maza"), DefenderSpec(armour=("armadura-pesada", "escudo"))),
    # Hatred re-rolls the first round's misses; a failed fear test hits only on 6s.
    (AttackerSpec(hatred=True), DefenderSpec(toughness=4, armour=("armadura-ligera",))),
    (AttackerSpec(fear_failed=True, strength=5), DefenderSpec(wounds=2)),
    # Against a knocked-down man every hit wounds; against a stunned one he is out of action.
    (AttackerSpec(), DefenderSpec(status="knocked_down", armour=("escudo",))),
    # Two attacks, one parry: against the highest hit only.
    (AttackerSpec(attacks=2), DefenderSpec(weapons=("espada",), wounds=3)),
]


@pytest.mark.parametrize(("attacker", "defender"), MELEE)
def test_melee_odds_match_every_sequence_of_faces(attacker, defender):
    assert assert_exact(melee_plan(attacker, defender)) > 1


@pytest.mark.parametrize(
    ("attacker", "rules"),
    [
        (AttackerSpec(), RuleOptions(critical_hits=False, natural_one_misses=False)),
        (AttackerSpec(attacks=2), RuleOptions(one_critical_per_phase=False)),
        (AttackerSpec(attacks=2), RuleOptions(critical_hits=False)),
    ],
)
def test_a_campaign_s_rule_options_keep_the_odds_exact(attacker, rules):
    # A knocked-down man is hit automatically, which keeps two attacks' sequences few.
    defender = DefenderSpec(status="knocked_down", wounds=3, armour=("armadura-pesada",))
    assert_exact(melee_plan(attacker, defender, rules))


def test_shooting_odds_match_every_sequence_of_faces():
    shooter = ShooterSpec(bs=4, weapon="arco-largo", distance_cm=50, cover=True)
    target = DefenderSpec(armour=("armadura-ligera", "escudo"), wounds=2, missile_hit_modifier=-1)
    assert_exact(shooting_plan(shooter, target))


def test_automatic_hits_match_every_sequence_of_faces():
    plan = automatic_hits_plan(
        [AttackerSpec(strength=4), AttackerSpec(weapon="hacha")], DefenderSpec(wounds=2)
    )
    assert_exact(plan)
