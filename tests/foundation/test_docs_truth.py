"""The docs name files and folders that a clone has.

Every path in backticks in ``docs/*.md``, ``README.md`` and the apps' ``README.md``
(``postbattle/apply.py``, ``services/``, ``warbands/content/*.yaml``) must exist. A path is read
the way a reader reads it: from the repository's root, from the document's own folder (an app's
README), or from a folder named before it in the same section (the section "warbands/" and then
"`services/`" make ``unit.py`` mean ``warbands/services/unit.py``). URLs (``/api/v1/…``) and the
files a run creates (``db.sqlite3``, ``staticfiles/``…) are not paths of the repository.

Every environment variable ``annuminas/settings.py`` and ``gunicorn.conf.py`` read is in the
README's table.
"""

from __future__ import annotations

import os
import re
from functools import cache
from pathlib import Path

ROOT = Path(__file__).resolve().parents[2]
SKIPPED = {".venv", ".git", "node_modules", "staticfiles", "test-results", "__pycache__"}
# Made by a run, not kept in the repository.
GENERATED = {
    "db.sqlite3",
    "staticfiles",
    "test-results",
    ".env",
    ".venv",
    ".pytest-worker.log",
    "axe.min.js",
    ".ci/node/node_modules/axe-core/axe.min.js",
}
EXTENSIONS = "py|md|yaml|yml|toml|html|txt|po|mo|css|js|json|cfg|sh|ini|conf"
SPAN = re.compile(r"`([^`\n]+)`")
# a/b/c.py, c.py, .ci/run-like folders ending in "/", and globs (content/*.yaml)
PATH = re.compile(
    r"(?<![\w./<{-])("
    r"(?:\.?[\w*-]+/)*[\w.*-]*\w\.(?:" + EXTENSIONS + r")"
    r"|(?:\.?[\w-]+/)+"
    r")(?![\w/])"
)
HEADING = re.compile(r"^#{1,6} ")
SECTION = re.compile(r"^#{1,2} ")  # a new section forgets the folders named before


def documents() -> list[Path]:
    return [
        ROOT / "README.md",
        *sorted(ROOT.glob("docs/*.md")),
        *sorted(ROOT.glob("*/README.md")),
    ]


def _exists(base: Path, token: str) -> Path | None:
    token = token.rstrip("/")
    if "*" in token:
        found = sorted(base.glob(token))
        return found[0] if found else None
    path = base / token
    return path if path.exists() else None


def _is_url(span: str, line: str) -> bool:
    return (
        span.startswith("/")
        or span.split()[0] in {"GET", "POST", "PUT", "PATCH", "DELETE"}
        or "://" in span
        or "?" in span
        or "/api/v1/" in line  # the API tables: endpoint fragments (`fighters/`, `export/`)
    )


@cache
def _repository_paths(root: Path) -> frozenset[str]:
    """Every file and folder of the repository, relative to the root (skipped folders pruned)."""
    paths = set()
    for folder, folders, files in os.walk(root):
        folders[:] = [name for name in folders if name not in SKIPPED]
        here = Path(folder).relative_to(root)
        paths.update((here / name).as_posix() for name in (*folders, *files))
    return frozenset(paths)


def _anywhere(token: str) -> bool:
    """The path is the end of some path of the repository (``services/hiring.py``)."""
    token = token.rstrip("/")
    if "*" in token:
        return any(not SKIPPED & set(p.relative_to(ROOT).parts) for p in ROOT.glob(f"**/{token}"))
    return any(p == token or p.endswith("/" + token) for p in _repository_paths(ROOT))


