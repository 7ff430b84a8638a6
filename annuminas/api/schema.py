"""OpenAPI post-processing: a schema client generators use as is.

drf-spectacular documents the success answers the views declare; the errors come from
``annuminas.api.errors.exception_handler`` for every view alike, so they are added here once:
400, 401, 403, 404, 406, 429 and 503 everywhere, and 409, 413, 415 and 412/422 for writes (the
rule for which is which: docs/api.md › Errors). An answer the schema does not list is a bug
schema fuzzing reports (.ci/fuzz).

The hooks also:

- type every ``nullable`` value that had no type (a JSON value: string, number, boolean, object
  or array), so strict validators accept the ``null`` the API sends;
- (``annuminas.api.autoschema``) mark every field of an answer required unless its serializer
  declares it ``required=False`` without a default (a key the answer may leave out): request
  components, named ``…Request`` with ``COMPONENT_SPLIT_REQUEST``, keep their own;
- type path ids as integers (the URL takes digits only);
- declare the headers the API answers with: ``ETag`` beside every 304, ``Retry-After`` on
  429 and 503, ``Location`` on 201/202 where the view sends one, ``X-RateLimit-*`` on every
  answer (optional: a view without throttles sends none).

The schema is generated in English whatever ``Accept-Language`` says (``EnglishSchemaView``), so
the names, titles and enums a generator turns into types do not change with the reader.
"""

from __future__ import annotations

import threading
from typing import Any, ClassVar

from django.utils import translation
from drf_spectacular.views import SpectacularAPIView
from rest_framework.response import Response

from .error_codes import catalogue_markdown

ERROR_SCHEMA = {
    "type": "object",
    "description": 'Every API error: {"error": {"code", "message", "fields"}}.',
    "properties": {
        "error": {
            "type": "object",
            "properties": {
                "code": {
                    "type": "string",
                    "description": "A stable name of the refusal: switch on it.\n\n"
                    + catalogue_markdown(),
                },
                "message": {"type": "string"},
                "version": {
                    "type": "integer",
                    "description": "With stale_version: the resource's current version.",
                },
                "last_seq": {
                    "type": "integer",
                    "description": "With log_moved_on: the battle log's last seq.",
                },
                "fields": {
                    "type": "object",
                    "additionalProperties": {"type": "array", "items": {"type": "string"}},
                },
            },
            "required": ["code", "message", "fields"],
        }
    },
    "required": ["error"],
}

EVERY_OPERATION = {
    "400": "Invalid input (the fields say which and why).",
    "401": "Not authenticated, or a bad token.",
    "403": "Not allowed for this user.",
    "404": "Not found, or not visible to this user.",
    "406": "The Accept header names no format this operation answers in.",
    "429": "Too many requests: wait Retry-After seconds and try again.",
    "503": "A service the site needs is unreachable: try again after Retry-After seconds.",
}
WRITES = {
    "409": "Conflict: the resource changed since it was read (stale version), or its state "
    "does not allow this now; error.code says which (docs/api.md › Errors).",
    "413": "The request body is too large.",
    "415": "Unsupported content type: request bodies are JSON.",
}

HEADERS = {
    "ETag": {"description": "The representation's entity tag.", "schema": {"type": "string"}},
    "Retry-After": {
        "description": "Seconds to wait before trying again.",
        "schema": {"type": "integer"},
    },
    "Location": {"description": "The created (or queued) resource.", "schema": {"type": "string"}},
    "X-RateLimit-Limit": {
        "description": "Requests allowed in the window of the tightest limit that applies.",
        "schema": {"type": "integer"},
    },
    "X-RateLimit-Remaining": {
        "description": "Requests left in that window.",
        "schema": {"type": "integer"},
    },
    "X-RateLimit-Reset": {
        "description": "Seconds until the window frees a request.",
        "schema": {"type": "integer"},
    },
}
DIGITS = ("^[0-9]{1,18}$", "^\\d+$")
MAX_ID = 10**18 - 1
RATE_LIMIT = ("X-RateLimit-Limit", "X-RateLimit-Remaining", "X-RateLimit-Reset")
IDEMPOTENCY_KEY = {
    "in": "header",
    "name": "Idempotency-Key",
    "required": False,
    "schema": {"type": "string", "minLength": 1, "maxLength": 255},
    "description": "Your unique string for this write: a retry with the same key and body "
    "gets the first answer again (kept 24 hours); the same key with another body is a 409 "
    "idempotency_key_reused.",
}
# Any JSON value (a field the API types as "whatever the client sent", e.g. a decision's choice).
ANY_VALUE = [
    {"type": "string"},
    {"type": "number"},
    {"type": "boolean"},
    {"type": "object", "additionalProperties": {}},
    {"type": "array", "items": {}},
]
TYPED = ("type", "$ref", "allOf", "oneOf", "anyOf")
WRITE_METHODS = {"post", "put", "patch", "delete"}


