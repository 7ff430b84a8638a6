"""A refused form shown again without JavaScript: in the table page as rendered, the form that
was sent gets back what was typed (values, ticks, choices), each reason next to its field, its
folds open and its first field at fault focused (so the browser opens the page there).

The page's forms are written by hand in the templates (each is one entry of the log, posted as
the engine reads it): rather than a bound Django form per fold, the sent form is found in the
page by its hidden fields (``op``, ``check``, ``anchor``, the warrior or combat it is about) and
rewritten there.
"""

from __future__ import annotations

from collections.abc import Mapping, Sequence
from dataclasses import dataclass, field
from html import escape
from html.parser import HTMLParser

from django.http import QueryDict

# Hidden fields that differ between the sent form and the page drawn again: not compared.
UNCOMPARED = frozenset({"csrfmiddlewaretoken", "client_id", "base_seq", "confirmed"})
# Hidden fields that must agree for the form to be the one sent.
REQUIRED = ("op", "anchor", "check")


@dataclass
class _Tag:
    start: int
    end: int
    name: str
    attrs: list[tuple[str, str | None]]
    folds: list[_Tag] = field(default_factory=list)  # the details around it
    label_end: int | None = None  # where its label closes, if it sits in one
    options: list[_Tag] = field(default_factory=list)  # a select's

    def get(self, key: str) -> str | None:
        return next((value for name, value in self.attrs if name == key), None)

    def has(self, key: str) -> bool:
        return any(name == key for name, _ in self.attrs)


@dataclass
class _Form:
    tag: _Tag
    hidden: dict[str, str] = field(default_factory=dict)
    fields: list[_Tag] = field(default_factory=list)
    first_button: int | None = None
    end: int = 0


class _Reader(HTMLParser):
    """Where the page's forms, their fields and the folds around them are (character offsets)."""

    def __init__(self, page: str) -> None:
        super().__init__(convert_charrefs=False)
        self.page = page
        self.lines = [0]
        for at, char in enumerate(page):
            if char == "\n":
                self.lines.append(at + 1)
        self.folds: list[_Tag] = []
        self.labels: list[list[_Tag]] = []
        self.form: _Form | None = None
        self.select: _Tag | None = None
        self.forms: list[_Form] = []

    def _offset(self) -> int:
        line, column = self.getpos()
        return self.lines[line - 1] + column

    def _tag(self, name: str, attrs) -> _Tag:
        start = self._offset()
        text = self.get_starttag_text() or ""
        return _Tag(start, start + len(text), name, list(attrs), list(self.folds))

    def handle_starttag(self, tag, attrs):
        if tag == "details":
            self.folds.append(self._tag(tag, attrs))
        elif tag == "form":
            self.form = _Form(self._tag(tag, attrs))
        elif self.form is None:
            return
        elif tag == "label":
            self.labels.append([])
        elif tag == "input":
            found = self._tag(tag, attrs)
            if (found.get("type") or "text") == "hidden":
                self.form.hidden[found.get("name") or ""] = found.get("value") or ""
            elif found.get("name"):
                self._field(found)
        elif tag in ("select", "textarea"):
            self.select = self._tag(tag, attrs)
            self._field(self.select)
        elif tag == "option" and self.select is not None:
            self.select.options.append(self._tag(tag, attrs))
        elif tag == "button" and self.form.first_button is None and _submits(attrs):
            self.form.first_button = self._offset()

    def handle_startendtag(self, tag, attrs):
        self.handle_starttag(tag, attrs)

    def _field(self, found: _Tag) -> None:
        if self.form is not None:
            self.form.fields.append(found)
        if self.labels:
            self.labels[-1].append(found)

    def handle_endtag(self, tag):
        if tag == "details" and self.folds:
            self.folds.pop()
        elif self.form is None:
            return
        elif tag == "label" and self.labels:
            end = self.page.index(">", self._offset()) + 1
            for inside in self.labels.pop():
                inside.label_end = end
        elif tag in ("select", "textarea"):
            self.select = None
        elif tag == "form":
            self.form.end = self._offset()
            self.forms.append(self.form)
            self.form = None


