"""URL path converters."""

import re

MAX_ID_DIGITS = 18  # below 2**63: every id fits a bigint, whatever the database
ID_PATTERN = re.compile(r"[0-9]{1,18}")


class IdConverter:
    """A row id in a URL: ASCII digits, at most 18 of them (a longer one is simply not found)."""

    regex = r"[0-9]{1,18}"

    def to_python(self, value: str) -> int:
        return int(value)

    def to_url(self, value: int) -> str:
        return str(int(value))


def parse_id(value) -> int | None:
    """An id typed in a form or query string, or None if it is not one (never an exception)."""
    text = str(value or "").strip()
    return int(text) if ID_PATTERN.fullmatch(text) else None
