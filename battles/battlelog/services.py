"""Writes of the battle log: each entry (rolled through the engine), the finish.

Every write locks the battle row (``select_for_update``), so entries of one battle get their
``seq`` one after the other whatever the number of phones posting at once. A ``client_id`` seen
before returns the entry it created (a phone replaying its queue never duplicates anything).
The pure tracker (:mod:`rules.engine.tracker`) decides whether an entry fits the battle; this
module loads, locks, rolls, stores, and — on ``finish`` — fills the battle report through
:func:`battles.reports.services.battle_report`. A rout that leaves one warband on the field (a
failed rout test, a voluntary rout) writes the ``finish`` entry by itself, in the same transaction.
The setup is written by :mod:`.prebattle`.
"""

from __future__ import annotations

import secrets
import uuid
from collections.abc import Mapping, Sequence
from typing import Any

from django.core.exceptions import PermissionDenied, ValidationError
from django.db import transaction
from django.db.models import Prefetch, prefetch_related_objects
from django.http import Http404
from django.utils.translation import gettext as _

from annuminas.errors import Conflict
from annuminas.validation import json_check
from battles.common import access
from battles.models import Battle, BattleLogEntry, BattleParticipant
from battles.reports import services
from rules.api.serializers import MAX_SEED, AttackSerializer
from rules.engine import WEAPONS, Dice, RulesError
from rules.engine.tracker import (
    KINDS,
    BattleState,
    TrackerError,
    challenge_overkill,
    fold,
    resolve_challenge,
    roll_check,
)
from rules.presenters import rules_error_to_validation
from rules.situations import SituationError, build_situation

WRITABLE_KINDS = tuple(kind for kind in KINDS if kind != "setup")  # the setup: see .prebattle
PAYLOAD_KEYS = {
    "turn": frozenset({"turn", "side"}),
    "status": frozenset({"fighter", "status", "by", "weapon", "wounds"}),
    "check": frozenset({"check", "side", "fighter", "against", "params"}),
    "attack": frozenset(
        {"attacker", "target", "mode", "weapon", "options", "modifiers", "attacks"}
    ),
    "challenge": frozenset({"step", "fighter", "issued", "params"}),
    "rout": frozenset({"side", "voluntary"}),
    "finish": frozenset({"winner", "draw", "reason"}),
    "note": frozenset({"text"}),
    "correction": frozenset({"corrects", "replacement"}),
}
"""The keys each kind of entry takes (anything else is refused, never stored)."""
REPLACEMENT_KEYS = frozenset().union(
    *(keys for kind, keys in PAYLOAD_KEYS.items() if kind != "correction")
)
MAX_TEXT = 500  # a note's length (rules.engine.tracker.model.MAX_NOTE)
MAX_KEY = 40
MAX_BYTES = 4096
MAX_DEPTH = 5  # payload → replacement → params → friends → a friend
FIGHTER_KEYS = ("fighter", "by", "attacker", "target", "against")
ORDER_KINDS = ("turn", "rout", "finish", "correction")
ARMOUR_KINDS = frozenset({"armour", "shield", "helmet"})


def _invalid(error: RulesError, prefix: str = "payload") -> ValidationError:
    return rules_error_to_validation(error, prefix if getattr(error, "field", None) else "")


def _lock(battle: Battle | int) -> Battle:
    """The battle row locked, with its campaign and its participants' warbands (two queries)."""
    try:
        return (
            Battle.objects.select_for_update(of=("self",))
            .select_related("campaign")
            .prefetch_related(
                Prefetch(
                    "participants", queryset=BattleParticipant.objects.select_related("warband")
                )
            )
            .get(pk=getattr(battle, "pk", battle))
        )
    except Battle.DoesNotExist as missing:
        raise Http404 from missing


