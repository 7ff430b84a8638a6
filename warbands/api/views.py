"""REST API for the catalogue (read-only, anonymous allowed) and the rosters (owner only).

Views parse input, call one service or selector, and answer. Every write answers the warband's
new state; its ``version`` (also the ``ETag``) is what the next write must send, in the body as
``version`` or as ``If-Match``. A stale one answers 409 in the error shape.
"""

from __future__ import annotations

from django.core.cache import cache
from django.http import Http404
from django.shortcuts import get_object_or_404
from django.urls import reverse
from django.utils.translation import get_language, gettext_lazy
from django.utils.translation import gettext as _
from django_filters import rest_framework as filters
from drf_spectacular.types import OpenApiTypes
from drf_spectacular.utils import (
    OpenApiParameter,
    OpenApiResponse,
    extend_schema,
    extend_schema_view,
    inline_serializer,
)
from rest_framework import mixins, serializers, status, viewsets
from rest_framework.decorators import action
from rest_framework.permissions import AllowAny
from rest_framework.response import Response
from rest_framework.reverse import reverse as api_reverse
from rest_framework.views import APIView

from annuminas.api.versioning import VersionedKind
from annuminas.converters import IdConverter

from .. import services
from ..models import (
    Equipment,
    EquipmentItem,
    EquipmentList,
    Fighter,
    FighterType,
    HenchmanGroup,
    Race,
    Skill,
    SkillList,
    SpecialRule,
    Warband,
    WarbandType,
)
from ..selectors import annotate_sheet, warband_ledger, warband_sheet_queryset, warbands_for_user
from . import serializers as s

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


WARBAND_VERSION = VersionedKind("warband", gettext_lazy("If-Match is not a warband ETag."))


def expected_version(request, *, required: bool = False) -> int | None:
    """The version the write expects, by the project's one rule (``annuminas.api.versioning``)."""
    return WARBAND_VERSION.expected_version(request, required=required)


def result(warband_id: int, *, status_code: int = status.HTTP_200_OK, **objects) -> Response:
    warband = Warband.objects.select_related("warband_type").get(pk=warband_id)
    body = {"warband": s.WarbandSerializer(warband).data}
    for key, value in objects.items():
        serializer = {
            "fighter": s.FighterSerializer,
            "group": s.HenchmanGroupSerializer,
            "item": s.EquipmentItemSerializer,
            "ledger_entry": s.LedgerEntrySerializer,
        }.get(key)
        if key == "items":
            body[key] = s.EquipmentItemSerializer(value, many=True).data
        elif serializer is not None and value is not None:
            body[key] = serializer(value).data
    response = Response(body, status=status_code)
    response["ETag"] = warband.etag
    return response


def own_warband(request, pk) -> Warband:
    return get_object_or_404(Warband, pk=pk, owner=request.user)


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


# --- catalogue ------------------------------------------------------------------------------


CATALOGUE_LISTS = (
    "warband_types",
    "fighter_types",
    "equipment",
    "equipment_lists",
    "skills",
    "skill_lists",
    "races",
    "special_rules",
)


class CatalogueRootView(APIView):
    permission_classes = [AllowAny]

    @extend_schema(
        summary=_("Catalogue index: links to each list"),
        responses=inline_serializer(
            "CatalogueIndex",
            {name: serializers.URLField() for name in CATALOGUE_LISTS},
        ),
        tags=["catalogue"],
    )
    def get(self, request):
        return Response(
            {
                "warband_types": api_reverse("api-warband-type-list", request=request),
                "fighter_types": api_reverse("api-fighter-type-list", request=request),
                "equipment": api_reverse("api-equipment-list", request=request),
                "equipment_lists": api_reverse("api-equipment-list-list", request=request),
                "skills": api_reverse("api-skill-list", request=request),
                "skill_lists": api_reverse("api-skill-list-list", request=request),
                "races": api_reverse("api-race-list", request=request),
                "special_rules": api_reverse("api-special-rule-list", request=request),
            }
        )


ID_REGEX = IdConverter.regex


