"""What the battle-log endpoints answer, for the OpenAPI schema (the views build plain dicts).

Each serializer describes one answer exactly as :mod:`.api` builds it: schema fuzzing in CI
checks every real response against these.
"""

from __future__ import annotations

from django.utils.translation import gettext_lazy as _
from drf_spectacular.utils import OpenApiResponse, extend_schema_field
from rest_framework import serializers

from battles.models import Battle, BattleLogEntry
from rules.engine.tracker import CHECK_KINDS, STATUSES


@extend_schema_field(
    {"type": "string", "enum": [kind for kind, _label in BattleLogEntry.Kind.choices]}
)
class EntryKindField(serializers.ChoiceField):
    """The entry's kind, inline in the schema (the request's ``kind`` names the enum)."""

    def __init__(self, **kwargs):
        super().__init__(choices=BattleLogEntry.Kind.choices, **kwargs)


class LogEntrySerializer(serializers.Serializer):
    seq = serializers.IntegerField(help_text=_("Its place in the log, from 1 (the setup)."))
    kind = EntryKindField()
    payload = serializers.DictField(
        help_text=_("What the entry says; checks and attacks carry the engine's `result`.")
    )
    author = serializers.CharField(allow_null=True, help_text=_("Username of who wrote it."))
    created = serializers.DateTimeField()
    client_id = serializers.UUIDField()
    dice = serializers.DictField(
        allow_null=True, help_text=_("The dice audit: the seed, or the faces typed, and each roll.")
    )


class LogPageSerializer(serializers.Serializer):
    results = LogEntrySerializer(many=True)
    last_seq = serializers.IntegerField(help_text=_("Ask for `?after=` this seq next time."))
    next = serializers.CharField(
        allow_null=True, help_text=_("The next page when more entries follow, else null.")
    )


class FighterStateSerializer(serializers.Serializer):
    id = serializers.IntegerField()
    name = serializers.CharField()
    status = serializers.ChoiceField(choices=[(s, s) for s in STATUSES])
    wounds = serializers.IntegerField(help_text=_("Wounds left."))
    leader = serializers.BooleanField()
    hero = serializers.BooleanField()
    leadership = serializers.IntegerField()
    rules = serializers.ListField(child=serializers.CharField())


class SideStateSerializer(serializers.Serializer):
    warband = serializers.IntegerField()
    name = serializers.CharField()
    rout_threshold = serializers.IntegerField(
        help_text=_("Out of action from this many, the warband tests for rout.")
    )
    out_of_action = serializers.IntegerField()
    routed = serializers.BooleanField()
    voluntary_rout = serializers.BooleanField()
    fighters = FighterStateSerializer(many=True)


class CheckDueSerializer(serializers.Serializer):
    check = serializers.ChoiceField(
        choices=[(c, c) for c in (*CHECK_KINDS, "voluntary-rout", "challenge")]
    )
    side = serializers.IntegerField(help_text=_("The warband whose warriors test."))
    required = serializers.BooleanField(
        help_text=_("Required checks hold the next turn back; the others the table confirms.")
    )
    fighter = serializers.IntegerField(required=False, help_text=_("Who tests."))
    fighters = serializers.ListField(
        child=serializers.IntegerField(), required=False, help_text=_("Fear: who may test.")
    )
    against = serializers.IntegerField(required=False, help_text=_("Fear: the enemy feared."))
    situation = serializers.ChoiceField(
        choices=[("charging", "charging"), ("charged", "charged")], required=False
    )
    enemies = serializers.ListField(
        child=serializers.IntegerField(),
        required=False,
        help_text=_("All alone: the enemies the log shows him fighting."),
    )
    issued = serializers.IntegerField(required=False, help_text=_("Challenge: its seq."))


class NextTurnSerializer(serializers.Serializer):
    turn = serializers.IntegerField()
    side = serializers.IntegerField()


class DuelSerializer(serializers.Serializer):
    seq = serializers.IntegerField()
    challenger = serializers.IntegerField()
    side = serializers.IntegerField()
    challenged = serializers.IntegerField(allow_null=True)
    status = serializers.CharField()


class OutOfActionSerializer(serializers.Serializer):
    seq = serializers.IntegerField()
    turn = serializers.IntegerField()
    actor = serializers.IntegerField(allow_null=True)
    actor_side = serializers.IntegerField(allow_null=True)
    target = serializers.IntegerField()
    target_side = serializers.IntegerField()
    weapon = serializers.CharField(allow_blank=True)


