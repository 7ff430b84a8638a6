"""The campaign tables a league gives its own rows for, checked once for every door: a content
pack's ``tables`` section (``warbands.packs.document``) and a campaign's own overrides
(``battles.campaigns.setting_checks``). The rules of a table are the engine's
(``rules.engine.campaign_tables``); here the value is first kept safe to store (plain JSON of
bounded size) and each problem is worded in the reader's language, naming its table, its row
and the row's key."""

from __future__ import annotations

from dataclasses import dataclass
from typing import Any

from django.core.exceptions import ValidationError
from django.utils.translation import gettext as _

from annuminas.validation import json_check
from rules.engine.campaign_tables import CAMPAIGN_TABLES, TABLE_LABELS, tables_problems

# Every table of one campaign or pack together, as JSON: the default tables in this shape are
# ~4 kB and nest 5 deep (tables → rows → row → options → a sub-roll's pair).
TABLES_MAX_BYTES = 50_000
TABLES_MAX_DEPTH = 6
TABLES_MAX_STRING_LENGTH = 200


@dataclass(frozen=True)
class TableIssue:
    """One problem of a league's tables: its ``table``, ``row`` (from 1; 0: the table as a
    whole), the row's ``key`` and the ``text`` in the reader's language."""

    table: str
    row: int
    key: str
    text: str

    @property
    def place(self) -> str:
        """Where in the table: "row 3", or the key of a table that has no rows."""
        return _("row %(number)d") % {"number": self.row} if self.row else self.key

    @property
    def detail(self) -> str:
        """The text with the row's key before it ("max: …") when the place is a row."""
        return f"{self.key}: {self.text}" if self.row and self.key else self.text

    def __str__(self) -> str:
        parts = [p for p in (self.table, self.place) if p]
        return ": ".join([*parts, self.detail])


def tables_issues(tables: Any) -> list[TableIssue]:
    """Every problem of ``tables`` (table name → rows, as a campaign or a pack gives them);
    none: every reader can use them."""
    try:
        json_check(
            _plain(tables),
            max_bytes=TABLES_MAX_BYTES,
            max_depth=TABLES_MAX_DEPTH,
            max_string_length=TABLES_MAX_STRING_LENGTH,
        )
    except ValidationError as error:
        return [TableIssue("", 0, "", error.messages[0])]
    return [
        TableIssue(
            p.table, p.row, p.key, _(p.message) % dict(p.params) if p.params else _(p.message)
        )
        for p in tables_problems(tables)
    ]


def _plain(tables: Any) -> Any:
    """The finds' prices may come from a YAML file keyed by whole numbers: checked as text."""
    if isinstance(tables, dict) and "sell_finds" in tables:
        return {**tables, "sell_finds": stored_table("sell_finds", tables["sell_finds"])}
    return tables


def stored_table(name: str, rows: Any) -> Any:
    """A table as stored (JSON): the finds' prices keyed by text, as a YAML file may not."""
    if name == "sell_finds" and isinstance(rows, dict):
        return {str(finds): prices for finds, prices in rows.items()}
    return rows


def table_label(name: str) -> str:
    """A campaign table's name in the reader's language."""
    return _(TABLE_LABELS[name]) if name in TABLE_LABELS else name


__all__ = ["CAMPAIGN_TABLES", "TableIssue", "stored_table", "table_label", "tables_issues"]
