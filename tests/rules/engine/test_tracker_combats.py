"""Combats in the tracker: charges open them, a close-combat entry resolves a whole combat's
phase through the engine, they last until a side is gone. Each die is worked by hand against
Reglas › Combate cuerpo a cuerpo (and Movimiento › ¡A la carga!, Liderazgo y psicología)."""

import pytest

from rules.engine.tracker import OUT_OF_ACTION
from tests.rules.engine.tracker_table import A, B, Table, battle, warrior

HUMAN = "10 3 3 3 3 1 3 1 7"
CAPTAIN = "10 4 4 3 3 1 4 1 8"


def one_on_one(**kwargs) -> Table:
    """Beren (HA4 I4, a sword) and Gorbag (HA3 I3, an axe), and two more each."""
    table = Table(
        battle(
            [
                warrior(11, "Beren", CAPTAIN, gear=("espada",), leader=True, hero=True),
                warrior(12, "Barahir", HUMAN, gear=("mangual",), hero=True),
                warrior(13, "Dior", HUMAN, gear=("espada", "daga")),
            ],
            [
                warrior(21, "Gorbag", HUMAN, gear=("hacha",), leader=True, hero=True),
                warrior(22, "Ugluk", HUMAN, gear=("espada", "escudo-pequeno")),
                warrior(23, "Lagduf", HUMAN),
            ],
            **kwargs,
        )
    )
    table.turn(1, A)
    return table


def test_a_charge_opens_a_combat_and_the_charger_strikes_first():
    """Quién ataca antes: the charger strikes first the turn he charges. Beren (HA4) against
    Gorbag (HA3) hits on 3+ (a 4); F3 against R3 wounds on 4+ (a 5); Gorbag has no armour; the
    injury roll of 5 takes him out of action before he can strike back."""
    table = one_on_one()
    table.add("charge", charger=11, targets=[21])
    (combat,) = table.state.to_dict()["combats"]
    assert combat["pairs"] == [[11, 21]] and combat["rounds"] == {"11": 0, "21": 0}
    assert "charged" in table.fighter(11)["states"]
    assert [c["combat"] for c in table.due("close-combat")] == [combat["id"]]
    fight = table.add("close-combat", faces=[4, 5, 5], combat=combat["id"])["result"]
    assert fight["order"] == [11, 21]
    assert [(b["attacker"], b["target"]) for b in fight["blows"]] == [(11, 21)]
    assert "fight.struck_down" in [step["code"] for step in fight["steps"]]
    assert table.fighter(21)["status"] == OUT_OF_ACTION
    assert table.state.to_dict()["combats"] == []  # nobody left on one side: it is over
    event = table.state.out_of_action[-1]
    assert (event.actor, event.target, event.weapon) == (11, 21, "espada")
    assert table.due("close-combat") == []


def test_a_combat_lasts_across_turns_and_only_its_first_round_is_the_first():
    """The combat persists: in B's turn it is fought again, and nobody charged this turn, so
    they strike by Iniciativa: Beren (I4) before Gorbag (I3). Its first round is over."""
    table = one_on_one()
    table.add("charge", charger=11, targets=[21])
    table.add("close-combat", faces=[1, 1], fighter=11)  # both miss (a natural 1)
    table.turn(1, B)
    assert table.fighter(11)["states"] == []  # "charged" was A's turn's
    (due,) = table.due("close-combat")
    assert due["required"]
    with pytest.raises(Exception, match="checks due"):
        table.add("turn", turn=2, side=A)
    fight = table.add("close-combat", faces=[1, 1], fighter=21)["result"]
    assert fight["order"] == [11, 21]
    (combat,) = table.state.to_dict()["combats"]
    assert combat["rounds"] == {"11": 2, "21": 2}