def document_errors(result, generator, request, public):
    """``SPECTACULAR_SETTINGS["POSTPROCESSING_HOOKS"]``: add the error answers to each operation."""
    result.setdefault("components", {}).setdefault("schemas", {})["Error"] = ERROR_SCHEMA
    body = {"application/json": {"schema": {"$ref": "#/components/schemas/Error"}}}
    for path_item in result.get("paths", {}).values():
        for method, operation in path_item.items():
            if not isinstance(operation, dict) or "responses" not in operation:
                continue
            errors = dict(EVERY_OPERATION)
            if method in WRITE_METHODS:
                errors.update(WRITES)
            for code, description in errors.items():
                operation["responses"].setdefault(code, {"description": description})
            # Every error answer carries the error shape, including those a view declared
            # with a description only.
            for code, response in operation["responses"].items():
                if str(code).isdigit() and int(code) >= 400:
                    response.setdefault("content", body)
    return result


def _type_bare_nullables(node) -> None:
    if isinstance(node, dict):
        if node.get("nullable") and not any(key in node for key in TYPED):
            # Each member nullable too: OpenAPI 3.0 reads "nullable" beside a "type" only.
            node["anyOf"] = [{**member, "nullable": True} for member in ANY_VALUE]
        for value in node.values():
            _type_bare_nullables(value)
    elif isinstance(node, list):
        for value in node:
            _type_bare_nullables(value)


def complete_contract(result, generator, request, public):
    """``POSTPROCESSING_HOOKS``: typed nullables, declared headers, Idempotency-Key."""
    _type_bare_nullables(result)
    for path, path_item in result.get("paths", {}).items():
        for method, operation in path_item.items():
            if not isinstance(operation, dict):
                continue
            for parameter in operation.get("parameters", []):
                # Path ids (digits only in the URL) are integers to a client.
                if (
                    parameter.get("in") == "path"
                    and parameter.get("schema", {}).get("pattern") in DIGITS
                ):
                    parameter["schema"] = {"type": "integer", "minimum": 0, "maximum": MAX_ID}
            responses = operation.get("responses", {})
            if method == "post" and not path.startswith("/api/v1/auth/"):
                operation.setdefault("parameters", []).append(IDEMPOTENCY_KEY)
                for code in ("200", "201", "202"):
                    if code in responses:
                        responses[code].setdefault("headers", {})["Idempotent-Replayed"] = {
                            "description": "true when this is the kept answer to a retry.",
                            "schema": {"type": "string", "enum": ["true"]},
                        }
            for code, response in responses.items():
                headers = {name: HEADERS[name] for name in RATE_LIMIT}
                if code == "304" or (code == "200" and "304" in responses):
                    headers["ETag"] = HEADERS["ETag"]
                if code in ("429", "503"):
                    headers["Retry-After"] = HEADERS["Retry-After"]
                if code in LOCATED.get(operation.get("operationId"), ()):
                    headers["Location"] = HEADERS["Location"]
                if headers:
                    response.setdefault("headers", {}).update(headers)
    return result


# Operations whose answer of these statuses carries a Location header.
LOCATED = {
    "warbands_create": ("201",),
    "warbands_import_create": ("201",),
    "battles_resolve_create": ("202",),
    "campaigns_rounds_resolve_create": ("202",),
    "campaigns_partial_update": ("202",),
}


class EnglishSchemaView(SpectacularAPIView):
    """``/api/v1/schema/``: the same document whatever language the reader asks for
    (``Accept-Language`` or drf-spectacular's ``?lang=``).

    The document follows from the code alone (the same for every caller, logged in or not), so
    each process generates it once and keeps it: generating it cost ~0.75 s of CPU for every
    visit of the schema or of the API docs page, which loads it. The API has one version, so
    ``?version=`` names no other document (it would have made one generation a visit). The
    first visit generates it under a lock: drf-spectacular's generator is not safe in two
    threads at once."""

    schema = None  # not an operation of the API it describes
    _document: ClassVar[dict[str, Any] | None] = None
    _generating: ClassVar[threading.Lock] = threading.Lock()

    def dispatch(self, request, *args, **kwargs):
        # Rendered here, inside English: the document's texts are lazy until rendered.
        with translation.override("en"):
            response = super().dispatch(request, *args, **kwargs)
            response.render()
        response["Content-Language"] = "en"
        return response

    def _get_schema_response(self, request):
        document = EnglishSchemaView._document
        if document is None:
            with EnglishSchemaView._generating:
                document = EnglishSchemaView._document
                if document is None:
                    generator = self.generator_class(urlconf=self.urlconf, patterns=self.patterns)
                    with translation.override("en"):  # whatever ?lang= asked for
                        document = generator.get_schema(request=request, public=self.serve_public)
                    EnglishSchemaView._document = document
        filename = self._get_filename(request, None)
        return Response(
            data=document, headers={"Content-Disposition": f'inline; filename="{filename}"'}
        )
