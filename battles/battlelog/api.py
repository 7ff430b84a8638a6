"""The battle log over HTTP, for the page and the companion apps (a phone app, a Discord bot).

* ``GET  /api/v1/battles/{id}/log/?after=<seq>`` — the entries after ``seq``, in order;
* ``POST /api/v1/battles/{id}/log/`` — ``{"client_id", "kind", "payload": {…}}`` (or the payload's
  keys inline), optional ``base_seq`` (the last seq the client saw: a conflicting stale entry is a
  409), ``seed`` or ``faces`` for the rolls → 201 and the entry; the same ``client_id`` again → 200
  and the same entry;
* ``POST /api/v1/battles/{id}/log/plan/`` — ``{"kind", "payload", "faces"}`` → which dice the
  proposed entry needs next, after the faces typed so far (nothing is written);
* ``GET  /api/v1/battles/{id}/state/`` — each side's fighters with their states, the combats,
  counts, thresholds, checks due;
* ``GET/POST /api/v1/battles/{id}/setup/`` — who may fight (and who may not, and why), the
  campaign's scenarios, each side's lineup / the setup that starts the battle;
* ``PUT /api/v1/battles/{id}/lineup/`` — ``{"warband", "fighters": [ids]}``: who fights for a
  warband, set by its player (or an organiser) before the battle starts.
"""

from __future__ import annotations

from typing import Any

from django.db.models import Max
from django.http import Http404
from django.shortcuts import get_object_or_404
from django.utils.translation import get_language
from django.utils.translation import gettext_lazy as _
from drf_spectacular.utils import (
    OpenApiExample,
    OpenApiParameter,
    extend_schema,
)
from rest_framework import serializers, status
from rest_framework.exceptions import NotAuthenticated
from rest_framework.permissions import IsAuthenticatedOrReadOnly
from rest_framework.response import Response
from rest_framework.utils.urls import remove_query_param, replace_query_param
from rest_framework.views import APIView

from annuminas.api.conditional import if_none_match, not_modified
from annuminas.api.timestamps import utc_iso
from annuminas.errors import Conflict
from battles.common import access
from battles.models import Battle, BattleLogEntry, BattleSetup
from rules.api.serializers import DiceSourceSerializer
from rules.engine import RulesError
from rules.engine.tracker import TrackerError, dice_plan
from rules.presenters import roll_purpose, rules_error_to_validation

from . import prebattle, selectors, services
from . import serializers as answers
from .entry_schemas import ENTRY_REQUEST, DicePlanSerializer, PlanRequestSerializer
from .scenarios import campaign_scenarios

RESERVED = ("client_id", "kind", "payload", "base_seq", "seed", "faces")


def entry_data(entry: BattleLogEntry) -> dict[str, Any]:
    return {
        "seq": entry.seq,
        "kind": entry.kind,
        "payload": entry.payload,
        "author": entry.author.username if entry.author_id else None,
        "created_at": utc_iso(entry.created),
        "client_id": str(entry.client_id),
        "dice": entry.dice,
    }


def log_etag(battle: Battle, kind: str, *, last: int | None = None) -> str:
    """The ETag of the battle's log or state: both change with a new entry (its last seq), a
    report (the battle's version) and the reader's language (the state's words). It names the
    log as it stands, not a page of it: a phone polling ``?after=<last_seq>`` sends the tag of
    its previous read and gets 304 while nothing was added."""
    if last is None:
        last = BattleLogEntry.objects.filter(battle_id=battle.pk).aggregate(last=Max("seq"))["last"]
    return f'"{kind}-{battle.pk}-s{last or 0}-v{battle.version}-{get_language() or "es"}"'


def _seq_param(request, name: str) -> int | None:
    raw = request.query_params.get(name)
    if raw is None:
        return None
    if not (raw.isascii() and raw.isdigit() and len(raw) < 10):
        raise serializers.ValidationError(
            {name: [_("A seq: a whole number from 0 to 999,999,999.")]}
        )
    return int(raw)


def _page_size(request) -> int:
    """``?page_size=`` as the lists read it: a bad value is the default, a big one the most."""
    raw = request.query_params.get("page_size", "")
    if not (raw.isascii() and raw.isdigit() and 0 < len(raw) < 10 and int(raw) > 0):
        return selectors.MAX_PAGE
    return min(int(raw), selectors.MAX_PAGE)


