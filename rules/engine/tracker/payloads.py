"""The kinds of battle-log entries and their payloads, declared once.

Each :class:`EntryKind` names its payload's fields (:class:`Field`: type, whether required,
choices, the fields of a nested object). The tracker reads payloads by these names; the Django
layer builds the API's request and answer schemas (one per kind, ``oneOf`` by ``kind``) and
refuses unknown keys from them (:func:`unknown_key`). ``result`` is never sent: checks, attacks,
close-combat phases and automatic hits are rolled where the entry is written and carry it.
"""

from __future__ import annotations

from collections.abc import Mapping
from dataclasses import dataclass
from typing import Any

from rules.engine.checks import BATTLE_CHECKS
from rules.engine.i18n import gettext_noop as _
from rules.engine.tracker.model import ATTACK_MODES, CHALLENGE_STEPS, STATUSES

ID, IDS, INT, NUMBER, BOOL, TEXT, OBJECT, LIST = (
    "id",
    "ids",
    "int",
    "number",
    "bool",
    "text",
    "object",
    "list",
)


@dataclass(frozen=True)
class Field:
    """A payload field: ``type`` (one of ``id``, ``ids``, ``int``, ``number``, ``bool``,
    ``text``, ``object``, ``list``), ``required``, ``choices``, ``help`` (msgid), ``fields``:
    the fields of each object of a ``list`` (or of an ``object`` whose keys are known;
    ``open``: an object whose keys depend on another field, checked by the tracker)."""

    name: str
    type: str
    required: bool = False
    help: str = ""
    choices: tuple[str, ...] = ()
    fields: tuple[Field, ...] = ()
    open: bool = False
    max_length: int | None = None


@dataclass(frozen=True)
class EntryKind:
    """A kind of entry: its ``label``, payload ``fields``, whether dice are rolled for it
    (``rolled``) and whether players write it (the ``setup`` comes from the setup endpoint)."""

    kind: str
    label: str
    fields: tuple[Field, ...] = ()
    rolled: bool = False
    writable: bool = True

    @property
    def keys(self) -> frozenset[str]:
        return frozenset(f.name for f in self.fields)


BLOW = (
    Field("attacker", ID, True, _("Who strikes.")),
    Field("target", ID, True, _("The enemy in base contact he strikes.")),
    Field("attacks", INT, help=_("How many of his attacks (all, when omitted).")),
    Field("offhand", BOOL, help=_("His second weapon's attack is among these.")),
    Field("hated", BOOL, help=_("He hates this enemy (hatred aimed at someone).")),
)
LOADOUT = (
    Field("fighter", ID, True),
    Field("weapon", TEXT, help=_("His main weapon's slug (empty: a hand weapon).")),
    Field("offhand", TEXT, help=_("A second one-handed weapon, or his buckler.")),
)

