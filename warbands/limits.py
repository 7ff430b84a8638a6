"""The bounds of every free text a player types, in one place.

Models declare these lengths (``max_length``, text fields included) and mix in ``TextBounds``,
which refuses to save a text longer than its field allows or holding a NUL byte, so every door
(API, pages, import, admin, services of other apps) obeys the same limit. Names go through
``clean_name``: a name made only of blanks or invisible characters (zero-width space, BOM,
Hangul filler…) is no name at all.
"""

from __future__ import annotations

import unicodedata
from typing import Any

from django.core.exceptions import ValidationError
from django.db import models
from django.utils.translation import gettext as _

NAME_MAX_LENGTH = 80  # warbands, fighters, henchman groups
NOTES_MAX_LENGTH = 5000  # a warband's notes, a battle report's notes
DESCRIPTION_MAX_LENGTH = 5000  # a campaign's description
REASON_MAX_LENGTH = 2000  # a dispute's or a correction's reason

# Letters (category Lo/So) that render as nothing: the Hangul fillers, the blank Braille
# pattern. The format characters (Cf: zero-width space and joiners, word joiner and the
# invisible operators U+2060–2064, Mongolian vowel separator, BOM, bidi marks, soft hyphen…)
# are found by their category.
INVISIBLE_LETTERS = frozenset("\u115f\u1160\u3164\uffa0\u2800")
# Marks (Mn) that render as nothing of their own: the combining grapheme joiner, the variation
# selectors (U+FE00–FE0F, U+E0100–E01EF), Mongolian free variation selectors, Khmer inherent
# vowels. They change the character before them (the emoji selector U+FE0F), so they are
# stripped only where nothing precedes them: a name made of them alone is blank.
INVISIBLE_MARKS = frozenset(
    "\u034f\u17b4\u17b5\u180b\u180c\u180d\u180f"
    + "".join(chr(code) for code in range(0xFE00, 0xFE10))
    + "".join(chr(code) for code in range(0xE0100, 0xE01F0))
)


def _invisible(char: str) -> bool:
    return char.isspace() or char in INVISIBLE_LETTERS or unicodedata.category(char) == "Cf"


def _strip_invisible(text: str) -> str:
    start, end = 0, len(text)
    while start < end and (_invisible(text[start]) or text[start] in INVISIBLE_MARKS):
        start += 1
    while end > start and _invisible(text[end - 1]):
        end -= 1
    return text[start:end]


def clean_name(value: Any, *, field: str = "name", max_length: int = NAME_MAX_LENGTH) -> str:
    """A name as stored: text, trimmed of blanks and invisible characters at both ends, not
    empty, without control characters, at most ``max_length`` characters. Raises
    ``ValidationError({field: …})``."""
    if value is None:
        value = ""
    if not isinstance(value, str):
        raise ValidationError({field: _("A name must be text.")})
    name = _strip_invisible(value)
    if not name:
        raise ValidationError({field: _("Give it a name.")})
    if any(unicodedata.category(char) == "Cc" for char in name):
        raise ValidationError({field: _("A name cannot contain control characters.")})
    if len(name) > max_length:
        raise ValidationError(
            {field: _("A name has at most %(max)d characters.") % {"max": max_length}}
        )
    return name


def clean_text(value: Any, *, field: str, max_length: int) -> str:
    """A free text as stored (notes, descriptions): text, at most ``max_length`` characters,
    no NUL byte. Raises ``ValidationError({field: …})``."""
    if value is None:
        return ""
    if not isinstance(value, str):
        raise ValidationError({field: _("This must be text.")})
    problem = text_problem(value, max_length)
    if problem:
        raise ValidationError({field: problem})
    return value


def text_problem(value: str, max_length: int | None) -> str | None:
    if max_length is not None and len(value) > max_length:
        return _("At most %(max)d characters (this has %(count)d).") % {
            "max": max_length,
            "count": len(value),
        }
    if "\x00" in value:
        return _("The text contains a NUL character.")
    return None


def text_bounds_check(instance: models.Model, update_fields=None) -> None:
    """Refuse to store a text field longer than its ``max_length`` or holding a NUL byte."""
    errors = {}
    for field in instance._meta.concrete_fields:
        if not isinstance(field, models.CharField | models.TextField):
            continue
        if update_fields is not None and field.name not in update_fields:
            continue
        value = getattr(instance, field.attname)
        if isinstance(value, str):
            problem = text_problem(value, field.max_length)
            if problem:
                errors[field.name] = problem
    if errors:
        raise ValidationError(errors)


class TextBounds:
    """Model mixin: ``save()`` runs ``text_bounds_check`` first (``update()``, ``bulk_create``
    and ``bulk_update`` do not: their callers pass texts already cleaned)."""

    def save(self, *args, **kwargs):
        text_bounds_check(self, kwargs.get("update_fields"))
        super().save(*args, **kwargs)
