"""Counted words take their real plural form in both languages ("1 miembro",
"3 miembros"; "1 attack", "2 attacks"), never a "miembro(s)" that reads wrong for every count."""

import re
from pathlib import Path

import polib
import pytest
from django.utils import translation

from rules.engine import AttackerSpec, DefenderSpec, Dice, exploration, jump_down
from rules.engine.combat import melee_plan
from rules.presenters import translate_message
from warbands.ledger_texts import ledger_text

ROOT = Path(__file__).resolve().parents[2]
CATALOGUE = ROOT / "locale" / "es" / "LC_MESSAGES" / "django.po"
# "miembro(s)", "ganador(es)": a word with its plural ending in brackets.
BRACKETED_PLURAL = re.compile(r"\w\((?:s|es|as|os)\)")


def test_the_spanish_catalogue_writes_no_bracketed_plurals():
    found = []
    for entry in polib.pofile(str(CATALOGUE)):
        texts = [entry.msgstr, *entry.msgstr_plural.values()]
        found += [f"{entry.msgid!r}: {text!r}" for text in texts if BRACKETED_PLURAL.search(text)]
    assert found == []


# A translatable English text with a bracketed plural: _("…(s)…"), {% translate "…(s)…" %}.
SOURCE_PLURAL = re.compile(
    r"""(?:_|gettext\w*|translate|blocktranslate)\(?\s*["'][^"'\n]*\w\((?:s|es)\)"""
)


def test_no_translatable_english_text_writes_a_bracketed_plural():
    found = []
    for folder in ("annuminas", "battles", "rules", "warbands", "templates"):
        for path in (ROOT / folder).rglob("*"):
            if path.suffix in (".py", ".html") and "migrations" not in path.parts:
                text = path.read_text(encoding="utf-8")
                found += [f"{path.relative_to(ROOT)}: {m}" for m in SOURCE_PLURAL.findall(text)]
    assert found == []


@pytest.mark.parametrize(
    ("language", "one", "many"),
    [
        ("es", "Despedido Aranarth; 1 objeto al alijo", "Despedido Aranarth; 3 objetos al alijo"),
        (
            "en",
            "Dismissed Aranarth; 1 item to the stash",
            "Dismissed Aranarth; 3 items to the stash",
        ),
    ],
)
def test_ledger_lines_count_in_the_readers_language(language, one, many):
    with translation.override(language):
        assert ledger_text("dismissed", {"name": "Aranarth", "count": 1}) == one
        assert ledger_text("dismissed", {"name": "Aranarth", "count": 3}) == many
        sold = ledger_text("finds_sold", {"finds": 1})
    assert sold == {"es": "1 hallazgo vendido", "en": "1 find sold"}[language]


def _attacks_line(attacks: int) -> str:
    plan = melee_plan(AttackerSpec(attacks=attacks), DefenderSpec())
    (step,) = [step for step in plan.notes if step.code == "melee.weapon"]
    return translate_message(step.message, step.params)


def test_the_engines_counted_steps_read_right_for_one_and_for_many(db):  # weapon names: catalogue
    with translation.override("es"):
        assert _attacks_line(1).startswith("1 ataque con")
        assert _attacks_line(2).startswith("2 ataques con")
        jump = jump_down(initiative=3, height_cm=5, dice=Dice(faces=[6]))
        step = next(s for s in jump.steps if s.code == "jump.tests")
        assert translate_message(step.message, step.params) == "5 cm: 1 chequeo de Iniciativa."
    with translation.override("en"):
        assert _attacks_line(1).startswith("1 attack with")
        assert _attacks_line(3).startswith("3 attacks with")
        # Two counts in one line ("1 dice … 1 finds"): worded so that any count reads right.
        explored = exploration(dice=Dice(faces=[4]), heroes_not_out_of_action=1)
        step = next(s for s in explored.steps if s.code == "exploration.rolled")
        assert translate_message(step.message, step.params) == (
            "Dice rolled: 1, total 4; finds: 1."
        )


def test_the_sheets_counts_read_right_in_spanish():
    with translation.override("es"):
        assert translation.ngettext("%(counter)s member", "%(counter)s members", 1) == (
            "%(counter)s miembro"
        )
        assert translation.ngettext("%(counter)s advance due", "%(counter)s advances due", 2) == (
            "%(counter)s avances pendientes"
        )
