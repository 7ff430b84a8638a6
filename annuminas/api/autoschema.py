"""The schema class of every API view: answers' fields are required unless they may be absent.

drf-spectacular marks a field of an answer required when the serializer requires it as input
(or it is read-only), so a field with a model default (always in the answer) came out optional.
Here an answer's field is required unless its serializer declares it ``required=False``
without a default: the one way a serializer leaves a key out of its answer.
"""

from __future__ import annotations

from drf_spectacular.openapi import AutoSchema
from rest_framework.fields import empty


class ContractAutoSchema(AutoSchema):
    """Answers' fields are required, but for those a serializer may leave out."""

    def _map_basic_serializer(self, serializer, direction):
        result = super()._map_basic_serializer(serializer, direction)
        properties = result.get("properties")
        if direction != "response" or not properties:
            return result
        declared = getattr(serializer, "_declared_fields", {})
        optional = {
            field.field_name or name
            for name, field in declared.items()
            if not field.required and not field.read_only and field.default is empty
        }
        required = [name for name in properties if name not in optional]
        if required:
            result["required"] = required
        return result
