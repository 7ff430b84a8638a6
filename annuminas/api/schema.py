"""OpenAPI post-processing: every operation documents the one error shape it may answer with.

drf-spectacular documents the success answers the views declare; the errors come from
``annuminas.api.errors.exception_handler`` for every view alike, so they are added here once:
400, 401, 403, 404 and 429 everywhere, and 409 (stale version, state clash), 413 and 415 for
writes. An answer the schema does not list is a bug schema fuzzing reports (.ci/fuzz).
"""

from __future__ import annotations

ERROR_SCHEMA = {
    "type": "object",
    "description": 'Every API error: {"error": {"code", "message", "fields"}}.',
    "properties": {
        "error": {
            "type": "object",
            "properties": {
                "code": {"type": "string"},
                "message": {"type": "string"},
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
    "429": "Too many requests: wait and try again.",
}
WRITES = {
    "409": "Conflict: the resource changed since it was read (stale version), or its state "
    "does not allow this.",
    "413": "The request body is too large.",
    "415": "Unsupported content type.",
}
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