def test_a_flail_strikes_harder_in_the_first_round_only():
    """Mangual: +1 F in the first round of the combat. Barahir charges Lagduf: F4 against R3
    wounds on 3+ (the 3 wounds); next round F3 needs 4+ (the 3 fails)."""
    table = one_on_one()
    table.add("charge", charger=12, targets=[23])
    # To hit 4 (HA3 v HA3: 4+); to wound 3 (F4: 3+); injury 1: knocked down. Lagduf, knocked
    # down, does not strike.
    first = table.add("close-combat", faces=[4, 3, 1], fighter=12)["result"]
    (blow,) = first["blows"]
    weapon = next(s for s in blow["result"]["steps"] if s["code"] == "melee.weapon")
    assert weapon["params"]["strength"] == 4
    assert table.fighter(23)["status"] == "knocked_down"
    table.turn(1, B)  # Lagduf stands up in B's recovery phase… no: B's turn, he is B's.
    assert table.fighter(23)["status"] == "in_play" and "stood_up" in table.fighter(23)["states"]
    # Second round: Barahir (I3) and Lagduf (I3) tie, but Lagduf stood up: he strikes last.
    second = table.add("close-combat", faces=[4, 3, 1], fighter=12)["result"]
    assert second["order"] == [12, 23]
    weapon = next(s for s in second["blows"][0]["result"]["steps"] if s["code"] == "melee.weapon")
    assert weapon["params"]["strength"] == 3
    assert second["blows"][0]["result"]["wounding_hits"] == 0  # a 3 does not wound at F3
    assert [b["attacker"] for b in second["blows"]] == [12, 23]


def test_two_one_handed_weapons_give_an_extra_attack_and_a_buckler_re_rolls_the_parry():
    """Combatir con dos armas: Dior (sword and dagger) has 2 attacks, the last with the dagger.
    Parada: Ugluk, sword and buckler, parries the highest hit once and may re-roll a failed
    parry. Dior charges: hits 5 and 4 (the highest, 5, is parried: 2 fails, re-rolled 6 beats
    5); the dagger's 4 is left; to wound 4: a wound; a dagger gives the enemy +1 to his save
    (6+ with none): a 2 fails; injury 1: knocked down."""
    table = one_on_one()
    table.add("charge", charger=13, targets=[22])
    fight = table.add("close-combat", faces=[5, 4, 2, 6, 4, 2, 1], fighter=13)["result"]
    (blow,) = fight["blows"]
    result = blow["result"]
    assert result["attacks"] == 2 and result["hits"] == 2 and result["parried"]
    codes = [s["code"] for s in result["steps"]]
    assert "parry.reroll" in codes and "parry.success" in codes
    assert result["outcome"] == "knocked_down"
    assert table.fighter(22)["status"] == "knocked_down"


def test_one_parry_and_only_against_the_first_enemy_who_hits():
    """Two of Arnor fight Ugluk (sword and buckler): Beren charges him, Dior joins. Beren (I4
    after the charge tier: both charged, so by I) strikes first and misses: Ugluk keeps his
    parry for Dior, whose first hit he parries. A second enemy hitting later meets no parry."""
    table = one_on_one()
    table.add("charge", charger=11, targets=[22])
    table.add("charge", charger=13, targets=[22])
    # Order: both charged, Beren I4 then Dior I3 then Ugluk. Beren: to hit 1 (miss). Dior: 2
    # attacks, 4 and 4 (4+ against HA3: hits); Ugluk parries the highest (4) with a 5 → parried;
    # the other hit: to wound 1 → nothing. Ugluk: 1 attack on Beren (he fights two: blows
    # declared), to hit 1.
    blows = [{"attacker": 22, "target": 11}]
    fight = table.add("close-combat", faces=[1, 4, 4, 5, 1, 1], fighter=22, blows=blows)["result"]
    assert fight["order"] == [11, 13, 22]
    by_attacker = {b["attacker"]: b["result"] for b in fight["blows"]}
    assert by_attacker[11]["hits"] == 0 and not by_attacker[11]["parried"]
    assert by_attacker[13]["parried"]


