"""The log's entries in the OpenAPI schema, one schema per kind (``oneOf`` by ``kind``), built
from the engine's declarations (:data:`rules.engine.tracker.payloads.KINDS`): adding a kind or a
field there changes the schema, nothing here.

The views read requests themselves (a payload's unknown keys are refused by
:mod:`.services`, its values by the tracker); these serializers say what each kind takes and
what an entry answers.
"""

from __future__ import annotations

from django.utils.translation import gettext_lazy
from drf_spectacular.utils import PolymorphicProxySerializer, extend_schema_field
from rest_framework import serializers

from rules.api.serializers import DiceSourceSerializer
from rules.engine.tracker.payloads import (
    BOOL,
    ID,
    IDS,
    INT,
    KINDS,
    LIST,
    NUMBER,
    OBJECT,
    WRITABLE_KINDS,
    Field,
)

MAX_LIST = 40


def _choice(choices, **options) -> serializers.ChoiceField:
    """A choice whose enum stays inline: each kind has its own ``kind`` value (and its own list
    of statuses or checks), and a shared enum named after the field would get a hashed name.
    (The enum hook of drf-spectacular names every property holding an ``enum``; one wrapped in
    ``allOf`` it leaves where it is.)"""

    schema = {
        "allOf": [{"type": "string", "enum": list(choices)}],
        "description": str(options.get("help_text") or ", ".join(choices)),
    }

    @extend_schema_field(schema)
    class InlineChoice(serializers.ChoiceField):
        pass

    return InlineChoice(choices=list(choices), **options)


def _field(field: Field, *, answer: bool) -> serializers.Field:
    """The DRF field of one payload field (an answer's are never required: entries written
    before a field existed lack it)."""
    options = {
        "required": field.required and not answer,
        "allow_null": answer or not field.required,
        "help_text": gettext_lazy(field.help) if field.help else None,
    }
    if field.choices:
        return _choice(field.choices, **options)
    if field.type == ID:
        return serializers.IntegerField(min_value=1, **options)
    if field.type == IDS:
        child = serializers.IntegerField(min_value=1)
        return serializers.ListField(child=child, min_length=1, max_length=MAX_LIST, **options)
    if field.type == INT:
        return serializers.IntegerField(**options)
    if field.type == NUMBER:
        return serializers.FloatField(min_value=0, max_value=10_000, **options)
    if field.type == BOOL:
        return serializers.BooleanField(**options)
    if field.type == OBJECT:
        return serializers.DictField(**options)
    if field.type == LIST:
        child = _serializer(f"Log{_title(field.name)}Item", field.fields, answer=answer)
        return serializers.ListField(child=child(), max_length=MAX_LIST, **options)
    return serializers.CharField(
        max_length=field.max_length, allow_blank=not field.required, **options
    )


def _title(kind: str) -> str:
    return "".join(part.title() for part in kind.replace("-", "_").split("_"))


def _serializer(
    name: str, fields: tuple[Field, ...], *, answer: bool, extra: dict | None = None
) -> type[serializers.Serializer]:
    attrs = {f.name: _field(f, answer=answer) for f in fields}
    return type(name, (serializers.Serializer,), {**attrs, **(extra or {})})


def payload_serializer(kind: str, *, answer: bool) -> type[serializers.Serializer]:
    """What the payload of ``kind`` holds; an answer's carries the engine's ``result``."""
    row = KINDS[kind]
    extra = {}
    if answer and (row.rolled or kind == "challenge"):
        extra["result"] = serializers.DictField(
            required=False, help_text=gettext_lazy("What the engine rolled, step by step.")
        )
    if answer and kind == "finish":
        extra["automatic"] = serializers.BooleanField(
            required=False, help_text=gettext_lazy("Written by the rules (a rout).")
        )
    suffix = "Answer" if answer else ""  # requests get "Request" from the schema's settings
    return _serializer(f"Log{_title(kind)}Payload{suffix}", row.fields, answer=answer, extra=extra)


def _entry_request(kind: str) -> type[serializers.Serializer]:
    attrs = {
        "client_id": serializers.UUIDField(
            help_text=gettext_lazy("Made by the client; a replay returns the entry.")
        ),
        "kind": _choice([kind]),
        "payload": payload_serializer(kind, answer=False)(),
        "base_seq": serializers.IntegerField(min_value=0, max_value=10**9, required=False),
    }
    return type(f"Log{_title(kind)}", (DiceSourceSerializer,), attrs)


def _entry_answer(kind: str) -> type[serializers.Serializer]:
    attrs = {
        "seq": serializers.IntegerField(),
        "kind": _choice([kind]),
        "payload": payload_serializer(kind, answer=True)(),
        "author": serializers.CharField(allow_null=True),
        "created_at": serializers.DateTimeField(),
        "client_id": serializers.UUIDField(),
        "dice": serializers.DictField(
            allow_null=True,
            help_text=gettext_lazy("The dice audit: the seed, or the faces typed, and each roll."),
        ),
    }
    return type(f"Log{_title(kind)}Entry", (serializers.Serializer,), attrs)


ENTRY_REQUEST = PolymorphicProxySerializer(
    component_name="LogEntryWrite",
    serializers={kind: _entry_request(kind) for kind in WRITABLE_KINDS},
    resource_type_field_name="kind",
)
"""What ``POST …/log/`` takes: one schema per kind (the setup has its own endpoint)."""
ENTRY_ANSWER = PolymorphicProxySerializer(
    component_name="LogEntry",
    serializers={kind: _entry_answer(kind) for kind in KINDS},
    resource_type_field_name="kind",
)
"""An entry as the API answers it, one schema per kind."""


class PlanRequestSerializer(DiceSourceSerializer):
    """A proposed entry, and the faces typed so far."""

    kind = _choice(WRITABLE_KINDS)
    payload = serializers.DictField()


class PlanStepSerializer(serializers.Serializer):
    purpose = serializers.CharField(help_text=gettext_lazy("What the dice are for."))
    purpose_label = serializers.CharField(help_text=gettext_lazy("The same, in words."))
    dice = serializers.CharField(help_text=gettext_lazy("Each roll's dice: D6, 2D6, 5D6…"))
    rolls = serializers.IntegerField(help_text=gettext_lazy("How many rolls the step takes."))
    scope = serializers.CharField(
        allow_blank=True, help_text=gettext_lazy("Who rolls against whom: attacker>target ids.")
    )
    reroll = serializers.BooleanField()
    faces = serializers.ListField(child=serializers.IntegerField(min_value=1, max_value=6))
    missing = serializers.IntegerField(help_text=gettext_lazy("Faces still to type."))


class DicePlanSerializer(serializers.Serializer):
    kind = serializers.CharField()
    complete = serializers.BooleanField(
        help_text=gettext_lazy("The faces typed are all the entry needs.")
    )
    done = PlanStepSerializer(many=True)
    next = PlanStepSerializer(
        allow_null=True, help_text=gettext_lazy("The step to type next, or null when complete.")
    )
    used = serializers.IntegerField()
    surplus = serializers.IntegerField(help_text=gettext_lazy("Faces typed beyond the need."))
    stages = serializers.ListField(
        child=serializers.CharField(), help_text=gettext_lazy("The order of its possible steps.")
    )