def _submits(attrs) -> bool:
    return (dict(attrs).get("type") or "submit") == "submit"


def _score(form: _Form, data: QueryDict) -> int:
    """How many of the form's hidden fields the sent data repeats; -1 if it is another form."""
    hidden = {k: v for k, v in form.hidden.items() if k not in UNCOMPARED}
    if any(hidden.get(key, "") != data.get(key, "") for key in REQUIRED):
        return -1
    return sum(1 for key, value in hidden.items() if data.get(key) == value)


def _open(tag: _Tag) -> tuple[int, int, str]:
    """An edit opening a fold (``<details …>`` with ``open``)."""
    return (tag.end - 1, tag.end - 1, "" if tag.has("open") else " open")


def _start_tag(tag: _Tag, attrs: Sequence[tuple[str, str | None]]) -> tuple[int, int, str]:
    parts = [tag.name]
    for name, value in attrs:
        parts.append(name if value is None else f'{name}="{escape(value)}"')
    return (tag.start, tag.end, "<" + " ".join(parts) + ">")


def _with(attrs, drop: set[str], add: Sequence[tuple[str, str | None]]):
    return [(n, v) for n, v in attrs if n not in drop] + list(add)


def bind_form(page: str, data: QueryDict, errors: Mapping[str, Sequence[str]]) -> str | None:
    """``page`` with the form ``data`` was sent from given back what was typed and ``errors``
    (messages by field name, ``__all__`` for the form); ``None`` if the form is not in it."""
    reader = _Reader(page)
    reader.feed(page)
    reader.close()
    scored = [(_score(form, data), n, form) for n, form in enumerate(reader.forms)]
    scored = [item for item in scored if item[0] >= 0]
    if not scored:
        return None
    form = max(scored, key=lambda item: (item[0], -item[1]))[2]
    edits: list[tuple[int, int, str]] = [_open(fold) for fold in form.tag.folds]
    bad = [name for name in errors if name != "__all__"]
    named = [found.get("name") for found in form.fields]
    focus = next((name for name in named if name in bad), named[0] if named else None)
    placed: set[str] = set()
    focus_done = False
    for found in form.fields:
        name = found.get("name") or ""
        kind = (found.get("type") or "text") if found.name == "input" else found.name
        add: list[tuple[str, str | None]] = []
        drop: set[str] = {"aria-invalid", "autofocus"}
        if name == focus and not focus_done:
            add.append(("autofocus", None))
            focus_done = True
        if name in bad and name not in placed:
            add.append(("aria-invalid", "true"))
            edits.extend(_open(fold) for fold in found.folds if fold.start > form.tag.start)
            note = (
                f'<p class="field-error" data-error="{escape(name)}" role="alert">'
                f"{escape(' '.join(str(m) for m in errors[name]))}</p>"
            )
            at = found.label_end if found.label_end is not None else found.end
            edits.append((at, at, note))
            placed.add(name)
        if kind in ("checkbox", "radio"):
            drop.add("checked")
            if (found.get("value") or "on") in data.getlist(name):
                add.append(("checked", None))
            edits.append(_start_tag(found, _with(found.attrs, drop, add)))
        elif kind == "select":
            chosen = data.getlist(name)
            edits.append(_start_tag(found, _with(found.attrs, drop, add)))
            for option in found.options:
                selected = [("selected", None)] if (option.get("value") or "") in chosen else []
                edits.append(_start_tag(option, _with(option.attrs, {"selected"}, selected)))
        elif kind not in ("submit", "button", "file", "textarea"):
            drop.add("value")
            edits.append(
                _start_tag(found, _with(found.attrs, drop, [("value", data.get(name, "")), *add]))
            )
    rest = [m for name, found in errors.items() if name not in placed for m in found]
    if rest:
        at = form.first_button if form.first_button is not None else form.end
        text = escape(" ".join(str(m) for m in rest))
        note = f'<p class="field-error" data-error="__all__" role="alert">{text}</p>'
        edits.append((at, at, note))
    out = page
    for start, end, text in sorted(set(edits), key=lambda e: (e[0], e[1]), reverse=True):
        out = out[:start] + text + out[end:]
    return out
