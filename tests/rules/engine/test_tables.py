import json

import pytest

from rules.engine import RACIAL_MAXIMUMS, WEAPONS, Profile, ProfileError, tables_as_dict
from rules.engine.tables import (
    MELEE_TO_HIT,
    SAVE_MODIFIER_BY_STRENGTH,
    SHOOTING_TO_HIT,
    TO_WOUND,
    melee_to_hit_needed,
)

REFERENCE_TO_HIT = """
 1   4 4 5 5 5 5 5 5 5 5
 2   3 4 4 4 5 5 5 5 5 5
 3   3 3 4 4 4 4 5 5 5 5
 4   3 3 3 4 4 4 4 4 5 5
 5   3 3 3 3 4 4 4 4 4 4
 6   3 3 3 3 3 4 4 4 4 4
 7   3 3 3 3 3 3 4 4 4 4
 8   3 3 3 3 3 3 3 4 4 4
 9   3 3 3 3 3 3 3 3 4 4
10   3 3 3 3 3 3 3 3 3 4
"""

REFERENCE_TO_WOUND = """
 1   4 5 6 6 – – – – – –
 2   3 4 5 6 6 – – – – –
 3   2 3 4 5 6 6 – – – –
 4   2 2 3 4 5 6 6 – – –
 5   2 2 2 3 4 5 6 6 – –
 6   2 2 2 2 3 4 5 6 6 –
 7   2 2 2 2 2 3 4 5 6 6
 8   2 2 2 2 2 2 3 4 5 6
 9   2 2 2 2 2 2 2 3 4 5
10   2 2 2 2 2 2 2 2 3 4
"""


def _grid(text):
    rows = []
    for line in text.strip().splitlines():
        cells = line.split()[1:]
        rows.append(tuple(None if cell == "–" else int(cell) for cell in cells))
    return tuple(rows)


def test_melee_to_hit_grid_matches_the_reference():
    assert _grid(REFERENCE_TO_HIT) == MELEE_TO_HIT


def test_to_wound_grid_matches_the_reference():
    assert _grid(REFERENCE_TO_WOUND) == TO_WOUND


def test_defender_with_ws_zero_is_hit_automatically():
    assert melee_to_hit_needed(3, 0) is None


def test_shooting_to_hit_table():
    assert [SHOOTING_TO_HIT[bs] for bs in range(1, 11)] == [6, 5, 4, 3, 2, 1, 0, -1, -2, -3]


def test_save_modifier_by_strength():
    assert [SAVE_MODIFIER_BY_STRENGTH[s] for s in range(1, 11)] == [
        0,
        0,
        0,
        -1,
        -2,
        -3,
        -4,
        -5,
        -6,
        -6,
    ]


def test_racial_maximums_in_cm():
    assert RACIAL_MAXIMUMS["human"] == Profile(10, 6, 6, 4, 4, 3, 6, 4, 9)
    # Reglas › Atributos: an elf moves 12 cm (not Mordheim's 5" × 2.5), as the content pack says.
    assert RACIAL_MAXIMUMS["elf"].m == 12 and RACIAL_MAXIMUMS["elf"].i == 9
    assert RACIAL_MAXIMUMS["dwarf"].m == 7.5 and RACIAL_MAXIMUMS["dwarf"].t == 5
    assert RACIAL_MAXIMUMS["orc"].t == 5 and RACIAL_MAXIMUMS["orc"].ld == 9
    assert RACIAL_MAXIMUMS["goblin"].ws == 5 and RACIAL_MAXIMUMS["goblin"].ld == 7
    assert RACIAL_MAXIMUMS["ogre"] == Profile(15, 6, 5, 5, 5, 5, 6, 5, 9)


def test_tables_as_dict_is_json_and_complete():
    data = json.loads(json.dumps(tables_as_dict()))
    for key in (
        "melee_to_hit",
        "to_wound",
        "shooting_to_hit",
        "save_modifier_by_strength",
        "injury",
        "critical",
        "serious_injury",
        "hero_advance",
        "henchman_advance",
        "hero_thresholds",
        "henchman_thresholds",
        "underdog",
        "exploration_finds",
        "sell_finds",
        "racial_maximums",
        "equipment",
    ):
        assert key in data
    assert data["to_wound"]["grid"][0][4] is None
    assert data["hero_thresholds"][-1] == 90
    assert data["sell_finds"]["rows"]["8"] == [155, 140, 130, 120, 110, 100]
    assert data["racial_maximums"]["human"]["m"] == 10
    assert data["equipment"]["arco-elfico"]["save_modifier"] == 1


def test_tables_as_dict_returns_a_copy():
    data = tables_as_dict()
    data["injury"][0]["result"] = "changed"
    assert tables_as_dict()["injury"][0]["result"] == "knocked_down"


def test_weapon_table_has_every_slug():
    slugs = {
        "daga",
        "maza",
        "martillo",
        "hacha",
        "espada",
        "lanza",
        "alabarda",
        "mangual",
        "lucero-del-alba",
        "mayal",
        "arma-a-dos-manos",
        "lanza-de-caballeria",
        "arco-corto",
        "arco",
        "arco-largo",
        "arco-elfico",
        "ballesta",
        "honda",
        "cuchillos-arrojadizos",
        "armadura-ligera",
        "armadura-pesada",
        "armadura-enana",
        "cota-de-mithril",
        "escudo",
        "escudo-pequeno",
        "yelmo",
    }
    assert slugs <= set(WEAPONS)
    assert WEAPONS["arco-largo"].range_cm == 75 and WEAPONS["ballesta"].strength == 4
    assert WEAPONS["honda"].range_cm == 45 and WEAPONS["arco-corto"].range_cm == 40
    assert (
        WEAPONS["arma-a-dos-manos"].strength_bonus == 2
        and WEAPONS["mayal"].strength_bonus_first_round == 2
    )


def test_profile_validation_names_the_field():
    with pytest.raises(ProfileError) as info:
        Profile(10, 3, 3, 11, 3, 1, 3, 1, 7)
    assert info.value.field == "s"
    assert "F" in str(info.value)
    with pytest.raises(ProfileError) as info:
        Profile(10, 3, 3, 3, 3, 1, 3, 1, -1)
    assert info.value.field == "ld"
    with pytest.raises(ProfileError):
        Profile(10.3, 3, 3, 3, 3, 1, 3, 1, 7)
    with pytest.raises(ValueError):
        Profile(10, 3, 3, 3, 3, 1, 3, 1.5, 7)


def test_profile_from_dict_accepts_spanish_names():
    profile = Profile.from_dict(
        {"M": 10, "HA": 3, "HP": 3, "F": 3, "R": 3, "H": 1, "I": 3, "A": 1, "L": 7}
    )
    assert profile == Profile(10, 3, 3, 3, 3, 1, 3, 1, 7)
    assert profile.to_dict()["m"] == 10
    with pytest.raises(ProfileError) as info:
        Profile.from_dict({"M": 10})
    assert info.value.field == "ws"
