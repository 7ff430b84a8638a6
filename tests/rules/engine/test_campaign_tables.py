"""The campaign tables a league may set, as the engine reads them: the default rows pass the one
check, every value the dice can give needs its row, and a league's rows reach the post-battle
functions in the shape they take."""

from rules.engine import sell_finds, underdog_bonus
from rules.engine.campaign_tables import (
    CAMPAIGN_TABLES,
    default_tables,
    engine_table,
    tables_in_force,
    tables_problems,
)
from rules.engine.dice import Dice
from rules.engine.postbattle import henchman_injury, hero_advance
from rules.engine.profile import Profile


def where(problems) -> list[tuple[str, int, str]]:
    return [(p.table, p.row, p.key) for p in problems]


def test_every_table_has_default_rows_that_pass():
    tables = default_tables()
    assert tuple(tables) == CAMPAIGN_TABLES
    assert tables_problems(tables) == []


def test_a_gap_in_an_open_table_is_named():
    rows = [{"min": 0, "max": 50, "result": 0}, {"min": 60, "max": None, "result": 1}]
    (problem,) = tables_problems({"underdog_bonus": rows})
    assert (problem.message % problem.params) == "no row for 51-59"


def test_an_open_row_before_another_overlaps_it():
    rows = [{"min": 1, "max": None, "result": 1}, {"min": 20, "max": None, "result": 2}]
    assert where(tables_problems({"exploration": rows})) == [("exploration", 2, "min")]


def test_a_subroll_must_cover_the_die():
    row = {"min": 2, "max": 12, "result": "subroll", "options": [["1-3", "s"], ["5-6", "a"]]}
    assert where(tables_problems({"hero_advances": [row]})) == [("hero_advances", 1, "options")]


def test_the_prices_of_finds_are_read_by_their_number():
    prices = {"1": [10, 20, 30, 40, 50, 60], "2": [70, 80, 90, 100, 110, 120]}
    assert tables_problems({"sell_finds": prices}) == []
    table = engine_table("sell_finds", prices)
    assert sell_finds(finds=5, warband_size=8, table=table) == 90  # 5 finds: the highest row
    assert where(tables_problems({"sell_finds": {"2": prices["2"]}})) == [("sell_finds", 0, "")]


def test_a_leagues_rows_reach_the_engine():
    merciful = [{"min": 1, "max": 6, "result": "fine"}]
    assert tables_problems({"henchman_injuries": merciful}) == []
    assert henchman_injury(dice=Dice(faces=[1]), table=merciful).outcome == "fine"
    generous = [{"min": 0, "max": 1, "result": 0}, {"min": 2, "max": None, "result": 9}]
    assert underdog_bonus(own_rating=100, enemy_rating=150, table=generous) == 9
    skills = default_tables()["hero_advances"]
    human = Profile(10, 3, 3, 3, 3, 1, 3, 1, 7)
    outcome = hero_advance(dice=Dice(faces=[1, 1]), profile=human, maximum="human", table=skills)
    assert outcome.outcome == "skill"


def test_the_campaigns_own_tables_replace_the_packs():
    pack = [{"min": 1, "max": None, "result": 1}]
    own = [{"min": 1, "max": 12, "result": 1}, {"min": 13, "max": None, "result": 3}]
    assert tables_in_force({"exploration": pack}, {"exploration": own, "weather": [3]}) == {
        "exploration": own
    }


def test_a_table_the_check_refuses_is_not_in_force():
    pack = [{"min": 1, "max": None, "result": 1}]
    assert tables_in_force({"exploration": pack}, {"exploration": [{"min": 5}]}) == {
        "exploration": pack
    }
