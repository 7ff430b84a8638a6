"""A small RFC 5545 writer: CRLF line ends, lines folded at 75 octets, TEXT escaped."""

from __future__ import annotations

import datetime as dt
from collections.abc import Iterable
from dataclasses import dataclass

LINE_OCTETS = 75


def escape_text(value: str) -> str:
    """TEXT values (3.3.11): backslash, semicolon, comma and newlines escaped."""
    value = value.replace("\\", "\\\\").replace(";", "\\;").replace(",", "\\,")
    return value.replace("\r\n", "\\n").replace("\r", "\\n").replace("\n", "\\n")


def fold(line: str) -> bytes:
    """Fold one content line (3.1): at most 75 octets a line, never inside a UTF-8 character."""
    encoded = line.encode()
    if len(encoded) <= LINE_OCTETS:
        return encoded + b"\r\n"
    chunks: list[bytes] = []
    current = b""
    limit = LINE_OCTETS
    for char in line:
        octets = char.encode()
        if len(current) + len(octets) > limit:
            chunks.append(current)
            current = b""
            limit = LINE_OCTETS - 1  # the leading space of a continuation counts
        current += octets
    chunks.append(current)
    return b"\r\n ".join(chunks) + b"\r\n"


def _utc(value: dt.datetime) -> str:
    return value.astimezone(dt.UTC).strftime("%Y%m%dT%H%M%SZ")


def _when(name: str, value: dt.date | dt.datetime) -> str:
    if isinstance(value, dt.datetime):
        return f"{name}:{_utc(value)}"
    return f"{name};VALUE=DATE:{value.strftime('%Y%m%d')}"


@dataclass(frozen=True)
class CalendarEvent:
    uid: str
    summary: str
    start: dt.date | dt.datetime
    end: dt.date | dt.datetime | None = None
    description: str = ""
    url: str = ""
    last_modified: dt.datetime | None = None

    def lines(self, stamp: dt.datetime) -> list[str]:
        end = self.end
        timed = isinstance(self.start, dt.datetime)
        if not timed and (end is None or end <= self.start):
            end = self.start + dt.timedelta(days=1)  # DTEND of an all-day event is exclusive
        lines = [
            "BEGIN:VEVENT",
            f"UID:{escape_text(self.uid)}",
            f"DTSTAMP:{_utc(stamp)}",
            _when("DTSTART", self.start),
        ]
        if end is not None and (not timed or end > self.start):  # a moment: no DTEND (3.6.1)
            lines.append(_when("DTEND", end))
        lines.append(f"SUMMARY:{escape_text(self.summary)}")
        if self.description:
            lines.append(f"DESCRIPTION:{escape_text(self.description)}")
        if self.url:
            lines.append(f"URL:{self.url}")
        if self.last_modified:
            lines.append(f"LAST-MODIFIED:{_utc(self.last_modified)}")
        lines.append("END:VEVENT")
        return lines


def calendar(
    *, name: str, events: Iterable[CalendarEvent], stamp: dt.datetime | None = None
) -> bytes:
    stamp = stamp or dt.datetime.now(dt.UTC)
    lines = [
        "BEGIN:VCALENDAR",
        "VERSION:2.0",
        "PRODID:-//Annuminas//Campaign calendar//ES",
        "CALSCALE:GREGORIAN",
        "METHOD:PUBLISH",
        f"X-WR-CALNAME:{escape_text(name)}",
    ]
    for event in events:
        lines.extend(event.lines(stamp))
    lines.append("END:VCALENDAR")
    return b"".join(fold(line) for line in lines)
