"""Serializers: shapes only. Writes go through ``warbands.services``."""

from __future__ import annotations

from django.urls import reverse
from django.utils.translation import gettext_lazy as _
from drf_spectacular.utils import extend_schema_field
from rest_framework import serializers

from ..limits import NAME_MAX_LENGTH, NOTES_MAX_LENGTH
from ..models import (
    PROFILE_FIELDS,
    Equipment,
    EquipmentItem,
    EquipmentList,
    Fighter,
    FighterType,
    HenchmanGroup,
    LedgerEntry,
    Race,
    Skill,
    SkillList,
    SpecialRule,
    Warband,
    WarbandType,
)
from ..presentation import sheet_sources
from ..services.undo import undo_offer, undo_point_text


class WarbandProfileSerializer(serializers.Serializer):
    m = serializers.FloatField(help_text=_("Movement (M) in cm."))
    ws = serializers.IntegerField(help_text="HA")
    bs = serializers.IntegerField(help_text="HP")
    s = serializers.IntegerField(help_text="F")
    t = serializers.IntegerField(help_text="R")
    w = serializers.IntegerField(help_text="H")
    i = serializers.IntegerField(help_text="I")
    a = serializers.IntegerField(help_text="A")
    ld = serializers.IntegerField(help_text="L")


def profile_of(obj) -> dict:
    return {field: getattr(obj, field) for field in PROFILE_FIELDS}


@extend_schema_field(WarbandProfileSerializer)
class ProfileField(serializers.ReadOnlyField):
    """A profile (M, WS … Ld) as an object: the row's own (``source="*"``) or a related row's
    (``source="fighter_type"``)."""

    def to_representation(self, value) -> dict:
        return profile_of(value)


# --- catalogue ---------------------------------------------------------------------------------

READER_LANGUAGE = _("In the language of the request (Accept-Language); the slug never changes.")


class CatalogueRowSerializer(serializers.ModelSerializer):
    """A catalogue row's name and description in the reader's language (the pack's Spanish when
    it has no translation)."""

    name = serializers.CharField(source="display_name", read_only=True, help_text=READER_LANGUAGE)
    description = serializers.CharField(
        source="display_description", read_only=True, help_text=READER_LANGUAGE
    )


class RaceSerializer(CatalogueRowSerializer):
    max_profile = serializers.SerializerMethodField()

    class Meta:
        model = Race
        fields = ["slug", "name", "description", "max_profile"]

    @extend_schema_field(WarbandProfileSerializer)
    def get_max_profile(self, obj) -> dict:
        return obj.max_profile()


class SpecialRuleSerializer(CatalogueRowSerializer):
    class Meta:
        model = SpecialRule
        fields = ["slug", "name", "description"]


class SkillSerializer(CatalogueRowSerializer):
    skill_list = serializers.SlugRelatedField(slug_field="slug", read_only=True)

    class Meta:
        model = Skill
        fields = ["slug", "name", "description", "skill_list", "effects"]


class EquipmentSerializer(CatalogueRowSerializer):
    strength = serializers.CharField(
        source="display_strength", read_only=True, help_text=READER_LANGUAGE
    )

    class Meta:
        model = Equipment
        fields = [
            "slug",
            "name",
            "description",
            "kind",
            "cost",
            "cost_dice",
            "rarity",
            "two_handed",
            "range_cm",
            "strength",
            "armour_save",
            "rules",
        ]


class EquipmentListEntrySerializer(serializers.Serializer):
    item = serializers.CharField(source="equipment.slug")
    name = serializers.CharField(source="equipment.display_name", help_text=READER_LANGUAGE)
    price = serializers.IntegerField()
    rare = serializers.BooleanField(source="is_rare")


class EquipmentListSerializer(CatalogueRowSerializer):
    items = EquipmentListEntrySerializer(source="entries", many=True, read_only=True)

    class Meta:
        model = EquipmentList
        fields = ["slug", "name", "description", "items"]


