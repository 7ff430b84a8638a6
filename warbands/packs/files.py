"""A pack as one YAML file (the format of ``warbands/content/``): read with limits (size, depth,
no aliases, no duplicate keys, plain types) and written back so that reading it gives the same
document; and the dry run's report of what an import would create, change or refuse."""

from __future__ import annotations

from dataclasses import dataclass, field
from typing import Any

import yaml
from django.core.exceptions import ValidationError
from django.utils.translation import gettext as _

from ..content_loader import SAFE_LOADER
from .document import (
    ENTRY_LABELS,
    ENTRY_SECTIONS,
    NESTED,
    REPORTED_SECTIONS,
    SECTIONS,
    Known,
    Problem,
    document_check,
    no_known,
)
from .order import entry_rank, keys_in_order

MAX_BYTES = 512 * 1024
MAX_DEPTH = 8
MAX_NODES = 100_000


class _StrictLoader(SAFE_LOADER):  # type: ignore[misc,valid-type]
    """Safe YAML whose mappings refuse a key given twice (a duplicate slug); libyaml's loader
    where PyYAML has it."""


def _mapping(loader: _StrictLoader, node: yaml.MappingNode, deep: bool = False) -> dict:
    seen: set = set()
    for key_node, _value in node.value:
        key = loader.construct_object(key_node, deep=deep)
        if not isinstance(key, str | int | float | bool) and key is not None:
            raise ValidationError(
                _("line %(line)d: a key must be text") % {"line": key_node.start_mark.line + 1}
            )
        if key in seen:
            raise ValidationError(
                _("line %(line)d: %(key)s given twice")
                % {"line": key_node.start_mark.line + 1, "key": str(key)[:60]}
            )
        seen.add(key)
    return loader.construct_mapping(node, deep=deep)


_StrictLoader.add_constructor(yaml.resolver.BaseResolver.DEFAULT_MAPPING_TAG, _mapping)
# Only what JSON keeps: a date stays the text it was written as.
_StrictLoader.add_constructor(
    "tag:yaml.org,2002:timestamp", lambda loader, node: loader.construct_scalar(node)
)


