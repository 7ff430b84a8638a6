"""The schema a client generator uses as is: JSON bodies only, one document whatever language,
typed nullables, required answer fields, and the statuses and headers the API really sends."""

from __future__ import annotations

import json

import pytest
from rest_framework.test import APIClient

from tests.warbands.fixtures import *  # noqa: F403 - the warband fixtures

pytestmark = pytest.mark.django_db

TYPED = ("type", "$ref", "allOf", "oneOf", "anyOf")


@pytest.fixture(scope="module")
def schema(django_db_blocker) -> dict:
    with django_db_blocker.unblock():
        response = APIClient().get("/api/v1/schema/?format=json")
    assert response.status_code == 200
    return response.json()


def operations(schema):
    for path, item in schema["paths"].items():
        for method, operation in item.items():
            if isinstance(operation, dict) and "responses" in operation:
                yield path, method, operation


def walk(node):
    if isinstance(node, dict):
        yield node
        for value in node.values():
            yield from walk(value)
    elif isinstance(node, list):
        for value in node:
            yield from walk(value)


def test_the_schema_is_the_same_in_every_language(generations):
    spanish = APIClient(HTTP_ACCEPT_LANGUAGE="es").get("/api/v1/schema/?format=json")
    generations.forget()  # each generated for its reader, not served from the other's
    english = APIClient(HTTP_ACCEPT_LANGUAGE="en").get("/api/v1/schema/?format=json")
    assert generations.count == 2
    assert spanish.content == english.content
    assert spanish["Content-Language"] == "en"
    # Titles are English (a generator names types after them).
    assert "Estado" not in json.dumps(spanish.json()["components"]["schemas"])


@pytest.fixture
def generations(monkeypatch):
    """How many times the schema view generated its document, starting with none kept;
    ``generations.forget()`` drops the kept one (the next visit generates it again)."""
    from drf_spectacular.generators import SchemaGenerator

    from annuminas.api.schema import EnglishSchemaView

    monkeypatch.setattr(EnglishSchemaView, "_document", None)
    counted = []
    real = SchemaGenerator.get_schema

    def counting(self, *args, **kwargs):
        counted.append(1)
        return real(self, *args, **kwargs)

    monkeypatch.setattr(SchemaGenerator, "get_schema", counting)

    class Generations:
        @property
        def count(self) -> int:
            return len(counted)

        @staticmethod
        def forget() -> None:
            EnglishSchemaView._document = None

    return Generations()


def test_the_document_is_generated_once_and_is_the_same_for_every_caller(generations, make_user):
    """Generating it cost ~0.75 s of CPU a visit (the API docs page loads it too): each
    process keeps it. What makes that safe: a stranger, a player and a superuser, each served
    a document generated for them, read the same bytes."""
    player, root = APIClient(), APIClient()
    player.force_authenticate(make_user("lector"))
    root.force_authenticate(make_user("raíz", is_staff=True, is_superuser=True))
    answers = []
    for client in (APIClient(), player, root):
        generations.forget()
        answers.append(client.get("/api/v1/schema/?format=json"))
    assert [a.status_code for a in answers] == [200, 200, 200]
    assert answers[0].content == answers[1].content == answers[2].content
    assert generations.count == 3
    for query in ("", "?format=json&lang=es", "?version=v2", "?version=v3&format=json"):
        assert APIClient().get(f"/api/v1/schema/{query}").status_code == 200
    assert generations.count == 3  # kept: no language, format or version generates it again
    generations.forget()  # generated for a reader who asks for Spanish: English all the same
    assert APIClient().get("/api/v1/schema/?format=json&lang=es").content == answers[0].content
    assert generations.count == 4


def test_request_bodies_are_json_only(schema):
    bodies = [op["requestBody"] for _, _, op in operations(schema) if "requestBody" in op]
    assert bodies
    assert all(set(body["content"]) == {"application/json"} for body in bodies)


def test_every_nullable_value_has_a_type(schema):
    bare = [n for n in walk(schema) if n.get("nullable") and not any(k in n for k in TYPED)]
    assert bare == []


def test_answer_fields_are_required_request_fields_keep_their_own(schema):
    components = schema["components"]["schemas"]
    warband = components["Warband"]
    assert set(warband["required"]) == set(warband["properties"])
    assert "WarbandCreateRequest" in components
    archive = components["ArchiveRequest"]  # "archived" may be left out
    assert set(archive.get("required", [])) < set(archive["properties"])


def test_headers_and_statuses_are_declared(schema):
    sheet = schema["paths"]["/api/v1/warbands/{id}/sheet/"]["get"]["responses"]
    assert "ETag" in sheet["304"]["headers"] and "ETag" in sheet["200"]["headers"]
    battle = schema["paths"]["/api/v1/battles/{id}/"]["get"]["responses"]
    assert "304" in battle
    for _, method, operation in operations(schema):
        assert "Retry-After" in operation["responses"]["429"]["headers"]
        assert "406" in operation["responses"]
        if method == "post":
            assert "413" in operation["responses"]
    create = schema["paths"]["/api/v1/warbands/"]["post"]["responses"]["201"]
    assert "Location" in create["headers"]


def test_a_body_over_the_size_limit_is_413_in_the_error_shape(user, settings):
    settings.DATA_UPLOAD_MAX_MEMORY_SIZE = 1024
    api = APIClient()
    api.force_authenticate(user)
    response = api.post(
        "/api/v1/warbands/", json.dumps({"name": "a" * 4096}), content_type="application/json"
    )
    assert response.status_code == 413
    assert response.json()["error"]["code"] == "payload_too_large"


def test_a_form_body_is_415(user):
    api = APIClient()
    api.force_authenticate(user)
    response = api.post(
        "/api/v1/warbands/", "name=x", content_type="application/x-www-form-urlencoded"
    )
    assert response.status_code == 415
    assert response.json()["error"]["code"] == "unsupported_media_type"


@pytest.mark.parametrize(
    "header",
    ["{etag}", "W/{etag}", '"other", {etag}', 'W/"other", W/{etag}', "*"],
)
def test_if_none_match_compares_weakly_lists_and_star(header, warband, user):
    api = APIClient()
    api.force_authenticate(user)
    first = api.get(f"/api/v1/warbands/{warband.pk}/sheet/")
    etag = first["ETag"]
    again = api.get(
        f"/api/v1/warbands/{warband.pk}/sheet/", HTTP_IF_NONE_MATCH=header.format(etag=etag)
    )
    assert again.status_code == 304 and again["ETag"] == etag
    detail = api.get(f"/api/v1/warbands/{warband.pk}/", HTTP_IF_NONE_MATCH=header.format(etag=etag))
    assert detail.status_code == 304


def test_another_etag_gets_the_body(warband, user):
    api = APIClient()
    api.force_authenticate(user)
    response = api.get(f"/api/v1/warbands/{warband.pk}/sheet/", HTTP_IF_NONE_MATCH='"x", W/"y"')
    assert response.status_code == 200


def test_request_examples_are_not_offered_as_answers(schema):
    roll = schema["paths"]["/api/v1/rules/roll/"]["post"]
    assert "examples" in roll["requestBody"]["content"]["application/json"]
    assert "examples" not in roll["responses"]["200"].get("content", {}).get("application/json", {})
