"""One check for free-form JSON a user sends (house-rule tables, advance records, typed dice,
post-battle options): it must be plain JSON of bounded size and depth whose every text, keys
included, is bounded and storable. PostgreSQL's ``jsonb`` refuses a NUL character (``\\u0000``)
and a lone surrogate cannot be encoded at all: left unchecked, either is a 500 at the save.
Callers check the shape they expect afterwards; this only keeps the value safe to store."""

from __future__ import annotations

import json
import math
from typing import Any

from django.core.exceptions import ValidationError
from django.utils.translation import gettext as _

JSON_MAX_BYTES = 64_000
JSON_MAX_DEPTH = 8
JSON_MAX_STRING_LENGTH = 1000


def json_check(
    value: Any,
    *,
    field: str | None = None,
    max_bytes: int = JSON_MAX_BYTES,
    max_depth: int = JSON_MAX_DEPTH,
    max_string_length: int = JSON_MAX_STRING_LENGTH,
) -> None:
    """Raise ``ValidationError`` (under ``field`` when given) unless ``value`` is plain JSON —
    objects with text keys, lists, text, finite numbers, booleans, null — at most ``max_bytes``
    bytes as compact UTF-8 JSON, nesting at most ``max_depth`` objects and lists, with no text
    (value or key) longer than ``max_string_length`` characters or holding a NUL character or a
    lone surrogate. The message names where the problem is (``rows.3.result``).

    Walks the value without recursion and stops at the first problem, so a hostile value (a
    100,000-deep list, megabytes of text) costs little."""
    problem = _json_problem(value, max_bytes, max_depth, max_string_length)
    if problem is None:
        size = len(json.dumps(value, ensure_ascii=False, separators=(",", ":")).encode())
        if size > max_bytes:  # the walk's count leaves out escapes
            problem = ("", _too_big(max_bytes))
    if problem is not None:
        path, message = problem
        text = f"{path}: {message}" if path else message
        raise ValidationError({field: [text]} if field else text)


def _too_big(max_bytes: int) -> str:
    return _("Too large: at most %(max)d bytes as JSON.") % {"max": max_bytes}


def _text_problem(text: str, max_length: int) -> str | None:
    if len(text) > max_length:
        return _("At most %(max)d characters (this has %(count)d).") % {
            "max": max_length,
            "count": len(text),
        }
    if "\x00" in text:
        return _("The text contains a NUL character.")
    try:
        text.encode("utf-8")
    except UnicodeEncodeError:
        return _("The text contains a character that cannot be stored.")
    return None


def _json_problem(
    value: Any, max_bytes: int, max_depth: int, max_string_length: int
) -> tuple[str, str] | None:
    """The first (path, message) wrong in ``value``, or ``None``. Counts the bytes as it goes
    (texts in UTF-8 plus their quotes, one byte per separator), stopping once over."""
    size = 0
    stack: list[tuple[Any, str, int]] = [(value, "", 0)]
    while stack:
        item, path, depth = stack.pop()
        if isinstance(item, dict | list | tuple):
            if depth + 1 > max_depth:
                return path, _("Nested too deeply: at most %(max)d levels.") % {"max": max_depth}
            size += 2 + max(len(item) - 1, 0)
            if isinstance(item, dict):
                children = []
                for key, child in item.items():
                    if not isinstance(key, str):
                        return path, _not_json()
                    key_path = f"{path}.{key}" if path else key
                    if problem := _text_problem(key, max_string_length):
                        return path, problem
                    size += len(key.encode()) + 3
                    children.append((child, key_path, depth + 1))
            else:
                children = [
                    (child, f"{path}.{index}" if path else str(index), depth + 1)
                    for index, child in enumerate(item)
                ]
            stack.extend(reversed(children))
        elif isinstance(item, str):
            if problem := _text_problem(item, max_string_length):
                return path, problem
            size += len(item.encode()) + 2
        elif item is None or isinstance(item, bool):
            size += 5
        elif isinstance(item, int):
            if item.bit_length() > 63:
                return path, _("A number is too large.")
            size += len(str(item))
        elif isinstance(item, float):
            if not math.isfinite(item):
                return path, _not_json()
            size += len(repr(item))
        else:
            return path, _not_json()
        if size > max_bytes:
            return "", _too_big(max_bytes)
    return None


def _not_json() -> str:
    return _(
        "Only plain JSON is accepted: objects with text keys, lists, text, numbers, true, "
        "false and null."
    )
