"""Input of the rules API. Types and ranges are checked here; game rules in the engine."""

from django.utils.translation import gettext_lazy as _
from rest_framework import serializers

from rules.engine import WEAPONS

MELEE_WEAPONS = sorted(slug for slug, item in WEAPONS.items() if item.kind == "melee")
MISSILE_WEAPONS = sorted(slug for slug, item in WEAPONS.items() if item.kind == "missile")
ARMOUR_SLUGS = sorted(
    slug for slug, item in WEAPONS.items() if item.kind in {"armour", "shield", "helmet"}
)
MAX_SEED = 2**31 - 1


class StrictSerializer(serializers.Serializer):
    """Refuses keys it does not know (a typo such as ``"hatrde": true`` is a 400, never
    silently ignored), at every level: nested strict serializers refuse theirs."""

    def to_internal_value(self, data):
        if isinstance(data, dict):
            unknown = sorted(str(key) for key in data if key not in self.fields)
            if unknown:
                raise serializers.ValidationError(
                    {
                        unknown[0][:40]: [
                            _("Unknown field; this takes %(fields)s.")
                            % {"fields": ", ".join(sorted(self.fields))}
                        ]
                    }
                )
        return super().to_internal_value(data)


def characteristic(**kwargs) -> serializers.IntegerField:
    return serializers.IntegerField(min_value=0, max_value=10, **kwargs)


class DiceSourceSerializer(serializers.Serializer):
    """Where the dice come from: a seed (replayable), faces typed at the table, or neither."""

    seed = serializers.IntegerField(min_value=0, max_value=MAX_SEED, required=False)
    faces = serializers.ListField(
        child=serializers.IntegerField(min_value=1, max_value=6),
        required=False,
        max_length=500,
        help_text=_("Dice rolled at the table, used in order instead of random ones."),
    )

    def validate(self, attrs):
        if "seed" in attrs and "faces" in attrs:
            raise serializers.ValidationError(
                {"faces": [_("Give either a seed or the faces rolled, not both.")]}
            )
        return attrs


class RollSerializer(StrictSerializer, DiceSourceSerializer):
    expression = serializers.CharField(max_length=16, help_text=_("D6, D3, 2D6, 5D6, D66 …"))
    purpose = serializers.CharField(max_length=80, required=False, default="", allow_blank=True)


class AttackerSerializer(StrictSerializer):
    ws = characteristic(required=False, help_text=_("HA (weapon skill); melee"))
    bs = characteristic(required=False, help_text=_("HP (ballistic skill); shooting"))
    s = characteristic(required=False, default=3, help_text=_("F (strength)"))
    a = serializers.IntegerField(
        min_value=1, max_value=10, required=False, default=1, help_text=_("A (attacks) or shots")
    )
    weapon = serializers.CharField(required=False, allow_blank=True, allow_null=True)
    offhand = serializers.ChoiceField(
        choices=MELEE_WEAPONS, required=False, allow_blank=True, allow_null=True
    )
    charging = serializers.BooleanField(required=False, default=False)
    first_round = serializers.BooleanField(
        required=False,
        default=True,
        help_text=_(
            "The first round of this combat (always when charging): flails' and morning stars' "
            "Strength bonus, hatred's re-rolls and a failed fear test count only then."
        ),
    )
    frenzy = serializers.BooleanField(required=False, default=False)
    hatred = serializers.BooleanField(required=False, default=False)
    diving_charge = serializers.BooleanField(required=False, default=False)
    fear_failed = serializers.BooleanField(required=False, default=False)
    distance_cm = serializers.FloatField(min_value=0, max_value=500, required=False)


class DefenderSerializer(StrictSerializer):
    ws = characteristic(help_text=_("HA (weapon skill)"))
    t = serializers.IntegerField(min_value=1, max_value=10, help_text=_("R (toughness)"))
    w = serializers.IntegerField(
        min_value=0, max_value=10, required=False, default=1, help_text=_("H (wounds) left")
    )
    s = characteristic(required=False, default=3, help_text=_("F (base strength), for parry"))
    armour_save = serializers.IntegerField(
        min_value=2,
        max_value=6,
        required=False,
        allow_null=True,
        help_text=_("Save before Strength modifiers (heavy armour and shield = 4)."),
    )
    armour = serializers.ListField(
        child=serializers.ChoiceField(choices=ARMOUR_SLUGS), required=False, max_length=4
    )
    weapons = serializers.ListField(
        child=serializers.ChoiceField(choices=MELEE_WEAPONS + MISSILE_WEAPONS),
        required=False,
        max_length=4,
    )
    parry = serializers.ChoiceField(
        choices=["none", "single", "reroll"], required=False, allow_null=True
    )
    knocked_down = serializers.BooleanField(required=False, default=False)
    stunned = serializers.BooleanField(required=False, default=False)
    helmet = serializers.BooleanField(required=False, default=False)
    large = serializers.BooleanField(required=False, default=False)


class ModifiersSerializer(StrictSerializer):
    cover = serializers.BooleanField(required=False, default=False)
    long_range = serializers.BooleanField(required=False, default=False)
    moved = serializers.BooleanField(required=False, default=False)
    large_target = serializers.BooleanField(required=False, default=False)


class SituationSerializer(StrictSerializer):
    kind = serializers.ChoiceField(choices=["melee", "shooting"])
    attacker = AttackerSerializer()
    defender = DefenderSerializer()
    modifiers = ModifiersSerializer(required=False)

    def validate(self, attrs):
        attacker = attrs["attacker"]
        weapon = attacker.get("weapon") or None
        if attrs["kind"] == "melee":
            if "ws" not in attacker:
                raise serializers.ValidationError(
                    {"attacker": {"ws": [_("HA is required for close combat.")]}}
                )
            if weapon is not None and weapon not in MELEE_WEAPONS:
                raise serializers.ValidationError(
                    {"attacker": {"weapon": [_("Unknown close-combat weapon: %s.") % weapon]}}
                )
        else:
            if "bs" not in attacker:
                raise serializers.ValidationError(
                    {"attacker": {"bs": [_("HP is required for shooting.")]}}
                )
            if weapon is not None and weapon not in MISSILE_WEAPONS:
                raise serializers.ValidationError(
                    {"attacker": {"weapon": [_("Unknown missile weapon: %s.") % weapon]}}
                )
        return attrs


class AttackSerializer(SituationSerializer, DiceSourceSerializer):
    """A situation to roll, with its dice source; every unknown key refused."""

    def validate(self, attrs):
        attrs = SituationSerializer.validate(self, attrs)
        return DiceSourceSerializer.validate(self, attrs)
