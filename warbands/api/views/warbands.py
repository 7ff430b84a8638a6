"""The caller's warbands: list, create, read (ETag), update, delete, the whole sheet, the
ledger, export and import; hiring into and buying for the warband."""

from __future__ import annotations

from django.core.cache import cache
from django.shortcuts import get_object_or_404
from django.urls import reverse
from django.utils.translation import get_language
from django.utils.translation import gettext_lazy as _
from django_filters import rest_framework as filters
from drf_spectacular.types import OpenApiTypes
from drf_spectacular.utils import OpenApiResponse, extend_schema, extend_schema_view
from rest_framework import mixins, status, viewsets
from rest_framework.decorators import action
from rest_framework.response import Response

from annuminas.api.conditional import if_none_match, not_modified

from ... import services
from ...models import HenchmanGroup, Warband
from ...presentation import download_filename
from ...selectors import annotate_sheet, warband_ledger, warband_sheet_queryset, warbands_for_user
from ...sheet_cache import KEY_FIELDS, SHEET_CACHE_SECONDS, api_key, api_sheet_data
from .. import serializers as s
from ._common import (
    ERRORS,
    ID_REGEX,
    IF_MATCH,
    WARBAND_VERSION,
    expected_version,
    fighter_payload,
    group_payload,
    own_group,
    result,
)

UPDATE_SCHEMA = {
    "summary": _("Rename / change notes (needs `version` or If-Match)"),
    "request": s.WarbandUpdateSerializer,
    "parameters": [IF_MATCH],
    "responses": {200: s.WarbandSerializer, **ERRORS},
    "tags": ["warbands"],
}


def list_and_write_schema(*, tag: str, listing, listed, writing, request):
    """The schema of an action that lists (GET) and writes one more (POST → 201)."""

    def decorate(view):
        view = extend_schema(
            methods=["POST"],
            summary=writing,
            request=request,
            parameters=[IF_MATCH],
            responses={201: s.WarbandWriteResultSerializer, **ERRORS},
            tags=[tag],
        )(view)
        return extend_schema(
            methods=["GET"], summary=listing, responses={200: listed(many=True)}, tags=[tag]
        )(view)

    return decorate


class WarbandFilter(filters.FilterSet):
    warband_type = filters.CharFilter(field_name="warband_type__slug")

    class Meta:
        model = Warband
        fields = ["warband_type"]


