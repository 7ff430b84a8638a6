"""Reading a page's markup in tests (stdlib ``html.parser``): form fields without a label, and
tables that reflow on a phone whose cells do not say which column they are."""

from __future__ import annotations

from dataclasses import dataclass, field
from html.parser import HTMLParser

FIELD_TAGS = {"input", "select", "textarea"}
UNLABELLED_TYPES = {"hidden", "submit", "button", "reset", "image"}


class _Fields(HTMLParser):
    def __init__(self):
        super().__init__(convert_charrefs=True)
        self.label_depth = 0
        self.label_for: set[str] = set()
        self.fields: list[tuple[str, bool, bool]] = []  # (id or name, wrapped, aria-named)

    def handle_starttag(self, tag, attrs):
        attrs = dict(attrs)
        if tag == "label":
            self.label_depth += 1
            if attrs.get("for"):
                self.label_for.add(attrs["for"])
        elif tag in FIELD_TAGS and attrs.get("type") not in UNLABELLED_TYPES:
            named = bool(attrs.get("aria-label") or attrs.get("aria-labelledby"))
            key = attrs.get("id") or f"[name={attrs.get('name')}]"
            self.fields.append((key, self.label_depth > 0, named))

    def handle_endtag(self, tag):
        if tag == "label":
            self.label_depth -= 1


def unlabelled_fields(html: str) -> list[str]:
    """The form fields with neither a <label> (around it or pointing at it) nor an aria name."""
    parser = _Fields()
    parser.feed(html)
    return [
        key
        for key, wrapped, named in parser.fields
        if not (wrapped or named or key in parser.label_for)
    ]


@dataclass
class Table:
    classes: list[str]
    testid: str
    headers: list[str] = field(default_factory=list)
    rows: list[list[dict]] = field(default_factory=list)


class _Tables(HTMLParser):
    """Tables with their header names (an <abbr>'s title when the header is one) and, per body
    row, each cell's attributes."""

    def __init__(self):
        super().__init__(convert_charrefs=True)
        self.tables: list[Table] = []
        self.section = None
        self.header_text: list[str] | None = None

    def handle_starttag(self, tag, attrs):
        attrs = dict(attrs)
        if tag == "table":
            self.tables.append(
                Table((attrs.get("class") or "").split(), attrs.get("data-testid") or "")
            )
        elif not self.tables:
            return
        elif tag in ("thead", "tbody"):
            self.section = tag
        elif tag == "tr" and self.section == "tbody":
            self.tables[-1].rows.append([])
        elif tag in ("th", "td") and self.section == "thead":
            self.header_text = []
        elif tag in ("th", "td") and self.section == "tbody":
            self.tables[-1].rows[-1].append(attrs)
        elif tag == "abbr" and self.header_text is not None and attrs.get("title"):
            self.header_text.append(attrs["title"])
            self.header_text.append("\0")  # the abbreviation's own letters are not its name

    def handle_data(self, data):
        if self.header_text is not None and "\0" not in self.header_text:
            self.header_text.append(data)

    def handle_endtag(self, tag):
        if tag in ("th", "td") and self.header_text is not None:
            text = "".join(part for part in self.header_text if part != "\0")
            self.tables[-1].headers.append(" ".join(text.split()))
            self.header_text = None
        elif tag in ("thead", "tbody"):
            self.section = None


def reflow_tables(html: str) -> list[Table]:
    parser = _Tables()
    parser.feed(html)
    return [t for t in parser.tables if {"reflow", "reflow-grid"} & set(t.classes)]


def mislabelled_cells(table: Table) -> list[str]:
    """Cells whose ``data-label`` is not their column's name, and cells of a named column
    that have no label and are not the row's title (``reflow-head``/``reflow-rank``) or its
    controls (``reflow-block``)."""
    problems = []
    for number, row in enumerate(table.rows):
        if len(row) == 1 and row[0].get("colspan"):
            continue
        for column, cell in enumerate(row):
            header = table.headers[column] if column < len(table.headers) else None
            classes = set((cell.get("class") or "").split())
            label = cell.get("data-label")
            if label is not None and label != header:
                problems.append(f"row {number} column {column}: {label!r} under {header!r}")
            exempt = {"reflow-head", "reflow-rank", "reflow-block"} & classes
            if label is None and header and header != "#" and not exempt:
                problems.append(f"row {number} column {column} ({header!r}) has no data-label")
    return problems
