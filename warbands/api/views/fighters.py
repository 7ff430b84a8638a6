"""One hero or one henchman group of the caller's warband: read, rename, dismiss; retire."""

from __future__ import annotations

from collections.abc import Callable
from typing import Any

from django.utils.translation import gettext_lazy as _
from drf_spectacular.utils import extend_schema, extend_schema_view
from rest_framework.response import Response
from rest_framework.serializers import Serializer
from rest_framework.views import APIView

from ... import services
from .. import serializers as s
from ._common import (
    ERRORS,
    IF_MATCH,
    WRITE_ERRORS,
    expected_version,
    fighter_payload,
    group_payload,
    own_fighter,
    own_group,
    result,
)


# ``warbands/{id}/fighters/{id}/`` and ``warbands/{id}/groups/{id}/``: one view, told what it
# holds (``kind``), how to find it, show it, rename it and dismiss it. (A comment, not a
# docstring: the schema would show a docstring as each endpoint's description.)
class RosterMemberView(APIView):
    kind: str
    serializer: type[Serializer]
    find: Callable[..., Any]  # (request, pk, warband_id=…) → the caller's own, or 404
    payload: Callable[[int], Any]  # id → the row with what its serializer reads
    rename: Callable[..., Any]  # the service
    dismiss: Callable[..., Any]  # the service

    def _own(self, request, warband_pk, pk):
        return self.find(request, pk, warband_id=warband_pk)

    def get(self, request, warband_pk, pk):
        member = self._own(request, warband_pk, pk)
        return Response(self.serializer(self.payload(member.pk)).data)

    def patch(self, request, warband_pk, pk):
        member = self._own(request, warband_pk, pk)
        serializer = s.WarbandRenameSerializer(data=request.data)
        serializer.is_valid(raise_exception=True)
        self.rename(
            **{self.kind: member},
            expected_version=expected_version(request),
            name=serializer.validated_data["name"],
        )
        return result(member.warband_id, **{self.kind: self.payload(member.pk)})

    def delete(self, request, warband_pk, pk):
        member = self._own(request, warband_pk, pk)
        self.dismiss(**{self.kind: member}, expected_version=expected_version(request))
        return result(member.warband_id)


def _member_schema(*, one: str, rename: str, dismiss: str, serializer) -> Callable:
    return extend_schema_view(
        get=extend_schema(
            summary=one, responses={200: serializer, 404: ERRORS[404]}, tags=["fighters"]
        ),
        patch=extend_schema(
            summary=rename,
            request=s.WarbandRenameSerializer,
            parameters=[IF_MATCH],
            responses=WRITE_ERRORS,
            tags=["fighters"],
        ),
        delete=extend_schema(
            summary=dismiss,
            parameters=[IF_MATCH],
            request=None,
            responses=WRITE_ERRORS,
            tags=["fighters"],
        ),
    )


@_member_schema(
    one=_("One warrior"),
    rename=_("Rename a warrior"),
    dismiss=_(
        "Dismiss a warrior (his equipment goes to the stash); a hired sword leaves with his own"
    ),
    serializer=s.FighterSerializer,
)
class FighterDetailView(RosterMemberView):
    kind = "fighter"
    find = staticmethod(own_fighter)
    payload = staticmethod(fighter_payload)
    serializer = s.FighterSerializer
    rename = staticmethod(services.fighter_update)
    dismiss = staticmethod(services.fighter_or_sword_dismiss)


@_member_schema(
    one=_("One henchman group"),
    rename=_("Rename a henchman group"),
    dismiss=_("Dismiss a whole henchman group"),
    serializer=s.HenchmanGroupSerializer,
)
class GroupDetailView(RosterMemberView):
    kind = "group"
    find = staticmethod(own_group)
    payload = staticmethod(group_payload)
    serializer = s.HenchmanGroupSerializer
    rename = staticmethod(services.group_update)
    dismiss = staticmethod(services.group_dismiss)


class FighterRetireView(APIView):
    @extend_schema(
        summary=_("Retire a warrior"),
        request=s.WarbandVersionSerializer,
        parameters=[IF_MATCH],
        responses=WRITE_ERRORS,
        tags=["fighters"],
    )
    def post(self, request, warband_pk, pk):
        fighter = own_fighter(request, pk, warband_id=warband_pk)
        services.fighter_retire(fighter=fighter, expected_version=expected_version(request))
        return result(fighter.warband_id, fighter=fighter_payload(fighter.pk))
