"""Post-battle API: start a battle's or a round's resolution (202 + job), follow the job, read
the results with their dice, answer pending decisions, revert."""

from django.core.exceptions import PermissionDenied
from django.db.models import Q
from django.shortcuts import get_object_or_404
from django.urls import reverse
from django.utils.translation import gettext as _
from django.utils.translation import gettext_lazy
from drf_spectacular.types import OpenApiTypes
from drf_spectacular.utils import OpenApiParameter, extend_schema, extend_schema_field
from rest_framework import exceptions, generics, serializers, status
from rest_framework.response import Response
from rest_framework.views import APIView

from annuminas.converters import parse_id
from battles.common import access
from battles.models import Battle, BattleParticipant, Job, PendingDecision, PostBattleRun, Round
from battles.postbattle import (
    battle_resolve_start,
    battle_revert,
    decision_answer,
    round_resolve_start,
)
from battles.postbattle.presenters import Names, answer_text, option_labels, present_steps


class JobSerializer(serializers.ModelSerializer):
    progress = serializers.SerializerMethodField()
    url = serializers.SerializerMethodField()
    campaign = serializers.SlugRelatedField(slug_field="slug", read_only=True)
    errors = serializers.DictField(
        source="error_texts",
        child=serializers.CharField(),
        read_only=True,
        help_text=gettext_lazy("Why each failed battle failed (by battle id), in your language."),
    )

    class Meta:
        model = Job
        fields = [
            "id", "url", "kind", "status", "campaign", "round", "battle", "progress", "errors",
            "created_at", "started_at", "finished_at",
        ]  # fmt: skip

    def get_progress(self, job: Job) -> dict:
        return {
            "done": job.done,
            "failed": job.failed,
            "total": job.total,
            "percent": job.percent,
        }

    def get_url(self, job: Job) -> str:
        path = reverse("api-job-detail", args=[job.pk])
        request = self.context.get("request")
        return request.build_absolute_uri(path) if request is not None else path


class ResolveSerializer(serializers.Serializer):
    seed = serializers.IntegerField(min_value=0, max_value=2**31 - 1, required=False)
    faces = serializers.DictField(
        child=serializers.ListField(child=serializers.IntegerField(min_value=1, max_value=6)),
        required=False,
        help_text=gettext_lazy("Per warband id: the dice rolled at the table, in order."),
    )
    scenario_bonus = serializers.DictField(
        child=serializers.IntegerField(min_value=0, max_value=10), required=False
    )
    racial_maximum = serializers.ChoiceField(choices=["reroll", "choose"], required=False)


class DecisionSerializer(serializers.ModelSerializer):
    fighter_name = serializers.CharField(
        source="fighter.name", default=None, read_only=True, allow_null=True
    )
    group_name = serializers.CharField(
        source="group.name", default=None, read_only=True, allow_null=True
    )
    kind_label = serializers.CharField(source="get_kind_display", read_only=True)
    option_labels = serializers.SerializerMethodField(
        help_text=gettext_lazy(
            "Each option in words, in the caller's language: a skill's or an item's name, a "
            "henchman's name and type, a characteristic's name."
        )
    )
    answer_text = serializers.SerializerMethodField(
        help_text=gettext_lazy("What was decided, in words (or that the decision waits).")
    )
    answer_url = serializers.SerializerMethodField()

    class Meta:
        model = PendingDecision
        fields = [
            "id", "kind", "kind_label", "status", "warband", "fighter", "fighter_name", "group",
            "group_name", "options", "option_labels", "payload", "choice", "answer_text",
            "answered_at", "answer_url",
        ]  # fmt: skip

    def _names(self, decision: PendingDecision) -> Names:
        # A list passes the names of all its decisions in the context (one query per table).
        return self.context.get("names") or Names.load([decision])

    @extend_schema_field(serializers.DictField(child=serializers.CharField()))
    def get_option_labels(self, decision: PendingDecision) -> dict[str, str]:
        return option_labels(decision, self._names(decision))

    def get_answer_text(self, decision: PendingDecision) -> str:
        return answer_text(decision, self._names(decision))

    def get_answer_url(self, decision: PendingDecision) -> str:
        return reverse("api-decision-answer", args=[decision.pk])


class AnswerSerializer(serializers.Serializer):
    choice = serializers.JSONField(allow_null=True)


def _accepted(job: Job, request=None) -> Response:
    body = JobSerializer(job, context={"request": request}).data
    return Response(body, status=status.HTTP_202_ACCEPTED, headers={"Location": body["url"]})


def _battle_for(user, pk: int) -> Battle:
    battle = get_object_or_404(access.visible_battles(user).select_related("campaign"), pk=pk)
    return battle


class BattleResolveView(APIView):
    @extend_schema(
        request=ResolveSerializer,
        responses={202: JobSerializer},  # 409 and the other errors: the error shape (schema hook)
        description=gettext_lazy(
            "409 when the battle is already resolved (an organiser reverts it first)."
        ),
    )
    def post(self, request, pk: int):
        battle = _battle_for(request.user, pk)
        organiser = access.is_organiser(request.user, battle.campaign)
        if not (organiser or access.is_participant(request.user, battle)):
            raise exceptions.PermissionDenied()
        serializer = ResolveSerializer(data=request.data)
        serializer.is_valid(raise_exception=True)
        data = serializer.validated_data
        if data and not organiser:
            # A player must not pick his own dice or bonuses: the server rolls for him.
            raise exceptions.PermissionDenied(
                _(
                    "Only an organiser may set the seed, the dice rolled at the table or "
                    "scenario bonuses; players ask for the resolution without them."
                )
            )
        options = {key: data[key] for key in ("scenario_bonus", "racial_maximum") if key in data}
        job = battle_resolve_start(
            battle=battle,
            user=request.user,
            seed=data.get("seed"),
            faces=data.get("faces"),
            options=options,
        )
        return _accepted(job, request)