class FighterTypeSerializer(CatalogueRowSerializer):
    warband_type = serializers.SlugRelatedField(slug_field="slug", read_only=True)
    race = serializers.SlugRelatedField(slug_field="slug", read_only=True)
    equipment_list = serializers.SlugRelatedField(
        slug_field="slug", read_only=True, allow_null=True
    )
    skill_lists = serializers.SlugRelatedField(slug_field="slug", many=True, read_only=True)
    profile = ProfileField(source="*")

    class Meta:
        model = FighterType
        fields = [
            "slug",
            "name",
            "description",
            "warband_type",
            "race",
            "role",
            "cost",
            "max_count",
            "group_max_size",
            "starting_experience",
            "is_large",
            "can_gain_experience",
            "special_rules",
            "equipment_list",
            "skill_lists",
            "profile",
        ]


class WarbandTypeSerializer(CatalogueRowSerializer):
    race = serializers.SlugRelatedField(slug_field="slug", read_only=True)
    pack = serializers.SlugRelatedField(slug_field="slug", read_only=True)
    fighter_types = FighterTypeSerializer(many=True, read_only=True)

    class Meta:
        model = WarbandType
        fields = [
            "slug",
            "name",
            "description",
            "pack",
            "race",
            "starting_treasury",
            "min_size",
            "max_size",
            "max_heroes",
            "playable",
            "fighter_types",
        ]


class SkillListSerializer(CatalogueRowSerializer):
    class Meta:
        model = SkillList
        fields = ["slug", "name", "description"]


# --- rosters --------------------------------------------------------------------------------------


class UndoOfferSerializer(serializers.Serializer):
    code = serializers.CharField(help_text=_("What kind of change: hired_hero, bought, sold…"))
    change = serializers.CharField(help_text=_("The change in words, in your language."))


class WarbandSerializer(serializers.ModelSerializer):
    warband_type = serializers.SlugRelatedField(
        slug_field="slug", queryset=WarbandType.objects.filter(playable=True)
    )
    warband_type_name = serializers.CharField(
        source="warband_type.display_name", read_only=True, help_text=READER_LANGUAGE
    )
    sheet_url = serializers.SerializerMethodField()
    shared = serializers.SerializerMethodField(
        help_text=_("Whether the read-only share link is on (off for a new warband).")
    )
    share_url = serializers.SerializerMethodField(
        help_text=_("The read-only share link; null while sharing is off.")
    )
    undo = serializers.SerializerMethodField(
        help_text=_(
            "The last roster change, while it can still be undone (POST undo/); null otherwise."
        )
    )

    class Meta:
        model = Warband
        fields = [
            "id",
            "name",
            "warband_type",
            "warband_type_name",
            "treasury",
            "finds",
            "rating",
            "version",
            "notes",
            "sheet_url",
            "shared",
            "share_url",
            "share_notes",
            "undo",
            "created_at",
            "updated_at",
        ]
        read_only_fields = ["treasury", "finds", "rating", "version", "notes", "share_notes"]

    def get_sheet_url(self, obj) -> str:
        return reverse("warband-sheet", args=[obj.pk])

    def get_shared(self, obj) -> bool:
        return bool(obj.share_token)

    def get_share_url(self, obj) -> str | None:
        return reverse("warband-share", args=[obj.share_token]) if obj.share_token else None

    @extend_schema_field(UndoOfferSerializer(allow_null=True))
    def get_undo(self, obj) -> dict | None:
        point = undo_offer(obj)
        if point is None:
            return None
        return {"code": point.code, "change": undo_point_text(point)}


class WarbandCreateSerializer(serializers.Serializer):
    name = serializers.CharField(max_length=NAME_MAX_LENGTH)
    # The default catalogue's types and those of packs that are not private (a version's slug
    # is prefixed ``v<version id>-``).
    warband_type = serializers.SlugRelatedField(
        slug_field="slug",
        queryset=WarbandType.objects.filter(playable=True).exclude(
            pack__owner__isnull=False, pack__visibility="private"
        ),
    )


