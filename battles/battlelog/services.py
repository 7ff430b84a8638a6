"""Writes of the battle log: the setup, each entry (rolled through the engine), the finish.

Every write locks the battle row (``select_for_update``), so entries of one battle get their
``seq`` one after the other whatever the number of phones posting at once. A ``client_id`` seen
before returns the entry it created (a phone replaying its queue never duplicates anything).
The pure tracker (:mod:`rules.engine.tracker`) decides whether an entry fits the battle; this
module loads, locks, rolls, stores, and — on ``finish`` — fills the battle report through
:func:`battles.services.battle_report`.
"""

from __future__ import annotations

import secrets
import uuid
from collections.abc import Mapping, Sequence
from typing import Any

from django.core.exceptions import PermissionDenied, ValidationError
from django.db import transaction
from django.utils.translation import gettext as _

from annuminas.api.errors import Conflict
from battles import access, services
from battles.models import Battle, BattleLogEntry, BattleSetup
from rules.api.serializers import MAX_SEED, AttackSerializer
from rules.engine import Dice, RulesError, resolve_phase, resolve_shooting, underdog_bonus
from rules.engine.tracker import BattleState, TrackerError, fold, roll_check, setup_from_dict
from rules.presenters import rules_error_to_validation
from rules.situations import SituationError, build_situation

from .selectors import eligible_fighters

WRITABLE_KINDS = ("turn", "status", "check", "attack", "rout", "finish", "note", "correction")
FIGHTER_KEYS = ("fighter", "by", "attacker", "target", "against")
ORDER_KINDS = ("turn", "rout", "finish", "correction")
ARMOUR_KINDS = frozenset({"armour", "shield", "helmet"})


def _invalid(error: RulesError, prefix: str = "payload") -> ValidationError:
    return rules_error_to_validation(error, prefix if getattr(error, "field", None) else "")


def _lock(battle: Battle) -> Battle:
    return (
        Battle.objects.select_for_update(of=("self",))
        .select_related("campaign")
        .prefetch_related("participants__warband")
        .get(pk=battle.pk)
    )


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


# --- setup ---------------------------------------------------------------------------------------
@transaction.atomic
def battle_log_setup(
    *,
    battle: Battle,
    by,
    client_id: uuid.UUID,
    fighters: Mapping[int, Sequence[int]] | None = None,
    scenario: str = "",
    first: int | None = None,
    attacker: int | None = None,
) -> tuple[BattleLogEntry, bool]:
    """Who fights: ``fighters`` maps each warband id to the fighter ids it fields (all who may
    fight when omitted; those who must miss the battle are refused). ``first`` moves first.
    Writes the :class:`BattleSetup` and the log's first entry. Locks the battle."""
    battle = _lock(battle)
    _require_writer(by, battle)
    existing = _existing(battle, client_id)
    if existing is not None:
        return existing, False
    if battle.status != Battle.Status.SCHEDULED:
        raise Conflict(_("Only a scheduled battle can be set up at the table."))
    if BattleSetup.objects.filter(battle=battle).exists():
        raise Conflict(_("This battle is already set up."))
    participants = {p.warband_id: p for p in battle.participants.all()}
    if len(participants) < 2:
        raise ValidationError(_("A battle needs two warbands to be set up."))
    chosen = {int(k): [int(f) for f in v] for k, v in (fighters or {}).items()}
    if not set(chosen) <= set(participants):
        raise ValidationError({"fighters": [_("Only the warbands of this battle fight in it.")]})
    options = eligible_fighters(battle)
    order = sorted(participants)
    if first is not None:
        if first not in participants:
            raise ValidationError({"first": [_("The first to move must be one of the warbands.")]})
        order.remove(first)
        order.insert(0, first)
    if attacker is not None and attacker not in participants:
        raise ValidationError({"attacker": [_("The attacker must be one of the warbands.")]})
    sides = []
    errors: list[str] = []
    for warband_id in order:
        option = options[warband_id]
        can_fight = {f["id"]: f for f in option["fighters"]}
        picked = chosen.get(warband_id) or list(can_fight)
        for fighter_id in picked:
            if fighter_id not in can_fight:
                excluded = next((x for x in option["excluded"] if x["id"] == fighter_id), None)
                errors.append(
                    _("%(fighter)s cannot fight: %(reason)s.")
                    % {"fighter": excluded["name"], "reason": excluded["reason"]}
                    if excluded
                    else _("%(warband)s has no fighter %(id)s who can fight.")
                    % {"warband": option["name"], "id": fighter_id}
                )
        sides.append(
            {
                "warband": warband_id,
                "name": option["name"],
                "fighters": [can_fight[f] for f in picked if f in can_fight],
            }
        )
    if errors:
        raise ValidationError({"fighters": errors})
    ratings = {w: participants[w].warband.rating for w in order}
    underdog = {}
    if len(order) == 2:
        a, b = order
        underdog = {
            a: underdog_bonus(own_rating=ratings[a], enemy_rating=ratings[b]),
            b: underdog_bonus(own_rating=ratings[b], enemy_rating=ratings[a]),
        }
    payload = {
        "scenario": (scenario or battle.scenario or "").strip()[:120],
        "attacker": attacker,
        "underdog": {str(k): v for k, v in underdog.items()},
        "sides": sides,
    }
    try:
        data = setup_from_dict(payload).to_dict()
    except TrackerError as error:
        raise _invalid(error, "setup") from error
    BattleSetup.objects.create(
        battle=battle,
        scenario=data["scenario"],
        attacker_id=attacker,
        data=data,
        created_by=by,
    )
    entry = BattleLogEntry.objects.create(
        battle=battle, seq=1, kind="setup", payload=data, author=by, client_id=client_id
    )
    return entry, True


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
    from rules.engine import WEAPONS

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
        if situation.kind == "melee":
            result = resolve_phase(situation.attacker, situation.defender, dice=dice)
        else:
            result = resolve_shooting(situation.attacker, situation.defender, dice=dice)
    except RulesError as error:
        raise _invalid(error) from error
    data = result.to_dict()
    data.pop("rolls", None)  # kept once, in the entry's dice audit
    return data