def yaml_read(text: str | bytes) -> Any:
    """The YAML text as data, or ``ValidationError`` saying why not (before anything is built
    from it: the events are counted first, so a deep or huge file costs little)."""
    raw = text.encode() if isinstance(text, str) else text
    if len(raw) > MAX_BYTES:
        raise ValidationError(_("The file is larger than %(kb)d KB.") % {"kb": MAX_BYTES // 1024})
    try:
        source = raw.decode("utf-8")
    except UnicodeDecodeError as exc:
        raise ValidationError(_("The file is not UTF-8 text.")) from exc
    if "\x00" in source:
        raise ValidationError(_("The file holds a NUL character."))
    depth = nodes = 0
    try:
        for event in yaml.parse(source, Loader=SAFE_LOADER):
            if isinstance(event, yaml.AliasEvent) or getattr(event, "anchor", None):
                raise ValidationError(_("Anchors and aliases (& and *) are not allowed."))
            if getattr(event, "tag", None) is not None:
                raise ValidationError(_("Tags (!) are not allowed."))
            if isinstance(event, yaml.CollectionStartEvent):
                depth += 1
                if depth > MAX_DEPTH:
                    raise ValidationError(
                        _("Nested deeper than %(max)d levels.") % {"max": MAX_DEPTH}
                    )
            elif isinstance(event, yaml.CollectionEndEvent):
                depth -= 1
            nodes += 1
            if nodes > MAX_NODES:
                raise ValidationError(_("Too many values in one file."))
        data = yaml.load(source, Loader=_StrictLoader)  # noqa: S506 - a SafeLoader subclass
    except yaml.YAMLError as exc:
        mark = getattr(exc, "problem_mark", None)
        line = mark.line + 1 if mark else 0
        raise ValidationError(_("Not valid YAML (line %(line)d).") % {"line": line}) from exc
    return {} if data is None else data


def yaml_write(document: dict[str, Any]) -> str:
    """The document as one YAML file; ``yaml_read`` of it gives the document back (the campaign
    tables' rows with their keys in the rules' order)."""
    tables = document.get("tables") if isinstance(document, dict) else None
    if isinstance(tables, dict):
        document = {**document, "tables": {k: in_rules_order(v) for k, v in tables.items()}}
    return yaml.safe_dump(document, allow_unicode=True, sort_keys=False, width=100)


def pack_yaml(document: dict[str, Any]) -> str:
    """The pack file a person reads: sections in the format's order, each section's entries by
    role then name (``entry_rank``), each entry's keys in the forms' order — whatever order
    the stored document came back in (PostgreSQL's jsonb keeps none). Reading it gives the
    same document."""
    return yaml_write(_in_order(document))


def _entries_in_order(kind: str, rows: Any) -> Any:
    if not isinstance(rows, dict):
        return rows
    nested = {key: child for child, (parent, key) in NESTED.items() if parent == kind}
    ordered = {}
    for slug in sorted(rows, key=lambda slug: entry_rank(slug, rows[slug])):
        row = rows[slug]
        if isinstance(row, dict):
            row = keys_in_order(row)
            for key, child in nested.items():
                if key in row:
                    row[key] = _entries_in_order(child, row[key])
        ordered[slug] = row
    return ordered


def _in_order(document: Any) -> Any:
    if not isinstance(document, dict):
        return document
    place = {section: n for n, section in enumerate(SECTIONS)}
    ordered = {}
    for section in sorted(document, key=lambda k: (place.get(k, len(place)), str(k))):
        rows = document[section]
        if section == "pack" and isinstance(rows, dict):
            ordered[section] = keys_in_order(rows)
        elif section in ENTRY_SECTIONS:
            ordered[section] = _entries_in_order(section, rows)
        else:
            ordered[section] = rows
    return ordered


# A table row's keys in the order the rules write them (PostgreSQL's jsonb keeps no key order).
ROW_ORDER = ("min", "max", "result", "options", "name", "attacker_defender")


def in_rules_order(rows: Any) -> Any:
    """A campaign table with each row's keys in the rules' order, a mapping's keys by their
    number (the finds' prices) or length (the thresholds: hero, then henchman)."""

    def rank(key: Any) -> tuple:
        return (ROW_ORDER.index(key) if key in ROW_ORDER else len(ROW_ORDER), str(key))

    if isinstance(rows, list):
        return [
            {key: row[key] for key in sorted(row, key=rank)} if isinstance(row, dict) else row
            for row in rows
        ]
    if isinstance(rows, dict):
        return {key: rows[key] for key in sorted(rows, key=lambda k: (len(str(k)), str(k)))}
    return rows


@dataclass
class DryRun:
    """What importing a document would do to a draft: entries created, changed, unchanged or
    refused (each refusal with its problems). ``ok``: nothing refused, it may be applied."""

    document: Any
    created: list[str] = field(default_factory=list)
    changed: list[str] = field(default_factory=list)
    unchanged: list[str] = field(default_factory=list)
    removed: list[str] = field(default_factory=list)
    problems: list[Problem] = field(default_factory=list)

    @property
    def ok(self) -> bool:
        return not self.problems

    @property
    def refused(self) -> list[str]:
        return [str(problem) for problem in self.problems]

    def as_dict(self) -> dict[str, Any]:
        return {
            "ok": self.ok,
            "created": self.created,
            "changed": self.changed,
            "unchanged": self.unchanged,
            "removed": self.removed,
            "refused": self.refused,
        }


def dry_run(text: str | bytes, *, current: dict[str, Any], known: Known = no_known) -> DryRun:
    """Read and check ``text`` against the ``current`` document; nothing is written."""
    try:
        document = yaml_read(text)
    except ValidationError as exc:
        return DryRun(None, problems=[Problem("", "", _("file"), "", m) for m in exc.messages])
    return compare(document, current=current, known=known)


def compare(document: Any, *, current: dict[str, Any], known: Known = no_known) -> DryRun:
    report = DryRun(document, problems=document_check(document, known=known))
    if not isinstance(document, dict):
        return report
    for section in REPORTED_SECTIONS:
        rows = document.get(section)
        before = current.get(section) or {}
        label = ENTRY_LABELS[section]
        if isinstance(rows, dict):
            for slug, row in rows.items():
                name = f"{label} {slug}"
                if slug not in before:
                    report.created.append(name)
                elif before[slug] != row:
                    report.changed.append(name)
                else:
                    report.unchanged.append(name)
        for slug in before:
            if not isinstance(rows, dict) or slug not in rows:
                report.removed.append(f"{label} {slug}")
    return report
