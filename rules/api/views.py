"""The rules engine over HTTP. Anonymous use is allowed (throttled); nothing is written."""

import secrets

from django.core.exceptions import ValidationError
from django.http import Http404
from django.utils.translation import gettext as _
from drf_spectacular.types import OpenApiTypes
from drf_spectacular.utils import OpenApiExample, OpenApiParameter, extend_schema
from rest_framework.permissions import AllowAny
from rest_framework.response import Response
from rest_framework.views import APIView

from rules.engine import (
    CHECKS,
    Dice,
    RulesError,
    check_parameters,
    run_check,
    tables_as_dict,
    vocabulary,
)
from rules.engine.checks import BATTLE_CHECKS, LABELS
from rules.engine.optional_rules import OPTIONAL_RULES
from rules.presenters import present_odds, present_result, rules_error_to_validation
from rules.selectors import racial_maximums
from rules.situations import SituationError, build_situation

from .serializers import (
    MAX_SEED,
    AttackSerializer,
    DiceSourceSerializer,
    RollSerializer,
    SituationSerializer,
)


def dice_from(data: dict) -> Dice:
    if data.get("faces"):
        return Dice(faces=data["faces"])
    return Dice(seed=data.get("seed", secrets.randbelow(MAX_SEED)))


def _situation(data: dict):
    try:
        return build_situation(data)
    except SituationError as error:
        raise rules_error_to_validation(error.error, error.prefix) from error


class RulesAPIView(APIView):
    permission_classes = [AllowAny]


class RollView(RulesAPIView):
    @extend_schema(
        responses=OpenApiTypes.OBJECT,
        request=RollSerializer,
        examples=[
            OpenApiExample(
                "2D6 with a seed", request_only=True, value={"expression": "2D6", "seed": 42}
            )
        ],
        summary="Roll dice",
        description="Faces, total and the seed (chosen and returned when none is given).",
    )
    def post(self, request):
        serializer = RollSerializer(data=request.data)
        serializer.is_valid(raise_exception=True)
        data = serializer.validated_data
        dice = dice_from(data)
        try:
            roll = dice.roll(data["expression"].strip().upper(), data["purpose"])
        except RulesError as error:
            field = "faces" if data.get("faces") and "face" in error.template else "expression"
            message = rules_error_to_validation(error).messages[0]
            raise ValidationError({field: [message]}) from error
        return Response(
            {
                "expression": roll.expression,
                "faces": list(roll.faces),
                "total": roll.total,
                "purpose": roll.purpose,
                "seed": dice.seed,
            }
        )


class CheckListView(RulesAPIView):
    @extend_schema(responses=OpenApiTypes.OBJECT, summary="The checks and their parameters")
    def get(self, request):
        return Response(
            {
                kind: {
                    "label": _(LABELS[kind]),
                    "battle": kind in BATTLE_CHECKS,
                    "parameters": check_parameters(kind),
                    "url": f"{request.path}{kind}/",
                }
                for kind in CHECKS
            }
        )


class CheckView(RulesAPIView):
    @extend_schema(
        responses=OpenApiTypes.OBJECT,
        request=DiceSourceSerializer,
        parameters=[OpenApiParameter("kind", str, OpenApiParameter.PATH, enum=sorted(CHECKS))],
        examples=[
            OpenApiExample("Mablung's I test", request_only=True, value={"value": 3, "seed": 7}),
            OpenApiExample(
                "L test with the dice rolled",
                request_only=True,
                value={"leadership": 7, "faces": [3, 4]},
            ),
        ],
        summary="Resolve a check",
        description=(
            "Body: the check's parameters (see GET /api/v1/rules/checks/) plus an optional "
            "`seed` or `faces`. Answers whether it passed, the recorded rolls and an "
            "explanation in the caller's language."
        ),
    )
    def post(self, request, kind: str):
        if kind not in CHECKS:
            raise Http404
        if not isinstance(request.data, dict):
            raise ValidationError(_("Send the check's parameters as a JSON object."))
        params = dict(request.data)
        source = DiceSourceSerializer(
            data={key: params.pop(key) for key in ("seed", "faces") if key in params}
        )
        source.is_valid(raise_exception=True)
        dice = dice_from(source.validated_data)
        try:
            result = run_check(kind, params, dice=dice)
        except RulesError as error:
            raise rules_error_to_validation(error) from error
        return Response({**present_result(result.to_dict()), "seed": dice.seed})


