"""The Spanish catalogue is complete: every msgid translated, nothing fuzzy, placeholders kept."""

import re
from pathlib import Path

import polib
import pytest
from django.utils import translation

CATALOGUE = Path(__file__).resolve().parents[2] / "locale" / "es" / "LC_MESSAGES" / "django.po"
PLACEHOLDER = re.compile(r"%\(\w+\)[sdifr]|%[sdifr]|\{\{[^}]*\}\}")


@pytest.fixture(scope="module")
def entries():
    return [entry for entry in polib.pofile(str(CATALOGUE)) if not entry.obsolete]


def test_every_string_is_translated_and_none_is_fuzzy(entries):
    untranslated = [e.msgid for e in entries if not e.translated()]
    fuzzy = [e.msgid for e in entries if "fuzzy" in e.flags]
    assert untranslated == [] and fuzzy == []


def test_translations_keep_their_placeholders(entries):
    def placeholders(text: str) -> list[str]:
        return sorted(PLACEHOLDER.findall(text))

    broken = [
        e.msgid for e in entries if e.msgstr and placeholders(e.msgid) != placeholders(e.msgstr)
    ]
    assert broken == []


def test_compiled_catalogue_is_current(entries):
    with translation.override("es"):
        for entry in entries[:50] + entries[-50:]:
            if entry.msgstr and not entry.msgctxt and not entry.msgid_plural:
                assert translation.gettext(entry.msgid) == entry.msgstr, entry.msgid