def test_the_parry_is_lost_to_the_first_enemy_who_hits():
    """Beren hits Ugluk first (a 6: it cannot be parried, so the parry is gone); Dior's hit
    after him meets no parry at all."""
    table = one_on_one()
    table.add("charge", charger=11, targets=[22])
    table.add("charge", charger=13, targets=[22])
    blows = [{"attacker": 22, "target": 11}]
    # Beren: to hit 6; to wound 1. Dior: to hit 4, 1; to wound 1. Ugluk: to hit 1.
    fight = table.add("close-combat", faces=[6, 1, 4, 1, 1, 1], fighter=22, blows=blows)["result"]
    by_attacker = {b["attacker"]: b["result"] for b in fight["blows"]}
    assert "parry.impossible" in [s["code"] for s in by_attacker[11]["steps"]]
    codes = [s["code"] for s in by_attacker[13]["steps"]]
    assert not any(code.startswith("parry") for code in codes)


def test_one_critical_per_warrior_per_phase_whatever_his_targets():
    """Impactos críticos: a warrior causes one critical hit per close-combat phase. A frenzied
    Gorbag (2 attacks) fights two: one attack each. Both wound on a 6; only the first is a
    critical (its D6 2: vital, 2 wounds after the save)."""
    table = one_on_one()
    table.turn(1, B)
    table.state.rules[21] = frozenset({"frenzy"})  # a berserker leads Angmar this time
    table.add("charge", charger=21, targets=[12, 13])
    blows = [{"attacker": 21, "target": 12, "attacks": 1}, {"attacker": 21, "target": 13}]
    # Strike order: Gorbag charged, first; Barahir and Dior tie at I3: the roll-off 5 and 3.
    # To 12: hit 4, wound 6 → critical 2 (vital: 2 wounds, saves allowed; he has none),
    # injury 1 and 1: knocked down. To 13: hit 4, Dior parries with his sword: a 1, no;
    # wound 6 → a plain wound (his critical is spent), injury 1: knocked down. Neither of them
    # strikes back: they are down before their turn to strike.
    fight = table.add(
        "close-combat", faces=[5, 3, 4, 6, 2, 1, 1, 4, 1, 6, 1], fighter=21, blows=blows
    )["result"]
    by_target = {b["target"]: b["result"] for b in fight["blows"]}
    assert by_target[12]["criticals"] == ["vital"] and by_target[12]["wounds_lost"] == 2
    assert by_target[13]["criticals"] == [] and by_target[13]["wounds_lost"] == 1


def test_no_knock_down_then_finish_by_the_same_warrior_but_a_second_one_may():
    """Atacar a guerreros aturdidos o derribados: a warrior's attacks are resolved together, so
    his own knock-down does not let his other attacks finish the man (each wound rolls on the
    injury table, the worst applies); a second warrior striking later in the same phase hits
    the knocked-down enemy automatically, and any wound takes him out of action."""
    alone = one_on_one()
    alone.add("charge", charger=13, targets=[21])
    # Dior: hits 4, 4; wounds 5, 5; the dagger's wound allows a 6+ save: a 1; Gorbag has 1 W,
    # so both wounds roll to injure: 1 and 2, knocked down both. Not out of action.
    alone.add("close-combat", faces=[4, 4, 5, 5, 1, 1, 2], fighter=13)
    assert alone.fighter(21)["status"] == "knocked_down"
    pair = one_on_one()
    pair.add("charge", charger=11, targets=[21])
    pair.add("charge", charger=13, targets=[21])
    # Both charged: Beren (I4) first: hit 4, wound 5, injury 1: knocked down. Dior (I3) then:
    # no to-hit dice (a knocked-down enemy is hit automatically); to wound 4 (sword) and 1
    # (dagger): one wound, no save (a sword gives none): out of action.
    blows = [{"attacker": 21, "target": 11}]  # declared before any die: he never strikes
    fight = pair.add("close-combat", faces=[4, 5, 1, 4, 1], fighter=21, blows=blows)["result"]
    assert pair.fighter(21)["status"] == OUT_OF_ACTION
    dior = next(b["result"] for b in fight["blows"] if b["attacker"] == 13)
    assert "melee.automatic_hits" in [s["code"] for s in dior["steps"]]
    assert pair.state.out_of_action[-1].actor == 13


