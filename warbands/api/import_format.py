"""The JSON import format (``annuminas.warband`` version 1), checked field by field.

Types and ranges are checked here so that bad input is a 400 naming the field, never a 500; the
game's rules (slugs, limits, loadouts, the ledger adding up) are checked by
``services.warband_import``.
"""

from rest_framework import serializers

PROFILE = ("m", "ws", "bs", "s", "t", "w", "i", "a", "ld")
MAX_CO = 1_000_000


class ProfileSerializer(serializers.Serializer):
    m = serializers.FloatField(min_value=0, max_value=50)
    ws = serializers.IntegerField(min_value=0, max_value=10)
    bs = serializers.IntegerField(min_value=0, max_value=10)
    s = serializers.IntegerField(min_value=0, max_value=10)
    t = serializers.IntegerField(min_value=0, max_value=10)
    w = serializers.IntegerField(min_value=0, max_value=10)
    i = serializers.IntegerField(min_value=0, max_value=10)
    a = serializers.IntegerField(min_value=0, max_value=10)
    ld = serializers.IntegerField(min_value=0, max_value=10)


class ItemSerializer(serializers.Serializer):
    item = serializers.SlugField(max_length=80)
    price = serializers.IntegerField(min_value=0, max_value=MAX_CO)


class InjurySerializer(serializers.Serializer):
    code = serializers.CharField(max_length=60)
    label = serializers.CharField(max_length=120, required=False, allow_blank=True)
    battle_id = serializers.IntegerField(min_value=1, required=False, allow_null=True)


class LedgerRowSerializer(serializers.Serializer):
    amount = serializers.IntegerField(min_value=-MAX_CO, max_value=MAX_CO)
    finds_delta = serializers.IntegerField(min_value=-1000, max_value=1000, required=False)
    reason = serializers.CharField(max_length=20)
    description = serializers.CharField(max_length=255, required=False, allow_blank=True)


def _json_list(**kwargs):
    return serializers.ListField(required=False, max_length=200, **kwargs)


class FighterSerializer(serializers.Serializer):
    name = serializers.CharField(max_length=80)
    type = serializers.SlugField(max_length=80)
    status = serializers.CharField(max_length=12, required=False)
    is_leader = serializers.BooleanField(required=False)
    profile = ProfileSerializer(required=False)
    experience = serializers.IntegerField(min_value=0, max_value=500, required=False)
    hired_experience = serializers.IntegerField(min_value=0, max_value=500, required=False)
    advances = _json_list(child=serializers.DictField())
    skills = _json_list(child=serializers.SlugField(max_length=80))
    skill_lists = _json_list(child=serializers.SlugField(max_length=80))
    injuries = _json_list(child=InjurySerializer())
    special_rules = _json_list(child=serializers.CharField(max_length=80))
    misses_battles = serializers.IntegerField(min_value=0, max_value=20, required=False)
    equipment = _json_list(child=ItemSerializer())


class MemberSerializer(serializers.Serializer):
    name = serializers.CharField(max_length=80)
    status = serializers.CharField(max_length=12, required=False)
    injuries = _json_list(child=InjurySerializer())
    misses_battles = serializers.IntegerField(min_value=0, max_value=20, required=False)


class GroupSerializer(serializers.Serializer):
    name = serializers.CharField(max_length=80)
    type = serializers.SlugField(max_length=80)
    profile = ProfileSerializer(required=False)
    experience = serializers.IntegerField(min_value=0, max_value=500, required=False)
    advances = _json_list(child=serializers.DictField())
    special_rules = _json_list(child=serializers.CharField(max_length=80))
    equipment = _json_list(child=ItemSerializer())
    members = serializers.ListField(child=MemberSerializer(), min_length=1, max_length=20)


class WarbandHeaderSerializer(serializers.Serializer):
    name = serializers.CharField(max_length=80)
    type = serializers.SlugField(max_length=80)
    treasury = serializers.IntegerField(min_value=0, max_value=MAX_CO, required=False)
    finds = serializers.IntegerField(min_value=0, max_value=1000, required=False)
    rating = serializers.IntegerField(min_value=0, max_value=100_000, required=False)
    notes = serializers.CharField(max_length=5000, required=False, allow_blank=True)


class WarbandImportSerializer(serializers.Serializer):
    format = serializers.ChoiceField(choices=["annuminas.warband"])
    format_version = serializers.ChoiceField(choices=[1])
    warband = WarbandHeaderSerializer()
    ledger = _json_list(child=LedgerRowSerializer())
    fighters = _json_list(child=FighterSerializer())
    groups = _json_list(child=GroupSerializer())
    stash = _json_list(child=ItemSerializer())
