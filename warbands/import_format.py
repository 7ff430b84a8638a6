"""The JSON import format (``annuminas.warband`` version 1): reading and checking a document.

Every door that imports (the API, the page's upload, a command) goes through
``services.warband_import``, which calls ``import_document_check`` here first: types, ranges and
text bounds field by field, so bad input is a clear error naming the field (a 400 in the API, a
message on the page), never a 500, and nothing is written. The game's rules (slugs, limits,
loadouts, the ledger adding up) are then checked by the service itself. ``import_file_read``
turns an uploaded file into a document with the same care (size, encoding, nesting).
"""

from __future__ import annotations

import json
from typing import Any

from django.core.exceptions import ValidationError
from django.utils.translation import gettext as _
from rest_framework import serializers

from annuminas.validation import json_check

from .limits import NAME_MAX_LENGTH, NOTES_MAX_LENGTH

PROFILE = ("m", "ws", "bs", "s", "t", "w", "i", "a", "ld")
MAX_CO = 1_000_000
IMPORT_MAX_BYTES = 1_000_000  # an export of a full roster with its ledger is ~50 kB
MAX_DEPTH = 12  # the format nests 5 deep (fighters → advances → a record's values)
ADVANCE_MAX_BYTES = 2000  # one advance record, as JSON (an export's are ~150 bytes)
ADVANCE_MAX_DEPTH = 4  # a record, a list or object in it, and one more level
ADVANCE_MAX_STRING_LENGTH = 500


def _nested_too_deeply() -> str:
    return _("Cannot import this warband: the file is nested too deeply.")


class TextField(serializers.CharField):
    """A ``CharField`` that takes only JSON strings (DRF's turns the number 123 into "123")."""

    def to_internal_value(self, data):
        if not isinstance(data, str):
            self.fail("invalid")
        return super().to_internal_value(data)


class AdvanceField(serializers.DictField):
    """One advance record: free-form JSON, so bounded and checked for what cannot be stored
    (a NUL character in a text or a key) by the project's one JSON check."""

    def to_internal_value(self, data):
        value = super().to_internal_value(data)
        try:
            json_check(
                value,
                max_bytes=ADVANCE_MAX_BYTES,
                max_depth=ADVANCE_MAX_DEPTH,
                max_string_length=ADVANCE_MAX_STRING_LENGTH,
            )
        except ValidationError as error:
            raise serializers.ValidationError(error.messages) from error
        return value


class ProfileSerializer(serializers.Serializer):
    m = serializers.FloatField(min_value=0, max_value=50)
    ws = serializers.IntegerField(min_value=0, max_value=10)
    bs = serializers.IntegerField(min_value=0, max_value=10)
    s = serializers.IntegerField(min_value=0, max_value=10)
    t = serializers.IntegerField(min_value=0, max_value=10)
    w = serializers.IntegerField(min_value=0, max_value=10)
    i = serializers.IntegerField(min_value=0, max_value=10)
    a = serializers.IntegerField(min_value=0, max_value=10)
    ld = serializers.IntegerField(min_value=0, max_value=10)


class ItemSerializer(serializers.Serializer):
    item = serializers.SlugField(max_length=80)
    price = serializers.IntegerField(min_value=0, max_value=MAX_CO, required=False)


class InjurySerializer(serializers.Serializer):
    code = TextField(max_length=60)
    label = TextField(max_length=120, required=False, allow_blank=True)
    battle_id = serializers.IntegerField(min_value=1, required=False, allow_null=True)


class LedgerRowSerializer(serializers.Serializer):
    amount = serializers.IntegerField(min_value=-MAX_CO, max_value=MAX_CO)
    finds_delta = serializers.IntegerField(min_value=-1000, max_value=1000, required=False)
    reason = TextField(max_length=20)
    description = TextField(max_length=255, required=False, allow_blank=True)


def _json_list(**kwargs):
    return serializers.ListField(required=False, max_length=200, **kwargs)


class FighterSerializer(serializers.Serializer):
    name = TextField(max_length=NAME_MAX_LENGTH)
    type = serializers.SlugField(max_length=80)
    status = TextField(max_length=12, required=False)
    is_leader = serializers.BooleanField(required=False)
    profile = ProfileSerializer(required=False)
    experience = serializers.IntegerField(min_value=0, max_value=500, required=False)
    hired_experience = serializers.IntegerField(min_value=0, max_value=500, required=False)
    advances = _json_list(child=AdvanceField())
    skills = _json_list(child=serializers.SlugField(max_length=80))
    skill_lists = _json_list(child=serializers.SlugField(max_length=80))
    injuries = _json_list(child=InjurySerializer())
    special_rules = _json_list(child=TextField(max_length=80))
    misses_battles = serializers.IntegerField(min_value=0, max_value=20, required=False)
    equipment = _json_list(child=ItemSerializer())
    hired_sword = serializers.SlugField(max_length=80, required=False)