class VersionField(serializers.IntegerField):
    def __init__(self, **kwargs):
        kwargs.setdefault("required", False)
        kwargs.setdefault("min_value", 1)
        kwargs.setdefault(
            "help_text",
            _("The warband version you read (or send If-Match); a stale one answers 409."),
        )
        super().__init__(**kwargs)


class WarbandUpdateSerializer(serializers.Serializer):
    name = serializers.CharField(max_length=NAME_MAX_LENGTH, required=False)
    notes = serializers.CharField(required=False, allow_blank=True, max_length=NOTES_MAX_LENGTH)
    shared = serializers.BooleanField(
        required=False,
        help_text=_(
            "Turn the read-only share link on (a new link) or off (the link stops working)."
        ),
    )
    share_notes = serializers.BooleanField(
        required=False, help_text=_("Show the notes on the shared copy (private by default).")
    )
    rotate_share_link = serializers.BooleanField(
        required=False,
        help_text=_(
            "True: replace the share link (the old one stops working); sharing must be on."
        ),
    )
    version = VersionField()


class WarbandVersionSerializer(serializers.Serializer):
    version = VersionField()


class EquipmentItemSerializer(serializers.ModelSerializer):
    item = serializers.CharField(source="equipment.slug", read_only=True)
    name = serializers.CharField(
        source="equipment.display_name", read_only=True, help_text=READER_LANGUAGE
    )
    kind = serializers.CharField(source="equipment.kind", read_only=True)

    class Meta:
        model = EquipmentItem
        fields = ["id", "item", "name", "kind", "unit_price", "fighter", "group"]


# What a hero and a henchman group show alike: their type, their profile and their type's, their
# equipment. (A comment, not a docstring: the schema would show it as both components' text.)
class RosterHolderSerializer(serializers.ModelSerializer):
    fighter_type = serializers.SlugRelatedField(slug_field="slug", read_only=True)
    fighter_type_name = serializers.CharField(
        source="fighter_type.display_name", read_only=True, help_text=READER_LANGUAGE
    )
    profile = ProfileField(source="*")
    base_profile = ProfileField(source="fighter_type")
    equipment = EquipmentItemSerializer(many=True, read_only=True)


class FighterSerializer(RosterHolderSerializer):
    skills = serializers.SlugRelatedField(slug_field="slug", many=True, read_only=True)
    hired_sword = serializers.SerializerMethodField(
        help_text=_("A hired sword: serves for pay (its type's slug is the sword's).")
    )

    class Meta:
        model = Fighter
        fields = [
            "id",
            "name",
            "fighter_type",
            "fighter_type_name",
            "group",
            "is_hero",
            "is_leader",
            "status",
            "profile",
            "base_profile",
            "experience",
            "advances_due",
            "advances",
            "skills",
            "injuries",
            "special_rules",
            "misses_battles",
            "equipment",
            "hired_sword",
        ]

    def get_hired_sword(self, obj) -> bool:
        return obj.hired_sword_id is not None


class WarbandMemberSerializer(serializers.ModelSerializer):
    class Meta:
        model = Fighter
        fields = ["id", "name", "status", "injuries", "misses_battles"]


class HenchmanGroupSerializer(RosterHolderSerializer):
    members = WarbandMemberSerializer(many=True, read_only=True)

    class Meta:
        model = HenchmanGroup
        fields = [
            "id",
            "name",
            "fighter_type",
            "fighter_type_name",
            "profile",
            "base_profile",
            "experience",
            "advances_due",
            "advances",
            "special_rules",
            "members",
            "equipment",
        ]


class SheetPackSerializer(serializers.Serializer):
    slug = serializers.CharField(help_text=_("The content pack the warband's type comes from."))
    name = serializers.CharField()
    version = serializers.IntegerField(help_text=_("The published version it was built with."))
    credit = serializers.CharField(help_text=_("The pack's credit note; may be empty."))


class SheetSourceSerializer(serializers.Serializer):
    name = serializers.CharField(help_text=_("A warband type, warrior type or item, by name."))
    credit = serializers.CharField(help_text=_('Its source note, e.g. "Annúminas v3.0, p. 62".'))


