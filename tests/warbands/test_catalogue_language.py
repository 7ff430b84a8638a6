"""Every word in the player's language: the content pack carries English beside its
Spanish (an ``en:`` block per entry, stored in each row's ``translations``), and English pages,
the print and the API read it; Spanish stays the default and the game's language."""

import re
import shutil
from io import StringIO

import pytest
import yaml
from django.conf import settings
from django.core.exceptions import ValidationError
from django.core.management import call_command
from django.test import Client
from django.urls import reverse
from django.utils import translation

from tests.warbands.fixtures import equipment, fighter_type
from tests.warbands.test_sheet_paper import orc_warband, visible_text
from warbands import services
from warbands.content_loader import DEFAULT_PACK_PATH, content_pack_load
from warbands.models import (
    ContentPack,
    Equipment,
    EquipmentList,
    FighterType,
    HiredSword,
    Race,
    Skill,
    SkillList,
    SpecialRule,
    WarbandType,
)

pytestmark = pytest.mark.django_db

CATALOGUE = (
    Race,
    SpecialRule,
    SkillList,
    Skill,
    Equipment,
    EquipmentList,
    WarbandType,
    FighterType,
)
# Words only Spanish prose has (whole words), never the game's English.
SPANISH_PROSE = re.compile(r"\b(el|la|los|las|del|con|por|para|una|que|sin|si|en)\b")
# One special rule, one item and one skill: their Spanish and English descriptions.
RULE_ES = "Tira 1D6 por cada herida; con 4+ la ignora."
RULE_EN = "Roll a D6 for each wound; on a 4+ it is ignored."
ITEM_ES = "Conmoción: herida 2-4 = aturdido."
ITEM_EN = "Concussion: an injury roll of 2-4 counts as stunned."
SKILL_ES = "+1 F en el turno en que carga."
SKILL_EN = "+1 S in the turn he charges."


def client_in(language: str, user) -> Client:
    client = Client()
    client.cookies[settings.LANGUAGE_COOKIE_NAME] = language
    client.force_login(user)
    return client


# --- the pack -----------------------------------------------------------------------------------


def test_every_entry_of_the_default_pack_reads_in_english(content):
    missing, spanish = [], []
    for model in CATALOGUE:
        for row in model.objects.filter(pack__slug="annuminas"):
            english = row.translations.get("en", {})
            if row.description and not english.get("description"):
                missing.append(f"{model.__name__} {row.slug}: description")
            if model is not WarbandType and not english.get("name"):
                missing.append(f"{model.__name__} {row.slug}: name")
            for text in english.values():
                if SPANISH_PROSE.search(text):
                    spanish.append(f"{model.__name__} {row.slug}: {text}")
    assert missing == [] and spanish == []
    described = sum(
        1 for model in CATALOGUE for row in model.objects.filter(pack__slug="annuminas")
        if row.description
    )  # fmt: skip
    assert described >= 125  # about 130 texts
    # The book's warband type names stay as the rulebook writes them, in both languages.
    with translation.override("en"):
        orcs = WarbandType.objects.get(slug="orcos-de-angmar")
        assert orcs.display_name == "Orcos de Angmar"
        assert orcs.display_description.startswith("Hordes of Orcs and Goblins")


def test_the_reader_language_picks_the_text_and_spanish_stays_the_default(content):
    hatred = SpecialRule.objects.get(slug="hatred")
    mace = Equipment.objects.get(slug="maza")
    flail = Equipment.objects.get(slug="mangual")
    with translation.override("es"):
        assert (hatred.display_name, mace.display_description) == ("Odio", ITEM_ES)
        assert flail.display_strength == "+1 (1er asalto)"
    with translation.override("en"):
        assert (hatred.display_name, mace.display_description) == ("Hatred", ITEM_EN)
        assert flail.display_strength == "+1 (1st round)"
        sword = HiredSword.objects.get(fighter_type__slug="montaraz-errante")
        assert sword.display_name == "Wandering Ranger"
        hatred.translations = {}  # an admin emptied it: the Spanish, never a blank
        assert hatred.display_name == "Odio"


def test_load_content_upgrades_an_old_catalogue_then_reports_it_unchanged(content, tmp_path):
    """A catalogue loaded before the pack carried English (no ``en:`` blocks) is upgraded by the
    next ``load_content``, which then has nothing to do."""
    old_pack = tmp_path / "old"
    shutil.copytree(DEFAULT_PACK_PATH, old_pack)
    for path in old_pack.glob("*.yaml"):
        lines = path.read_text("utf-8").splitlines(keepends=True)
        kept, skipping = [], None
        for line in lines:
            indent = len(line) - len(line.lstrip())
            if skipping is not None and indent > skipping:
                continue
            skipping = None
            if line.lstrip().startswith("en:") and line.rstrip().endswith("en:"):
                skipping = indent
                continue
            kept.append(re.sub(r", en: \{[^{}]*\}", "", line))
        path.write_text("".join(kept), "utf-8")
    assert "en:" not in (old_pack / "special_rules.yaml").read_text("utf-8")
    content_pack_load(path=old_pack)
    assert SpecialRule.objects.get(slug="hatred").translations == {}
    assert Equipment.objects.get(slug="espada").translations == {}
    before = ContentPack.objects.get(slug="annuminas").version

    out = StringIO()
    call_command("load_content", stdout=out)
    assert "unchanged" not in out.getvalue()
    assert SpecialRule.objects.get(slug="hatred").translations["en"]["name"] == "Hatred"
    assert Equipment.objects.get(slug="espada").translations == {
        "en": {"name": "Sword", "description": "Parry."}
    }
    assert ContentPack.objects.get(slug="annuminas").version == before + 1

    again = StringIO()
    call_command("load_content", stdout=again)
    assert "unchanged" in again.getvalue()
    assert ContentPack.objects.get(slug="annuminas").version == before + 1