def _link(request, **cursor: int) -> str:
    """This page's address with the other cursor: the same page size, absolute."""
    url = request.build_absolute_uri()
    for name in ("after", "before"):
        url = remove_query_param(url, name)
    ((name, value),) = cursor.items()
    return replace_query_param(url, name, value)


def log_page(request, battle: Battle) -> Response:
    """A page of the log as every list answers (count, next, previous, results) plus
    ``last_seq``. ``?after=<seq>`` (the default, from 0): the entries after it; ``?before=<seq>``:
    the last entries before it. ``next`` is ``?after=`` the page's last seq while entries
    follow; ``previous`` is ``?before=`` its first while entries precede."""
    after, before = _seq_param(request, "after"), _seq_param(request, "before")
    if after is not None and before is not None:
        raise serializers.ValidationError({"before": [_("Send after or before, not both.")]})
    size = _page_size(request)
    extent = selectors.log_extent(battle, upto=after or 0)
    etag = log_etag(battle, "battlelog", last=extent["last"])
    if if_none_match(request, etag):
        return not_modified(etag)
    if before is None:
        after = after or 0
        entries = list(selectors.log_entries(battle, after=after, limit=size + 1))
        follow, entries = len(entries) > size, entries[:size]
        last = entries[-1].seq if entries else after
        precede = extent["upto"] > 0
        first = entries[0].seq if entries else after + 1
    else:
        entries = selectors.log_entries_before(battle, before=before, limit=size + 1)
        precede, entries = len(entries) > size, entries[-size:]
        last = entries[-1].seq if entries else min(max(before - 1, 0), extent["last"])
        follow = extent["last"] > last
        first = entries[0].seq if entries else before
    return Response(
        {
            "count": extent["count"],
            "next": _link(request, after=last) if follow else None,
            "previous": _link(request, before=first) if precede else None,
            "results": [entry_data(e) for e in entries],
            "last_seq": last,
        },
        headers={"ETag": etag},
    )


def visible_battle(user, pk: int, *, only: tuple[str, ...] = ()) -> Battle:
    """The battle if the caller may read it (a member, or anyone for a public campaign). A
    caller not logged in who may not see it gets 401 (log in), as from the rest of the battles
    API (``battles.common.api.visible_or_401``): whether it is private or missing is not told.
    ``only``: just these fields, without the campaign (a phone polls the log every few
    seconds and needs only the id)."""
    battles = access.visible_battles(user)
    battles = battles.only(*only) if only else battles.select_related("campaign")
    try:
        return get_object_or_404(battles, pk=pk)
    except Http404:
        if not user.is_authenticated:
            raise NotAuthenticated from None
        raise


class EntrySerializer(DiceSourceSerializer):
    client_id = serializers.UUIDField(
        help_text=_("Made by the client; a replay returns the entry.")
    )
    kind = serializers.ChoiceField(choices=BattleLogEntry.Kind.choices)
    payload = serializers.JSONField(required=False)
    base_seq = serializers.IntegerField(min_value=0, max_value=10**9, required=False)

    def validate_payload(self, value):
        if not isinstance(value, dict):
            raise serializers.ValidationError(_("The payload is an object."))
        return value


class SetupSerializer(serializers.Serializer):
    client_id = serializers.UUIDField()
    fighters = serializers.DictField(
        child=serializers.ListField(child=serializers.IntegerField(min_value=1), max_length=40),
        required=False,
        help_text=_("Warband id → the ids of the fighters it fields (all who can, if omitted)."),
    )
    scenario = serializers.CharField(max_length=120, required=False, allow_blank=True)
    first = serializers.IntegerField(min_value=1, required=False, allow_null=True)
    attacker = serializers.IntegerField(min_value=1, required=False, allow_null=True)

    def validate_fighters(self, value):
        try:
            return {int(k): v for k, v in value.items()}
        except ValueError as error:
            raise serializers.ValidationError(_("Keys are warband ids.")) from error


class LineupSerializer(serializers.Serializer):
    warband = serializers.IntegerField(min_value=1)
    fighters = serializers.ListField(
        child=serializers.IntegerField(min_value=1), min_length=1, max_length=40
    )