def _lock_to_append(battle: Battle | int, *, by) -> Battle:
    """The battle row locked for a new entry, with only what the append reads: its status, its
    campaign's ``archived`` flag and its participants' owners (narrow queries; a league day
    posts thousands of entries, and loading whole rows was a third of a post's time). A battle
    ``by`` may not see is a 404 (``Http404``), as if it did not exist, and before any lock is
    taken: its players are its warbands' owners (one narrow read), anyone else is asked the
    campaign's visibility. The participants are read again under the lock for the write's
    own checks (a pairing may have changed in between)."""
    pk = getattr(battle, "pk", battle)
    owners = BattleParticipant.objects.filter(battle_id=pk).values_list(
        "warband__owner_id", flat=True
    )
    if not access.battle_visible(by, pk, owner_ids=set(owners)):
        raise Http404
    try:
        battle = (
            Battle.objects.select_for_update(of=("self",))
            .select_related("campaign")
            .only("id", "status", "campaign__id", "campaign__archived")
            .get(pk=pk)
        )
    except Battle.DoesNotExist as missing:
        raise Http404 from missing
    participants = BattleParticipant.objects.select_related("warband").only(
        "id", "battle_id", "warband__id", "warband__owner_id"
    )
    prefetch_related_objects([battle], Prefetch("participants", queryset=participants))
    return battle


def _require_writer(user, battle: Battle) -> None:
    if not access.can_report(user, battle):
        raise PermissionDenied(_("Only the battle's players and the campaign's organisers write."))
    if battle.campaign.archived:
        raise Conflict(_("This campaign is archived: nothing in it can change."))


def _dice(seed: int | None, faces: Sequence[int] | None) -> Dice:
    try:
        if faces:
            return Dice(faces=list(faces))
        return Dice(seed=secrets.randbelow(MAX_SEED) if seed is None else seed)
    except RulesError as error:
        raise rules_error_to_validation(error, "faces" if faces else "seed") from error


def _existing(battle: Battle, client_id: uuid.UUID) -> BattleLogEntry | None:
    return (
        BattleLogEntry.objects.select_related("author")
        .filter(battle=battle, client_id=client_id)
        .first()
    )


def log_state(battle: Battle) -> BattleState | None:
    """The fold of the battle's log, or ``None`` before the setup."""
    items = [
        {"seq": seq, "kind": kind, "payload": payload}
        for seq, kind, payload in BattleLogEntry.objects.filter(battle=battle)
        .order_by("seq")
        .values_list("seq", "kind", "payload")
    ]
    return fold(items) if items else None


# --- entries -------------------------------------------------------------------------------------
def _touched(kind: str, payload: Mapping[str, Any]) -> tuple[set[Any], set[Any]]:
    """(the warriors an entry reads, the warriors it may change); ``"order"`` for entries that
    move the order of play (turns, routs, the rout test, the finish, corrections)."""
    read = {payload[k] for k in FIGHTER_KEYS if isinstance(payload.get(k), int)}
    changed = {payload[k] for k in ("fighter", "target") if isinstance(payload.get(k), int)}
    if kind in ORDER_KINDS or (kind == "check" and payload.get("check") == "rout"):
        read.add("order")
        changed.add("order")
    return read, changed


def _conflicts(entries: Sequence[Mapping[str, Any]], kind: str, payload, base_seq: int) -> bool:
    """An entry written on a stale view conflicts when an entry after ``base_seq`` changed a
    warrior it involves, or either of them moves the order of play."""
    if kind == "note":
        return False
    mine, _changes = _touched(kind, payload)
    for item in entries:
        if item["seq"] <= base_seq or item["kind"] == "note":
            continue
        _reads, theirs = _touched(item["kind"], item["payload"])
        if "order" in mine or theirs & mine:
            return True
    return False


def _fighter_setup(state: BattleState, fighter_id: int) -> dict[str, Any]:
    for side in state.setup.sides:
        for fighter in side.fighters:
            if fighter.id == fighter_id:
                return fighter.to_dict()
    return {}


