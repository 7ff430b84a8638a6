"""Serializers: shapes only. Writes go through ``battles.services``."""

from __future__ import annotations

from django.core.exceptions import ValidationError as DjangoValidationError
from django.utils.translation import gettext_lazy as _
from drf_spectacular.utils import extend_schema_field
from rest_framework import serializers

from warbands.models import WarbandType

from .. import access
from ..house_rules import HOUSE_RULE_KEYS, NUMBER_BOUNDS, TEXT_MAX_LENGTH, house_rules_clean
from ..models import (
    OPTIONAL_RULES,
    Battle,
    BattleEvent,
    BattleParticipant,
    Campaign,
    Membership,
    Round,
)
from ..presets import PRESET_CHOICES
from ..round_schedule import round_dates_check
from ..scoring import TIE_BREAKER_CHOICES
from ..services import EventReport, ParticipantReport, Report

MAX_ID = 10**18 - 1  # ids fit a bigint on every database (see annuminas.converters)


class WarbandTypeField(serializers.SlugRelatedField):
    def __init__(self, **kwargs):
        super().__init__(slug_field="slug", queryset=WarbandType.objects.all(), **kwargs)


@extend_schema_field({"type": "object", "additionalProperties": True})
class HouseRuleTablesField(serializers.JSONField):
    """The campaign's house-rule tables: an object (never null), checked by the services."""


def _house_rule_number(name: str, **kwargs) -> serializers.IntegerField:
    """A whole number whose bounds ``house_rules_clean`` checks (the same message as the form's);
    the schema still shows them."""
    field = serializers.IntegerField(required=False, **kwargs)
    field.min_value, field.max_value = NUMBER_BOUNDS[name]
    return field


def _house_rule_text(name: str) -> serializers.CharField:
    field = serializers.CharField(required=False, allow_blank=True)
    field.max_length = TEXT_MAX_LENGTH[name]
    return field


class CampaignSerializer(serializers.ModelSerializer):
    allowed_warband_types = serializers.SlugRelatedField(
        slug_field="slug", many=True, read_only=True
    )
    organisers = serializers.SerializerMethodField()
    player_count = serializers.SerializerMethodField()
    join_code = serializers.SerializerMethodField()
    is_organiser = serializers.SerializerMethodField()
    url = serializers.HyperlinkedIdentityField(view_name="api-campaign-detail", lookup_field="slug")

    class Meta:
        model = Campaign
        fields = [
            "url", "slug", "name", "description", "state", "archived", "public", "preset",
            "starting_treasury", "rating_cap", "allowed_warband_types",
            "max_fighter_type_copies", "points_win", "points_draw", "points_loss", "points_bye",
            "points_per_out_of_action", "points_per_objective", "tie_breakers",
            "optional_rules", "tables", "table_size", "game_length", "hired_swords_forbidden",
            "organisers", "player_count", "join_code", "is_organiser", "created_at",
        ]  # fmt: skip
        read_only_fields = fields

    def _memberships(self, campaign):
        cache = getattr(campaign, "_prefetched_objects_cache", {})
        return cache.get("memberships")

    def get_organisers(self, campaign) -> list[str]:
        memberships = self._memberships(campaign)
        if memberships is None:
            return []
        return [m.user.username for m in memberships if m.is_organiser]

    def get_player_count(self, campaign) -> int:
        if hasattr(campaign, "player_count"):
            return campaign.player_count
        memberships = self._memberships(campaign) or []
        return sum(1 for m in memberships if m.active and m.warband_id)

    def get_is_organiser(self, campaign) -> bool:
        return access.is_organiser(self.context["request"].user, campaign)

    def get_join_code(self, campaign) -> str | None:
        """Only organisers see the code they hand out."""
        return campaign.join_code if self.get_is_organiser(campaign) else None


@extend_schema_field(
    {
        "oneOf": [
            {"type": "string", "enum": ["all"]},
            {"type": "array", "items": {"type": "string"}, "maxItems": 50},
        ]
    }
)
class HiredSwordsForbiddenField(serializers.JSONField):
    """``"all"``, or the slugs of the hired swords this campaign forbids (checked by the
    domain's ``house_rules_clean``)."""


class CampaignWriteSerializer(serializers.Serializer):
    name = serializers.CharField(max_length=120)
    description = serializers.CharField(required=False, allow_blank=True)
    public = serializers.BooleanField(required=False)
    preset = serializers.ChoiceField(choices=PRESET_CHOICES, required=False)
    starting_treasury = _house_rule_number("starting_treasury")
    rating_cap = _house_rule_number("rating_cap", allow_null=True)
    allowed_warband_types = WarbandTypeField(many=True, required=False)
    max_fighter_type_copies = _house_rule_number("max_fighter_type_copies", allow_null=True)
    points_win = _house_rule_number("points_win")
    points_draw = _house_rule_number("points_draw")
    points_loss = _house_rule_number("points_loss")
    points_bye = _house_rule_number("points_bye")
    points_per_out_of_action = _house_rule_number("points_per_out_of_action")
    points_per_objective = _house_rule_number("points_per_objective")
    tie_breakers = serializers.ListField(
        child=serializers.ChoiceField(choices=TIE_BREAKER_CHOICES),
        required=False,
        max_length=len(TIE_BREAKER_CHOICES),
        help_text=_("The order of tie-breakers; each name at most once."),
    )
    optional_rules = serializers.ListField(
        child=serializers.ChoiceField(choices=OPTIONAL_RULES), required=False
    )
    tables = HouseRuleTablesField(required=False)
    hired_swords_forbidden = HiredSwordsForbiddenField(required=False)
    table_size = _house_rule_text("table_size")
    game_length = _house_rule_text("game_length")

    HOUSE_RULES = HOUSE_RULE_KEYS

    def validate(self, attrs):
        """The house rules and the scoring given, checked by the domain (``house_rules_clean``):
        the same messages as the campaign form. The service checks them again, against the
        campaign's current values for a partial change."""
        try:
            house_rules_clean({k: v for k, v in attrs.items() if k in HOUSE_RULE_KEYS})
        except DjangoValidationError as error:
            raise serializers.ValidationError(error.message_dict) from error
        return attrs


