"""The map a clone shows: first-party modules import each other without cycles, none is over
600 lines nor holds a function over 80, and ``battles/`` is laid out by feature.

The imports are read from the source (``ast``), not by importing: every ``import`` counts,
at the top of a module or inside a function, because a function-level import is still a
dependency a reader has to follow (it only hides a cycle from Python). Imports under
``if TYPE_CHECKING:`` are left out: they never run.
"""

from __future__ import annotations

import ast
from pathlib import Path

ROOT = Path(__file__).resolve().parents[2]
PACKAGES = ("annuminas", "battles", "rules", "warbands")
MAX_MODULE_LINES = 600
MAX_FUNCTION_LINES = 80
# What may sit at the top of battles/: the app's own hooks; everything else lives in a feature.
BATTLES_TOP = {"__init__.py", "apps.py", "urls.py", "admin.py", "tasks.py"}


def _sources() -> dict[str, Path]:
    """Dotted module name → file, for every first-party module but migrations."""
    modules = {}
    for package in PACKAGES:
        for path in sorted((ROOT / package).rglob("*.py")):
            parts = path.relative_to(ROOT).with_suffix("").parts
            if "migrations" in parts:
                continue
            if parts[-1] == "__init__":
                parts = parts[:-1]
            modules[".".join(parts)] = path
    return modules


def _is_type_checking(node: ast.If) -> bool:
    test = node.test
    return (isinstance(test, ast.Name) and test.id == "TYPE_CHECKING") or (
        isinstance(test, ast.Attribute) and test.attr == "TYPE_CHECKING"
    )


def _imports(tree: ast.AST):
    """Every import node that runs, skipping ``if TYPE_CHECKING:`` blocks."""
    for node in ast.iter_child_nodes(tree):
        if isinstance(node, ast.If) and _is_type_checking(node):
            yield from (n for child in node.orelse for n in _imports_of(child))
            continue
        yield from _imports_of(node)


def _imports_of(node: ast.AST):
    if isinstance(node, ast.Import | ast.ImportFrom):
        yield node
    else:
        yield from _imports(node)


def _targets(module: str, path: Path, node, modules: dict[str, Path]) -> set[str]:
    """The first-party modules an import names: ``from pkg import mod`` names ``pkg.mod`` when
    that is a module, else ``pkg`` itself."""
    if isinstance(node, ast.Import):
        return {alias.name for alias in node.names if alias.name in modules}
    base = node.module or ""
    if node.level:
        package = module if path.name == "__init__.py" else module.rpartition(".")[0]
        for _ in range(node.level - 1):
            package = package.rpartition(".")[0]
        base = f"{package}.{base}" if base else package
    found = set()
    for alias in node.names:
        candidate = f"{base}.{alias.name}"
        if candidate in modules:
            found.add(candidate)
        elif base in modules:
            found.add(base)
    return found


def import_graph() -> dict[str, set[str]]:
    modules = _sources()
    graph = {}
    for module, path in modules.items():
        tree = ast.parse(path.read_text(encoding="utf-8"))
        edges = set()
        for node in _imports(tree):
            edges |= _targets(module, path, node, modules)
        edges.discard(module)
        graph[module] = edges
    return graph


def find_cycles(graph: dict[str, set[str]]) -> list[list[str]]:
    """One cycle per strongly connected component of more than one module (Tarjan's)."""
    index: dict[str, int] = {}
    low: dict[str, int] = {}
    stack: list[str] = []
    on_stack: set[str] = set()
    components: list[list[str]] = []

    def visit(node: str) -> None:
        index[node] = low[node] = len(index)
        stack.append(node)
        on_stack.add(node)
        for target in sorted(graph.get(node, ())):
            if target not in index:
                visit(target)
                low[node] = min(low[node], low[target])
            elif target in on_stack:
                low[node] = min(low[node], index[target])
        if low[node] == index[node]:
            component = []
            while True:
                member = stack.pop()
                on_stack.discard(member)
                component.append(member)
                if member == node:
                    break
            if len(component) > 1:
                components.append(sorted(component))

    for node in sorted(graph):
        if node not in index:
            visit(node)
    return [_cycle_in(component, graph) for component in components]


def _cycle_in(component: list[str], graph: dict[str, set[str]]) -> list[str]:
    """A readable cycle through the component's first module: a → b → … → a."""
    members = set(component)
    start = component[0]
    paths = {start: [start]}
    frontier = [start]
    while frontier:
        following = []
        for node in frontier:
            for target in sorted(graph[node] & members):
                if target == start:
                    return [*paths[node], start]
                if target not in paths:
                    paths[target] = [*paths[node], target]
                    following.append(target)
        frontier = following
    return component


def test_no_import_cycle_among_first_party_modules():
    cycles = find_cycles(import_graph())
    assert not cycles, "import cycles:\n" + "\n".join(" → ".join(c) for c in cycles)


def test_the_cycle_finder_finds_a_cycle():
    graph = {"a": {"b"}, "b": {"c"}, "c": {"a"}, "d": {"a"}}
    assert find_cycles(graph) == [["a", "b", "c", "a"]]
    assert find_cycles({"a": {"b"}, "b": set()}) == []


def test_imports_are_read_inside_functions_but_not_under_type_checking(tmp_path):
    tree = ast.parse(
        "from typing import TYPE_CHECKING\n"
        "if TYPE_CHECKING:\n    from battles import models\n"
        "def later():\n    from battles import admin\n"
    )
    named = {alias.name for node in _imports(tree) for alias in node.names}
    assert named == {"TYPE_CHECKING", "admin"}


def _functions(tree: ast.AST):
    for node in ast.walk(tree):
        if isinstance(node, ast.FunctionDef | ast.AsyncFunctionDef):
            yield node


def test_no_module_over_600_lines_and_no_function_over_80():
    too_long = []
    for module, path in _sources().items():
        source = path.read_text(encoding="utf-8")
        lines = source.count("\n")
        if lines > MAX_MODULE_LINES:
            too_long.append(f"{module}: {lines} lines")
        for function in _functions(ast.parse(source)):
            length = function.end_lineno - function.lineno + 1
            if length > MAX_FUNCTION_LINES:
                too_long.append(f"{module}.{function.name}: {length} lines")
    assert not too_long, "\n".join(too_long)


def test_battles_is_laid_out_by_feature():
    top = {path.name for path in (ROOT / "battles").iterdir() if path.suffix == ".py"}
    assert top <= BATTLES_TOP, f"modules at the top of battles/: {sorted(top - BATTLES_TOP)}"