def _attack_request(state: BattleState, payload: Mapping[str, Any]) -> dict[str, Any]:
    """The body of ``/api/v1/rules/attack/`` for this attack: the profiles and equipment of the
    setup, the target's wounds and status from the battle's state, and what the player adds."""
    mode = payload.get("mode", "melee")
    attacker = _fighter_setup(state, payload["attacker"])
    target = _fighter_setup(state, payload["target"])
    target_state = state.fighters[payload["target"]]
    profile, defence = attacker["profile"], target["profile"]
    carried = [slug for slug in attacker["equipment"] if slug in WEAPONS]
    weapon = payload.get("weapon")
    if weapon in (None, "") and mode == "shooting":
        weapon = next((s for s in carried if WEAPONS[s].kind == "missile"), None)
    request: dict[str, Any] = {
        "kind": mode,
        "attacker": {
            "ws": profile.get("ws", 3),
            "bs": profile.get("bs", 3),
            "s": profile.get("s", 3),
            "a": max(1, profile.get("a", 1)),
            "weapon": weapon or None,
            **{
                k: v
                for k, v in (payload.get("options") or {}).items()
                if k in ("charging", "first_round", "hatred", "frenzy", "fear_failed", "offhand")
            },
        },
        "defender": {
            "ws": defence.get("ws", 3),
            "t": max(1, defence.get("t", 3)),
            "s": defence.get("s", 3),
            "w": target_state.wounds,
            "armour": [
                s for s in target["equipment"] if s in WEAPONS and WEAPONS[s].kind in ARMOUR_KINDS
            ],
            "weapons": [
                s for s in target["equipment"] if s in WEAPONS and WEAPONS[s].kind == "melee"
            ][:4],
            "knocked_down": target_state.status == "knocked_down",
            "stunned": target_state.status == "stunned",
        },
        "modifiers": payload.get("modifiers") or {},
    }
    if "attacks" in payload:
        request["attacker"]["a"] = payload["attacks"]
    return request


def _roll_attack(state: BattleState, payload: dict[str, Any], dice: Dice) -> dict[str, Any]:
    """The same path as ``/api/v1/rules/attack/``: the serializer, the situation, the engine."""
    serializer = AttackSerializer(data=_attack_request(state, payload))
    if not serializer.is_valid():
        raise ValidationError({"payload": [str(serializer.errors)]})
    try:
        situation = build_situation(serializer.validated_data)
    except SituationError as error:
        raise rules_error_to_validation(error.error, f"payload.{error.prefix}") from error
    try:
        result = situation.resolve(dice)
    except RulesError as error:
        raise _invalid(error) from error
    data = result.to_dict()
    data.pop("rolls", None)  # kept once, in the entry's dice audit
    duel = challenge_overkill(state, payload, int(data.get("wounding_hits") or 0))
    if duel is not None:
        data["challenge"] = duel
    return data


def _clean_payload(kind: str, payload: Any) -> dict[str, Any]:
    """The payload with only the keys its kind knows, plain JSON within bounds and storable
    (``annuminas.validation.json_check``: no NUL, which jsonb refuses); a correction's
    replacement takes the keys of any kind (the tracker checks it against the entry it
    replaces)."""
    if not isinstance(payload, Mapping):
        raise ValidationError({"payload": [_("The entry's payload is a JSON object.")]})
    if "result" in payload:
        raise ValidationError({"payload.result": [_("Results are rolled here, not sent.")]})
    _known(payload, PAYLOAD_KEYS[kind], "payload")
    replacement = payload.get("replacement")
    if kind == "correction" and isinstance(replacement, Mapping):
        if "result" in replacement:
            raise ValidationError(
                {"payload.replacement.result": [_("Results are rolled here, not sent.")]}
            )
        _known(replacement, REPLACEMENT_KEYS, "payload.replacement")
    json_check(
        dict(payload),
        field="payload",
        max_bytes=MAX_BYTES,
        max_depth=MAX_DEPTH,
        max_string_length=MAX_TEXT,
    )
    return dict(payload)


def _known(payload: Mapping[str, Any], keys: frozenset[str], path: str) -> None:
    unknown = sorted(str(key) for key in payload if key not in keys)
    if unknown:
        raise ValidationError(
            {
                f"{path}.{unknown[0][:MAX_KEY]}": [
                    _("Not a field of this entry; it takes %(keys)s.")
                    % {"keys": ", ".join(sorted(keys))}
                ]
            }
        )