def missing_paths(document: Path) -> list[str]:
    """Each path the document names that is not in the repository, as ``file:line: path``.

    An app's README (its folder is a Python package) is read strictly: a path is its folder's,
    a folder's named before it, or the root's. Elsewhere a path may also be the end of any path
    of the repository (a general remark: "a feature's ``urls.py``")."""
    home = document.parent
    strict = (home / "__init__.py").exists()
    anchors: list[Path] = []
    problems = []
    for number, line in enumerate(document.read_text(encoding="utf-8").splitlines(), 1):
        if SECTION.match(line):
            anchors = []
        spans = SPAN.findall(line)
        if HEADING.match(line):
            spans = spans or re.findall(r"([\w-]+/)", line)
        for span in spans:
            if _is_url(span, line):
                continue
            for token in PATH.findall(span):
                if token.rstrip("/") in GENERATED or token.rsplit("/", 1)[-1] in GENERATED:
                    continue
                # The nearest folder first: the latest one named in the section, then the
                # document's own folder, then the root.
                bases = [*reversed(anchors), home, ROOT]
                found = next((p for b in bases if (p := _exists(b, token))), None)
                if found is None and not strict and _anywhere(token):
                    continue
                if found is None:
                    where = document.relative_to(ROOT)
                    problems.append(f"{where}:{number}: {token}")
                elif found.is_dir() and "*" not in token:
                    anchors.append(found)
    return problems


def test_every_path_the_docs_name_exists():
    problems = [problem for document in documents() for problem in missing_paths(document)]
    assert not problems, "paths named in the docs that a clone lacks:\n" + "\n".join(problems)


def test_a_path_that_is_not_there_is_found(tmp_path):
    (tmp_path / "app" / "services").mkdir(parents=True)
    (tmp_path / "app" / "services" / "unit.py").write_text("")
    (tmp_path / "app" / "__init__.py").write_text("")
    doc = tmp_path / "app" / "README.md"
    doc.write_text(
        "# app\n\n`services/`: `unit.py`, `gone.py`\n\n## Writes (`services.py`)\n"
        "`warbands/nowhere.py`\n\n`GET /api/v1/nowhere/`\n"
    )
    global ROOT
    saved, ROOT = ROOT, tmp_path
    try:
        problems = missing_paths(doc)
    finally:
        ROOT = saved
    assert problems == [
        "app/README.md:3: gone.py",
        "app/README.md:5: services.py",
        "app/README.md:6: warbands/nowhere.py",
    ]


PACKAGES = ("annuminas", "battles", "rules", "warbands")
DOTTED = re.compile(r"^((?:annuminas|battles|rules|warbands)(?:\.[A-Za-z_]\w*)+)(?:\(.*\))?$")


def _first_party_source() -> str:
    return "\n".join(
        path.read_text(encoding="utf-8")
        for package in PACKAGES
        for path in sorted((ROOT / package).rglob("*.py"))
    )


def dotted_exists(name: str, everything: str) -> bool:
    """``warbands.services.snapshots.warband_snapshots``: the longest prefix that is a module,
    and the next name defined or imported there; or a registered name (a task's, a
    permission's) written in quotes somewhere in the code."""
    if f'"{name}"' in everything:
        return True
    parts = name.split(".")
    for end in range(len(parts), 0, -1):
        base = ROOT.joinpath(*parts[:end])
        for module in (base.with_suffix(".py"), base / "__init__.py"):
            if module.exists():
                rest = parts[end:]
                if not rest:
                    return True
                text = module.read_text(encoding="utf-8")
                return re.search(rf"\b{re.escape(rest[0])}\b", text) is not None
    return False


def test_every_module_the_docs_name_exists():
    everything = _first_party_source()
    problems = []
    for document in documents():
        for number, line in enumerate(document.read_text(encoding="utf-8").splitlines(), 1):
            for span in SPAN.findall(line):
                match = DOTTED.match(span.strip())
                if (
                    match
                    and not re.search(rf"\.(?:{EXTENSIONS})$", match.group(1))
                    and not dotted_exists(match.group(1), everything)
                ):
                    problems.append(f"{document.relative_to(ROOT)}:{number}: {span}")
    assert not problems, "modules named in the docs that a clone lacks:\n" + "\n".join(problems)


ENV_READ = re.compile(r"""(?:env\.\w+|env|os\.environ\.get|getenv)\(\s*["']([A-Z][A-Z0-9_]+)["']""")


def test_the_readme_lists_every_environment_variable_the_settings_read():
    read = set()
    for source in ("annuminas/settings.py", "gunicorn.conf.py"):
        read |= set(ENV_READ.findall((ROOT / source).read_text(encoding="utf-8")))
    assert len(read) > 30  # the pattern still finds them
    readme = (ROOT / "README.md").read_text(encoding="utf-8")
    listed = set(re.findall(r"`([A-Z][A-Z0-9_]+)`", readme))
    assert sorted(read - listed) == []
