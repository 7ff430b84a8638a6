"""Equipment of a warrior, a group or the stash: list, buy, sell, stash, assign."""

from __future__ import annotations

from django.http import Http404
from django.utils.translation import gettext_lazy as _
from drf_spectacular.utils import extend_schema, extend_schema_view
from rest_framework.response import Response
from rest_framework.views import APIView

from ... import services
from ...models import EquipmentItem, Warband
from .. import serializers as s
from ._common import (
    ERRORS,
    IF_MATCH,
    WRITE_ERRORS,
    expected_version,
    own_fighter,
    own_group,
    result,
)


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


ITEM_ACTION_SUMMARIES = {
    "sell": _("Sell an item for half its price (rounded down)"),
    "stash": _("Move an item to the warband's stash"),
    "assign": _("Give a stash item to a warrior or a group (reallocate equipment)"),
}


def item_action_view(holder: str, operation: str):
    """The view of one operation on one kind of holder's item, with its own schema."""
    request_serializer = (
        s.WarbandAssignSerializer if operation == "assign" else s.WarbandVersionSerializer
    )
    view = type(
        f"{holder.title()}{operation.title()}View",
        (ItemActionView,),
        {"holder": holder, "operation": operation},
    )
    # extend_schema_view gives each generated class its own copy of ``post`` to annotate.
    return extend_schema_view(
        post=extend_schema(
            summary=ITEM_ACTION_SUMMARIES[operation],
            request=request_serializer,
            parameters=[IF_MATCH],
            responses=WRITE_ERRORS,
            tags=["equipment"],
        )
    )(view).as_view()