class CatalogueViewSet(viewsets.ReadOnlyModelViewSet):
    permission_classes = [AllowAny]
    lookup_field = "slug"
    ordering_fields = ["name", "slug"]


class WarbandTypeFilter(filters.FilterSet):
    race = filters.CharFilter(field_name="race__slug")
    pack = filters.CharFilter(field_name="pack__slug")

    class Meta:
        model = WarbandType
        fields = ["race", "pack", "playable"]


@extend_schema_view(
    list=extend_schema(summary=_("Warband types, with their fighter types"), tags=["catalogue"]),
    retrieve=extend_schema(summary=_("One warband type"), tags=["catalogue"]),
)
class WarbandTypeViewSet(CatalogueViewSet):
    queryset = (
        WarbandType.objects.select_related("race", "pack")
        .prefetch_related(
            "fighter_types__race",
            "fighter_types__warband_type",
            "fighter_types__equipment_list",
            "fighter_types__skill_lists",
        )
        .order_by("name")
    )
    serializer_class = s.WarbandTypeSerializer
    filterset_class = WarbandTypeFilter


class FighterTypeFilter(filters.FilterSet):
    warband_type = filters.CharFilter(field_name="warband_type__slug")
    race = filters.CharFilter(field_name="race__slug")

    class Meta:
        model = FighterType
        fields = ["warband_type", "race", "role", "is_large"]


@extend_schema_view(
    list=extend_schema(summary=_("Fighter types"), tags=["catalogue"]),
    retrieve=extend_schema(summary=_("One fighter type"), tags=["catalogue"]),
)
class FighterTypeViewSet(CatalogueViewSet):
    queryset = (
        FighterType.objects.select_related("warband_type", "race", "equipment_list")
        .prefetch_related("skill_lists")
        .order_by("warband_type__name", "order")
    )
    serializer_class = s.FighterTypeSerializer
    filterset_class = FighterTypeFilter
    ordering_fields = ["name", "slug", "cost"]


class EquipmentFilter(filters.FilterSet):
    rare = filters.BooleanFilter(field_name="rarity", lookup_expr="isnull", exclude=True)
    equipment_list = filters.CharFilter(field_name="equipment_lists__slug")

    class Meta:
        model = Equipment
        fields = ["kind", "two_handed", "rare", "equipment_list"]


@extend_schema_view(
    list=extend_schema(summary=_("Equipment"), tags=["catalogue"]),
    retrieve=extend_schema(summary=_("One item"), tags=["catalogue"]),
)
class EquipmentViewSet(CatalogueViewSet):
    queryset = Equipment.objects.order_by("kind", "cost", "name")
    serializer_class = s.EquipmentSerializer
    filterset_class = EquipmentFilter
    ordering_fields = ["name", "slug", "cost"]


@extend_schema_view(
    list=extend_schema(summary=_("Equipment lists, with prices"), tags=["catalogue"]),
    retrieve=extend_schema(summary=_("One equipment list"), tags=["catalogue"]),
)
class EquipmentListViewSet(CatalogueViewSet):
    queryset = EquipmentList.objects.prefetch_related("entries__equipment").order_by("name")
    serializer_class = s.EquipmentListSerializer


class SkillFilter(filters.FilterSet):
    skill_list = filters.CharFilter(field_name="skill_list__slug")

    class Meta:
        model = Skill
        fields = ["skill_list"]


@extend_schema_view(
    list=extend_schema(summary=_("Skills"), tags=["catalogue"]),
    retrieve=extend_schema(summary=_("One skill"), tags=["catalogue"]),
)
class SkillViewSet(CatalogueViewSet):
    queryset = Skill.objects.select_related("skill_list").order_by("skill_list__name", "name")
    serializer_class = s.SkillSerializer
    filterset_class = SkillFilter


@extend_schema_view(
    list=extend_schema(summary=_("Skill lists"), tags=["catalogue"]),
    retrieve=extend_schema(summary=_("One skill list"), tags=["catalogue"]),
)
class SkillListViewSet(CatalogueViewSet):
    queryset = SkillList.objects.order_by("name")
    serializer_class = s.SkillListSerializer