class BattleStateSerializer(serializers.Serializer):
    """Before the setup only ``set_up`` (false), ``battle`` and ``status``."""

    set_up = serializers.BooleanField()
    battle = serializers.IntegerField()
    status = serializers.ChoiceField(choices=Battle.Status.choices)
    turn = serializers.IntegerField(required=False)
    side_to_move = serializers.IntegerField(required=False, allow_null=True)
    next = NextTurnSerializer(required=False, allow_null=True)
    last_seq = serializers.IntegerField(required=False)
    ended = serializers.BooleanField(required=False)
    finished = serializers.BooleanField(required=False)
    finish_reason = serializers.CharField(required=False, allow_blank=True)
    winners = serializers.ListField(child=serializers.IntegerField(), required=False)
    draw = serializers.BooleanField(required=False)
    scenario = serializers.CharField(required=False, allow_blank=True)
    challenges = serializers.BooleanField(required=False)
    duels = DuelSerializer(many=True, required=False)
    refused_challenge = serializers.ListField(child=serializers.IntegerField(), required=False)
    sides = SideStateSerializer(many=True, required=False)
    checks_due = CheckDueSerializer(many=True, required=False)
    out_of_action_events = OutOfActionSerializer(many=True, required=False)
    corrected = serializers.DictField(
        child=serializers.IntegerField(),
        required=False,
        help_text=_("Corrected seq → the seq of its correction."),
    )


class ScenarioSerializer(serializers.Serializer):
    name = serializers.CharField()
    attacker_defender = serializers.BooleanField()


class ExcludedFighterSerializer(serializers.Serializer):
    id = serializers.IntegerField()
    name = serializers.CharField()
    reason = serializers.CharField()


class EligibleFighterSerializer(serializers.Serializer):
    id = serializers.IntegerField()
    name = serializers.CharField()
    profile = serializers.DictField(child=serializers.IntegerField())
    leader = serializers.BooleanField()
    hero = serializers.BooleanField()
    rules = serializers.ListField(child=serializers.CharField())
    equipment = serializers.ListField(child=serializers.CharField())


class WarbandOptionSerializer(serializers.Serializer):
    warband = serializers.IntegerField()
    name = serializers.CharField()
    fighters = EligibleFighterSerializer(many=True, help_text=_("Who may fight."))
    excluded = ExcludedFighterSerializer(many=True, help_text=_("Who may not, and why."))
    lineup = serializers.ListField(
        child=serializers.IntegerField(), allow_null=True, help_text=_("Chosen by its player.")
    )
    may_pick = serializers.BooleanField(help_text=_("Whether the caller picks for it."))


class PrebattleSerializer(serializers.Serializer):
    battle = serializers.IntegerField()
    setup = serializers.DictField(allow_null=True, help_text=_("The setup, once made."))
    scenarios = ScenarioSerializer(many=True)
    warbands = WarbandOptionSerializer(many=True)


class LineupResultSerializer(serializers.Serializer):
    warband = serializers.IntegerField()
    fighters = serializers.ListField(child=serializers.IntegerField())


ERROR = {"$ref": "#/components/schemas/Error"}  # the one error shape (annuminas.api.schema)
ERROR_TEXTS = {
    400: _(
        "Bad input, nothing written: an unknown fighter, an out-of-action fighter acting, a "
        "check that is not due, a turn out of order, a payload out of bounds."
    ),
    401: _("Not logged in: every write, and reading a battle of a campaign that is not public."),
    403: _("Only the battle's players and the campaign's organisers write."),
    404: _("No such battle (or not visible to a logged-in caller)."),
    409: _(
        "The log moved on and the entry touches the same warriors (stale base_seq), or the "
        "battle is not set up, already set up, reported, or its campaign archived."
    ),
}


def errors(*codes: int) -> dict[int, OpenApiResponse]:
    """The error answers of an endpoint, in the project's error shape."""
    return {code: OpenApiResponse(response=ERROR, description=ERROR_TEXTS[code]) for code in codes}


READ_ERRORS = errors(401, 404)
WRITE_ERRORS = errors(400, 401, 403, 404, 409)
ENTRY_WRITTEN = {
    201: LogEntrySerializer,
    200: OpenApiResponse(
        LogEntrySerializer,
        description=_("This client_id was posted before: its entry, unchanged."),
    ),
    **WRITE_ERRORS,
}
"""What writing an entry answers (idempotent by ``client_id``)."""
