"""The catalogue (read-only, anonymous allowed): warband and fighter types, equipment and
its lists, skills and their lists, races, special rules."""

from __future__ import annotations

from django.utils.translation import gettext_lazy as _
from django_filters import rest_framework as filters
from drf_spectacular.utils import extend_schema, extend_schema_view, inline_serializer
from rest_framework import serializers, viewsets
from rest_framework.permissions import AllowAny
from rest_framework.response import Response
from rest_framework.reverse import reverse as api_reverse
from rest_framework.views import APIView

from ...models import (
    Equipment,
    EquipmentList,
    FighterType,
    Race,
    Skill,
    SkillList,
    SpecialRule,
    WarbandType,
)
from .. import serializers as s

CATALOGUE_LISTS = (
    "warband_types",
    "fighter_types",
    "equipment",
    "equipment_lists",
    "skills",
    "skill_lists",
    "races",
    "special_rules",
    "hired_swords",
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
                "hired_swords": api_reverse("api-hired-sword-list", request=request),
            }
        )


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
        .exclude(fighter_types__hired_sword__isnull=False)
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