@extend_schema_view(
    list=extend_schema(summary=_("Races and their maximum profiles"), tags=["catalogue"]),
    retrieve=extend_schema(summary=_("One race"), tags=["catalogue"]),
)
class RaceViewSet(CatalogueViewSet):
    queryset = Race.objects.order_by("name")
    serializer_class = s.RaceSerializer


@extend_schema_view(
    list=extend_schema(summary=_("Special rules"), tags=["catalogue"]),
    retrieve=extend_schema(summary=_("One special rule"), tags=["catalogue"]),
)
class SpecialRuleViewSet(CatalogueViewSet):
    queryset = SpecialRule.objects.order_by("name")
    serializer_class = s.SpecialRuleSerializer


# --- warbands --------------------------------------------------------------------------------


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
        response["Location"] = reverse("api-warband-detail", args=[warband.pk])
        return response

    @extend_schema(
        summary=_("One warband (ETag; If-None-Match answers 304)"),
        responses={200: s.WarbandSerializer, 304: None, 404: ERRORS[404]},
        tags=["warbands"],
    )
    def retrieve(self, request, pk=None):
        warband = self.get_object()
        if request.headers.get("If-None-Match") == warband.etag:
            response = Response(status=status.HTTP_304_NOT_MODIFIED)
        else:
            response = Response(s.WarbandSerializer(warband).data)
        response["ETag"] = warband.etag
        return response

    @extend_schema(
        summary=_("Rename / change notes (needs `version` or If-Match)"),
        request=s.WarbandUpdateSerializer,
        parameters=[IF_MATCH],
        responses={200: s.WarbandSerializer, **ERRORS},
        tags=["warbands"],
    )
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

    @extend_schema(
        summary=_("Rename / change notes (needs `version` or If-Match)"),
        request=s.WarbandUpdateSerializer,
        parameters=[IF_MATCH],
        responses={200: s.WarbandSerializer, **ERRORS},
        tags=["warbands"],
    )
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
        summary=_("The whole roster (Hoja de Control de Banda) in one response"),
        responses={200: s.SheetSerializer, 404: ERRORS[404]},
        tags=["warbands"],
    )
    @action(detail=True, methods=["get"])
    def sheet(self, request, pk=None):
        head = get_object_or_404(
            Warband.objects.only("pk", "version", "owner_id"), pk=pk, owner=request.user
        )
        if request.headers.get("If-None-Match") == head.etag:
            return Response(status=status.HTTP_304_NOT_MODIFIED, headers={"ETag": head.etag})
        # The serialized sheet is cached per version (bumped by every roster write) and language.
        key = f"api-sheet:{head.pk}:{head.version}:{get_language()}"
        data = cache.get(key)
        if data is None:
            warband = get_object_or_404(warband_sheet_queryset(), pk=pk, owner=request.user)
            annotate_sheet(warband)
            data = s.SheetSerializer(warband).data
            cache.set(key, data, 600)
        response = Response(data)
        response["ETag"] = head.etag
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
        response["Content-Disposition"] = f'inline; filename="warband-{warband.pk}.json"'
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
        response["Location"] = reverse("api-warband-detail", args=[warband.pk])
        return response

    @extend_schema(
        methods=["GET"],
        summary=_("Heroes and henchmen of the warband"),
        responses={200: s.FighterSerializer(many=True)},
        tags=["fighters"],
    )
    @extend_schema(
        methods=["POST"],
        summary=_("Hire a hero, or a henchman group (count), or more members for a group"),
        request=s.WarbandHireSerializer,
        parameters=[IF_MATCH],
        responses={201: s.WarbandWriteResultSerializer, **ERRORS},
        tags=["fighters"],
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

    @extend_schema(
        methods=["GET"],
        summary=_("The warband's stash"),
        responses={200: s.EquipmentItemSerializer(many=True)},
        tags=["equipment"],
    )
    @extend_schema(
        methods=["POST"],
        summary=_("Buy an item into the stash"),
        request=s.WarbandBuySerializer,
        parameters=[IF_MATCH],
        responses={201: s.WarbandWriteResultSerializer, **ERRORS},
        tags=["equipment"],
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


class FighterDetailView(APIView):
    @extend_schema(
        summary=_("One warrior"),
        responses={200: s.FighterSerializer, 404: ERRORS[404]},
        tags=["fighters"],
    )
    def get(self, request, warband_pk, pk):
        fighter = own_fighter(request, pk, warband_id=warband_pk)
        return Response(s.FighterSerializer(fighter_payload(fighter.pk)).data)

    @extend_schema(
        summary=_("Rename a warrior"),
        request=s.WarbandRenameSerializer,
        parameters=[IF_MATCH],
        responses={200: s.WarbandWriteResultSerializer, **ERRORS},
        tags=["fighters"],
    )
    def patch(self, request, warband_pk, pk):
        fighter = own_fighter(request, pk, warband_id=warband_pk)
        serializer = s.WarbandRenameSerializer(data=request.data)
        serializer.is_valid(raise_exception=True)
        services.fighter_update(
            fighter=fighter,
            expected_version=expected_version(request),
            name=serializer.validated_data["name"],
        )
        return result(fighter.warband_id, fighter=fighter_payload(fighter.pk))

    @extend_schema(
        summary=_("Dismiss a warrior (his equipment goes to the stash)"),
        parameters=[IF_MATCH],
        request=None,
        responses={200: s.WarbandWriteResultSerializer, **ERRORS},
        tags=["fighters"],
    )
    def delete(self, request, warband_pk, pk):
        fighter = own_fighter(request, pk, warband_id=warband_pk)
        services.fighter_dismiss(fighter=fighter, expected_version=expected_version(request))
        return result(fighter.warband_id)


class FighterRetireView(APIView):
    @extend_schema(
        summary=_("Retire a warrior"),
        request=s.WarbandVersionSerializer,
        parameters=[IF_MATCH],
        responses={200: s.WarbandWriteResultSerializer, **ERRORS},
        tags=["fighters"],
    )
    def post(self, request, warband_pk, pk):
        fighter = own_fighter(request, pk, warband_id=warband_pk)
        services.fighter_retire(fighter=fighter, expected_version=expected_version(request))
        return result(fighter.warband_id, fighter=fighter_payload(fighter.pk))


class GroupDetailView(APIView):
    @extend_schema(
        summary=_("One henchman group"),
        responses={200: s.HenchmanGroupSerializer, 404: ERRORS[404]},
        tags=["fighters"],
    )
    def get(self, request, warband_pk, pk):
        group = own_group(request, pk, warband_id=warband_pk)
        return Response(s.HenchmanGroupSerializer(group_payload(group.pk)).data)

    @extend_schema(
        summary=_("Rename a henchman group"),
        request=s.WarbandRenameSerializer,
        parameters=[IF_MATCH],
        responses={200: s.WarbandWriteResultSerializer, **ERRORS},
        tags=["fighters"],
    )
    def patch(self, request, warband_pk, pk):
        group = own_group(request, pk, warband_id=warband_pk)
        serializer = s.WarbandRenameSerializer(data=request.data)
        serializer.is_valid(raise_exception=True)
        services.group_update(
            group=group,
            expected_version=expected_version(request),
            name=serializer.validated_data["name"],
        )
        return result(group.warband_id, group=group_payload(group.pk))

    @extend_schema(
        summary=_("Dismiss a whole henchman group"),
        parameters=[IF_MATCH],
        request=None,
        responses={200: s.WarbandWriteResultSerializer, **ERRORS},
        tags=["fighters"],
    )
    def delete(self, request, warband_pk, pk):
        group = own_group(request, pk, warband_id=warband_pk)
        services.group_dismiss(group=group, expected_version=expected_version(request))
        return result(group.warband_id)


class HolderEquipmentView(APIView):
    """``fighters/{id}/equipment/`` and ``groups/{id}/equipment/``: list and buy."""

    holder = "fighter"

    def get_holder(self, request, pk):
        return own_fighter(request, pk) if self.holder == "fighter" else own_group(request, pk)

    @extend_schema(
        summary=_("What the warrior (or group) carries"),
        responses={200: s.EquipmentItemSerializer(many=True), 404: ERRORS[404]},
        tags=["equipment"],
    )
    def get(self, request, pk):
        holder = self.get_holder(request, pk)
        items = holder.equipment.select_related("equipment")
        if self.holder == "fighter" and holder.group_id:
            items = holder.group.equipment.select_related("equipment")
        return Response(s.EquipmentItemSerializer(items, many=True).data)

    @extend_schema(
        summary=_("Buy an item (for a group: price × members)"),
        request=s.WarbandBuySerializer,
        parameters=[IF_MATCH],
        responses={201: s.WarbandWriteResultSerializer, **ERRORS},
        tags=["equipment"],
    )
    def post(self, request, pk):
        holder = self.get_holder(request, pk)
        serializer = s.WarbandBuySerializer(data=request.data)
        serializer.is_valid(raise_exception=True)
        item = services.equipment_buy(
            warband=Warband(pk=holder.warband_id),
            equipment=serializer.validated_data["item"],
            expected_version=expected_version(request),
            **{self.holder: holder},
        )
        return result(holder.warband_id, status_code=201, item=item)


class ItemActionView(APIView):
    """``…/equipment/{item}/sell/``, ``…/stash/``, ``warbands/{id}/stash/{item}/assign/``."""

    holder = "fighter"
    operation = "sell"

    def get_item(self, request, holder_pk, pk) -> EquipmentItem:
        filters_ = {"pk": pk, "warband__owner": request.user}
        if self.holder == "fighter":
            fighter = own_fighter(request, holder_pk)
            if fighter.group_id:
                filters_["group_id"] = fighter.group_id
            else:
                filters_["fighter_id"] = fighter.pk
        elif self.holder == "group":
            filters_["group_id"] = holder_pk
        else:
            filters_.update(warband_id=holder_pk, fighter=None, group=None)
        item = EquipmentItem.objects.filter(**filters_).select_related("equipment").first()
        if item is None:
            raise Http404
        return item

    def post(self, request, holder_pk, pk):
        item = self.get_item(request, holder_pk, pk)
        version = expected_version(request)
        warband_id = item.warband_id
        if self.operation == "sell":
            entry = services.equipment_sell(item=item, expected_version=version)
            return result(warband_id, ledger_entry=entry)
        if self.operation == "stash":
            items = services.equipment_stash(item=item, expected_version=version)
            return result(warband_id, items=items)
        serializer = s.WarbandAssignSerializer(data=request.data)
        serializer.is_valid(raise_exception=True)
        data = serializer.validated_data
        target = {}
        if data.get("fighter") is not None:
            target["fighter"] = own_fighter(request, data["fighter"], warband_id=warband_id)
        if data.get("group") is not None:
            target["group"] = own_group(request, data["group"], warband_id=warband_id)
        moved = services.equipment_assign(item=item, expected_version=version, **target)
        return result(warband_id, item=moved)


def item_action_view(holder: str, operation: str):
    summaries = {
        "sell": _("Sell an item for half its price (rounded down)"),
        "stash": _("Move an item to the warband's stash"),
        "assign": _("Give a stash item to a warrior or a group (reallocate equipment)"),
    }
    request_serializer = (
        s.WarbandAssignSerializer if operation == "assign" else s.WarbandVersionSerializer
    )
    view = type(
        f"{holder.title()}{operation.title()}View",
        (ItemActionView,),
        {
            "holder": holder,
            "operation": operation,
            "post": extend_schema(
                summary=summaries[operation],
                request=request_serializer,
                parameters=[IF_MATCH],
                responses={200: s.WarbandWriteResultSerializer, **ERRORS},
                tags=["equipment"],
            )(ItemActionView.post),
        },
    )
    return view.as_view()