KINDS: dict[str, EntryKind] = {
    kind.kind: kind
    for kind in (
        EntryKind("setup", _("Setup"), writable=False),
        EntryKind(
            "turn",
            _("Turn"),
            (
                Field("turn", INT, True, _("The turn number.")),
                Field("side", ID, True, _("The warband whose turn starts.")),
            ),
        ),
        EntryKind(
            "status",
            _("Status"),
            (
                Field("fighter", ID, True),
                Field("status", TEXT, True, choices=STATUSES),
                Field("by", ID, help=_("The enemy who did it, if any.")),
                Field("weapon", TEXT, max_length=80),
                Field("wounds", INT, help=_("Wounds left, if they changed.")),
            ),
        ),
        EntryKind(
            "check",
            _("Check"),
            (
                Field("check", TEXT, True, choices=BATTLE_CHECKS),
                Field("side", ID, help=_("Rout test: the warband that tests.")),
                Field("fighter", ID, help=_("Who tests.")),
                Field("against", ID, help=_("Fear: the enemy feared.")),
                Field("params", OBJECT, open=True, help=_("What the table adds.")),
            ),
            rolled=True,
        ),
        EntryKind(
            "charge",
            _("Charge"),
            (
                Field("charger", ID, True),
                Field("targets", IDS, True, _("The enemies he reaches (base contact).")),
                Field("failed", BOOL, help=_("Out of reach: a failed charge.")),
                Field("diving", BOOL, help=_("A diving charge that landed (+1 F, +1 to hit).")),
            ),
        ),
        EntryKind(
            "close-combat",
            _("Close-combat phase"),
            (
                Field("combat", INT, help=_("The combat (or name one of its fighters).")),
                Field("fighter", ID, help=_("Any warrior of the combat.")),
                Field("blows", LIST, fields=BLOW, help=_("How attacks are split, when needed.")),
                Field("loadouts", LIST, fields=LOADOUT, help=_("Weapons, when not the usual.")),
            ),
            rolled=True,
        ),
        EntryKind(
            "hits",
            _("Automatic hits"),
            (Field("target", ID, True, _("The warrior who fled a combat.")),),
            rolled=True,
        ),
        EntryKind(
            "disengage",
            _("Leaves a combat"),
            (Field("fighter", ID, True),),
        ),
        EntryKind(
            "attack",
            _("Attack"),
            (
                Field("attacker", ID, True),
                Field("target", ID, True),
                Field("mode", TEXT, choices=ATTACK_MODES),
                Field("weapon", TEXT, max_length=80),
                Field("options", OBJECT, open=True),
                Field("modifiers", OBJECT, open=True),
                Field("attacks", INT, help=_("Shots (quick shot) or attacks.")),
                Field("distance_cm", NUMBER, help=_("Shooting: the distance to the target.")),
                Field("free_attack", BOOL, help=_("A single free blow (a hidden enemy's).")),
            ),
            rolled=True,
        ),
        EntryKind(
            "challenge",
            _("Challenge"),
            (
                Field("step", TEXT, True, choices=CHALLENGE_STEPS),
                Field("fighter", ID, True),
                Field("issued", INT, help=_("The challenge answered (its seq).")),
                Field("params", OBJECT, open=True),
            ),
        ),
        EntryKind(
            "rout",
            _("Voluntary rout"),
            (Field("side", ID, True), Field("voluntary", BOOL)),
        ),
        EntryKind(
            "finish",
            _("Finish"),
            (
                Field("winner", ID),
                Field("draw", BOOL),
                Field("reason", TEXT, max_length=80),
            ),
        ),
        EntryKind("note", _("Note"), (Field("text", TEXT, True, max_length=500),)),
        EntryKind(
            "correction",
            _("Correction"),
            (
                Field("corrects", INT, True, _("The entry corrected (its seq).")),
                Field("replacement", OBJECT, open=True, help=_("What it should have said.")),
            ),
        ),
    )
}
"""Every kind of entry, in the order the schema lists them."""
WRITABLE_KINDS = tuple(kind for kind, row in KINDS.items() if row.writable)
ROLLED_KINDS = tuple(kind for kind, row in KINDS.items() if row.rolled)
REPLACEMENT_KEYS = frozenset().union(
    *(row.keys for kind, row in KINDS.items() if kind not in ("correction", "setup"))
)


def unknown_key(kind: str, payload: Mapping[str, Any]) -> tuple[str, tuple[str, ...]] | None:
    """The first key ``payload`` has that its kind does not declare (with a path into nested
    lists: ``blows.0.attackr``), and the keys allowed there; ``None`` when all are known."""
    return _unknown(KINDS[kind].fields, payload, "")


def _unknown(
    fields: tuple[Field, ...], data: Mapping[str, Any], prefix: str
) -> tuple[str, tuple[str, ...]] | None:
    known = {f.name: f for f in fields}
    for key in sorted(str(k) for k in data):
        if key not in known:
            return f"{prefix}{key}", tuple(sorted(known))
    for name, field in known.items():
        value = data.get(name)
        if field.type == LIST and field.fields and isinstance(value, list):
            for index, item in enumerate(value):
                if isinstance(item, Mapping):
                    found = _unknown(field.fields, item, f"{prefix}{name}.{index}.")
                    if found:
                        return found
    return None
