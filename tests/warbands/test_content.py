import shutil
from io import StringIO

import pytest
import yaml
from django.core.management import CommandError, call_command

from rules.engine import WEAPONS
from warbands.content_loader import DEFAULT_PACK_PATH, content_pack_load
from warbands.models import ContentPack, Equipment, FighterType, Race, WarbandType

pytestmark = pytest.mark.django_db

BOOK_WARBANDS = {
    "Guerreros de Arthedain",
    "Guerreros de Cardolan",
    "Guerreros de Rhudaur",
    "Angmarim de Carn Dûm",
    "Orcos de Angmar",
    "Elfos de Rivendel",
    "Enanos buscadores de tesoros",
    "Mercenarios de Rhovanion",
    "Hombres del Este",
    "Hombres de las Colinas",
    "Nórdicos de Rhovanion",
}
# Every weapon and armour the rules engine knows must be in the catalogue, by the same slug.
CONTRACT_EQUIPMENT = sorted(WEAPONS)


def test_default_pack_has_the_books_warbands(content):
    types = WarbandType.objects.filter(playable=True)
    assert {t.name for t in types} >= BOOK_WARBANDS
    for warband_type in types:
        assert warband_type.starting_treasury == 500
        roles = list(warband_type.fighter_types.values_list("role", flat=True))
        assert roles.count("leader") == 1, warband_type
        assert "henchman" in roles and "hero" in roles
    pack = ContentPack.objects.get(slug="annuminas")
    assert "diseñad" in pack.description  # says the lists are designed, not the book's


def test_equipment_and_races_follow_the_contract(content):
    assert set(CONTRACT_EQUIPMENT) <= set(Equipment.objects.values_list("slug", flat=True))
    assert {"human", "elf", "dwarf", "orc", "goblin", "ogre"} <= set(
        Race.objects.values_list("slug", flat=True)
    )
    assert Equipment.objects.get(slug="espada").cost == 10
    assert Equipment.objects.get(slug="arco-largo").range_cm == 75
    assert Equipment.objects.get(slug="cota-de-mithril").armour_save == 3
    assert Equipment.objects.get(slug="armadura-enana").rarity is not None


def test_profiles_follow_the_seed(content):
    human = FighterType.objects.get(slug="guerrero-mercenario")
    assert human.profile() == {
        "m": 10,
        "ws": 3,
        "bs": 3,
        "s": 3,
        "t": 3,
        "w": 1,
        "i": 3,
        "a": 1,
        "ld": 7,
    }
    elf = FighterType.objects.get(slug="guerrero-elfo")
    assert (elf.m, elf.ld) == (12, 8)
    assert FighterType.objects.get(slug="guerrero-orco").ld == 5
    for fighter_type in FighterType.objects.select_related("race"):
        for field, maximum in fighter_type.race.max_profile().items():
            assert getattr(fighter_type, field) <= maximum, (fighter_type, field)


def test_load_content_twice_changes_nothing(content):
    pack = ContentPack.objects.get(slug="annuminas")
    out = StringIO()
    call_command("load_content", stdout=out)
    assert "unchanged" in out.getvalue()
    again = ContentPack.objects.get(slug="annuminas")
    assert (again.version, again.loaded_at, again.content_hash) == (
        pack.version,
        pack.loaded_at,
        pack.content_hash,
    )


def test_admin_edits_survive_an_unchanged_reload(content):
    Equipment.objects.filter(slug="espada").update(cost=12)
    call_command("load_content", stdout=StringIO())
    assert Equipment.objects.get(slug="espada").cost == 12


def test_a_changed_file_updates_the_pack_and_bumps_its_version(content, tmp_path):
    pack_dir = tmp_path / "pack"
    shutil.copytree(DEFAULT_PACK_PATH, pack_dir)
    before = ContentPack.objects.get(slug="annuminas").version
    equipment_file = pack_dir / "equipment.yaml"
    text = equipment_file.read_text()
    equipment_file.write_text(
        text.replace(
            "espada: {name: Espada, kind: melee, cost: 10",
            "espada: {name: Espada, kind: melee, cost: 11",
        )
    )
    call_command("load_content", "--path", str(pack_dir), stdout=StringIO())
    assert Equipment.objects.get(slug="espada").cost == 11
    assert ContentPack.objects.get(slug="annuminas").version == before + 1
    result = content_pack_load(path=pack_dir)
    assert not result.changed
    assert ContentPack.objects.get(slug="annuminas").version == before + 1


def test_a_broken_pack_is_refused_with_its_reason(content, tmp_path):
    pack_dir = tmp_path / "pack"
    shutil.copytree(DEFAULT_PACK_PATH, pack_dir)
    warbands_file = pack_dir / "warbands.yaml"
    warbands_file.write_text(
        warbands_file.read_text().replace("equipment: elves", "equipment: nope", 1)
    )
    with pytest.raises(CommandError, match="nope"):
        call_command("load_content", "--path", str(pack_dir), stdout=StringIO())
    assert Equipment.objects.get(slug="espada").cost == 10


def test_every_special_rule_has_a_name_and_its_whole_description():
    """A comma inside an unquoted YAML flow mapping once cut a description in two."""
    rules = yaml.safe_load((DEFAULT_PACK_PATH / "special_rules.yaml").read_text("utf-8"))
    broken = {
        slug: text
        for slug, text in rules["special_rules"].items()
        if not isinstance(text, dict)
        or set(text) != {"name", "description", "en"}
        or not all(
            isinstance(text[key], str) and text[key].strip() for key in ("name", "description")
        )
        or set(text["en"]) != {"name", "description"}
        or not all(isinstance(v, str) and v.strip() for v in text["en"].values())
    }
    assert broken == {}
    assert "con un 1 en 1D6" in rules["special_rules"]["animosity"]["description"]
    assert "on a 1 on a D6" in rules["special_rules"]["animosity"]["en"]["description"]
