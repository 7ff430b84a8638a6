"""The Spanish catalogue is complete: every msgid translated, nothing fuzzy, placeholders kept."""

import os
import re
import shutil
import subprocess
import sys
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


def test_every_string_of_the_code_is_in_the_catalogue(tmp_path):
    """A msgid the code uses but the catalogue lacks shows in English on Spanish pages, and the
    tests above cannot see it: extract the strings again (Django's makemessages, as ``make
    messages``) into a copy of the project and check what it would add or mark fuzzy."""
    if shutil.which("xgettext") is None:
        if os.environ.get("CI"):
            pytest.fail("gettext is not installed (.ci/run installs it)")
        pytest.skip("needs GNU gettext (apt-get install gettext)")
    root = CATALOGUE.parents[3]
    copy = tmp_path / "project"
    skipped = {".venv", ".git", "node_modules", "staticfiles", "test-results", "media", "bench"}
    shutil.copytree(
        root,
        copy,
        ignore=lambda folder, names: [
            n for n in names if n in skipped or n.endswith((".sqlite3", ".pyc", ".mo"))
        ],
    )
    subprocess.run(
        [sys.executable, "manage.py", "makemessages", "-l", "es", "--no-obsolete", "-v0"]
        + ["--ignore=.venv", "--ignore=staticfiles", "--ignore=static", "--ignore=.ci"],
        cwd=copy,
        env={**os.environ, "DEBUG": "true"},
        check=True,
        capture_output=True,
    )
    extracted = polib.pofile(str(copy / CATALOGUE.relative_to(root)))
    missing = [e.msgid for e in extracted if not e.obsolete and not e.translated()]
    fuzzy = [e.msgid for e in extracted if not e.obsolete and "fuzzy" in e.flags]
    assert missing == [] and fuzzy == []
