"""What every roster endpoint shares: the version rule, the error docs, the write answer,
and finding the caller's own fighters and groups."""

from __future__ import annotations

from django.shortcuts import get_object_or_404
from django.utils.translation import gettext_lazy as _
from drf_spectacular.types import OpenApiTypes
from drf_spectacular.utils import OpenApiParameter, OpenApiResponse
from rest_framework import status
from rest_framework.response import Response

from annuminas.api.versioning import VersionedKind
from annuminas.converters import IdConverter

from ...models import Fighter, HenchmanGroup, Warband
from .. import serializers as s

ID_REGEX = IdConverter.regex
IF_MATCH = OpenApiParameter(
    "If-Match",
    OpenApiTypes.STR,
    OpenApiParameter.HEADER,
    required=False,
    description=_(
        "The warband's ETag (or version) you read; alternative to `version` in the body."
    ),
)
ERRORS = {
    400: OpenApiResponse(description=_("Invalid input or a game limit: the error shape.")),
    404: OpenApiResponse(description=_("Not found (or not yours).")),
    409: OpenApiResponse(description=_("Stale version: reload and try again.")),
}
WRITE_ERRORS = {200: s.WarbandWriteResultSerializer, **ERRORS}
WARBAND_VERSION = VersionedKind("warband", _("If-Match is not a warband ETag."))


def expected_version(request, *, required: bool = False) -> int | None:
    """The version the write expects, by the project's one rule (``annuminas.api.versioning``)."""
    return WARBAND_VERSION.expected_version(request, required=required)


RESULT_SERIALIZERS = {
    "fighter": s.FighterSerializer,
    "group": s.HenchmanGroupSerializer,
    "item": s.EquipmentItemSerializer,
    "ledger_entry": s.LedgerEntrySerializer,
}


def result(warband_id: int, *, status_code: int = status.HTTP_200_OK, **objects) -> Response:
    """A write's answer: the warband's new state (and ETag) and what the write made."""
    warband = Warband.objects.select_related("warband_type", "undo_point").get(pk=warband_id)
    body = {"warband": s.WarbandSerializer(warband).data}
    for key, value in objects.items():
        if key == "items":
            body[key] = s.EquipmentItemSerializer(value, many=True).data
        elif key in RESULT_SERIALIZERS and value is not None:
            body[key] = RESULT_SERIALIZERS[key](value).data
    response = Response(body, status=status_code)
    response["ETag"] = warband.etag
    return response


def own_fighter(request, pk, **extra) -> Fighter:
    return get_object_or_404(
        Fighter.objects.select_related("fighter_type", "group"),
        pk=pk,
        warband__owner=request.user,
        **extra,
    )


def own_group(request, pk, **extra) -> HenchmanGroup:
    return get_object_or_404(
        HenchmanGroup.objects.select_related("fighter_type"),
        pk=pk,
        warband__owner=request.user,
        **extra,
    )


def fighter_payload(fighter_id: int) -> Fighter:
    return (
        Fighter.objects.select_related("fighter_type")
        .prefetch_related("skills", "equipment__equipment")
        .get(pk=fighter_id)
    )


def group_payload(group_id: int) -> HenchmanGroup:
    return (
        HenchmanGroup.objects.select_related("fighter_type")
        .prefetch_related("members", "equipment__equipment")
        .get(pk=group_id)
    )
