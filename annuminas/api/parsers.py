"""Request bodies: every malformed one answers 400 — deeply nested JSON, and a NUL character
anywhere (PostgreSQL's text columns refuse it, so a lookup or a write with one was a 500)."""

from typing import Any

from django.http import QueryDict
from django.utils.datastructures import MultiValueDict
from django.utils.translation import gettext as _
from rest_framework.exceptions import ParseError, ValidationError
from rest_framework.parsers import DataAndFiles, FormParser, JSONParser, MultiPartParser

NUL = "\x00"


def _items(value: Any) -> list[tuple[Any, Any]] | None:
    """(key, child) pairs of a container, or ``None`` for a leaf."""
    if isinstance(value, QueryDict | MultiValueDict):
        return [(key, child) for key, children in value.lists() for child in children]
    if isinstance(value, dict):
        return list(value.items())
    if isinstance(value, list | tuple):
        return list(enumerate(value))
    return None


def _refuse_nul(data: Any) -> Any:
    """``data`` unchanged, or a 400 naming where a NUL stands, as ``annuminas.validation`` does:
    the body's field, and the path within it (walked without recursion: a body is as deep as
    the JSON parser allowed)."""
    roots = [data.data, data.files] if isinstance(data, DataAndFiles) else [data]
    stack: list[tuple[Any, tuple]] = [(root, ()) for root in roots]
    while stack:
        value, path = stack.pop()
        if isinstance(value, str) or hasattr(value, "name"):  # a text, or an uploaded file
            text = value if isinstance(value, str) else str(value.name)
            if NUL in text:
                _refuse(path)
            continue
        for key, child in _items(value) or []:
            if isinstance(key, str) and NUL in key:
                _refuse(path)
            stack.append((child, (*path, key)))
    return data


def _refuse(path: tuple) -> None:
    message = _("The text contains a NUL character.")
    if not path:
        raise ParseError(message)
    field, *inside = (str(part) for part in path)
    raise ValidationError({field: [f"{'.'.join(inside)}: {message}" if inside else message]})


class SafeJSONParser(JSONParser):
    def parse(self, stream, media_type=None, parser_context=None):
        try:
            data = super().parse(stream, media_type, parser_context)
        except RecursionError as exc:  # json.loads on thousands of nested brackets
            raise ParseError("JSON parse error - the document is nested too deeply.") from exc
        return _refuse_nul(data)


class SafeFormParser(FormParser):
    def parse(self, stream, media_type=None, parser_context=None):
        return _refuse_nul(super().parse(stream, media_type, parser_context))


class SafeMultiPartParser(MultiPartParser):
    def parse(self, stream, media_type=None, parser_context=None):
        return _refuse_nul(super().parse(stream, media_type, parser_context))
