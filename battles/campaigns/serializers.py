"""Serializers of the campaigns API: shapes only. Writes go through the campaign services."""

from __future__ import annotations

from django.core.exceptions import ValidationError as DjangoValidationError
from django.utils.translation import gettext_lazy as _
from drf_spectacular.utils import extend_schema_field
from rest_framework import serializers

from battles.campaigns import league_settings
from battles.campaigns.house_rules import house_rules_clean
from battles.campaigns.league_settings import Kind, Setting
from battles.campaigns.presets import PRESET_CHOICES
from battles.campaigns.services.schedule import round_dates_check
from battles.common import access
from battles.common.api import MAX_ID, version_field
from battles.models import Campaign, Membership, Round
from warbands.models import WarbandType


class WarbandTypeField(serializers.SlugRelatedField):
    def __init__(self, **kwargs):
        super().__init__(slug_field="slug", queryset=WarbandType.objects.all(), **kwargs)


@extend_schema_field({"type": "object", "additionalProperties": True})
class HouseRuleTablesField(serializers.JSONField):
    """The campaign's house-rule tables: an object (never null), checked by the services."""


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


def setting_field(setting: Setting) -> serializers.Field:
    """The write field of a declared setting. Bounds and lengths are the domain's to check
    (``house_rules_clean``: the same message as the form's); set after the field is built, the
    schema still shows them."""
    help_text = setting.help or None
    match setting.kind:
        case Kind.NUMBER:
            field = serializers.IntegerField(
                required=False, allow_null=setting.no_limit, help_text=help_text
            )
            field.min_value, field.max_value = setting.bounds
        case Kind.TEXT:
            field = serializers.CharField(required=False, allow_blank=True, help_text=help_text)
            field.max_length = setting.max_length
        case Kind.CHOICES | Kind.ORDER:
            choices = setting.choices()
            field = serializers.ListField(
                child=serializers.ChoiceField(choices=choices),
                required=False,
                max_length=len(choices) if setting.kind == Kind.ORDER else None,
                help_text=help_text,
            )
        case Kind.TABLES:
            field = HouseRuleTablesField(required=False, help_text=help_text)
        case Kind.SWORDS:
            field = HiredSwordsForbiddenField(required=False, help_text=help_text)
        case Kind.TYPES:
            field = WarbandTypeField(many=True, required=False, help_text=help_text)
        case Kind.FLAG:
            field = serializers.BooleanField(required=False, help_text=help_text)
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
            *(setting.key for setting in league_settings.SETTINGS),
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


class CampaignWriteSerializer(serializers.Serializer):
    """A campaign's name and any of its settings (``league_settings``, one field each)."""

    name = serializers.CharField(max_length=120)
    description = serializers.CharField(required=False, allow_blank=True)
    public = serializers.BooleanField(required=False)
    preset = serializers.ChoiceField(choices=PRESET_CHOICES, required=False)

    def get_fields(self):
        fields = super().get_fields()
        for setting in league_settings.SETTINGS:
            fields[setting.key] = setting_field(setting)
        return fields

    def validate(self, attrs):
        """The house rules and the scoring given, checked by the domain (``house_rules_clean``):
        the same messages as the campaign form. The service checks them again, against the
        campaign's current values for a partial change."""
        try:
            keys = league_settings.house_rule_keys()
            house_rules_clean({k: v for k, v in attrs.items() if k in keys})
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


class GenerateSerializer(serializers.Serializer):
    method = serializers.ChoiceField(choices=[Round.Method.SWISS, Round.Method.RATING])


class PairingSerializer(serializers.Serializer):
    warbands = serializers.ListField(
        child=serializers.IntegerField(min_value=1, max_value=MAX_ID), min_length=1, max_length=4
    )
    round = serializers.IntegerField(min_value=1, max_value=MAX_ID, required=False, allow_null=True)
    scenario = serializers.CharField(max_length=120, required=False, allow_blank=True)
    version = version_field()


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
    """The standings answer: a page of rows in rank order, shaped as every list's page, with
    the round they are after (null: all rounds) and the scoring that ranked them."""

    count = serializers.IntegerField(help_text=_("The rows in all pages."))
    next = serializers.URLField(allow_null=True, help_text=_("The next page, absolute, or null."))
    previous = serializers.URLField(
        allow_null=True, help_text=_("The page before, absolute, or null.")
    )
    results = StandingSerializer(many=True)
    round = serializers.IntegerField(allow_null=True)
    scoring = ScoringSerializer()