def test_stupidity_keeps_a_warrior_from_attacking_and_rallying_from_shooting():
    table = Table(
        battle(
            [warrior(11, "Troll", "15 3 1 5 4 3 1 3 4", rules=("stupidity",), leader=True)],
            [warrior(21, "Gorbag", HUMAN, leader=True)],
        )
    )
    table.turn(1, A)
    table.add("check", faces=[6, 6, 5], check="stupidity", fighter=11)  # fails; 5: drools
    assert "stupid" in table.fighter(11)["states"]
    error = table.refused("charge", charger=11, targets=[21])
    assert error.code == "entry.cannot_charge" and "stupidity" in str(error)


def test_fear_a_charged_warrior_tests_and_a_charger_must_pass_first():
    """Miedo: charged by an enemy he fears, a warrior tests when the charge is declared (a
    required check); failed, he hits only on 6s in the first round. Wishing to charge one, he
    must pass first; failed, he may not charge him (a failed charge)."""
    table = one_on_one()
    table.state.rules[21] = frozenset({"fear"})  # Gorbag causes fear (horrible scars)
    table.state.rules[23] = frozenset({"fear"})  # and so does Lagduf (fearsome)
    error = table.refused("charge", charger=11, targets=[21])
    assert error.code == "entry.fear_test_first"
    table.add("check", faces=[6, 5], check="fear", fighter=11, against=21)  # 11 > L8: failed
    assert table.refused("charge", charger=11, targets=[21]).code == "entry.fear_failed"
    assert "failed_charge" in table.fighter(11)["states"]
    table.add("check", faces=[3, 3], check="fear", fighter=12, against=21)  # 6 ≤ L7: passed
    table.add("charge", charger=12, targets=[21])
    table.add("close-combat", faces=[1, 1], fighter=12)
    table.turn(1, B)
    table.add("charge", charger=23, targets=[13])  # charges come first in the turn
    # Barahir and Gorbag fight on: I3 each, nobody charged: a roll-off (5, 3), then two misses.
    table.add("close-combat", faces=[5, 3, 1, 1], fighter=21)
    (fear,) = table.due("fear")
    assert (fear["against"], fear["fighters"], fear["required"]) == (23, [13], True)
    with pytest.raises(Exception, match="checks due"):
        table.add("turn", turn=2, side=A)
    table.add("check", faces=[6, 6], check="fear", fighter=13, against=23)
    assert "fear_failed:23" in table.fighter(13)["states"]
    # Lagduf charged: first, a 1 misses. Dior failed: his two attacks need 6s in the first
    # round: 6 (his sword: a hit) and 5 (his dagger: no); to wound 1: nothing.
    fight = table.add("close-combat", faces=[1, 6, 5, 1], fighter=23)["result"]
    dior = next(b["result"] for b in fight["blows"] if b["attacker"] == 13)
    assert dior["hits"] == 1 and "melee.fear" in [s["code"] for s in dior["steps"]]