def test_an_admin_edit_of_a_translation_survives_an_unchanged_reload(content):
    SpecialRule.objects.filter(slug="fear").update(
        translations={"en": {"name": "Fear", "description": "Edited by the organiser."}}
    )
    assert not content_pack_load().changed
    assert SpecialRule.objects.get(slug="fear").translations["en"]["description"] == (
        "Edited by the organiser."
    )


@pytest.mark.parametrize(
    ("block", "reason"),
    [
        ('"Sword"', "must give text for name, description, strength only"),
        ("{colour: red}", "must give text for name, description, strength only"),
        ("{name: [Sword]}", "must give text for name, description, strength only"),
        ("{name: " + "S" * 121 + "}", "longer than 120 characters"),
    ],
)
def test_a_broken_english_block_is_refused_with_its_reason(content, tmp_path, block, reason):
    pack = tmp_path / "pack"
    shutil.copytree(DEFAULT_PACK_PATH, pack)
    path = pack / "equipment.yaml"
    text = path.read_text("utf-8")
    old = 'en: {name: "Sword", description: "Parry."}'
    assert old in text
    path.write_text(text.replace(old, f"en: {block}"), "utf-8")
    with pytest.raises(ValidationError, match="equipment espada: ") as raised:
        content_pack_load(path=pack)
    assert reason in str(raised.value)
    assert Equipment.objects.get(slug="espada").translations["en"]["name"] == "Sword"


def test_every_english_block_in_the_files_is_text(content):
    """The pack's files: each ``en`` block holds only name, description or strength."""
    blocks = []

    def walk(node):
        if isinstance(node, dict):
            if isinstance(node.get("en"), dict):
                blocks.append(node["en"])
            for value in node.values():
                walk(value)

    for path in DEFAULT_PACK_PATH.glob("*.yaml"):
        walk(yaml.safe_load(path.read_text("utf-8")))
    assert len(blocks) > 200
    assert all(set(block) <= {"name", "description", "strength"} for block in blocks)
    assert all(isinstance(v, str) and v.strip() for block in blocks for v in block.values())


# --- pages --------------------------------------------------------------------------------------


@pytest.fixture
def orcs(content, make_warband):
    """An orc warband: a troll (Regeneración), a boss with a mace and the skill Brutalidad."""
    warband = orc_warband(make_warband)
    boss = warband.fighters.get(is_leader=True)
    services.equipment_buy(warband=warband, equipment=equipment("maza"), fighter=boss)
    boss.skills.add(Skill.objects.get(slug="brutalidad"))
    services.fighter_hire(
        warband=warband, fighter_type=fighter_type("guerrero-orco"), name="Pinchos", count=2
    )
    return warband


@pytest.mark.parametrize("page", ["warband-sheet", "warband-print"])
def test_an_english_sheet_and_print_read_english(orcs, user, page):
    text = visible_text(client_in("en", user).get(reverse(page, args=[orcs.pk])).content.decode())
    assert RULE_EN in text and "Regeneration" in text
    assert "Mace" in text and "Brutality" in text and "Cave Troll" in text
    for spanish in (RULE_ES, "Regeneración", "Maza", "Brutalidad", "Troll de las cavernas"):
        assert spanish not in text, spanish
    assert "Orcos de Angmar" in text  # the warband type's name is the book's


@pytest.mark.parametrize("page", ["warband-sheet", "warband-print"])
def test_a_spanish_sheet_and_print_stay_spanish(orcs, user, page):
    with translation.override("es"):
        response = client_in("es", user).get(reverse(page, args=[orcs.pk]))
    text = visible_text(response.content.decode())
    assert RULE_ES in text and "Maza" in text and "Brutalidad" in text
    assert RULE_EN not in text and "Brutality" not in text


def test_the_english_buy_dialog_reads_english(orcs, user):
    boss = orcs.fighters.get(is_leader=True)
    url = reverse("warband-buy", args=[orcs.pk]) + f"?fighter={boss.pk}"
    page = client_in("en", user).get(url).content.decode()
    assert ITEM_EN in page and "Mace — 3 co" in page
    assert "+1 S in the first round of close combat" not in page  # orcs have no flail
    dagger = Equipment.objects.get(slug="daga")
    assert dagger.translations["en"]["description"] in page
    assert ITEM_ES not in page and dagger.description not in page and "Maza" not in page
    # Listed by kind, then alphabetically in English (the Spanish order puts Hacha after Daga).
    melee = [page.index(f">{name} — ") for name in ("Axe", "Dagger", "Mace", "Spear", "Sword")]
    assert melee == sorted(melee)


