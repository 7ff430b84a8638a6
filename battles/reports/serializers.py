"""Serializers of the battles API: shapes only. Writes go through ``battles.reports.services``."""

from __future__ import annotations

from rest_framework import serializers

from battles.common import access
from battles.common.api import MAX_ID, version_field
from battles.models import (
    Battle,
    BattleEvent,
    BattleParticipant,
)
from battles.reports.check import EventReport, ParticipantReport, Report


class ParticipantSerializer(serializers.ModelSerializer):
    warband_name = serializers.CharField(source="warband.name", read_only=True)
    owner = serializers.IntegerField(source="warband.owner_id", read_only=True)
    fighters = serializers.PrimaryKeyRelatedField(many=True, read_only=True)

    class Meta:
        model = BattleParticipant
        fields = [
            "warband", "warband_name", "owner", "result", "routed", "voluntary_rout",
            "rating_at_battle", "fighters",
        ]  # fmt: skip
        read_only_fields = fields


class EventSerializer(serializers.ModelSerializer):
    class Meta:
        model = BattleEvent
        fields = [
            "id", "turn", "kind", "actor_warband", "actor", "target_warband", "target",
            "weapon", "voluntary", "notes",
        ]  # fmt: skip
        read_only_fields = fields


class BattleSerializer(serializers.ModelSerializer):
    campaign = serializers.SlugRelatedField(slug_field="slug", read_only=True)
    round = serializers.IntegerField(
        source="round.number", read_only=True, default=None, allow_null=True
    )
    participants = ParticipantSerializer(many=True, read_only=True)
    reported_by = serializers.StringRelatedField(allow_null=True)
    confirmed_by = serializers.StringRelatedField(allow_null=True)
    disputed_by = serializers.StringRelatedField(allow_null=True)
    url = serializers.HyperlinkedIdentityField(view_name="api-battle-detail")
    can = serializers.SerializerMethodField()

    class Meta:
        model = Battle
        fields = [
            "url", "id", "campaign", "round", "scenario", "status", "is_bye", "is_draw",
            "participants", "notes", "reported_by", "reported_at", "confirmed_by",
            "confirmed_at", "disputed_by", "dispute_reason", "version", "can",
        ]  # fmt: skip
        read_only_fields = fields

    def get_can(self, battle) -> dict[str, bool]:
        user = self.context["request"].user
        organiser = access.is_organiser(user, battle.campaign)
        writable = not battle.campaign.archived
        status = battle.status
        return {
            "report": writable
            and status == Battle.Status.SCHEDULED
            and access.can_report(user, battle),
            "confirm": writable
            and status == Battle.Status.REPORTED
            and access.can_confirm(user, battle),
            "dispute": writable
            and status == Battle.Status.REPORTED
            and access.can_dispute(user, battle),
            "settle": writable and organiser and status in ("reported", "disputed"),
            "correct": writable and organiser and battle.is_frozen and not battle.is_bye,
        }


class BattleDetailSerializer(BattleSerializer):
    events = EventSerializer(many=True, read_only=True)

    class Meta(BattleSerializer.Meta):
        fields = [*BattleSerializer.Meta.fields, "events"]
        read_only_fields = fields


class ParticipantReportSerializer(serializers.Serializer):
    warband = serializers.IntegerField(min_value=1, max_value=MAX_ID)
    routed = serializers.BooleanField(default=False)
    voluntary_rout = serializers.BooleanField(default=False)
    fighters = serializers.ListField(
        child=serializers.IntegerField(min_value=1, max_value=MAX_ID), default=list, max_length=50
    )


class EventReportSerializer(serializers.Serializer):
    turn = serializers.IntegerField(min_value=1, max_value=99)
    kind = serializers.ChoiceField(choices=BattleEvent.Kind.choices)
    actor_warband = serializers.IntegerField(
        min_value=1, max_value=MAX_ID, required=False, allow_null=True
    )
    actor = serializers.IntegerField(min_value=1, max_value=MAX_ID, required=False, allow_null=True)
    target_warband = serializers.IntegerField(
        min_value=1, max_value=MAX_ID, required=False, allow_null=True
    )
    target = serializers.IntegerField(
        min_value=1, max_value=MAX_ID, required=False, allow_null=True
    )
    weapon = serializers.CharField(max_length=80, required=False, allow_blank=True, default="")
    voluntary = serializers.BooleanField(default=False)
    notes = serializers.CharField(max_length=300, required=False, allow_blank=True, default="")


def report_from_data(data: dict) -> Report:
    """Validated report data (``ReportSerializer``) → the services' ``Report``."""
    return Report(
        scenario=data.get("scenario", ""),
        is_draw=data.get("is_draw", False),
        winner_ids=data.get("winners", []),
        participants=[
            ParticipantReport(
                warband_id=p["warband"],
                routed=p["routed"],
                voluntary_rout=p["voluntary_rout"],
                fighter_ids=p["fighters"],
            )
            for p in data.get("participants", [])
        ],
        events=[
            EventReport(
                turn=e["turn"],
                kind=e["kind"],
                actor_warband_id=e.get("actor_warband"),
                actor_id=e.get("actor"),
                target_warband_id=e.get("target_warband"),
                target_id=e.get("target"),
                weapon=e["weapon"],
                voluntary=e["voluntary"],
                notes=e["notes"],
            )
            for e in data.get("events", [])
        ],
        notes=data.get("notes", ""),
    )


class ReportSerializer(serializers.Serializer):
    version = version_field()
    scenario = serializers.CharField(max_length=120, required=False, allow_blank=True, default="")
    is_draw = serializers.BooleanField(default=False)
    winners = serializers.ListField(
        child=serializers.IntegerField(min_value=1, max_value=MAX_ID), default=list, max_length=4
    )
    participants = ParticipantReportSerializer(many=True, default=list)
    events = EventReportSerializer(many=True, default=list)
    notes = serializers.CharField(required=False, allow_blank=True, default="")


class VersionSerializer(serializers.Serializer):
    version = version_field()


class DisputeSerializer(VersionSerializer):
    reason = serializers.CharField(max_length=2000)


class SettleSerializer(VersionSerializer):
    reason = serializers.CharField(max_length=2000)
    report = ReportSerializer(required=False, allow_null=True)


class CorrectSerializer(VersionSerializer):
    reason = serializers.CharField(max_length=2000)
    report = ReportSerializer()
