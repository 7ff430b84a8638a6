"""The battles API: battles and their events; a report, its confirmation, dispute, settlement
and correction; a pairing changed or removed by hand.

Thin: parse with a serializer, call one service or selector, answer. Who may do what is decided
in ``battles.common.access`` and enforced by the services (403); what a caller may not see is 404
(401 for an anonymous caller).
"""

from __future__ import annotations

from django.utils.translation import gettext_lazy
from django_filters import rest_framework as filters
from drf_spectacular.utils import extend_schema
from rest_framework import mixins, status, viewsets
from rest_framework.decorators import action
from rest_framework.permissions import IsAuthenticatedOrReadOnly
from rest_framework.response import Response

from annuminas.api.conditional import if_none_match, not_modified
from annuminas.api.versioning import VersionedKind
from annuminas.converters import IdConverter
from battles.campaigns import services as campaigns
from battles.campaigns.serializers import PairingSerializer
from battles.common.api import visible_or_401
from battles.models import Battle

from . import selectors, services
from . import serializers as s

# The version a write expects: the project's one rule (annuminas.api.versioning).
BATTLE_VERSION = VersionedKind("battle", gettext_lazy("If-Match is not a battle ETag."))


def battle_etag(battle: Battle) -> str:
    return f'"battle-{battle.pk}-v{battle.version}"'


class BattleFilter(filters.FilterSet):
    campaign = filters.CharFilter(field_name="campaign__slug")
    round = filters.NumberFilter(field_name="round__number")
    mine = filters.BooleanFilter(
        method="filter_mine",
        label=gettext_lazy("Only the battles one of my warbands fights (true), or the others."),
    )

    def filter_mine(self, queryset, name, value):
        user = self.request.user
        if not user.is_authenticated:
            return queryset.none() if value else queryset
        mine = Battle.objects.filter(participants__warband__owner=user).values("pk")
        return queryset.filter(pk__in=mine) if value else queryset.exclude(pk__in=mine)

    class Meta:
        model = Battle
        fields = ["campaign", "round", "status"]


class BattleViewSet(mixins.ListModelMixin, mixins.RetrieveModelMixin, viewsets.GenericViewSet):
    """Battles of the campaigns the caller may see (anyone: those of public campaigns). Writes
    need a login and take the ``version`` the client read (or ``If-Match`` with the ETag): a
    stale one answers 409."""

    permission_classes = [IsAuthenticatedOrReadOnly]

    lookup_value_regex = IdConverter.regex  # ids only: a text id is a 404, never a 500

    serializer_class = s.BattleSerializer
    filterset_class = BattleFilter
    ordering_fields = ["id", "status"]

    def get_queryset(self):
        return selectors.battle_queryset(user=self.request.user)

    def get_object(self) -> Battle:
        return visible_or_401(
            self.request,
            lambda: selectors.battle_detail(user=self.request.user, pk=self.kwargs["pk"]),
        )

    def _answer(self, battle: Battle, code=status.HTTP_200_OK) -> Response:
        battle = selectors.battle_detail(user=self.request.user, pk=battle.pk)
        serializer = s.BattleDetailSerializer(battle, context=self.get_serializer_context())
        return Response(serializer.data, status=code, headers={"ETag": battle_etag(battle)})

    @extend_schema(responses={200: s.BattleDetailSerializer, 304: None})
    def retrieve(self, request, pk=None):
        battle = self.get_object()
        if if_none_match(request, battle_etag(battle)):
            return not_modified(battle_etag(battle))
        serializer = s.BattleDetailSerializer(battle, context=self.get_serializer_context())
        return Response(serializer.data, headers={"ETag": battle_etag(battle)})

    @extend_schema(request=None, responses={204: None})
    def destroy(self, request, pk=None):
        """Remove a scheduled pairing (organisers)."""
        campaigns.pairing_delete(battle=self.get_object(), by=request.user)
        return Response(status=status.HTTP_204_NO_CONTENT)

    def _write(self, request, serializer_class) -> tuple[Battle, dict, int | None]:
        """What every write opens with: the battle (404, or 401 for an anonymous caller), the
        checked body (400) and the version the client read (body or ``If-Match``)."""
        battle = self.get_object()
        data = serializer_class(data=request.data)
        data.is_valid(raise_exception=True)
        body = data.validated_data
        return battle, body, BATTLE_VERSION.expected_version(request, body=body)

    @extend_schema(request=PairingSerializer, responses=s.BattleDetailSerializer)
    @action(detail=True, methods=["put"])
    def pairing(self, request, pk=None):
        """Change the warbands of a scheduled battle by hand (organisers)."""
        battle, body, version = self._write(request, PairingSerializer)
        battle = campaigns.pairing_edit(
            battle=battle, by=request.user, warband_ids=body["warbands"], expected_version=version
        )
        return self._answer(battle)

    @extend_schema(request=s.ReportSerializer, responses=s.BattleDetailSerializer)
    @action(detail=True, methods=["post"])
    def report(self, request, pk=None):
        """A participant reports the battle: scheduled → reported."""
        battle, body, version = self._write(request, s.ReportSerializer)
        report = s.report_from_data(body)
        battle = services.battle_report(
            battle=battle, reporter=request.user, report=report, expected_version=version
        )
        return self._answer(battle)

    @extend_schema(request=s.VersionSerializer, responses=s.BattleDetailSerializer)
    @action(detail=True, methods=["post"])
    def confirm(self, request, pk=None):
        """The opponent (or an organiser) confirms: reported → confirmed."""
        battle, _body, version = self._write(request, s.VersionSerializer)
        battle = services.battle_confirm(battle=battle, by=request.user, expected_version=version)
        return self._answer(battle)

    @extend_schema(request=s.DisputeSerializer, responses=s.BattleDetailSerializer)
    @action(detail=True, methods=["post"])
    def dispute(self, request, pk=None):
        """The opponent disputes the report with a reason: reported → disputed."""
        battle, body, version = self._write(request, s.DisputeSerializer)
        battle = services.battle_dispute(
            battle=battle, by=request.user, reason=body["reason"], expected_version=version
        )
        return self._answer(battle)

    @extend_schema(request=s.SettleSerializer, responses=s.BattleDetailSerializer)
    @action(detail=True, methods=["post"])
    def settle(self, request, pk=None):
        """An organiser settles a dispute, optionally rewriting the report: → confirmed."""
        battle, body, version = self._write(request, s.SettleSerializer)
        report = s.report_from_data(body["report"]) if body.get("report") else None
        battle = services.battle_settle(
            battle=battle,
            by=request.user,
            reason=body["reason"],
            report=report,
            expected_version=version,
        )
        return self._answer(battle)

    @extend_schema(request=s.CorrectSerializer, responses=s.BattleDetailSerializer)
    @action(detail=True, methods=["post"])
    def correct(self, request, pk=None):
        """An organiser corrects a confirmed report; the correction is recorded."""
        battle, body, version = self._write(request, s.CorrectSerializer)
        battle = services.battle_correct(
            battle=battle,
            by=request.user,
            reason=body["reason"],
            report=s.report_from_data(body["report"]),
            expected_version=version,
        )
        return self._answer(battle)

    @extend_schema(responses=s.EventSerializer(many=True), filters=False)
    @action(detail=True, methods=["get"])
    def events(self, request, pk=None):
        """Who put whom out of action, with what, in which turn; routs."""
        battle = self.get_object()
        page = self.paginate_queryset(list(battle.events.all()))
        return self.get_paginated_response(s.EventSerializer(page, many=True).data)
