"""Rare items and skills reach the table: each key of the default content pack the vocabulary
says the tracker reads changes a roll, worked by hand."""

from rules.engine.tracker import OUT_OF_ACTION
from tests.rules.engine.tracker_table import A, B, Table, battle, warrior

HUMAN = "10 3 3 3 3 1 3 1 7"


def duel(mine: dict, theirs: dict, *, a_more=(), b_more=()) -> Table:
    table = Table(battle([mine, *a_more], [theirs, *b_more]))
    table.turn(1, A)
    return table


def blow_of(result: dict, attacker: int) -> dict:
    return next(b["result"] for b in result["blows"] if b["attacker"] == attacker)


def test_elven_cloak_makes_the_wearer_harder_to_shoot():
    """Capa élfica: −1 to hit the wearer. HP3 needs 4+; with the cloak a 4 misses."""
    table = duel(
        warrior(11, "Hal", HUMAN, gear=("arco",), leader=True),
        warrior(21, "Elrohir", HUMAN, gear=("capa-elfica",), leader=True),
    )
    shot = table.add("attack", faces=[4], attacker=11, target=21, mode="shooting")
    assert shot["result"]["hits"] == 0
    assert "shooting.target_modifier" in [s["code"] for s in shot["result"]["steps"]]


def test_lucky_charm_ignores_the_first_wound_of_the_battle_once():
    """Amuleto de la suerte: the first time he is wounded, a 4+ ignores it; then it is spent.
    Gorbag charges: hit 4, wound 4, charm 5 → ignored. Next turn's wound stands."""
    table = duel(
        warrior(11, "Beren", HUMAN, gear=("amuleto-de-la-suerte",), leader=True),
        warrior(21, "Gorbag", HUMAN, leader=True),
    )
    table.turn(1, B)
    table.add("charge", charger=21, targets=[11])
    fight = table.add("close-combat", faces=[4, 4, 5, 1], fighter=21)["result"]
    assert blow_of(fight, 21)["wounds_lost"] == 0
    assert "spent:lucky-charm" in table.fighter(11)["states"]
    table.turn(2, A)
    # Beren I3, Gorbag I3: roll-off 6, 1 (Beren first). Beren misses (1); Gorbag hits 4,
    # wounds 4: no charm left; injury 5: out of action.
    table.add("close-combat", faces=[6, 1, 1, 4, 4, 5], fighter=11)
    assert table.fighter(11)["status"] == OUT_OF_ACTION


def test_black_venom_adds_one_to_wound():
    """Veneno negro: +1 to wound. F3 against R4 needs 5+; envenomed, a 4 wounds (to hit 4,
    to wound 4, injury 1: knocked down; Dwalin, down, does not strike back)."""
    table = duel(
        warrior(11, "Ulfang", HUMAN, gear=("veneno-negro",), leader=True),
        warrior(21, "Dwalin", "7.5 3 3 3 4 1 3 1 9", leader=True),
    )
    table.add("charge", charger=11, targets=[21])
    fight = table.add("close-combat", faces=[4, 4, 1], fighter=11)["result"]
    assert blow_of(fight, 11)["wounding_hits"] == 1


def test_mad_cap_mushrooms_make_him_frenzied():
    """Setas de locura: frenzy for the battle: 2 attacks, immune to fear."""
    table = duel(
        warrior(11, "Snaga", HUMAN, gear=("setas-de-locura",), leader=True, race="orc"),
        warrior(21, "Troll", "15 3 1 5 4 3 1 3 4", rules=("fear",), leader=True),
    )
    assert "frenzied" in table.fighter(11)["states"]
    assert table.due("fear") == []
    table.add("charge", charger=11, targets=[21])
    fight = table.add("close-combat", faces=[1, 1, 1, 1, 1], fighter=11)[
        "result"
    ]  # his two attacks miss; the troll's three too
    assert blow_of(fight, 11)["attacks"] == 2


def test_pipe_weed_re_rolls_the_first_failed_rout_test():
    """Hierba de la Cuaderna: the warband re-rolls its first failed rout test (both dice)."""
    table = Table(
        battle(
            [
                warrior(11, "Bilbo", HUMAN, gear=("hierba-de-la-cuaderna",), leader=True),
                warrior(12, "Ham", HUMAN),
                warrior(13, "Tom", HUMAN),
                warrior(14, "Rob", HUMAN),
            ],
            [warrior(21, "Gorbag", HUMAN, leader=True)],
        )
    )
    table.turn(1, A)
    table.turn(1, B)
    table.add("status", fighter=12, status="out_of_action", by=21)
    table.turn(2, A)
    test = table.add("check", faces=[6, 6, 2, 3], check="rout", side=A)  # 12 > 7; re-rolled 5
    assert test["result"]["outcome"] == "stands"
    assert test["result"]["details"]["spent"] == ["pipe-weed"]
    table.turn(2, B)
    table.add("status", fighter=13, status="out_of_action", by=21)
    table.turn(3, A)
    again = table.add("check", faces=[6, 6], check="rout", side=A)  # no weed left
    assert again["result"]["outcome"] == "routed"