def _clean_payload(payload: Any) -> dict[str, Any]:
    if not isinstance(payload, Mapping):
        raise ValidationError({"payload": [_("The entry's payload is a JSON object.")]})
    if "result" in payload:
        raise ValidationError({"payload.result": [_("Results are rolled here, not sent.")]})
    return dict(payload)


@transaction.atomic
def battle_log_append(
    *,
    battle: Battle,
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
    are rolled here with ``seed`` or the ``faces`` typed at the table. Locks the battle row."""
    battle = _lock(battle)
    _require_writer(by, battle)
    existing = _existing(battle, client_id)
    if existing is not None:
        return existing, False
    if kind not in WRITABLE_KINDS:
        raise ValidationError({"kind": [_("Unknown kind of entry: %(kind)s.") % {"kind": kind}]})
    payload = _clean_payload(payload)
    entries = list(
        BattleLogEntry.objects.filter(battle=battle)
        .order_by("seq")
        .values("seq", "kind", "payload")
    )
    if not entries:
        raise Conflict(_("Set up the battle before logging it."))
    if battle.status != Battle.Status.SCHEDULED and kind != "note":
        raise Conflict(_("This battle has been reported: its log takes only notes now."))
    state = fold(entries)
    stale = base_seq is not None and base_seq < state.last_seq
    if stale and _conflicts(entries, kind, payload, base_seq):
        raise Conflict(
            _(
                "The log moved on (now at entry %(seq)d) and touches the same warriors; "
                "reload and try again."
            )
            % {"seq": state.last_seq}
        )
    seq = state.last_seq + 1
    dice_audit = None
    try:
        if kind == "check":
            dice = _dice(seed, faces)
            payload["result"] = roll_check(state, payload, dice=dice)
            payload["result"].pop("rolls", None)
            dice_audit = dice.to_dict()
        elif kind == "attack":
            state.validate(kind, payload)
            dice = _dice(seed, faces)
            payload["result"] = _roll_attack(state, payload, dice)
            dice_audit = dice.to_dict()
        state.append(seq, kind, payload)
    except TrackerError as error:
        raise _invalid(error) from error
    except RulesError as error:  # the engine refused the check's parameters
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
    if kind == "finish":
        services.battle_report(battle=battle, reporter=by, report=_report(state))
    return entry, True


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