class MemberSerializer(serializers.Serializer):
    name = TextField(max_length=NAME_MAX_LENGTH)
    status = TextField(max_length=12, required=False)
    injuries = _json_list(child=InjurySerializer())
    misses_battles = serializers.IntegerField(min_value=0, max_value=20, required=False)


class GroupSerializer(serializers.Serializer):
    name = TextField(max_length=NAME_MAX_LENGTH)
    type = serializers.SlugField(max_length=80)
    profile = ProfileSerializer(required=False)
    experience = serializers.IntegerField(min_value=0, max_value=500, required=False)
    advances = _json_list(child=AdvanceField())
    special_rules = _json_list(child=TextField(max_length=80))
    equipment = _json_list(child=ItemSerializer())
    members = serializers.ListField(child=MemberSerializer(), min_length=1, max_length=20)


class WarbandHeaderSerializer(serializers.Serializer):
    name = TextField(max_length=NAME_MAX_LENGTH)
    type = serializers.SlugField(max_length=80)
    treasury = serializers.IntegerField(min_value=0, max_value=MAX_CO, required=False)
    finds = serializers.IntegerField(min_value=0, max_value=1000, required=False)
    rating = serializers.IntegerField(min_value=0, max_value=100_000, required=False)
    notes = TextField(max_length=NOTES_MAX_LENGTH, required=False, allow_blank=True)


class WarbandImportSerializer(serializers.Serializer):
    format = serializers.ChoiceField(choices=["annuminas.warband"])
    format_version = serializers.ChoiceField(choices=[1])
    warband = WarbandHeaderSerializer()
    ledger = _json_list(child=LedgerRowSerializer())
    fighters = _json_list(child=FighterSerializer())
    groups = _json_list(child=GroupSerializer())
    stash = _json_list(child=ItemSerializer())


def _depth(document: Any) -> int:
    """How deep lists and objects nest (without recursion: the document may be hostile)."""
    deepest, stack = 0, [(document, 1)]
    while stack:
        value, depth = stack.pop()
        if isinstance(value, dict):
            children = value.values()
        elif isinstance(value, list):
            children = value
        else:
            continue
        deepest = max(deepest, depth)
        if deepest > MAX_DEPTH:
            return deepest
        stack.extend((child, depth + 1) for child in children)
    return deepest


def _flatten(detail: Any, prefix: str = "") -> dict[str, list[str]]:
    """DRF's nested errors as ``{"fighters.0.name": ["…"]}``."""
    if isinstance(detail, dict):
        children = [(str(key), value) for key, value in detail.items()]
    elif isinstance(detail, list) and any(isinstance(item, dict | list) for item in detail):
        children = [(str(index), item) for index, item in enumerate(detail)]
    else:
        messages = detail if isinstance(detail, list) else [detail]
        return {prefix or "non_field_errors": [str(message) for message in messages if message]}
    fields: dict[str, list[str]] = {}
    for key, value in children:
        for name, messages in _flatten(value, f"{prefix}.{key}" if prefix else key).items():
            fields.setdefault(name, []).extend(messages)
    return fields


def import_document_check(document: Any) -> dict[str, Any]:
    """The document's content, checked field by field; raises ``ValidationError`` whose fields
    name the culprits (``fighters.0.name``)."""
    if _depth(document) > MAX_DEPTH:
        raise ValidationError(_nested_too_deeply())
    checked = WarbandImportSerializer(data=document)
    if not checked.is_valid():
        raise ValidationError(_flatten(checked.errors))
    # Plain dicts and lists, as JSON would give them (no OrderedDict, no ReturnDict).
    return json.loads(json.dumps(checked.validated_data))


def import_file_read(raw: bytes) -> Any:
    """An uploaded file as a JSON document; raises ``ValidationError`` if it is too big, not
    UTF-8, not JSON or nested too deeply to read."""
    if len(raw) > IMPORT_MAX_BYTES:
        raise ValidationError(
            _("This file is too big to be a warband (at most %(max)d kB).")
            % {"max": IMPORT_MAX_BYTES // 1000}
        )
    try:
        return json.loads(raw.decode("utf-8"))
    except (ValueError, UnicodeDecodeError) as exc:
        raise ValidationError(_("This file is not JSON.")) from exc
    except RecursionError as exc:
        raise ValidationError(_nested_too_deeply()) from exc
