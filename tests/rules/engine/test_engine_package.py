"""The engine stays pure Python and its messages stay translatable."""

import ast
import pathlib
import sys

import rules.engine
from rules.engine.i18n import gettext_noop

ENGINE = pathlib.Path(rules.engine.__file__).parent
MAX_MODULE_LINES = 600
MAX_FUNCTION_LINES = 80


def _modules():
    """Every module of the engine, subpackages included."""
    paths = sorted(ENGINE.rglob("*.py"))
    assert any(path.parent != ENGINE for path in paths), "the walk must reach subpackages"
    return paths


def _name(path):
    return str(path.relative_to(ENGINE))


def _imports(path):
    tree = ast.parse(path.read_text(encoding="utf-8"))
    for node in ast.walk(tree):
        if isinstance(node, ast.Import):
            yield from (alias.name for alias in node.names)
        elif isinstance(node, ast.ImportFrom) and node.module:
            yield node.module


def test_engine_imports_only_the_standard_library_and_itself():
    allowed = set(sys.stdlib_module_names) | {"__future__"}
    for path in _modules():
        for module in _imports(path):
            top = module.split(".")[0]
            assert module.startswith("rules.engine") or top in allowed, (_name(path), module)


def _is_marked(node):
    if isinstance(node, ast.IfExp):
        return _is_marked(node.body) and _is_marked(node.orelse)
    return isinstance(node, ast.Call) and getattr(node.func, "id", "") == "_"


def test_step_messages_are_marked_for_translation():
    # Every Explainer.add(code, message, ...) passes its template through gettext_noop ("_").
    checked = 0
    for path in _modules():
        tree = ast.parse(path.read_text(encoding="utf-8"))
        for node in ast.walk(tree):
            if (
                isinstance(node, ast.Call)
                and isinstance(node.func, ast.Attribute)
                and node.func.attr == "add"
                and len(node.args) >= 2
            ):
                assert _is_marked(node.args[1]), (_name(path), node.lineno)
                checked += 1
    assert checked > 100


def test_i18n_marker_is_a_no_op():
    assert gettext_noop("%(face)d hits.") == "%(face)d hits."


def test_public_api_is_exported():
    for name in rules.engine.__all__:
        assert hasattr(rules.engine, name), name