def test_frenzy_doubles_attacks_ignores_fear_and_is_lost_when_knocked_down():
    """Furia asesina: double A (the second weapon's +1 after doubling); within charge range,
    immune to fear; knocked down or stunned, he loses it for the battle."""
    table = Table(
        battle(
            [warrior(11, "Wulf", HUMAN, gear=("espada", "daga"), rules=("frenzy",), hero=True)],
            [warrior(21, "Troll", "15 3 1 5 4 3 1 3 4", rules=("fear",), leader=True)],
        )
    )
    table.turn(1, A)
    assert table.due("fear") == []  # frenzied: immune within charge range
    table.add("charge", charger=11, targets=[21])
    assert table.due("fear") == []
    # 1 A doubled = 2, +1 for the dagger = 3 attacks: three misses; the troll (3 attacks) hits
    # 4, 4, 4 (HA3 v HA3); Wulf parries the highest with a 2 (no); F5 against R3 wounds on 2+:
    # 2, 1, 1 → one wound; no armour; injury 1: knocked down.
    fight = table.add("close-combat", faces=[1, 1, 1, 4, 4, 4, 2, 2, 1, 1, 1], fighter=11)
    wulf = next(b["result"] for b in fight["result"]["blows"] if b["attacker"] == 11)
    assert wulf["attacks"] == 3
    assert table.fighter(11)["status"] == "knocked_down"
    assert "frenzy_lost" in table.fighter(11)["states"]


def test_shooting_neither_from_nor_into_a_combat_and_large_targets_are_easier():
    table = Table(
        battle(
            [
                warrior(11, "Hal", HUMAN, gear=("arco",), leader=True),
                warrior(12, "Bard", HUMAN, gear=("arco",)),
            ],
            [
                warrior(21, "Troll", "15 3 1 5 4 3 1 3 4", rules=("large-target",), leader=True),
                warrior(22, "Lagduf", HUMAN, gear=("capa-elfica",)),
            ],
        )
    )
    table.turn(1, A)
    table.add("charge", charger=12, targets=[22])
    error = table.refused("attack", attacker=12, target=21, mode="shooting")
    assert error.code == "entry.cannot_shoot" and error.field == "attacker"
    error = table.refused("attack", attacker=11, target=22, mode="shooting")
    assert error.code == "entry.cannot_shoot" and error.field == "target"
    assert (
        table.refused(
            "attack", attacker=11, target=21, mode="shooting", modifiers={"large_target": True}
        ).field
        == "modifiers"
    )
    # HP3 needs 4+; the troll is a large target (+1): a 3 hits.
    shot = table.add("attack", faces=[3, 1], attacker=11, target=21, mode="shooting")
    assert shot["result"]["hits"] == 1
    assert "shooting.large" in [s["code"] for s in shot["result"]["steps"]]
    assert table.refused("attack", attacker=11, target=21, mode="shooting").code == (
        "entry.cannot_shoot"
    )  # once per shooting phase


def test_charges_come_before_the_turns_shooting_and_close_combat():
    """El turno: movement (charges first), shooting, close combat."""
    table = one_on_one()
    table.add("charge", charger=11, targets=[21])
    table.add("close-combat", faces=[1, 1], fighter=11)
    assert table.refused("charge", charger=12, targets=[22]).code == "entry.turn_sequence"


def test_the_combat_phase_plan_says_which_dice_in_order():
    """Before rolling: the strike order's roll-off, then each striker's to-hit dice, then his
    to-wound dice for his hits… each step with who rolls against whom."""
    from rules.engine.tracker import dice_plan

    table = one_on_one()
    table.add("charge", charger=13, targets=[22])
    plan = dice_plan(table.state, "close-combat", {"fighter": 13}, [])
    assert plan.next.to_dict() | {} == {
        "purpose": "to hit",
        "dice": "D6",
        "rolls": 2,
        "scope": "13>22",
        "reroll": False,
        "faces": [],
        "missing": 2,
    }
    plan = dice_plan(table.state, "close-combat", {"fighter": 13}, [5, 4])
    assert plan.next.purpose == "parry" and plan.next.missing == 1
    assert [step.purpose for step in plan.done] == ["to hit"]
    plan = dice_plan(table.state, "close-combat", {"fighter": 13}, [5, 4, 2, 6, 4, 2, 1, 3])
    assert plan.complete and plan.surplus == 1
    assert [step.purpose for step in plan.done] == [
        "to hit",
        "parry",
        "parry",  # the buckler's re-roll
        "to wound",
        "armour save",
        "injury",
    ]
