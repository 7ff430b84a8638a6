"""The campaigns API: campaigns, members, join, rounds, pairings, standings.

Thin: parse with a serializer, call one service or selector, answer. Who may do what is decided
in ``battles.common.access`` and enforced by the services (403); what a caller may not see is
404 (401 for an anonymous caller). A battle's own endpoints are ``battles.reports.api``.
"""

from __future__ import annotations

import json

from django.core.exceptions import ValidationError
from django.db.models import Prefetch
from django.shortcuts import get_object_or_404
from django.urls import reverse
from django.utils.translation import gettext as _
from django.utils.translation import gettext_lazy
from django_filters import rest_framework as filters
from drf_spectacular.types import OpenApiTypes
from drf_spectacular.utils import OpenApiParameter, extend_schema
from rest_framework import mixins, status, viewsets
from rest_framework.decorators import action
from rest_framework.permissions import IsAuthenticatedOrReadOnly
from rest_framework.renderers import BaseRenderer
from rest_framework.response import Response
from rest_framework.settings import api_settings
from rest_framework.views import APIView

from annuminas.converters import parse_id
from battles.campaigns import scoring, selectors, services
from battles.campaigns import serializers as s
from battles.campaigns.exports import csv_filename, standings_csv
from battles.campaigns.league_settings import house_rule_keys
from battles.campaigns.services.schedule import round_open_scheduled, round_schedule
from battles.common.api import visible_or_401
from battles.models import Campaign, Membership, Round
from battles.reports.selectors import battle_detail, battle_queryset
from battles.reports.serializers import (
    BattleSerializer,
)
from warbands.models import Warband


class CSVRenderer(BaseRenderer):
    """``?format=csv``: the view hands over the CSV text already made (errors stay JSON)."""

    media_type = "text/csv"
    format = "csv"
    charset = "utf-8"

    def render(self, data, accepted_media_type=None, renderer_context=None):
        if isinstance(data, str):
            return data.encode(self.charset)
        return json.dumps(data, ensure_ascii=False).encode(self.charset)


class CampaignFilter(filters.FilterSet):
    mine = filters.BooleanFilter(
        method="filter_mine",
        label=gettext_lazy("Only the campaigns I play or organise (true), or the others."),
    )

    def filter_mine(self, queryset, name, value):
        user = self.request.user
        if not user.is_authenticated:
            return queryset.none() if value else queryset
        mine = Membership.objects.filter(user=user, active=True).values("campaign_id")
        return queryset.filter(pk__in=mine) if value else queryset.exclude(pk__in=mine)

    class Meta:
        model = Campaign
        fields = ["state"]


