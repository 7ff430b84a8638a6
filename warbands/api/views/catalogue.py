"""The catalogue (read-only, anonymous allowed): warband and fighter types, equipment and
its lists, skills and their lists, races, special rules."""

from __future__ import annotations

from collections.abc import Callable

from django.utils.translation import gettext_lazy as _
from django_filters import rest_framework as filters
from drf_spectacular.utils import extend_schema, extend_schema_view, inline_serializer
from rest_framework import serializers, viewsets
from rest_framework.permissions import AllowAny
from rest_framework.response import Response
from rest_framework.reverse import reverse as api_reverse
from rest_framework.views import APIView

from ...models import (
    ContentPack,
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
    """The default catalogue and the published versions of packs that are not private (a
    private pack's content is read at ``/api/v1/packs/``, by those who may)."""

    permission_classes = [AllowAny]
    lookup_field = "slug"
    ordering_fields = ["name", "slug"]

    def get_queryset(self):
        queryset = super().get_queryset()
        names = {field.name for field in queryset.model._meta.get_fields()}
        pack = "pack" if "pack" in names else "fighter_type__pack"  # hired swords' terms
        return queryset.exclude(
            **{
                f"{pack}__owner__isnull": False,
                f"{pack}__visibility": ContentPack.Visibility.PRIVATE,
            }
        )


def catalogue_schema(*, many: str, one: str) -> Callable:
    """A catalogue list's two endpoints in the schema: the list (``many``) and one row."""
    return extend_schema_view(
        list=extend_schema(summary=many, tags=["catalogue"]),
        retrieve=extend_schema(summary=one, tags=["catalogue"]),
    )


class WarbandTypeFilter(filters.FilterSet):
    race = filters.CharFilter(field_name="race__slug")
    pack = filters.CharFilter(field_name="pack__slug")

    class Meta:
        model = WarbandType
        fields = ["race", "pack", "playable"]


@catalogue_schema(many=_("Warband types, with their fighter types"), one=_("One warband type"))
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


@catalogue_schema(many=_("Fighter types"), one=_("One fighter type"))
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


@catalogue_schema(many=_("Equipment"), one=_("One item"))
class EquipmentViewSet(CatalogueViewSet):
    queryset = Equipment.objects.order_by("kind", "cost", "name")
    serializer_class = s.EquipmentSerializer
    filterset_class = EquipmentFilter
    ordering_fields = ["name", "slug", "cost"]


@catalogue_schema(many=_("Equipment lists, with prices"), one=_("One equipment list"))
class EquipmentListViewSet(CatalogueViewSet):
    queryset = EquipmentList.objects.prefetch_related("entries__equipment").order_by("name")
    serializer_class = s.EquipmentListSerializer


class SkillFilter(filters.FilterSet):
    skill_list = filters.CharFilter(field_name="skill_list__slug")

    class Meta:
        model = Skill
        fields = ["skill_list"]


@catalogue_schema(many=_("Skills"), one=_("One skill"))
class SkillViewSet(CatalogueViewSet):
    queryset = Skill.objects.select_related("skill_list").order_by("skill_list__name", "name")
    serializer_class = s.SkillSerializer
    filterset_class = SkillFilter


@catalogue_schema(many=_("Skill lists"), one=_("One skill list"))
class SkillListViewSet(CatalogueViewSet):
    queryset = SkillList.objects.order_by("name")
    serializer_class = s.SkillListSerializer


@catalogue_schema(many=_("Races and their maximum profiles"), one=_("One race"))
class RaceViewSet(CatalogueViewSet):
    queryset = Race.objects.order_by("name")
    serializer_class = s.RaceSerializer


@catalogue_schema(many=_("Special rules"), one=_("One special rule"))
class SpecialRuleViewSet(CatalogueViewSet):
    queryset = SpecialRule.objects.order_by("name")
    serializer_class = s.SpecialRuleSerializer