class RoundResolveView(APIView):
    @extend_schema(request=None, responses={202: JobSerializer})
    def post(self, request, campaign: str, number: int):
        """``campaign`` is the campaign's id or its slug."""
        lookup = (
            {"campaign_id": parse_id(campaign)}
            if parse_id(campaign)
            else {"campaign__slug": campaign}
        )
        round = get_object_or_404(
            Round.objects.select_related("campaign").filter(
                campaign__in=access.visible_campaigns(request.user)
            ),
            number=number,
            **lookup,
        )
        if not access.is_organiser(request.user, round.campaign):
            raise exceptions.PermissionDenied()
        return _accepted(round_resolve_start(round=round, user=request.user), request)


class JobDetailView(APIView):
    @extend_schema(responses=JobSerializer)
    def get(self, request, pk: int):
        job = get_object_or_404(Job.objects.select_related("campaign"), pk=pk)
        plays_it = (
            job.battle_id is not None
            and request.user.is_authenticated
            and BattleParticipant.objects.filter(
                battle_id=job.battle_id, warband__owner=request.user
            ).exists()
        )
        if (
            job.created_by_id != request.user.pk
            and not plays_it
            and not access.is_organiser(request.user, job.campaign)
        ):
            raise exceptions.NotFound()
        return Response(JobSerializer(job, context={"request": request}).data)


class BattlePostBattleView(APIView):
    """The sequence's results for a battle, step by step with the dice, in the caller's language."""

    @extend_schema(responses=OpenApiTypes.OBJECT)
    def get(self, request, pk: int):
        battle = _battle_for(request.user, pk)
        runs = (
            PostBattleRun.objects.filter(battle=battle)
            .select_related("faces_typed_by")
            .prefetch_related(
                "results__warband", "results__decisions__fighter", "results__decisions__group"
            )
            .order_by("-pk")
        )
        return Response(
            {
                "battle": battle.pk,
                "status": battle.status,
                "runs": [
                    {
                        "id": run.pk,
                        "status": run.status,
                        "seed": run.seed,
                        "error": run.error_text,
                        # Dice typed at the table: by whom, and whether he plays in the battle.
                        "faces_typed_by": (
                            run.faces_typed_by.username if run.faces_typed_by else None
                        ),
                        "faces_typed_by_player": run.faces_typed_by_player,
                        "results": [_result_data(result) for result in run.results.all()],
                    }
                    for run in runs
                ],
            }
        )


def _result_data(result) -> dict:
    decisions = list(result.decisions.all())
    names = Names.load(decisions, result.steps)
    return {
        "warband": result.warband_id,
        "warband_name": result.warband.name,
        "experience_gained": result.experience_gained,
        "finds_found": result.finds_found,
        "gold_gained": result.gold_gained,
        "steps": present_steps(result.steps, names),
        "rolls": result.rolls,
        "decisions": DecisionSerializer(decisions, many=True, context={"names": names}).data,
    }


class BattleRevertView(APIView):
    @extend_schema(request=None, responses=OpenApiTypes.OBJECT)
    def post(self, request, pk: int):
        battle = _battle_for(request.user, pk)
        if not access.can_revert(request.user, battle):
            raise exceptions.PermissionDenied(
                _("Only an organiser who does not play in this battle can revert its sequence.")
            )
        run = battle_revert(battle=battle, user=request.user)
        return Response({"battle": battle.pk, "run": run.pk, "status": run.status})


class DecisionListView(generics.ListAPIView):
    """The caller's warbands' decisions (``?status=``: open by default, ``all``), oldest first,
    a page at a time as every list."""

    serializer_class = DecisionSerializer
    filter_backends: list = []  # ?status is read below

    def get_queryset(self):
        decisions = PendingDecision.objects.filter(warband__owner=self.request.user).select_related(
            "fighter", "group"
        )
        wanted = self.request.query_params.get("status", "open")
        if wanted != "all":
            decisions = decisions.filter(Q(status=wanted))
        return decisions.order_by("pk")

    @extend_schema(
        parameters=[
            OpenApiParameter(
                "status",
                str,
                enum=["open", "answered", "all"],
                description="Open ones (the default), answered ones, or all.",
            )
        ]
    )
    def get(self, request, *args, **kwargs):
        page = self.paginate_queryset(self.get_queryset())
        context = {**self.get_serializer_context(), "names": Names.load(page)}
        data = DecisionSerializer(page, many=True, context=context).data
        return self.get_paginated_response(data)


class DecisionAnswerView(APIView):
    @extend_schema(request=AnswerSerializer, responses=DecisionSerializer)
    def post(self, request, pk: int):
        """Anyone who sees the battle sees its decisions; only the deciding owner answers (403)."""
        decision = get_object_or_404(
            PendingDecision.objects.filter(
                Q(warband__owner=request.user)
                | Q(result__run__battle__in=access.visible_battles(request.user))
            ),
            pk=pk,
        )
        serializer = AnswerSerializer(data=request.data)
        serializer.is_valid(raise_exception=True)
        try:
            decision = decision_answer(
                decision=decision, user=request.user, choice=serializer.validated_data["choice"]
            )
        except PermissionDenied as error:
            raise exceptions.PermissionDenied(str(error)) from error
        return Response(DecisionSerializer(decision).data)
