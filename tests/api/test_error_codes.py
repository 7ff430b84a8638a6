"""Every refusal has its own stable code, in the catalogue the schema and docs/api.md publish."""

from __future__ import annotations

import ast
from pathlib import Path

import pytest
from rest_framework.test import APIClient

from annuminas.api.error_codes import CATALOGUE

ROOT = Path(__file__).resolve().parents[2]
APPS = ("annuminas", "battles", "warbands", "rules")


def conflict_codes() -> dict[str, list[str]]:
    """Each ``Conflict(..., code=...)`` the services raise: code → where."""
    found: dict[str, list[str]] = {}
    for app in APPS:
        for path in (ROOT / app).rglob("*.py"):
            for node in ast.walk(ast.parse(path.read_text())):
                if isinstance(node, ast.Call) and getattr(node.func, "id", None) == "Conflict":
                    codes = [k.value for k in node.keywords if k.arg == "code"]
                    where = f"{path.relative_to(ROOT)}:{node.lineno}"
                    assert codes and isinstance(codes[0], ast.Constant), f"no code at {where}"
                    found.setdefault(codes[0].value, []).append(where)
    return found


def test_every_conflict_has_a_catalogued_409_code():
    codes = conflict_codes()
    assert len(codes) >= 20
    for code, where in codes.items():
        assert code in CATALOGUE, f"{code} ({where}) is not in the catalogue"
        assert CATALOGUE[code].status == 409, code
    assert "conflict" not in codes


def test_the_catalogue_is_published_in_the_schema_and_the_guide(db):
    schema = APIClient().get("/api/v1/schema/?format=json").json()
    code = schema["components"]["schemas"]["Error"]["properties"]["error"]["properties"]["code"]
    guide = (ROOT / "docs" / "api.md").read_text()
    for name in CATALOGUE:
        assert f"`{name}`" in code["description"], name
        assert f"`{name}`" in guide, f"{name} is missing from docs/api.md"


@pytest.mark.parametrize("status", [412, 422])
def test_412_and_422_are_never_declared(db, status):
    schema = APIClient().get("/api/v1/schema/?format=json").json()
    for item in schema["paths"].values():
        for operation in item.values():
            if isinstance(operation, dict):
                assert str(status) not in operation.get("responses", {})
