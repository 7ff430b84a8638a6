"""The standings as CSV (pages, API and the admin action share it)."""

from __future__ import annotations

import csv
import io

from django.utils.translation import gettext as _

from battles.campaigns.standings import Row

FORMULA_TRIGGERS = ("=", "+", "-", "@", "\t", "\r")


def _cell(value):
    """Text that a spreadsheet would run as a formula gets a leading apostrophe (OWASP "CSV
    injection"). Numbers stay numbers: a rating of -3 is data, the text "-3" is not trusted."""
    if isinstance(value, str) and value.startswith(FORMULA_TRIGGERS):
        return "'" + value
    return value


class SafeCsvWriter:
    """``csv.writer`` whose every cell goes through :func:`_cell`: the one way to write CSV here."""

    def __init__(self, buffer: io.StringIO):
        self._writer = csv.writer(buffer)

    def writerow(self, row) -> None:
        self._writer.writerow([_cell(value) for value in row])


def standings_csv(rows: list[Row], *, players: dict | None = None) -> str:
    """CSV text; ``players`` maps a warband id to its player's username."""
    players = players or {}
    buffer = io.StringIO()
    writer = SafeCsvWriter(buffer)
    writer.writerow(
        [
            _("Rank"),
            _("Warband"),
            _("Player"),
            _("Played"),
            _("Won"),
            _("Drawn"),
            _("Lost"),
            _("Byes"),
            _("Points"),
            _("Opponents' points"),
            _("Enemies out of action"),
            _("Rating"),
        ]  # fmt: skip
    )
    for row in rows:
        writer.writerow(
            [
                row.rank,
                row.name,
                players.get(row.competitor_id, ""),
                row.played,
                row.wins,
                row.draws,
                row.losses,
                row.byes,
                row.points,
                row.opponents_points,
                row.enemies_out_of_action,
                row.rating,
            ]  # fmt: skip
        )
    return buffer.getvalue()


def csv_filename(campaign, round_number: int | None = None) -> str:
    suffix = f"-round-{round_number}" if round_number else ""
    return f"{campaign.slug}-standings{suffix}.csv"
