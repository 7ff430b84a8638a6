"""Timestamps in API answers: ISO 8601 in UTC with ``Z`` (``2026-11-26T23:05:00.123456Z``).

DRF's ``DateTimeField`` answers in the current time zone (the site's, Europe/Madrid); the API
app's ``ready`` makes it answer in UTC, and hand-built answers use ``utc_iso``. A naive
datetime sent to the API is read as UTC.
"""

from __future__ import annotations

from datetime import UTC, datetime

from rest_framework import fields


def utc_iso(value: datetime | None) -> str | None:
    if value is None:
        return None
    return value.astimezone(UTC).isoformat().replace("+00:00", "Z")


def answer_in_utc() -> None:
    fields.DateTimeField.default_timezone = lambda self: UTC