def test_war_horn_lets_friends_re_roll_a_failed_leadership_test():
    table = Table(
        battle(
            [
                warrior(11, "Boromir", HUMAN, gear=("cuerno-de-guerra",), leader=True),
                warrior(12, "Faramir", HUMAN),
            ],
            [warrior(21, "Troll", "15 3 1 5 4 3 1 3 4", rules=("fear",), leader=True)],
        )
    )
    table.turn(1, A)
    params = {"war_horn": True}
    test = table.add(
        "check", faces=[6, 6, 3, 3], check="fear", fighter=12, against=21, params=params
    )
    assert test["result"]["outcome"] == "passed"
    table.turn(1, B)
    table.turn(2, A)
    assert (
        table.refused("check", check="fear", fighter=11, against=21, params=params).field
        == "params.war_horn"
    )  # once a battle


def test_the_witch_kings_talisman_costs_one_leadership_to_whoever_fears_its_bearer():
    """Talismán del Rey Brujo: −1 L for fear tests against its bearer (he is that close)."""
    table = duel(
        warrior(11, "Beren", HUMAN, leader=True),
        warrior(21, "Nazgûl", HUMAN, gear=("talisman-de-angmar",), rules=("fear",), leader=True),
    )
    test = table.add("check", faces=[4, 3], check="fear", fighter=11, against=21)
    assert test["result"]["details"]["leadership_used"] == 6
    assert test["result"]["outcome"] == "cannot_charge"  # 7 > L6


def test_an_orc_draught_stands_him_up_without_losing_his_action():
    table = duel(
        warrior(11, "Snaga", HUMAN, gear=("pocion-orca",), leader=True, race="orc"),
        warrior(21, "Beren", HUMAN, leader=True),
    )
    table.add("status", fighter=11, status="knocked_down", by=21)
    table.turn(1, B)
    table.turn(2, A)
    assert table.fighter(11)["status"] == "in_play"
    assert "stood_up" not in table.fighter(11)["states"]
    table.turn(2, B)
    table.add("status", fighter=11, status="knocked_down", by=21)
    table.turn(3, A)
    assert "stood_up" in table.fighter(11)["states"]  # the draught was drunk


def test_war_paint_makes_him_immune_to_fear_when_the_fight_starts():
    table = duel(
        warrior(11, "Wulf", HUMAN, gear=("pintura-de-guerra",), leader=True),
        warrior(21, "Troll", "15 3 1 5 4 3 1 3 4", rules=("fear",), leader=True),
    )
    assert table.due("fear") == []
    table.add("charge", charger=11, targets=[21])  # no fear test needed


def test_lembas_turn_one_stunned_result_into_knocked_down():
    table = duel(
        warrior(11, "Elladan", HUMAN, gear=("lembas",), leader=True),
        warrior(21, "Gorbag", HUMAN, leader=True),
    )
    table.turn(1, B)
    table.add("charge", charger=21, targets=[11])
    table.add("close-combat", faces=[4, 4, 3], fighter=21)  # injury 3: stunned → knocked down
    assert table.fighter(11)["status"] == "knocked_down"
    assert "spent:stun-to-knockdown" in table.fighter(11)["states"]


def test_a_league_weapon_from_the_catalogue_is_used_at_the_table():
    """Hacha de acero enano: −2 to the enemy's save (the catalogue writes −2). F3 does not
    worsen a heavy armour's 5+; the axe makes it 7+: no save. Gimli (HA4) hits on 3+ (a 4),
    wounds on 4+ (a 4); injury 5: out of action."""
    table = duel(
        warrior(11, "Gimli", "7.5 4 3 3 4 1 2 1 9", gear=("hacha-de-acero-enano",), leader=True),
        warrior(21, "Gorbag", HUMAN, gear=("armadura-pesada",), leader=True),
    )
    table.add("charge", charger=11, targets=[21])
    fight = table.add("close-combat", faces=[4, 4, 5], fighter=11)["result"]
    steps = [s["code"] for s in blow_of(fight, 11)["steps"]]
    assert "save.none" in steps and table.fighter(21)["status"] == OUT_OF_ACTION


def test_skills_reach_the_table():
    """Temible causes fear; golpe poderoso is +1 F in close combat; reflejos rápidos strikes
    first when charged; linaje de Númenor is +1 L."""
    table = duel(
        warrior(11, "Aragorn", HUMAN, rules=("temible", "linaje-de-numenor"), leader=True),
        warrior(21, "Gorbag", HUMAN, rules=("golpe-poderoso", "reflejos-rapidos"), leader=True),
    )
    assert table.fighter(11)["leadership"] == 7
    table.turn(1, B)
    table.add("check", faces=[3, 3], check="fear", fighter=21, against=11)  # fearsome: passed
    table.add("charge", charger=21, targets=[11])
    fight = table.add("close-combat", faces=[1, 1], fighter=21)["result"]
    assert fight["order"] == [21, 11]
    assert {"fear"} <= table.state.rules[11]
