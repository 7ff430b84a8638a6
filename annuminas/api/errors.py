"""One error shape for every API error: ``{"error": {"code", "message", "fields"}}``.

``fields`` maps a field name (dotted for nested input, e.g. ``attacker.ws``) to its messages;
it is empty when the error is not about a field. Services raise Django's ``ValidationError``
(a player-readable message) and the handler turns it into a 400 here, so views stay thin.
"""

import logging
from typing import Any

from django.core.exceptions import PermissionDenied
from django.core.exceptions import ValidationError as DjangoValidationError
from django.http import Http404, JsonResponse
from django.utils.translation import gettext as _
from django.utils.translation import gettext_lazy as _lazy
from rest_framework import exceptions, status
from rest_framework.renderers import JSONRenderer
from rest_framework.response import Response
from rest_framework.views import exception_handler as drf_exception_handler

from annuminas.errors import Conflict
from annuminas.tasks import BACKEND_UNAVAILABLE

__all__ = ["ServiceUnavailable", "error_body", "exception_handler"]

logger = logging.getLogger(__name__)


class ApiConflict(exceptions.APIException):
    """409 as DRF knows it; services raise the domain ``annuminas.errors.Conflict`` instead."""

    status_code = status.HTTP_409_CONFLICT
    default_detail = _lazy("The resource was changed by someone else; reload it and try again.")
    default_code = "conflict"


class ServiceUnavailable(exceptions.APIException):
    """503: Redis (cache or task broker) is unreachable and the request cannot do without it."""

    status_code = status.HTTP_503_SERVICE_UNAVAILABLE
    default_detail = _lazy("A service the site needs is unreachable; try again in a minute.")
    default_code = "service_unavailable"


def error_body(
    code: str, message: str, fields: dict[str, list[str]] | None = None, **recovery
) -> dict:
    """The error shape; ``recovery`` adds what the client needs to recover (``version``,
    ``last_seq``) beside ``code``."""
    return {"error": {"code": code, "message": str(message), "fields": fields or {}, **recovery}}


def _flatten(detail: Any, prefix: str = "") -> dict[str, list[str]]:
    """Flatten DRF's nested error detail into ``{"a.b": ["message", …]}``."""
    fields: dict[str, list[str]] = {}
    if isinstance(detail, dict):
        for key, value in detail.items():
            name = f"{prefix}.{key}" if prefix else str(key)
            for sub_name, messages in _flatten(value, name).items():
                fields.setdefault(sub_name, []).extend(messages)
    elif isinstance(detail, list):
        if all(not isinstance(item, dict | list) for item in detail):
            fields[prefix or "non_field_errors"] = [str(item) for item in detail]
        else:
            for index, item in enumerate(detail):
                name = f"{prefix}.{index}" if prefix else str(index)
                for sub_name, messages in _flatten(item, name).items():
                    fields.setdefault(sub_name, []).extend(messages)
    else:
        fields[prefix or "non_field_errors"] = [str(detail)]
    return fields


def _django_validation_to_drf(exc: DjangoValidationError) -> exceptions.ValidationError:
    if hasattr(exc, "error_dict"):
        detail = {
            ("non_field_errors" if key == "__all__" else key): [str(m) for e in errs for m in e]
            for key, errs in exc.error_dict.items()
        }
    else:
        detail = {"non_field_errors": [str(message) for message in exc.messages]}
    return exceptions.ValidationError(detail)


def _first_code(codes: Any) -> str | None:
    if isinstance(codes, str):
        return codes
    if isinstance(codes, dict):
        for value in codes.values():
            found = _first_code(value)
            if found:
                return found
    if isinstance(codes, list):
        for value in codes:
            found = _first_code(value)
            if found:
                return found
    return None


def exception_handler(exc: Exception, context: dict) -> Response | None:
    if isinstance(exc, BACKEND_UNAVAILABLE):
        logger.warning("503: %s: %s", type(exc).__name__, exc)
        exc = ServiceUnavailable()
        exc.wait = 60
    recovery: dict = {}
    if isinstance(exc, Conflict):
        recovery = exc.recovery
        exc = ApiConflict(exc.detail, code=exc.code)
    elif isinstance(exc, DjangoValidationError):
        exc = _django_validation_to_drf(exc)
    elif isinstance(exc, Http404):
        exc = exceptions.NotFound()
    elif isinstance(exc, PermissionDenied):
        # A service's refusal keeps its reason; a bare one gets DRF's default words.
        exc = exceptions.PermissionDenied(str(exc) or None)

    response = drf_exception_handler(exc, context)
    if response is None:
        return None

    if isinstance(exc, exceptions.ValidationError):
        fields = _flatten(exc.detail)
        code = _first_code(exc.get_codes()) or "invalid"
        non_field = fields.pop("non_field_errors", None)
        if non_field:
            message = " ".join(non_field)
            if fields:
                fields["non_field_errors"] = non_field
        else:
            message = "; ".join(f"{name}: {messages[0]}" for name, messages in fields.items())
        response.data = error_body(code, message or _("Invalid input."), fields)
    else:
        detail = getattr(exc, "detail", str(exc))
        code = getattr(exc, "default_code", "error")
        if isinstance(exc, exceptions.APIException):
            codes = exc.get_codes()
            code = _first_code(codes) or code
        if isinstance(detail, dict | list):
            fields = _flatten(detail)
            message = " ".join(m for messages in fields.values() for m in messages)
            response.data = error_body(code, message, fields)
        else:
            response.data = error_body(code, str(detail), **recovery)
    _render_as_json(context.get("request"))
    return response


def _render_as_json(request) -> None:
    """Errors are JSON whatever format the caller asked for (``?format=csv`` included): a 404
    for a CSV download is the error shape as ``application/json``, as the schema says. The
    browsable API keeps its HTML page."""
    renderer = getattr(request, "accepted_renderer", None)
    if renderer is not None and renderer.format not in ("json", "api"):
        request.accepted_renderer = JSONRenderer()
        request.accepted_media_type = JSONRenderer.media_type


def json_error_response(status_code: int, code: str, message: str) -> JsonResponse:
    """The same shape for errors raised outside DRF (unknown /api/ URLs, server errors)."""
    return JsonResponse(error_body(code, message), status=status_code)