class BattleAPIView(APIView):
    # Reads follow the campaign's visibility (selectors); writes need a login (401), then the
    # services decide who may write (403).
    permission_classes = [IsAuthenticatedOrReadOnly]


def _setup(battle: Battle, user, data: dict) -> Response:
    entry, created = prebattle.battle_log_setup(
        battle=battle,
        by=user,
        client_id=data["client_id"],
        fighters=data.get("fighters"),
        scenario=data.get("scenario", ""),
        first=data.get("first"),
        attacker=data.get("attacker"),
    )
    return Response(entry_data(entry), status=status.HTTP_201_CREATED if created else 200)


class BattleLogView(BattleAPIView):
    @extend_schema(
        parameters=[
            OpenApiParameter(
                "after",
                {"type": "integer", "minimum": 0, "maximum": 999_999_999},
                description="The entries after this seq (from 0: the log's first page).",
                required=False,
            ),
            OpenApiParameter(
                "before",
                {"type": "integer", "minimum": 0, "maximum": 999_999_999},
                description="The last entries before this seq (`previous` links here); not "
                "with `after`.",
                required=False,
            ),
            OpenApiParameter(
                "page_size",
                int,
                description=f"Entries per page (up to {selectors.MAX_PAGE}, the default).",
                required=False,
            ),
        ],
        responses={200: answers.LogPageSerializer, 304: None, **answers.READ_ERRORS},
        summary="The battle log, in order (ETag; If-None-Match answers 304)",
    )
    def get(self, request, pk: int):
        return log_page(request, visible_battle(request.user, pk, only=("id", "version")))

    @extend_schema(
        request=ENTRY_REQUEST,
        responses=answers.ENTRY_WRITTEN,
        summary="Append an entry (idempotent by client_id)",
        description=(
            "One schema per kind of entry (`kind` chooses). Rolled kinds (check, attack, "
            "close-combat, hits) are rolled here: with `seed`, or with exactly the `faces` "
            "the entry needs (ask `log/plan/` which, step by step)."
        ),
        examples=[
            OpenApiExample(
                "An attack, rolled here",
                request_only=True,
                value={
                    "client_id": "5f0c6f1e-7d43-4c51-9a0e-2b1f3f0a9b11",
                    "kind": "attack",
                    "payload": {"attacker": 12, "target": 31, "mode": "shooting", "weapon": "arco"},
                    "base_seq": 14,
                },
            ),
            OpenApiExample(
                "A charge, then its combat's close-combat phase",
                request_only=True,
                value={
                    "client_id": "7a1c6f1e-7d43-4c51-9a0e-2b1f3f0a9b12",
                    "kind": "close-combat",
                    "payload": {"fighter": 12, "blows": [{"attacker": 12, "target": 31}]},
                },
            ),
            OpenApiExample(
                "The rout test, with the dice rolled at the table",
                request_only=True,
                value={
                    "client_id": "0b6f1c3e-1111-4c51-9a0e-2b1f3f0a9b11",
                    "kind": "check",
                    "payload": {"check": "rout", "side": 3},
                    "faces": [4, 5],
                },
            ),
        ],
    )
    def post(self, request, pk: int):
        if not isinstance(request.data, dict):
            raise serializers.ValidationError(_("Send the entry as a JSON object."))
        serializer = EntrySerializer(data=request.data)
        serializer.is_valid(raise_exception=True)
        data = serializer.validated_data
        payload = data.get("payload")
        if payload is None:
            payload = {k: v for k, v in request.data.items() if k not in RESERVED}
        if data["kind"] == "setup":
            setup = SetupSerializer(data={**payload, "client_id": str(data["client_id"])})
            setup.is_valid(raise_exception=True)
            return _setup(visible_battle(request.user, pk), request.user, setup.validated_data)
        # The service reads the battle once, locked and only if the caller may see it (404).
        entry, created = services.battle_log_append(
            battle=pk,
            by=request.user,
            kind=data["kind"],
            payload=payload,
            client_id=data["client_id"],
            base_seq=data.get("base_seq"),
            seed=data.get("seed"),
            faces=data.get("faces"),
        )
        return Response(entry_data(entry), status=status.HTTP_201_CREATED if created else 200)


