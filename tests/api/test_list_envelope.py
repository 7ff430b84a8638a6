"""Every list in the schema pages one way: ``{"count", "next", "previous", "results"}`` with
``next`` and ``previous`` absolute (or null), and ``?page_size=``. The test walks the schema's
GET operations, so a new list that answers a bare array, or a page of another shape, fails
here until it pages as the others (or is named below as a bounded collection answered whole).
Then it reads each list live, one row a page, and follows its links."""

from __future__ import annotations

import uuid

import pytest

from battles.battlelog import prebattle
from tests.api.test_schema_truth import assert_matches, client_for, schema  # noqa: F401
from tests.battles.factories import *  # noqa: F403 - the campaign fixtures
from tests.battles.factories import first_battle

pytestmark = pytest.mark.django_db

ENVELOPE = {"count", "next", "previous", "results"}

# Collections answered whole, each bounded by what holds it (the sheet shows them whole).
WHOLE = {
    "/api/v1/warbands/{id}/fighters/": "one warband's fighters (its type's maximum)",
    "/api/v1/warbands/{id}/stash/": "one warband's stash",
    "/api/v1/fighters/{id}/equipment/": "one fighter's equipment",
    "/api/v1/groups/{id}/equipment/": "one henchman group's equipment",
    "/api/v1/warbands/{warband_pk}/hired-swords/": "one warband's hired swords",
    "/api/v1/campaigns/{slug}/webhooks/": "one campaign's webhooks (10 at most)",
}


def _resolve(schema: dict, node: dict) -> dict:  # noqa: F811
    while "$ref" in node:
        node = schema["components"]["schemas"][node["$ref"].rsplit("/", 1)[-1]]
    return node


def _json_answers(schema: dict):  # noqa: F811
    """(path, operation, its 200 JSON answer resolved) for every GET answering JSON."""
    for path, operations in schema["paths"].items():
        operation = operations.get("get")
        declared = (operation or {}).get("responses", {}).get("200", {})
        body = declared.get("content", {}).get("application/json", {}).get("schema")
        if body:
            yield path, operation, _resolve(schema, body)


def _paged(schema: dict) -> dict[str, dict]:  # noqa: F811
    return {
        path: operation
        for path, operation, answer in _json_answers(schema)
        if "results" in answer.get("properties", {})
    }


def test_every_list_in_the_schema_declares_the_one_page_shape(schema):  # noqa: F811
    arrays = {path for path, _op, answer in _json_answers(schema) if answer.get("type") == "array"}
    assert arrays == set(WHOLE), "a list answers a bare array: page it (StandardPagination)"
    paged = _paged(schema)
    assert len(paged) >= 20
    for path, operation in paged.items():
        answer = next(a for p, _o, a in _json_answers(schema) if p == path)
        fields = answer["properties"]
        assert set(fields) >= ENVELOPE, path
        assert set(answer.get("required", ENVELOPE)) >= ENVELOPE, path
        assert fields["count"]["type"] == "integer", path
        for link in ("next", "previous"):
            assert fields[link]["type"] == "string", (path, link)
            assert fields[link].get("format") == "uri", (path, link)
            assert fields[link].get("nullable") is True, (path, link)
        assert _resolve(schema, fields["results"])["type"] == "array", path
        parameters = {p["name"] for p in operation.get("parameters", []) if p["in"] == "query"}
        assert "page_size" in parameters, path
        assert "page" in parameters or {"after", "before"} <= parameters, path


@pytest.fixture
def lists(league):
    """A league with a battle set up (a log of one entry), and a way to fill each list's
    path: one row a page shows every list's links."""
    battle = first_battle(league)
    prebattle.battle_log_setup(battle=battle, by=league.organiser, client_id=uuid.uuid4())
    values = {
        "{id}": battle.pk,
        "{slug}": league.campaign.slug,
        "{number}": battle.round.number,
    }
    return league, battle, values


WARBAND_ID = {"/api/v1/warbands/{id}/ledger/"}


def test_every_list_answers_the_page_it_declares_with_absolute_links(schema, lists):  # noqa: F811
    league, battle, values = lists
    player, warband = league.players[0]
    client = client_for(player)
    linked = []
    for path in _paged(schema):
        url = path.replace("{id}", str(warband.pk)) if path in WARBAND_ID else path
        for name, value in values.items():
            url = url.replace(name, str(value))
        assert "{" not in url, f"{path}: say here how to fill its path"
        declared = {p["name"] for p in schema["paths"][path]["get"].get("parameters", [])}
        if "ordering" in declared:  # declared, so read: an unknown field is refused
            refused = client.get(url, {"ordering": "password"})
            assert refused.status_code == 400, path
            assert refused.json()["error"]["code"] == "invalid_ordering", path
        first = client.get(url, {"page_size": 1})
        assert first.status_code == 200, (path, first.content[:300])
        page = first.json()
        assert set(page) >= ENVELOPE, path
        assert len(page["results"]) == min(page["count"], 1), path
        assert_matches(schema, path, first)
        if page["count"] > 1:
            assert page["next"].startswith("http://testserver/api/v1/"), (path, page["next"])
            second = client.get(page["next"])
            assert second.status_code == 200, path
            assert_matches(schema, path, second)
            back = second.json()["previous"]
            assert back.startswith("http://testserver/api/v1/"), (path, back)
            assert client.get(back).json()["results"] == page["results"], path
            linked.append(path)
        else:
            assert page["next"] is None, path
    assert len(linked) >= 8, linked