def test_the_english_hire_dialogs_read_english(orcs, user):
    client = client_in("en", user)
    hire = client.get(reverse("warband-hire", args=[orcs.pk])).content.decode()
    assert RULE_EN in hire and "Cave Troll" in hire and "Orc Warrior" in hire
    assert RULE_ES not in hire and "Troll de las cavernas" not in hire
    swords = client.get(
        reverse("warband-hired-sword-hire", args=[orcs.pk]), HTTP_HX_REQUEST="true"
    ).content.decode()
    healer = HiredSword.objects.get(fighter_type__slug="sanador-errante")
    assert "Wandering Healer" in swords and "A herbalist who roams Arnor" in swords
    assert healer.fighter_type.description not in swords
    assert SpecialRule.objects.get(slug="healer").description not in swords


def test_the_odds_page_names_the_weapons_in_the_readers_language(content, user):
    english = client_in("en", user).get(reverse("rules-odds")).content.decode()
    assert ">Sword</option>" in english and ">Long Bow</option>" in english
    assert ">Espada</option>" not in english
    assert "WS <input" in english and "HA <input" not in english  # the profile's English
    with translation.override("es"):
        spanish = client_in("es", user).get(reverse("rules-odds")).content.decode()
    assert ">Espada</option>" in spanish and ">Sword</option>" not in spanish
    assert "HA <input" in spanish


# --- the API ------------------------------------------------------------------------------------


def test_the_api_catalogue_answers_in_the_requested_language(content):
    client = Client()
    url = reverse("api-special-rule-detail", args=["regeneration"])
    assert client.get(url).json() == {
        "slug": "regeneration",
        "name": "Regeneración",
        "description": RULE_ES,
    }
    assert client.get(url, HTTP_ACCEPT_LANGUAGE="en").json() == {
        "slug": "regeneration",
        "name": "Regeneration",
        "description": RULE_EN,
    }
    flail = client.get(
        reverse("api-equipment-detail", args=["mangual"]), HTTP_ACCEPT_LANGUAGE="en"
    ).json()
    assert (flail["slug"], flail["name"], flail["strength"]) == (
        "mangual",
        "Chain Flail",
        "+1 (1st round)",
    )
    skills = client.get(reverse("api-skill-list"), {"page_size": 100}, HTTP_ACCEPT_LANGUAGE="en")
    body = skills.json()
    rows = body["results"] if isinstance(body, dict) else body
    brutality = next(row for row in rows if row["slug"] == "brutalidad")
    assert (brutality["name"], brutality["description"]) == ("Brutality", SKILL_EN)
    sword = client.get(
        reverse("api-hired-sword-detail", args=["montaraz-errante"]), HTTP_ACCEPT_LANGUAGE="en"
    ).json()
    assert sword["name"] == "Wandering Ranger" and sword["slug"] == "montaraz-errante"
    types = client.get(
        reverse("api-warband-type-detail", args=["orcos-de-angmar"]), HTTP_ACCEPT_LANGUAGE="en"
    ).json()
    assert types["name"] == "Orcos de Angmar"
    assert types["description"].startswith("Hordes of Orcs")
    troll = next(t for t in types["fighter_types"] if t["slug"] == "troll-de-las-cavernas")
    assert troll["name"] == "Cave Troll"


def test_the_api_sheet_answers_in_the_requested_language(orcs, user):
    client = Client()
    client.force_login(user)
    url = reverse("api-warband-sheet", args=[orcs.pk])
    spanish = client.get(url).json()
    english = client.get(url, HTTP_ACCEPT_LANGUAGE="en").json()
    assert spanish["warband_type_name"] == english["warband_type_name"] == "Orcos de Angmar"

    def boss(sheet):
        return next(hero for hero in sheet["heroes"] if hero["is_leader"])

    assert boss(spanish)["fighter_type_name"] == "Cabecilla orco"
    assert boss(english)["fighter_type_name"] == "Orc Boss"
    assert {item["name"] for item in boss(english)["equipment"]} == {"Mace"}
    assert {item["item"] for item in boss(english)["equipment"]} == {"maza"}  # slugs stay
    assert boss(english)["skills"] == boss(spanish)["skills"] == ["brutalidad"]


def test_the_warband_list_dashboard_and_battle_show_the_type_in_the_readers_language(user, warband):
    warband_type = warband.warband_type
    warband_type.translations = {"en": {"name": "Sellswords of Rhovanion"}}
    warband_type.save(update_fields=["translations"])
    client = client_in("en", user)
    english = client.get(reverse("warband-list")).content.decode()
    with translation.override("en"):
        name_en = warband_type.display_name
    assert name_en != warband_type.name
    assert name_en in english and warband_type.name not in english
    assert name_en in client.get(reverse("home")).content.decode()
