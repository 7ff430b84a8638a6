"""One vocabulary of special rules: every key the default content pack, the post-battle
injuries and the house rules can give a warrior is declared in the engine, and every declared
key is read by an engine step (or declared the players', with what they do)."""

from __future__ import annotations

import ast
import pathlib

import pytest

from rules.engine import Dice, RulesError, serious_injury
from rules.engine import vocabulary as v
from rules.engine.dice import DiceShortfall
from rules.engine.optional_rules import OPTIONAL_RULES
from tests.battles.factories import *  # noqa: F403 - the content pack's fixtures
from warbands.models import Equipment, FighterType, HiredSword, Skill

pytestmark = pytest.mark.django_db
ROOT = pathlib.Path(__file__).resolve().parents[2]
READERS = [
    *sorted((ROOT / "rules" / "engine").rglob("*.py")),
    ROOT / "warbands" / "loadout.py",
    ROOT / "warbands" / "services" / "equipment.py",
]
"""Where the declared keys are read: the engine, and the loadout checks for buying."""


def injury_rules() -> set[str]:
    """Every special-rule key a hero's serious injury can give: each D66 result and each face
    of its first sub-roll (every die after the third shows a 1, to keep the walk small)."""
    found: set[str] = set()
    pending: list[list[int]] = [[]]
    while pending:
        faces = pending.pop()
        try:
            result = serious_injury(dice=Dice(faces=faces))
        except DiceShortfall as short:
            sides = 3 if short.expression.endswith("D3") else 6
            options = range(1, sides + 1) if len(faces) < 3 else (1,)
            pending += [[*faces, face] for face in options]
            continue
        except RulesError:  # the 1s after the third die re-roll forever: not a real path
            continue
        found |= {e.rule for e in result.typed_effects if e.rule}
    return found


def test_every_key_the_default_pack_gives_is_declared(league_content):
    rules = {key for t in FighterType.objects.all() for key in t.special_rules}
    rules |= {
        key
        for sword in HiredSword.objects.select_related("fighter_type")
        for key in sword.fighter_type.special_rules
    }
    skills = set(Skill.objects.values_list("slug", flat=True))
    item_keys = {key for item in Equipment.objects.all() for key in (item.rules or {})}
    assert rules and skills and item_keys
    assert v.unknown_rules(sorted(rules)) == []
    assert v.unknown_rules(sorted(skills)) == []
    assert [key for key in sorted(item_keys) if v.item_key(key) is None] == []
    # An item that grants a rule grants a declared one.
    granted = {
        item.rules["grants_rule"]
        for item in Equipment.objects.all()
        if "grants_rule" in (item.rules or {})
    }
    assert granted and v.unknown_rules(sorted(granted)) == []


def test_every_key_an_injury_gives_is_declared():
    keys = injury_rules()
    assert {"fear", "immune-fear", "stupidity", "frenzy", "arm_lost", "cannot_run"} <= keys
    assert {key.split(":")[0] for key in keys} >= {"hatred"}  # bitter enmity: aimed hatred
    assert v.unknown_rules(sorted(keys)) == []


def test_the_optional_rules_are_declared_with_their_labels():
    assert [rule.key for rule in OPTIONAL_RULES] == ["challenges", "flee_pursuit"]
    assert all(rule.label and rule.help and "seed" not in rule.label for rule in OPTIONAL_RULES)


def _read_strings() -> set[str]:
    """Every string literal and every vocabulary constant the readers use (in the vocabulary
    itself, only what its functions read: its declarations read nothing)."""
    constants = {
        name: value
        for name in dir(v)
        if name.isupper() and isinstance(value := getattr(v, name), str)
    }
    found: set[str] = set()
    for path in READERS:
        tree = ast.parse(path.read_text(encoding="utf-8"))
        roots = (
            [n for n in tree.body if isinstance(n, ast.FunctionDef)]
            if path.name == "vocabulary.py"
            else [tree]
        )
        for node in (child for root in roots for child in ast.walk(root)):
            if isinstance(node, ast.Constant) and isinstance(node.value, str):
                found.add(node.value)
            elif isinstance(node, ast.Attribute) and node.attr in constants:
                found.add(constants[node.attr])
            elif isinstance(node, ast.Name) and node.id in constants:
                found.add(constants[node.id])
    return found


def test_each_declared_key_is_read_by_the_step_it_names_or_is_the_players():
    read = _read_strings()
    for rule in v.RULES.values():
        assert set(rule.steps) <= set(v.STEPS), rule.key
        assert v.unknown_rules(rule.grants) == [], rule.key
        if rule.steps:
            assert rule.key in read, f"{rule.key} is declared read by {rule.steps}: nobody does"
        else:
            assert rule.players or rule.grants, rule.key
    for key in v.ITEM_KEYS.values():
        assert set(key.steps) <= set(v.STEPS), key.key
        if key.steps:
            assert key.key in read, f"{key.key} is declared read by {key.steps}: nobody does"


def test_the_vocabulary_is_served_as_json():
    from rest_framework.test import APIClient

    data = APIClient().get("/api/v1/rules/vocabulary/").json()
    keys = {row["key"] for row in data["rules"]}
    assert {"fear", "immune-fear", "temible", "frenzy"} <= keys
    fearsome = next(row for row in data["rules"] if row["key"] == "temible")
    assert fearsome["grants"] == ["fear"] and not fearsome["players"]
    animosity = next(row for row in data["rules"] if row["key"] == "animosity")
    assert animosity["players"]
    assert {row["key"] for row in data["item_keys"]} >= {"first_wound_save", "grants_rule"}
    assert [row["key"] for row in data["optional_rules"]] == ["challenges", "flee_pursuit"]
    assert all(row["label"] and row["help"] for row in data["optional_rules"])
