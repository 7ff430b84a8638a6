"""Code and docs cite only what a clone has.

The rules are cited by the rulebook's section names ("Reglas › Disparos") or by a table of
docs/rules-tables.md ("docs/rules-tables.md › Serious injuries"); the project's history lives in
git, not in notes naming issue numbers. Files outside the repository (the design notes, the
rules reference, the seed texts, the shared folder beside the clone) and line numbers in them
mean nothing to a reader of a clone. Each pattern below is a plain regular expression: a new way
of citing something outside the repository is one more line.
"""

from __future__ import annotations

import os
import re
from pathlib import Path

ROOT = Path(__file__).resolve().parents[2]
SUFFIXES = {".py", ".html", ".md", ".txt", ".yaml", ".yml"}
SKIPPED = {".venv", "node_modules", "staticfiles", ".git", "locale", "test-results"}
THIS_FILE = Path(__file__).resolve()

PATTERNS = {
    "the rules reference outside the repository": r"RULES[-_ ]REFERENCE",
    "the design notes outside the repository": r"DESIGN\.md",
    "the style guide outside the repository": r"STYLE\.md",
    "a seed text outside the repository": r"\bseeds?/\d{3}|\bseed \d{3}\b",
    "a line number of another file": r"\bl\.\s?\d+",
    "an issue number (git history keeps them)": r"\b[Ii]ssues? #?\d+",
    "a folder outside the repository": r"\.\./shared",
    "a numbered section of another document": r"§\s?\d",
}


def _files():
    for folder, folders, files in os.walk(ROOT):
        folders[:] = sorted(name for name in folders if name not in SKIPPED)
        for name in sorted(files):
            path = Path(folder) / name
            if path.suffix in SUFFIXES and path != THIS_FILE:
                yield path


def citations(text: str) -> list[tuple[int, str, str]]:
    """(line, what, the line) for each citation of something a clone lacks."""
    found = []
    for number, line in enumerate(text.splitlines(), 1):
        for what, pattern in PATTERNS.items():
            if re.search(pattern, line):
                found.append((number, what, line.strip()))
    return found


def test_nothing_cites_what_a_clone_lacks():
    problems = [
        f"{path.relative_to(ROOT)}:{number}: {what}: {line[:120]}"
        for path in _files()
        for number, what, line in citations(path.read_text(encoding="utf-8", errors="replace"))
    ]
    assert not problems, "cite the rulebook's sections or docs/rules-tables.md:\n" + "\n".join(
        problems
    )


def test_the_patterns_find_each_kind_of_citation():
    text = "\n".join(
        [
            # Assembled from parts, so that this file itself cites nothing.
            "Order (RULES" + "-REFERENCE " + "§" + "5): injuries",
            "Budgets (DESIGN" + ".md): one attack",
            "as in STYLE" + ".md",
            "Desafíos (seed" + " 004)",
            "seed" + " 000 l" + ".518",
            "Battle day (issue" + " 12): the setup",
            "see .." + "/shared/notes",
            "Reglas › Disparos; docs/rules-tables.md › Serious injuries; the dice seed 42",
        ]
    )
    assert [number for number, _what, _line in citations(text)] == [1, 1, 2, 3, 4, 5, 5, 6, 7]


def test_the_rules_tables_the_code_cites_exist():
    """Every "docs/rules-tables.md › <table>" names a heading of that page."""
    headings = set(
        re.findall(
            r"^## (.+)$", (ROOT / "docs" / "rules-tables.md").read_text(encoding="utf-8"), re.M
        )
    )
    problems = []
    for path in _files():
        text = path.read_text(encoding="utf-8", errors="replace")
        for number, line in enumerate(text.splitlines(), 1):
            for cited in re.findall(r"docs/rules-tables\.md › ([A-Z][\w' -]*\w)", line):
                if not any(cited.startswith(h) or h.startswith(cited) for h in headings):
                    problems.append(f"{path.relative_to(ROOT)}:{number}: {cited}")
    assert not problems, "no such table in docs/rules-tables.md:\n" + "\n".join(problems)