class TransitionSerializer(serializers.Serializer):
    state = serializers.ChoiceField(choices=Campaign.State.choices)


class ArchiveSerializer(serializers.Serializer):
    archived = serializers.BooleanField(default=True)


class JoinSerializer(serializers.Serializer):
    join_code = serializers.CharField(max_length=12)
    warband = serializers.IntegerField(
        min_value=1, max_value=MAX_ID, help_text=_("The id of one of your warbands.")
    )


class OrganiserSerializer(serializers.Serializer):
    username = serializers.CharField(max_length=150)


class MembershipSerializer(serializers.ModelSerializer):
    username = serializers.CharField(source="user.username", read_only=True)
    warband_name = serializers.CharField(
        source="warband.name", read_only=True, default=None, allow_null=True
    )
    warband_type = serializers.CharField(
        source="warband.warband_type.name", read_only=True, default=None, allow_null=True
    )
    rating = serializers.IntegerField(
        source="warband.rating", read_only=True, default=None, allow_null=True
    )

    class Meta:
        model = Membership
        fields = [
            "id", "username", "role", "warband", "warband_name", "warband_type", "rating",
            "active", "joined_at",
        ]  # fmt: skip
        read_only_fields = fields


class JoinedSerializer(MembershipSerializer):
    """The membership a join made, with the campaign's slug."""

    campaign = serializers.CharField(read_only=True)

    class Meta(MembershipSerializer.Meta):
        fields = [*MembershipSerializer.Meta.fields, "campaign"]
        read_only_fields = fields


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


class RoundSerializer(serializers.ModelSerializer):
    battles = serializers.SerializerMethodField()

    class Meta:
        model = Round
        fields = [
            "number", "status", "pairing_method", "opened_at", "closed_at", "starts_on",
            "closes_at", "battles",
        ]  # fmt: skip
        read_only_fields = fields

    def get_battles(self, round) -> list[int]:
        return [battle.pk for battle in round.battles.all()]


class RoundDatesSerializer(serializers.Serializer):
    """A round's start day and deadline (null clears one). Given a ``round`` in the context,
    a missing field keeps the round's value."""

    starts_on = serializers.DateField(required=False, allow_null=True)
    closes_at = serializers.DateTimeField(required=False, allow_null=True)

    def validate(self, attrs):
        round = self.context.get("round")
        dates = {
            name: attrs.get(name, getattr(round, name) if round else None)
            for name in ("starts_on", "closes_at")
        }
        round_dates_check(**dates, previous_closes_at=round.closes_at if round else None)
        return dates


def version_field() -> serializers.IntegerField:
    """The battle's ``version`` the client read (or ``If-Match``): a stale one is a 409."""
    return serializers.IntegerField(
        min_value=0, max_value=2**31 - 1, required=False, allow_null=True
    )


class GenerateSerializer(serializers.Serializer):
    method = serializers.ChoiceField(choices=[Round.Method.SWISS, Round.Method.RATING])


class PairingSerializer(serializers.Serializer):
    warbands = serializers.ListField(
        child=serializers.IntegerField(min_value=1, max_value=MAX_ID), min_length=1, max_length=4
    )
    round = serializers.IntegerField(min_value=1, max_value=MAX_ID, required=False, allow_null=True)
    scenario = serializers.CharField(max_length=120, required=False, allow_blank=True)
    version = version_field()


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


class StandingSerializer(serializers.Serializer):
    rank = serializers.IntegerField()
    warband = serializers.IntegerField(source="competitor_id")
    warband_name = serializers.CharField(source="name")
    rating = serializers.IntegerField()
    played = serializers.IntegerField()
    wins = serializers.IntegerField()
    draws = serializers.IntegerField()
    losses = serializers.IntegerField()
    byes = serializers.IntegerField()
    points = serializers.IntegerField()
    bonus_points = serializers.IntegerField()
    opponents_points = serializers.IntegerField()
    enemies_out_of_action = serializers.IntegerField()
    objectives = serializers.IntegerField()
    rating_difference = serializers.IntegerField()
    head_to_head = serializers.IntegerField(
        help_text=_("Points won among the warbands it was tied with (when that tie-breaker ran).")
    )


class ScoringSerializer(serializers.Serializer):
    win = serializers.IntegerField()
    draw = serializers.IntegerField()
    loss = serializers.IntegerField()
    bye = serializers.IntegerField()
    per_out_of_action = serializers.IntegerField()
    per_objective = serializers.IntegerField()
    tie_breakers = serializers.ListField(child=serializers.CharField())


class StandingsSerializer(serializers.Serializer):
    """The standings answer: the round they are after (null: all rounds) and every row."""

    round = serializers.IntegerField(allow_null=True)
    scoring = ScoringSerializer()
    results = StandingSerializer(many=True)