@extend_schema_view(
    list=extend_schema(summary=_("My warbands"), tags=["warbands"]),
)
class WarbandViewSet(
    mixins.ListModelMixin,
    mixins.RetrieveModelMixin,
    viewsets.GenericViewSet,
):
    lookup_value_regex = ID_REGEX  # ids only: a text id is a 404, never a 500
    serializer_class = s.WarbandSerializer
    filterset_class = WarbandFilter
    ordering_fields = ["name", "rating", "treasury", "updated_at"]

    def get_queryset(self):
        if getattr(self, "swagger_fake_view", False):
            return Warband.objects.none()
        return warbands_for_user(user=self.request.user)

    @extend_schema(
        summary=_("Create a warband"),
        request=s.WarbandCreateSerializer,
        responses={201: s.WarbandSerializer, **ERRORS},
        tags=["warbands"],
    )
    def create(self, request):
        serializer = s.WarbandCreateSerializer(data=request.data)
        serializer.is_valid(raise_exception=True)
        warband = services.warband_create(owner=request.user, **serializer.validated_data)
        response = Response(s.WarbandSerializer(warband).data, status=status.HTTP_201_CREATED)
        response["ETag"] = warband.etag
        response["Location"] = request.build_absolute_uri(
            reverse("api-warband-detail", args=[warband.pk])
        )
        return response

    @extend_schema(
        summary=_("One warband (ETag; If-None-Match answers 304)"),
        responses={200: s.WarbandSerializer, 304: None, 404: ERRORS[404]},
        tags=["warbands"],
    )
    def retrieve(self, request, pk=None):
        warband = self.get_object()
        etag = WARBAND_VERSION.read_etag(warband.pk, warband.version)
        if if_none_match(request, etag):
            response = Response(status=status.HTTP_304_NOT_MODIFIED)
        else:
            response = Response(s.WarbandSerializer(warband).data)
        response["ETag"] = etag
        return response

    @extend_schema(**UPDATE_SCHEMA)
    def partial_update(self, request, pk=None):
        warband = self.get_object()
        serializer = s.WarbandUpdateSerializer(data=request.data)
        serializer.is_valid(raise_exception=True)
        fields = {k: v for k, v in serializer.validated_data.items() if k != "version"}
        version = expected_version(request, required=True)
        warband = services.warband_update(warband=warband, expected_version=version, **fields)
        response = Response(s.WarbandSerializer(warband).data)
        response["ETag"] = warband.etag
        return response

    @extend_schema(**UPDATE_SCHEMA)
    def update(self, request, pk=None):
        return self.partial_update(request, pk)

    @extend_schema(
        summary=_("Delete a warband"),
        parameters=[IF_MATCH],
        responses={
            204: None,
            404: ERRORS[404],
            409: OpenApiResponse(
                description=_(
                    "Stale version, or the warband joined a campaign or played battles "
                    "(it stays on their record)."
                )
            ),
        },
        tags=["warbands"],
    )
    def destroy(self, request, pk=None):
        warband = self.get_object()
        services.warband_delete(warband=warband, expected_version=expected_version(request))
        return Response(status=status.HTTP_204_NO_CONTENT)

    @extend_schema(
        summary=_("Undo the last roster change"),
        description=_(
            "Puts the roster back as it was before its last change (a hire, a purchase, a "
            "sale, a dismissal…) while nothing has changed since; the money moves by a "
            "compensating ledger entry. 409 when there is nothing to undo."
        ),
        request=s.WarbandVersionSerializer,
        parameters=[IF_MATCH],
        responses={200: s.UndoResultSerializer, **ERRORS},
        tags=["warbands"],
    )
    @action(detail=True, methods=["post"], filterset_class=None)
    def undo(self, request, pk=None):
        warband = self.get_object()
        undone = services.warband_undo(warband=warband, expected_version=expected_version(request))
        response = result(warband.pk)
        response.data["undone"] = undone
        return response

    @extend_schema(
        summary=_("The whole roster (Hoja de Control de Banda) in one response"),
        responses={200: s.SheetSerializer, 304: None, 404: ERRORS[404]},
        tags=["warbands"],
    )
    @action(detail=True, methods=["get"])
    def sheet(self, request, pk=None):
        head = get_object_or_404(
            Warband.objects.only(*KEY_FIELDS, "owner_id"), pk=pk, owner=request.user
        )
        etag = WARBAND_VERSION.read_etag(head.pk, head.version)
        if if_none_match(request, etag):
            return not_modified(etag)
        # The serialized sheet is cached per version (bumped by every roster write) and language
        # (``warbands.sheet_cache``, which also renders it ahead after a write).
        data = cache.get(api_key(head, get_language()))
        if data is None:
            head = get_object_or_404(warband_sheet_queryset(), pk=pk, owner=request.user)
            data = api_sheet_data(annotate_sheet(head))
            cache.set(api_key(head, get_language()), data, SHEET_CACHE_SECONDS)
        response = Response(data)
        response["ETag"] = etag
        return response

    @extend_schema(
        summary=_("The ledger: every change of treasury and finds, newest first"),
        responses={200: s.LedgerEntrySerializer(many=True), 404: ERRORS[404]},
        tags=["warbands"],
    )
    @action(detail=True, methods=["get"], filterset_class=None)
    def ledger(self, request, pk=None):
        warband = self.get_object()
        page = self.paginate_queryset(warband_ledger(warband=warband))
        return self.get_paginated_response(s.LedgerEntrySerializer(page, many=True).data)

    @extend_schema(
        summary=_("Export as JSON (format annuminas.warband, version 1)"),
        responses={200: OpenApiTypes.OBJECT, 404: ERRORS[404]},
        tags=["warbands"],
    )
    @action(detail=True, methods=["get"])
    def export(self, request, pk=None):
        warband = self.get_object()
        response = Response(services.warband_export(warband=warband))
        response["Content-Disposition"] = f'inline; filename="{download_filename(warband, "json")}"'
        return response

    @extend_schema(
        summary=_("Import a warband from an export"),
        request=s.WarbandImportSerializer,
        responses={201: s.WarbandSerializer, 400: ERRORS[400]},
        tags=["warbands"],
    )
    @action(detail=False, methods=["post"], url_path="import", url_name="import")
    def import_(self, request):
        # The service checks the document field by field (a 400 naming the field).
        warband = services.warband_import(owner=request.user, data=request.data)
        response = Response(s.WarbandSerializer(warband).data, status=status.HTTP_201_CREATED)
        response["Location"] = request.build_absolute_uri(
            reverse("api-warband-detail", args=[warband.pk])
        )
        return response

    @list_and_write_schema(
        tag="fighters",
        listing=_("Heroes and henchmen of the warband"),
        listed=s.FighterSerializer,
        writing=_("Hire a hero, or a henchman group (count), or more members for a group"),
        request=s.WarbandHireSerializer,
    )
    @action(detail=True, methods=["get", "post"], filterset_class=None, pagination_class=None)
    def fighters(self, request, pk=None):
        warband = self.get_object()
        if request.method == "GET":
            fighters = (
                warband.fighters.select_related("fighter_type")
                .prefetch_related("skills", "equipment__equipment")
                .order_by("-is_leader", "pk")
            )
            return Response(s.FighterSerializer(fighters, many=True).data)
        serializer = s.WarbandHireSerializer(data=request.data)
        serializer.is_valid(raise_exception=True)
        data = serializer.validated_data
        group = None
        if data.get("group") is not None:
            group = own_group(request, data["group"], warband=warband)
        hired = services.fighter_hire(
            warband=warband,
            fighter_type=data["fighter_type"],
            name=data["name"],
            count=data["count"],
            group=group,
            expected_version=expected_version(request),
        )
        if isinstance(hired, HenchmanGroup):
            return result(warband.pk, status_code=201, group=group_payload(hired.pk))
        return result(warband.pk, status_code=201, fighter=fighter_payload(hired.pk))

    @list_and_write_schema(
        tag="equipment",
        listing=_("The warband's stash"),
        listed=s.EquipmentItemSerializer,
        writing=_("Buy an item into the stash"),
        request=s.WarbandBuySerializer,
    )
    @action(detail=True, methods=["get", "post"], filterset_class=None, pagination_class=None)
    def stash(self, request, pk=None):
        warband = self.get_object()
        if request.method == "GET":
            items = warband.equipment_items.filter(fighter=None, group=None).select_related(
                "equipment"
            )
            return Response(s.EquipmentItemSerializer(items, many=True).data)
        serializer = s.WarbandBuySerializer(data=request.data)
        serializer.is_valid(raise_exception=True)
        item = services.equipment_buy(
            warband=warband,
            equipment=serializer.validated_data["item"],
            expected_version=expected_version(request),
        )
        return result(warband.pk, status_code=201, item=item)
