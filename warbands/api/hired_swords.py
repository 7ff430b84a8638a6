"""Hired swords in the API: the catalogue's list (anonymous allowed), and hiring one into the
caller's warband (the fee through the ledger; refusals in the error shape, nothing written)."""

from __future__ import annotations

from django.shortcuts import get_object_or_404
from django.utils.translation import gettext_lazy as _
from drf_spectacular.types import OpenApiTypes
from drf_spectacular.utils import extend_schema, extend_schema_field
from rest_framework import serializers
from rest_framework.permissions import IsAuthenticated
from rest_framework.response import Response
from rest_framework.views import APIView

from ..limits import NAME_MAX_LENGTH
from ..models import HiredSword, Warband
from ..services.hired_swords import hired_sword_hire
from .serializers import (
    READER_LANGUAGE,
    ProfileField,
    VersionField,
    WarbandWriteResultSerializer,
)
from .views._common import ERRORS, IF_MATCH, expected_version, fighter_payload, result
from .views.catalogue import CatalogueViewSet, catalogue_schema


class HiredSwordSerializer(serializers.ModelSerializer):
    slug = serializers.CharField(source="fighter_type.slug", read_only=True)
    name = serializers.CharField(
        source="fighter_type.display_name", read_only=True, help_text=READER_LANGUAGE
    )
    description = serializers.CharField(
        source="fighter_type.display_description", read_only=True, help_text=READER_LANGUAGE
    )
    race = serializers.CharField(source="fighter_type.race.slug", read_only=True)
    hire_fee = serializers.IntegerField(source="fighter_type.cost", read_only=True)
    max_per_warband = serializers.SerializerMethodField()
    starting_experience = serializers.IntegerField(
        source="fighter_type.starting_experience", read_only=True
    )
    special_rules = serializers.ListField(
        source="fighter_type.special_rules", child=serializers.CharField(), read_only=True
    )
    skill_lists = serializers.SlugRelatedField(
        source="fighter_type.skill_lists", slug_field="slug", many=True, read_only=True
    )
    equipment = serializers.SlugRelatedField(slug_field="slug", many=True, read_only=True)
    may_hire = serializers.SlugRelatedField(
        source="allowed_warband_types", slug_field="slug", many=True, read_only=True
    )
    may_not_hire = serializers.SlugRelatedField(
        source="excluded_warband_types", slug_field="slug", many=True, read_only=True
    )
    profile = ProfileField(source="fighter_type")

    class Meta:
        model = HiredSword
        fields = [
            "slug",
            "name",
            "description",
            "race",
            "hire_fee",
            "upkeep",
            "rating_value",
            "max_per_warband",
            "starting_experience",
            "special_rules",
            "skill_lists",
            "equipment",
            "may_hire",
            "may_not_hire",
            "profile",
        ]

    def get_max_per_warband(self, obj) -> int:
        return obj.fighter_type.max_count or 1


@extend_schema_field(OpenApiTypes.STR)
class HiredSwordSlugField(serializers.SlugRelatedField):
    """A hired sword named by its fighter type's slug (``montaraz-errante``)."""


class HiredSwordHireSerializer(serializers.Serializer):
    hired_sword = HiredSwordSlugField(
        slug_field="fighter_type__slug", queryset=HiredSword.objects.all()
    )
    name = serializers.CharField(
        max_length=NAME_MAX_LENGTH,
        required=False,
        allow_blank=True,
        help_text=_("Empty: the hired sword's own name."),
    )
    version = VersionField()


@catalogue_schema(many=_("Hired swords, with their terms"), one=_("One hired sword"))
class HiredSwordViewSet(CatalogueViewSet):
    queryset = (
        HiredSword.objects.select_related("fighter_type", "fighter_type__race")
        .prefetch_related(
            "fighter_type__skill_lists",
            "equipment",
            "allowed_warband_types",
            "excluded_warband_types",
        )
        .order_by("fighter_type__order", "fighter_type__name")
    )
    serializer_class = HiredSwordSerializer
    lookup_field = "fighter_type__slug"
    lookup_url_kwarg = "slug"
    ordering_fields = ["fighter_type__name", "upkeep"]


class WarbandHiredSwordsView(APIView):
    """The hired swords this warband may hire (GET), and hiring one (POST)."""

    permission_classes = [IsAuthenticated]

    def _warband(self, request, warband_pk) -> Warband:
        return get_object_or_404(
            Warband.objects.select_related("warband_type"), pk=warband_pk, owner=request.user
        )

    @extend_schema(
        summary=_("Hired swords this warband may hire"),
        responses={200: HiredSwordSerializer(many=True), **ERRORS},
        tags=["fighters"],
    )
    def get(self, request, warband_pk):
        warband = self._warband(request, warband_pk)
        swords = [
            sword
            for sword in HiredSwordViewSet.queryset.all()
            if sword.may_serve(warband.warband_type)
        ]
        return Response(HiredSwordSerializer(swords, many=True).data)

    @extend_schema(
        summary=_("Hire a hired sword (the fee through the ledger)"),
        request=HiredSwordHireSerializer,
        parameters=[IF_MATCH],
        responses={201: WarbandWriteResultSerializer, **ERRORS},
        tags=["fighters"],
    )
    def post(self, request, warband_pk):
        warband = self._warband(request, warband_pk)
        serializer = HiredSwordHireSerializer(data=request.data)
        serializer.is_valid(raise_exception=True)
        data = serializer.validated_data
        hired = hired_sword_hire(
            warband=warband,
            hired_sword=data["hired_sword"],
            name=data.get("name", ""),
            expected_version=expected_version(request),
        )
        return result(warband.pk, status_code=201, fighter=fighter_payload(hired.pk))