class AttackView(RulesAPIView):
    @extend_schema(
        responses=OpenApiTypes.OBJECT,
        request=AttackSerializer,
        summary="Resolve one attack or a phase, step by step",
        examples=[
            OpenApiExample(
                "Two attacks against light armour and shield",
                request_only=True,
                value={
                    "kind": "melee",
                    "attacker": {"ws": 4, "s": 4, "a": 2, "weapon": "espada"},
                    "defender": {"ws": 3, "t": 3, "armour_save": 5},
                    "seed": 1,
                },
            )
        ],
    )
    def post(self, request):
        serializer = AttackSerializer(data=request.data)
        serializer.is_valid(raise_exception=True)
        situation = _situation(serializer.validated_data)
        dice = dice_from(serializer.validated_data)
        try:
            result = situation.resolve(dice)
        except RulesError as error:
            raise rules_error_to_validation(error) from error
        return Response({**present_result(result.to_dict()), "seed": dice.seed})


class OddsView(RulesAPIView):
    @extend_schema(
        responses=OpenApiTypes.OBJECT,
        request=SituationSerializer,
        summary="Exact odds of one attack or a phase",
        description=(
            "Every probability is {exact: 'n/d', value: float}; the outcomes sum to exactly 1."
        ),
        examples=[
            OpenApiExample(
                "Bow against heavy armour and shield",
                request_only=True,
                value={
                    "kind": "shooting",
                    "attacker": {"bs": 3, "weapon": "arco-largo"},
                    "defender": {"ws": 3, "t": 3, "armour_save": 4},
                    "modifiers": {"cover": True},
                },
            )
        ],
    )
    def post(self, request):
        serializer = SituationSerializer(data=request.data)
        serializer.is_valid(raise_exception=True)
        situation = _situation(serializer.validated_data)
        try:
            odds = situation.odds()
        except RulesError as error:
            raise rules_error_to_validation(error) from error
        return Response(present_odds(odds.to_dict()))


class VocabularyView(RulesAPIView):
    @extend_schema(
        responses=OpenApiTypes.OBJECT,
        summary="Every special-rule key a warrior may carry, and which engine step reads it",
        description=(
            "`rules`: keys of fighter types, skills and injuries; `item_keys`: keys of an "
            "item's rules data; `steps`: the engine's steps. A key no step reads (`players`) "
            "is applied by the players at the table; `note` says what they do. "
            "`optional_rules`: the rulebook's optional rules a campaign may turn on."
        ),
    )
    def get(self, request):
        data = vocabulary.catalogue()
        data["steps"] = {key: _(text) for key, text in data["steps"].items()}
        for row in [*data["rules"], *data["item_keys"]]:
            row["label"] = _(row["label"])
            row["note"] = _(row["note"]) if row["note"] else ""
        data["optional_rules"] = [
            {"key": rule.key, "label": _(rule.label), "help": _(rule.help)}
            for rule in OPTIONAL_RULES
        ]
        return Response(data)


class TablesView(RulesAPIView):
    @extend_schema(
        responses=OpenApiTypes.OBJECT,
        summary="The tables in force (to hit, to wound, saves, injuries, criticals…)",
    )
    def get(self, request):
        # The racial maximums in force are the catalogue's (one source: the content pack).
        return Response({**tables_as_dict(), "racial_maximums": racial_maximums()})