class CampaignViewSet(mixins.ListModelMixin, mixins.RetrieveModelMixin, viewsets.GenericViewSet):
    """Campaigns the caller may see (member, organiser, or public ones). Reads follow the pages'
    visibility, so anyone may read a public campaign; every write needs a login."""

    permission_classes = [IsAuthenticatedOrReadOnly]
    lookup_field = "slug"
    serializer_class = s.CampaignSerializer
    filterset_class = CampaignFilter
    ordering_fields = ["created_at", "name"]

    def get_queryset(self):
        archived = self.request.query_params.get("archived") in ("1", "true", "yes")
        return selectors.campaign_list(user=self.request.user, archived=archived).prefetch_related(
            Prefetch(
                "memberships",
                queryset=Membership.objects.select_related("user").order_by("id"),
            ),
            "allowed_warband_types",
        )

    def get_object(self) -> Campaign:
        return visible_or_401(
            self.request,
            lambda: selectors.campaign_for_api(user=self.request.user, slug=self.kwargs["slug"]),
        )

    def _detail(self, campaign: Campaign, code=status.HTTP_200_OK) -> Response:
        campaign = selectors.campaign_for_api(user=self.request.user, slug=campaign.slug)
        return Response(self.get_serializer(campaign).data, status=code)

    @extend_schema(request=s.CampaignWriteSerializer, responses=s.CampaignSerializer)
    def create(self, request):
        """Create a campaign (a draft); the caller becomes its organiser."""
        data = s.CampaignWriteSerializer(data=request.data)
        data.is_valid(raise_exception=True)
        values = dict(data.validated_data)
        keys = house_rule_keys()
        rules = {k: values.pop(k) for k in list(values) if k in keys}
        campaign = services.campaign_create(
            organiser=request.user,
            name=values["name"],
            description=values.get("description", ""),
            preset=values.get("preset", "raid"),
            public=values.get("public", False),
            house_rules=rules,
            allowed_warband_types=values.get("allowed_warband_types", ()),
        )
        return self._detail(campaign, status.HTTP_201_CREATED)

    @extend_schema(
        request=s.CampaignWriteSerializer,
        responses={200: s.CampaignSerializer, 202: s.CampaignSerializer},
    )
    def partial_update(self, request, slug=None):
        """Change the name, description or house rules (organisers). A change of scoring in a
        big league answers 202 with the standings job in ``Location``."""
        campaign = self.get_object()
        data = s.CampaignWriteSerializer(data=request.data, partial=True)
        data.is_valid(raise_exception=True)
        values = dict(data.validated_data)
        types = values.pop("allowed_warband_types", None)
        updated = services.campaign_update(
            campaign=campaign, by=request.user, changes=values, allowed_warband_types=types
        )
        job = getattr(updated, "standings_job", None)
        if job is None:
            return self._detail(campaign)
        response = self._detail(campaign, status.HTTP_202_ACCEPTED)
        response["Location"] = request.build_absolute_uri(reverse("api-job-detail", args=[job.pk]))
        return response

    @extend_schema(request=s.TransitionSerializer, responses=s.CampaignSerializer)
    @action(detail=True, methods=["post"])
    def transition(self, request, slug=None):
        """Move the campaign on: draft → open → running → finished."""
        campaign = self.get_object()
        data = s.TransitionSerializer(data=request.data)
        data.is_valid(raise_exception=True)
        services.campaign_transition(
            campaign=campaign, by=request.user, state=data.validated_data["state"]
        )
        return self._detail(campaign)

    @extend_schema(request=s.ArchiveSerializer, responses=s.CampaignSerializer)
    @action(detail=True, methods=["post"])
    def archive(self, request, slug=None):
        campaign = self.get_object()
        data = s.ArchiveSerializer(data=request.data)
        data.is_valid(raise_exception=True)
        services.campaign_archive(
            campaign=campaign, by=request.user, archived=data.validated_data["archived"]
        )
        return self._detail(campaign)

    @extend_schema(responses=s.MembershipSerializer(many=True), filters=False)
    @action(detail=True, methods=["get"])
    def members(self, request, slug=None):
        campaign = self.get_object()
        memberships = list(campaign.memberships.all())
        page = self.paginate_queryset(memberships)
        return self.get_paginated_response(s.MembershipSerializer(page, many=True).data)

    @extend_schema(request=None, responses={204: None})
    @action(detail=True, methods=["delete"], url_path=r"members/(?P<membership_id>\d+)")
    def withdraw(self, request, slug=None, membership_id=None):
        """A player leaves, or an organiser removes a member."""
        campaign = self.get_object()
        membership = get_object_or_404(campaign.memberships.all(), pk=membership_id)
        services.membership_withdraw(membership=membership, by=request.user)
        return Response(status=status.HTTP_204_NO_CONTENT)

    @extend_schema(request=s.OrganiserSerializer, responses={201: s.MembershipSerializer})
    @action(detail=True, methods=["post"])
    def organisers(self, request, slug=None):
        """Add a co-organiser by username."""
        campaign = self.get_object()
        data = s.OrganiserSerializer(data=request.data)
        data.is_valid(raise_exception=True)
        membership = services.campaign_add_organiser(
            campaign=campaign, by=request.user, username=data.validated_data["username"]
        )
        return Response(s.MembershipSerializer(membership).data, status=status.HTTP_201_CREATED)

    @extend_schema(methods=["get"], responses=s.RoundSerializer(many=True), filters=False)
    @extend_schema(
        methods=["post"], request=s.RoundDatesSerializer, responses={201: s.RoundSerializer}
    )
    @action(detail=True, methods=["get", "post"])
    def rounds(self, request, slug=None):
        """List the rounds, or (organisers) open the next one, with its start day and deadline
        if given."""
        campaign = self.get_object()
        if request.method == "POST":
            dates = s.RoundDatesSerializer(data=request.data)
            dates.is_valid(raise_exception=True)
            round = round_open_scheduled(campaign=campaign, by=request.user, **dates.validated_data)
            return Response(s.RoundSerializer(round).data, status=status.HTTP_201_CREATED)
        rounds = campaign.rounds.order_by("number").prefetch_related("battles")
        page = self.paginate_queryset(rounds)
        return self.get_paginated_response(s.RoundSerializer(page, many=True).data)

    def _round(self, campaign: Campaign, number) -> Round:
        return get_object_or_404(
            campaign.rounds.prefetch_related("battles").select_related("campaign"), number=number
        )

    @extend_schema(methods=["get"], responses=s.RoundSerializer)
    @extend_schema(methods=["patch"], request=s.RoundDatesSerializer, responses=s.RoundSerializer)
    @action(detail=True, methods=["get", "patch"], url_path=r"rounds/(?P<number>\d+)")
    def round_detail(self, request, slug=None, number=None):
        """One round; PATCH (organisers) changes its start day and deadline."""
        round = self._round(self.get_object(), number)
        if request.method == "PATCH":
            dates = s.RoundDatesSerializer(data=request.data, context={"round": round})
            dates.is_valid(raise_exception=True)
            round_schedule(round=round, by=request.user, **dates.validated_data)
            round = self._round(round.campaign, number)
        return Response(s.RoundSerializer(round).data)

    @extend_schema(request=None, responses=s.RoundSerializer)
    @action(detail=True, methods=["post"], url_path=r"rounds/(?P<number>\d+)/close")
    def round_close(self, request, slug=None, number=None):
        round = self._round(self.get_object(), number)
        services.round_close(round=round, by=request.user)
        return Response(s.RoundSerializer(self._round(round.campaign, number)).data)

    @extend_schema(methods=["get"], responses=BattleSerializer(many=True), filters=False)
    @extend_schema(
        methods=["post"],
        request=s.GenerateSerializer,
        responses={201: BattleSerializer(many=True)},
    )
    @action(detail=True, methods=["get", "post"], url_path=r"rounds/(?P<number>\d+)/pairings")
    def pairings(self, request, slug=None, number=None):
        """The round's battles; POST generates them (Swiss or nearest rating)."""
        campaign = self.get_object()
        round = self._round(campaign, number)
        code = status.HTTP_200_OK
        if request.method == "POST":
            data = s.GenerateSerializer(data=request.data)
            data.is_valid(raise_exception=True)
            services.pairings_generate(
                round=round, by=request.user, method=data.validated_data["method"]
            )
            code = status.HTTP_201_CREATED
        battles = battle_queryset(user=request.user).filter(round=round)
        page = self.paginate_queryset(battles)
        serializer = BattleSerializer(page, many=True, context=self.get_serializer_context())
        response = self.get_paginated_response(serializer.data)
        response.status_code = code
        return response

    @extend_schema(request=s.PairingSerializer, responses={201: BattleSerializer})
    @action(detail=True, methods=["post"])
    def battles(self, request, slug=None):
        """Set a battle by hand (2–4 warbands, or one for a bye), in a round or outside."""
        campaign = self.get_object()
        data = s.PairingSerializer(data=request.data)
        data.is_valid(raise_exception=True)
        number = data.validated_data.get("round")
        round = self._round(campaign, number) if number else None
        battle = services.pairing_create(
            campaign=campaign,
            by=request.user,
            round=round,
            warband_ids=data.validated_data["warbands"],
            scenario=data.validated_data.get("scenario", ""),
        )
        battle = battle_detail(user=request.user, pk=battle.pk)
        serializer = BattleSerializer(battle, context=self.get_serializer_context())
        return Response(serializer.data, status=status.HTTP_201_CREATED)

    @extend_schema(
        parameters=[
            OpenApiParameter("round", int, description="Standings after this round."),
            OpenApiParameter("format", str, enum=["json", "csv"]),
            OpenApiParameter(
                "page", int, description="A page of the rows, in rank order (JSON; CSV is whole)."
            ),
            OpenApiParameter("page_size", int, description="Rows per page (50; up to 200)."),
        ],
        responses={
            (200, "application/json"): s.StandingsSerializer,
            (200, "text/csv"): OpenApiTypes.STR,
        },
    )
    @action(
        detail=True,
        methods=["get"],
        renderer_classes=[*api_settings.DEFAULT_RENDERER_CLASSES, CSVRenderer],
    )
    def standings(self, request, slug=None):
        """Points, then the campaign's tie-breakers in its order (``scoring``), a page at a time
        as every list (``?page=``, ``?page_size=``). ``?format=csv``: every row."""
        campaign = self.get_object()
        number = request.query_params.get("round")
        number = parse_id(number)
        rows = services.standings_compute(campaign=campaign, round=number)
        if request.accepted_renderer.format == "csv":
            players = selectors.players_by_warband(campaign)
            filename = csv_filename(campaign, number)
            return Response(
                standings_csv(rows, players=players),
                headers={"Content-Disposition": f'attachment; filename="{filename}"'},
            )
        scheme = scoring.scheme_of(campaign)
        page = self.paginate_queryset(rows)
        response = self.get_paginated_response(s.StandingSerializer(page, many=True).data)
        response.data["round"] = number
        response.data["scoring"] = s.ScoringSerializer(scheme).data
        return response


class CampaignJoinView(APIView):
    """Join a campaign with its join code and one of your warbands."""

    @extend_schema(request=s.JoinSerializer, responses={201: s.JoinedSerializer})
    def post(self, request):
        data = s.JoinSerializer(data=request.data)
        data.is_valid(raise_exception=True)
        code = data.validated_data["join_code"].strip().upper()
        campaign = Campaign.objects.filter(join_code=code).first()
        if campaign is None:
            raise ValidationError({"join_code": _("No campaign has that join code.")})
        warband = Warband.objects.filter(pk=data.validated_data["warband"]).first()
        membership = services.campaign_join(
            campaign=campaign, user=request.user, warband=warband, join_code=code
        )
        body = s.MembershipSerializer(membership).data
        body["campaign"] = campaign.slug
        return Response(body, status=status.HTTP_201_CREATED)
