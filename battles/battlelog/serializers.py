"""What the battle-log endpoints answer, for the OpenAPI schema (the views build plain dicts).

Each serializer describes one answer exactly as :mod:`.api` builds it: schema fuzzing in CI
checks every real response against these.
"""

from __future__ import annotations

from django.utils.translation import gettext_lazy as _
from drf_spectacular.utils import OpenApiResponse
from rest_framework import serializers

from battles.models import Battle
from rules.engine.tracker import CHECK_KINDS, DUE_KINDS, STATUSES

from .entry_schemas import ENTRY_ANSWER


class LogPageSerializer(serializers.Serializer):
    """A page of the log, shaped as every list's page, plus ``last_seq``."""

    count = serializers.IntegerField(help_text=_("The entries in the whole log."))
    next = serializers.URLField(
        allow_null=True,
        help_text=_("The entries after this page (`?after=`), absolute; null when none follow."),
    )
    previous = serializers.URLField(
        allow_null=True,
        help_text=_("The entries before this page (`?before=`), absolute; null when none precede."),
    )
    results = serializers.ListField(child=ENTRY_ANSWER, help_text=_("The entries, in order."))
    last_seq = serializers.IntegerField(help_text=_("Ask for `?after=` this seq next time."))


class FighterStateSerializer(serializers.Serializer):
    id = serializers.IntegerField()
    name = serializers.CharField()
    status = serializers.ChoiceField(choices=[(s, s) for s in STATUSES])
    wounds = serializers.IntegerField(help_text=_("Wounds left."))
    leader = serializers.BooleanField()
    hero = serializers.BooleanField()
    leadership = serializers.IntegerField()
    rules = serializers.ListField(child=serializers.CharField())
    combat = serializers.IntegerField(allow_null=True, help_text=_("The combat he fights in."))
    states = serializers.ListField(
        child=serializers.CharField(),
        help_text=_(
            "What lasts for him now: charged, was_charged, failed_charge, stood_up, rallied, "
            "stupid, shot, refused, diving, must_flee (this turn); first_round (his combat); "
            "frenzied or frenzy_lost; fear_failed:<enemy id>; hits_due; spent:<item>."
        ),
    )
    players_rules = serializers.ListField(
        child=serializers.CharField(),
        help_text=_("His rules the engine does not apply: the players do, at the table."),
    )


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
    check = serializers.ChoiceField(choices=[(c, c) for c in (*CHECK_KINDS, *DUE_KINDS)])
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
    combat = serializers.IntegerField(
        required=False, help_text=_("Close combat: the combat whose phase is due.")
    )


class NextTurnSerializer(serializers.Serializer):
    turn = serializers.IntegerField()
    side = serializers.IntegerField()


class DuelSerializer(serializers.Serializer):
    seq = serializers.IntegerField()
    challenger = serializers.IntegerField()
    side = serializers.IntegerField()
    challenged = serializers.IntegerField(allow_null=True)
    status = serializers.CharField()


class CombatSerializer(serializers.Serializer):
    id = serializers.IntegerField()
    fighters = serializers.ListField(child=serializers.IntegerField())
    pairs = serializers.ListField(
        child=serializers.ListField(child=serializers.IntegerField()),
        help_text=_("Who is in base contact with whom."),
    )
    rounds = serializers.DictField(
        child=serializers.IntegerField(),
        help_text=_("Fighter id → close-combat phases he has fought in it (0: first round)."),
    )
    fought = serializers.BooleanField(help_text=_("Its phase this turn is logged."))


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
    log_version = serializers.IntegerField(
        required=False, help_text=_("2: the log knows the combats; 1: a log set up before.")
    )
    combats = CombatSerializer(many=True, required=False)
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
        "check that is not due, a turn out of order, what the rules forbid now (the error "
        "names the rule), typed dice short of or beyond what the entry needs, a payload out "
        "of bounds or with an unknown key."
    ),
    401: _("Not logged in: every write, and reading a battle of a campaign that is not public."),
    403: _("Only the battle's players and the campaign's organisers write."),
    404: _("No such battle (or not visible to a logged-in caller)."),
    409: _(
        "The log moved on and the entry touches the same warriors (stale base_seq), or the "
        "battle is not set up, already set up, reported, its log full, or its campaign "
        "archived."
    ),
}


def errors(*codes: int) -> dict[int, OpenApiResponse]:
    """The error answers of an endpoint, in the project's error shape."""
    return {code: OpenApiResponse(response=ERROR, description=ERROR_TEXTS[code]) for code in codes}


READ_ERRORS = errors(401, 404)
WRITE_ERRORS = errors(400, 401, 403, 404, 409)
ENTRY_WRITTEN = {
    201: ENTRY_ANSWER,
    200: OpenApiResponse(
        ENTRY_ANSWER,
        description=_("This client_id was posted before: its entry, unchanged."),
    ),
    **WRITE_ERRORS,
}
"""What writing an entry answers (idempotent by ``client_id``)."""