class SheetSerializer(WarbandSerializer):
    """The whole roster in one response."""

    pack = serializers.SerializerMethodField(
        help_text=_("The content pack version of the warband's type; null: the default catalogue.")
    )
    sources = serializers.SerializerMethodField(
        help_text=_("The pack's credit notes for the type, the warriors and the items, each once.")
    )

    heroes = FighterSerializer(source="heroes_all", many=True, read_only=True)
    groups = HenchmanGroupSerializer(source="group_list", many=True, read_only=True)
    stash = EquipmentItemSerializer(many=True, read_only=True)
    warrior_count = serializers.IntegerField(read_only=True)
    total_experience = serializers.IntegerField(read_only=True)
    has_leader = serializers.BooleanField(read_only=True)
    max_size = serializers.IntegerField(source="warband_type.max_size", read_only=True)
    max_heroes = serializers.IntegerField(source="warband_type.max_heroes", read_only=True)

    class Meta(WarbandSerializer.Meta):
        fields = [
            *WarbandSerializer.Meta.fields,
            "warrior_count",
            "total_experience",
            "has_leader",
            "max_size",
            "max_heroes",
            "heroes",
            "groups",
            "stash",
            "pack",
            "sources",
        ]

    @extend_schema_field(SheetPackSerializer(allow_null=True))
    def get_pack(self, obj) -> dict | None:
        version = obj.warband_type.pack_version
        if version is None:
            return None
        pack = obj.warband_type.pack
        return {
            "slug": pack.slug,
            "name": pack.name,
            "version": version.number,
            "credit": pack.credit or "",
        }

    @extend_schema_field(SheetSourceSerializer(many=True))
    def get_sources(self, obj) -> list[dict]:
        return [{"name": name, "credit": credit} for name, credit in sheet_sources(obj)]


class LedgerEntrySerializer(serializers.ModelSerializer):
    source_type = serializers.SerializerMethodField()
    description = serializers.CharField(
        source="text",
        read_only=True,
        help_text=_("The line in the language of the request (Accept-Language)."),
    )

    class Meta:
        model = LedgerEntry
        fields = [
            "id",
            "amount",
            "finds_delta",
            "treasury_after",
            "finds_after",
            "reason",
            "description",
            "description_code",
            "description_params",
            "source_type",
            "source_id",
            "created_at",
        ]

    def get_source_type(self, obj) -> str | None:
        return obj.source_type.model if obj.source_type_id else None


class WarbandHireSerializer(serializers.Serializer):
    fighter_type = serializers.SlugRelatedField(
        slug_field="slug", queryset=FighterType.objects.all()
    )
    name = serializers.CharField(max_length=NAME_MAX_LENGTH)
    count = serializers.IntegerField(default=1, min_value=1)
    group = serializers.IntegerField(
        required=False, help_text=_("Add the new henchmen to this group of the warband.")
    )
    version = VersionField()


class WarbandBuySerializer(serializers.Serializer):
    item = serializers.SlugRelatedField(slug_field="slug", queryset=Equipment.objects.all())
    version = VersionField()


class WarbandAssignSerializer(serializers.Serializer):
    fighter = serializers.IntegerField(required=False)
    group = serializers.IntegerField(required=False)
    version = VersionField()


class WarbandRenameSerializer(serializers.Serializer):
    name = serializers.CharField(max_length=NAME_MAX_LENGTH)
    version = VersionField()


class UndoResultSerializer(serializers.Serializer):
    warband = WarbandSerializer()
    undone = serializers.CharField(help_text=_("What was undone, in words."))


class WarbandWriteResultSerializer(serializers.Serializer):
    """Every write answers the warband's new state (use its ``version`` for the next write)."""

    warband = WarbandSerializer()
    fighter = FighterSerializer(required=False)
    group = HenchmanGroupSerializer(required=False)
    item = EquipmentItemSerializer(required=False)
    items = EquipmentItemSerializer(many=True, required=False)
    ledger_entry = LedgerEntrySerializer(required=False)


from ..import_format import WarbandImportSerializer  # noqa: E402,F401 - the checked format