@transaction.atomic
def battle_log_append(
    *,
    battle: Battle | int,
    by,
    kind: str,
    payload: Mapping[str, Any],
    client_id: uuid.UUID,
    base_seq: int | None = None,
    seed: int | None = None,
    faces: Sequence[int] | None = None,
) -> tuple[BattleLogEntry, bool]:
    """Append one entry; return it and whether it was created (``False``: the same
    ``client_id`` was posted before and its entry is returned unchanged). Checks and attacks
    are rolled here with ``seed`` or the ``faces`` typed at the table. Locks the battle row;
    a battle ``by`` may not see is a 404 (``Http404``)."""
    battle = _lock_to_append(battle, by=by)
    _require_writer(by, battle)
    # The whole log in one read; a replayed client_id is found in it (then read in full).
    entries = list(
        BattleLogEntry.objects.filter(battle=battle)
        .order_by("seq")
        .values("seq", "kind", "payload", "client_id")
    )
    if any(entry["client_id"] == client_id for entry in entries):
        return _existing(battle, client_id), False
    if kind not in WRITABLE_KINDS:
        raise ValidationError({"kind": [_("Unknown kind of entry: %(kind)s.") % {"kind": kind}]})
    payload = _clean_payload(kind, payload)
    if not entries:
        raise Conflict(_("Set up the battle before logging it."))
    if battle.status != Battle.Status.SCHEDULED and kind != "note":
        raise Conflict(_("This battle has been reported: its log takes only notes now."))
    state = fold(entries)
    _check_base_seq(entries, state, kind, payload, base_seq)
    seq = state.last_seq + 1
    was_finished = state.finished
    try:
        dice_audit = _resolve(state, kind, payload, seed, faces)
        state.append(seq, kind, payload)
    except (TrackerError, RulesError) as error:  # RulesError: the engine refused a parameter
        raise _invalid(error) from error
    entry = BattleLogEntry.objects.create(
        battle=battle,
        seq=seq,
        kind=kind,
        payload=payload,
        author=by,
        client_id=client_id,
        dice=dice_audit,
    )
    finish = state.finish_due()
    if finish is not None:
        state.append(seq + 1, "finish", finish)
        BattleLogEntry.objects.create(
            battle=battle,
            seq=seq + 1,
            kind="finish",
            payload=finish,
            author=by,
            client_id=uuid.uuid5(client_id, "finish"),
        )
    if state.finished and not was_finished:
        services.battle_report(battle=battle, reporter=by, report=_report(state))
    return entry, True


def _check_base_seq(entries, state: BattleState, kind: str, payload, base_seq) -> None:
    """The entry was written after reading the log up to ``base_seq``: later than the log is a
    400; earlier is fine unless the entries since touch the same warriors (409)."""
    if base_seq is None:
        return
    if base_seq > state.last_seq:
        raise ValidationError(
            {
                "base_seq": [
                    _("The log has only %(seq)d entries: base_seq cannot be later.")
                    % {"seq": state.last_seq}
                ]
            }
        )
    if base_seq < state.last_seq and _conflicts(entries, kind, payload, base_seq):
        raise Conflict(
            _(
                "The log moved on (now at entry %(seq)d) and touches the same warriors; "
                "reload and try again."
            )
            % {"seq": state.last_seq}
        )


def _resolve(
    state: BattleState,
    kind: str,
    payload: dict[str, Any],
    seed: int | None,
    faces: Sequence[int] | None,
) -> dict[str, Any] | None:
    """Roll a check or an attack (or weigh a challenge) into ``payload["result"]``; return the
    dice audit."""
    if kind == "check":
        dice = _dice(seed, faces)
        payload["result"] = roll_check(state, payload, dice=dice)
        payload["result"].pop("rolls", None)
        return dice.to_dict()
    if kind == "attack":
        state.validate(kind, payload)
        dice = _dice(seed, faces)
        payload["result"] = _roll_attack(state, payload, dice)
        return dice.to_dict()
    if kind == "challenge":
        payload["result"] = resolve_challenge(state, payload).to_dict()
    return None


def _report(state: BattleState) -> services.Report:
    """The battle report a player would have typed, from the finished log."""
    data = state.report()
    events = [
        services.EventReport(
            turn=max(1, event["turn"]),
            kind="out_of_action",
            actor_id=event["actor"],
            actor_warband_id=event["actor_side"],
            target_id=event["target"],
            target_warband_id=event["target_side"],
            weapon=event["weapon"],
        )
        for event in data["out_of_action"]
    ]
    for side in data["sides"]:
        if side["routed"]:
            events.append(
                services.EventReport(
                    turn=max(1, data["last_turn"]),
                    kind="rout",
                    actor_warband_id=side["warband"],
                    voluntary=side["voluntary_rout"],
                )
            )
    return services.Report(
        scenario=data["scenario"],
        is_draw=data["draw"],
        winner_ids=data["winners"],
        participants=[
            services.ParticipantReport(
                warband_id=side["warband"],
                routed=side["routed"],
                voluntary_rout=side["voluntary_rout"],
                fighter_ids=side["fighters"],
            )
            for side in data["sides"]
        ],
        events=events,
        notes=_("Reported from the battle log."),
    )
