"""What the battle-log API refuses before anything is written: payloads out of bounds (unknown
keys, long texts, NUL that PostgreSQL's jsonb refuses), a base_seq from the future; and who is
told to log in."""

from __future__ import annotations

import pytest
from rest_framework.test import APIClient

from battles.models import BattleLogEntry
from tests.battles.test_battlelog_api import Table, uid
from tests.battles.test_battlelog_api import _table as _table  # noqa: F401 - the fixtures
from tests.battles.test_battlelog_api import table as table

pytestmark = pytest.mark.django_db


def refused(table: Table, kind: str, payload: dict, **body) -> dict:
    before = BattleLogEntry.objects.filter(battle=table.battle).count()
    error = table.post(table.phone_a, kind, expect=400, payload=payload, **body)["error"]
    assert error["code"] and error["message"]
    assert BattleLogEntry.objects.filter(battle=table.battle).count() == before
    return error


def test_a_note_with_an_extra_key_is_refused(table):
    error = refused(table, "note", {"text": "hola", "blob": "x" * 1_000_000})
    assert list(error["fields"]) == ["payload.blob"]


@pytest.mark.parametrize(
    ("kind", "payload", "field", "says"),
    [
        ("note", {"text": "ho\x00la"}, "payload", "text: "),
        ("status", {"fighter": "A1", "status": "stunned", "weapon": "ha\x00"}, "payload", "weapon"),
        (
            "attack",
            {"attacker": "A1", "target": "B1", "options": {"ch\x00": 1}},
            "payload",
            "options",
        ),
        (
            "attack",
            {"attacker": "A1", "target": "B1", "modifiers": {"a": {"b": {"c": {"d": {}}}}}},
            "payload",
            "modifiers.a.b.c",
        ),
        (
            "check",
            {"check": "all-alone", "fighter": "A1", "params": {"friends": ["x" * 400] * 12}},
            "payload",
            "4096",
        ),
        ("status", {"fighter": "A1", "status": "stunned", "weapon": "x" * 501}, "payload", "500"),
        ("correction", {"corrects": 2, "replacement": {"junk": 1}}, "payload.replacement.junk", ""),
        (
            "correction",
            {"corrects": 2, "replacement": {"result": {}}},
            "payload.replacement.result",
            "",
        ),
    ],
)
def test_payloads_out_of_bounds_are_400_and_write_nothing(table, kind, payload, field, says):
    a, b = table.fighters(table.a), table.fighters(table.b)
    names = {"A1": a[1], "B1": b[1]}
    table.post(table.phone_a, "turn", payload={"turn": 1, "side": table.a.pk})
    body = {k: names.get(v, v) if isinstance(v, str) else v for k, v in payload.items()}
    error = refused(table, kind, body)
    assert list(error["fields"]) == [field], error
    assert says in error["fields"][field][0], error


def test_a_note_within_bounds_is_stored(table):
    entry = table.post(table.phone_a, "note", payload={"text": "ñ" * 500})
    assert len(entry["payload"]["text"]) == 500


def test_a_base_seq_past_the_end_of_the_log_is_refused(table):
    last = table.post(table.phone_a, "turn", payload={"turn": 1, "side": table.a.pk})["seq"]
    error = refused(table, "note", {"text": "del futuro"}, base_seq=last + 1)
    assert list(error["fields"]) == ["base_seq"]
    table.post(table.phone_a, "note", payload={"text": "al día"}, base_seq=last)


def test_anonymous_callers_are_asked_to_log_in_for_a_private_battle(table):
    anonymous = APIClient()
    for path in ("log/", "state/", "setup/"):
        response = anonymous.get(f"{table.url}{path}")
        assert response.status_code == 401, path
        assert response.json()["error"]["code"] == "not_authenticated"
    # As from the rest of the battles API; a missing battle is told the same way.
    assert anonymous.get(table.url).status_code == 401
    assert anonymous.get("/api/v1/battles/999999/state/").status_code == 401
    body = {"client_id": uid(), "kind": "note", "payload": {"text": "hola"}}
    assert anonymous.post(f"{table.url}log/", body, format="json").status_code == 401


@pytest.mark.parametrize("kind", ["setup", "note", "turn"])
@pytest.mark.parametrize("payload", [0, "0", [1, 2], None])
def test_a_payload_that_is_not_an_object_is_400(table, kind, payload):
    """Schema fuzzing posted a setup whose payload was the form field "0": it reached
    ``{**payload}`` and answered 500. A payload is an object."""
    before = BattleLogEntry.objects.filter(battle=table.battle).count()
    body = {"client_id": uid(), "kind": kind, "payload": payload}
    as_json = table.phone_a.post(f"{table.url}log/", body, format="json")
    assert as_json.status_code == 400, as_json.content
    assert "payload" in as_json.json()["error"]["fields"]
    if payload is not None:
        # Bodies are JSON only: a form is refused before it is read.
        as_form = table.phone_a.post(f"{table.url}log/", body, format="multipart")
        assert as_form.status_code == 415, as_form.content
    assert BattleLogEntry.objects.filter(battle=table.battle).count() == before