class BattleLogPlanView(BattleAPIView):
    @extend_schema(
        request=PlanRequestSerializer,
        responses={200: DicePlanSerializer, **answers.errors(400, 401, 404, 409)},
        summary="Which dice an entry needs, step by step",
        description=(
            "Send a proposed entry and the faces typed so far: the answer lists the steps "
            "they fill and the next one (its purpose, dice, rolls, who against whom). Nothing "
            "is written."
        ),
    )
    def post(self, request, pk: int):
        battle = visible_battle(request.user, pk)
        serializer = PlanRequestSerializer(data=request.data)
        serializer.is_valid(raise_exception=True)
        data = serializer.validated_data
        state = services.log_state(battle)
        if state is None:  # a state refusal, as when posting the entry: 409
            raise Conflict(_("Set up the battle before logging it."), code="battle_not_set_up")
        try:
            plan = dice_plan(state, data["kind"], data["payload"], data.get("faces") or [])
        except (TrackerError, RulesError) as error:
            raise rules_error_to_validation(error, "payload") from error
        return Response(_plan_data(plan.to_dict()))


def _plan_data(plan: dict[str, Any]) -> dict[str, Any]:
    """The plan with each step's purpose in words too."""
    for step in [*plan["done"], *([plan["next"]] if plan["next"] else [])]:
        step["purpose_label"] = roll_purpose(step["purpose"])
    return plan


class BattleStateView(BattleAPIView):
    @extend_schema(
        responses={200: answers.BattleStateSerializer, 304: None, **answers.READ_ERRORS},
        summary="The battle as it stands (ETag; If-None-Match answers 304)",
    )
    def get(self, request, pk: int):
        battle = visible_battle(request.user, pk)
        etag = log_etag(battle, "battlestate")
        if if_none_match(request, etag):
            return not_modified(etag)
        state = services.log_state(battle)
        if state is None:
            body = {"set_up": False, "battle": battle.pk, "status": battle.status}
        else:
            body = {"set_up": True, "battle": battle.pk, "status": battle.status, **state.to_dict()}
        return Response(body, headers={"ETag": etag})


def prebattle_data(battle: Battle, user) -> dict[str, Any]:
    """Who may fight for each warband (and who may not, and why), its lineup if chosen, whether
    the caller may pick for it; the campaign's scenarios; the setup once made."""
    setup = BattleSetup.objects.filter(battle=battle).first()
    lineups = selectors.lineups(battle)
    battle = selectors.with_participants(battle)
    return {
        "battle": battle.pk,
        "setup": setup.data if setup else None,
        "scenarios": campaign_scenarios(battle.campaign),
        "warbands": [
            {
                "warband": warband,
                **option,
                "lineup": lineups.get(warband),
                "may_pick": bool(user.is_authenticated)
                and prebattle.may_pick_for(user, battle, warband),
            }
            for warband, option in selectors.eligible_fighters(battle).items()
        ],
    }


class BattleLineupView(BattleAPIView):
    @extend_schema(
        request=LineupSerializer,
        responses={200: answers.LineupResultSerializer, **answers.WRITE_ERRORS},
        summary="Who fights",
    )
    def put(self, request, pk: int):
        battle = visible_battle(request.user, pk)
        serializer = LineupSerializer(data=request.data)
        serializer.is_valid(raise_exception=True)
        lineup = prebattle.battle_lineup_set(
            battle=battle,
            by=request.user,
            warband_id=serializer.validated_data["warband"],
            fighters=serializer.validated_data["fighters"],
        )
        return Response({"warband": lineup.warband_id, "fighters": lineup.fighters})


class BattleSetupView(BattleAPIView):
    @extend_schema(
        responses={200: answers.PrebattleSerializer, **answers.READ_ERRORS},
        summary="Who may fight, and the setup if made",
    )
    def get(self, request, pk: int):
        battle = visible_battle(request.user, pk)
        return Response(prebattle_data(battle, request.user))

    @extend_schema(
        request=SetupSerializer,
        responses=answers.ENTRY_WRITTEN,
        summary="Set up",
    )
    def post(self, request, pk: int):
        battle = visible_battle(request.user, pk)
        serializer = SetupSerializer(data=request.data)
        serializer.is_valid(raise_exception=True)
        return _setup(battle, request.user, serializer.validated_data)
