"""Writes of the battle log: each entry (rolled through the engine), the finish.

Every write locks the battle row (``select_for_update``), so entries of one battle get their
``seq`` one after the other whatever the number of phones posting at once. A ``client_id`` seen
before returns the entry it created (a phone replaying its queue never duplicates anything),
found through the unique index on ``(battle, client_id)`` once the lock is held. The pure tracker
(:mod:`rules.engine.tracker`) decides whether an entry fits the battle and rolls it; this module
loads, locks, stores, and — on ``finish`` — fills the battle report through
:func:`battles.reports.services.battle_report`. A rout that leaves one warband on the field
(a failed rout test, a voluntary rout) writes the ``finish`` entry by itself, in the same
transaction.

The folded state is kept beside the setup (``BattleSetup.state``, the engine's snapshot) and
updated under the same row lock as each entry, so an append reads neither the log nor folds it:
its cost does not grow with the log. A correction folds the whole log again (it may change
everything after the entry it corrects), and so does the first append to a log written before
the snapshot existed. A battle takes at most :data:`MAX_ENTRIES` entries.
The setup is written by :mod:`.prebattle`.
"""

from __future__ import annotations

import json
import secrets
import uuid
from collections.abc import Mapping, Sequence
from typing import Any

from django.core.exceptions import PermissionDenied, ValidationError
from django.db import transaction
from django.db.models import Exists, Prefetch, prefetch_related_objects
from django.http import Http404
from django.utils.translation import gettext as _

from annuminas.errors import Conflict
from annuminas.validation import json_check
from battles.common import access
from battles.models import Battle, BattleLogEntry, BattleParticipant, BattleSetup
from battles.reports import services
from rules.api.serializers import MAX_SEED
from rules.engine import Dice, RulesError
from rules.engine.tracker import (
    ROLLED_KINDS,
    WRITABLE_KINDS,
    BattleState,
    TrackerError,
    challenge_overkill,
    decisive_of,
    dice_plan,
    fold,
    resolve_challenge,
    resume,
    roll_entry,
)
from rules.engine.tracker.payloads import REPLACEMENT_KEYS, unknown_key
from rules.engine.tracker.plans import check_faces
from rules.presenters import rules_error_to_validation

MAX_ENTRIES = 5000
"""Entries a battle's log takes at most (a long battle writes a few hundred)."""
MAX_TEXT = 500  # a note's length (rules.engine.tracker.model.MAX_NOTE)
MAX_KEY = 40
MAX_BYTES = 4096
MAX_DEPTH = 5  # payload → replacement → params → friends → a friend
FIGHTER_KEYS = ("fighter", "by", "attacker", "target", "against", "charger")
ORDER_KINDS = ("turn", "rout", "finish", "correction")


def _invalid(error: RulesError, prefix: str = "payload") -> ValidationError:
    """The engine's refusal as a 400: its field under ``payload`` (typed dice are the
    request's own ``faces``)."""
    if error.code.startswith("dice."):
        prefix = ""
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


def _lock_to_append(battle: Battle | int, *, by, client_id: uuid.UUID | None = None) -> Battle:
    """The battle row locked for a new entry, with only what the append reads: its status, its
    campaign's ``archived`` flag, its setup with the folded state (``battle.setup``), whether
    ``client_id`` was posted before (``battle.replayed``, through the unique index on
    ``(battle, client_id)``) and its participants' owners (narrow queries; a league day posts
    thousands of entries, and loading whole rows was a third of a post's time). A battle
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
    # Read after the lock, in a statement of its own: a row joined to the locked one is not
    # read again when the lock is granted (PostgreSQL re-checks only the locked row), so a
    # snapshot joined there could be the one the previous writer has just replaced.
    battle.setup = (
        BattleSetup.objects.filter(battle_id=pk)
        .annotate(replayed=Exists(BattleLogEntry.objects.filter(battle_id=pk, client_id=client_id)))
        .only("id", "data", "state", "state_seq")
        .first()
    )
    battle.replayed = battle.setup is not None and battle.setup.replayed
    participants = BattleParticipant.objects.select_related("warband").only(
        "id", "battle_id", "warband__id", "warband__owner_id"
    )
    prefetch_related_objects([battle], Prefetch("participants", queryset=participants))
    return battle


def _require_writer(user, battle: Battle) -> None:
    if not access.can_report(user, battle):
        raise PermissionDenied(_("Only the battle's players and the campaign's organisers write."))
    if battle.campaign.archived:
        raise Conflict(
            _("This campaign is archived: nothing in it can change."), code="campaign_archived"
        )


def _existing(battle: Battle, client_id: uuid.UUID) -> BattleLogEntry | None:
    return (
        BattleLogEntry.objects.select_related("author")
        .filter(battle=battle, client_id=client_id)
        .first()
    )


def same_entry_or_conflict(entry: BattleLogEntry, kind: str, payload: Any) -> None:
    """A replayed ``client_id`` must carry the entry it named: another kind or payload is a
    ``Conflict`` (409 ``client_id_reused``), never a silent answer with the first entry."""
    sent = json.loads(json.dumps(payload, default=str)) if isinstance(payload, Mapping) else None
    kept = {key: value for key, value in (entry.payload or {}).items() if key != "result"}
    if entry.kind != kind or (sent is not None and sent != kept):
        raise Conflict(
            _("This client_id names another entry (seq %(seq)d): make a new one for this entry.")
            % {"seq": entry.seq},
            code="client_id_reused",
        )


def _entries(battle: Battle) -> list[dict[str, Any]]:
    return list(
        BattleLogEntry.objects.filter(battle=battle)
        .order_by("seq")
        .values("seq", "kind", "payload")
    )


def log_state(battle: Battle, setup: BattleSetup | None = None) -> BattleState | None:
    """The battle's state, or ``None`` before the setup: the snapshot kept beside the setup
    (one query), or the fold of the whole log when there is none yet (a log written before
    the snapshot existed)."""
    if setup is None:
        setup = BattleSetup.objects.filter(battle=battle).only("data", "state", "state_seq").first()
    if setup is None:
        return None
    if setup.state is not None:
        return resume(setup.data, setup.state)
    return fold(_entries(battle))


def log_state_complete(battle: Battle) -> BattleState | None:
    """The fold of the whole log, entries and all (a correction needs them)."""
    entries = _entries(battle)
    return fold(entries) if entries else None


def decisive_entry(battle: Battle, state: BattleState) -> BattleLogEntry | None:
    """The entry that finished the battle (``state`` finished), which a player may still strike
    out while the report waits for the opponent: the engine's ``decisive_of`` over the log."""
    if not state.finished:
        return None
    log = BattleLogEntry.objects.filter(battle=battle).order_by("seq")
    seq = decisive_of(log.values_list("seq", "kind", "payload"), state.corrected)
    return None if seq is None else log.select_related("author").filter(seq=seq).first()


# --- entries -------------------------------------------------------------------------------------
def _touched(kind: str, payload: Mapping[str, Any]) -> tuple[set[Any], set[Any]]:
    """(the warriors an entry reads, the warriors it may change); ``"order"`` for entries that
    move the order of play (turns, routs, the rout test, the finish, corrections)."""
    read = {payload[k] for k in FIGHTER_KEYS if isinstance(payload.get(k), int)}
    targets = payload.get("targets")
    if isinstance(targets, list):
        read.update(t for t in targets if isinstance(t, int))
    changed = {payload[k] for k in ("fighter", "target") if isinstance(payload.get(k), int)}
    if kind in ("charge", "close-combat", "disengage"):
        changed |= read
    if (
        kind in ORDER_KINDS
        or kind == "close-combat"
        or (kind == "check" and payload.get("check") == "rout")
    ):
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


def _clean_payload(kind: str, payload: Any) -> dict[str, Any]:
    """The payload with only the keys its kind knows, plain JSON within bounds and storable
    (``annuminas.validation.json_check``: no NUL, which jsonb refuses); a correction's
    replacement takes the keys of any kind (the tracker checks it against the entry it
    replaces)."""
    if not isinstance(payload, Mapping):
        raise ValidationError({"payload": [_("The entry's payload is a JSON object.")]})
    if "result" in payload:
        raise ValidationError({"payload.result": [_("Results are rolled here, not sent.")]})
    _known(unknown_key(kind, payload), "payload")
    replacement = payload.get("replacement")
    if kind == "correction" and isinstance(replacement, Mapping):
        if "result" in replacement:
            raise ValidationError(
                {"payload.replacement.result": [_("Results are rolled here, not sent.")]}
            )
        unknown = sorted(str(key) for key in replacement if key not in REPLACEMENT_KEYS)
        if unknown:
            _known((unknown[0], tuple(sorted(REPLACEMENT_KEYS))), "payload.replacement")
    json_check(
        dict(payload),
        field="payload",
        max_bytes=MAX_BYTES,
        max_depth=MAX_DEPTH,
        max_string_length=MAX_TEXT,
    )
    return dict(payload)


def _known(unknown: tuple[str, tuple[str, ...]] | None, path: str) -> None:
    """Refuse the first unknown key, naming the keys the place takes."""
    if unknown is not None:
        key, keys = unknown
        raise ValidationError(
            {
                f"{path}.{key[:MAX_KEY]}": [
                    _("Not a field of this entry; it takes %(keys)s.") % {"keys": ", ".join(keys)}
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
    ``client_id`` was posted before and its entry is returned unchanged). Rolled entries are
    rolled here with ``seed`` or the ``faces`` typed at the table (exactly the faces the entry
    needs: fewer or more are refused). Locks the battle row; a battle ``by`` may not see is a
    404 (``Http404``)."""
    battle = _lock_to_append(battle, by=by, client_id=client_id)
    _require_writer(by, battle)
    if battle.replayed:
        existing = _existing(battle, client_id)
        same_entry_or_conflict(existing, kind, payload)
        return existing, False
    if kind not in WRITABLE_KINDS:
        raise ValidationError({"kind": [_("Unknown kind of entry: %(kind)s.") % {"kind": kind}]})
    payload = _clean_payload(kind, payload)
    setup = battle.setup
    if setup is None:
        raise Conflict(_("Set up the battle before logging it."), code="battle_not_set_up")
    if battle.status != Battle.Status.SCHEDULED and kind != "note":
        _reported_takes(battle, kind)
    state = log_state_complete(battle) if kind == "correction" else log_state(battle, setup)
    if state.last_seq >= MAX_ENTRIES:
        raise Conflict(
            _("This battle's log is full (%(max)d entries): finish the battle.")
            % {"max": MAX_ENTRIES},
            code="log_full",
        )
    _check_base_seq(battle, state, kind, payload, base_seq)
    seq = state.last_seq + 1
    was_finished = state.finished
    try:
        dice_audit = _resolve(state, kind, payload, seed, faces)
        state.append(seq, kind, payload)
    except (TrackerError, RulesError) as error:  # RulesError: the engine refused a parameter
        raise _invalid(error) from error
    reopened = was_finished and not state.finished
    if battle.status != Battle.Status.SCHEDULED and kind != "note" and not reopened:
        raise _reported()
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
    BattleSetup.objects.filter(pk=setup.pk).update(
        state=state.to_snapshot(), state_seq=state.last_seq
    )
    if reopened and battle.status != Battle.Status.SCHEDULED:
        battle = services.battle_withdraw_report(battle=battle, by=by)
    if state.finished and (reopened or not was_finished):
        services.battle_report(battle=battle, reporter=by, report=_report(state))
    return entry, True


def _reported() -> Conflict:
    return Conflict(
        _("This battle has been reported: its log takes only notes now."),
        code="battle_reported",
    )


def _reported_takes(battle: Battle, kind: str) -> None:
    """A reported battle's log takes notes, and — while the opponent has not confirmed the
    report — the correction that strikes out the entry that finished the battle (the engine
    says which entry that is; the report is withdrawn with it). A confirmed report is frozen."""
    if kind != "correction":
        raise _reported()
    if battle.is_frozen:
        raise Conflict(
            _(
                "This battle's report is confirmed: the entry that finished it can no longer be "
                "struck out. Ask an organiser to correct the report."
            ),
            code="battle_confirmed",
        )
    if battle.status not in (Battle.Status.REPORTED, Battle.Status.DISPUTED):
        raise _reported()


def _check_base_seq(battle: Battle, state: BattleState, kind: str, payload, base_seq) -> None:
    """The entry was written after reading the log up to ``base_seq``: later than the log is a
    400; earlier is fine unless the entries since touch the same warriors (409). Only the
    entries after ``base_seq`` are read."""
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
    if base_seq < state.last_seq and _conflicts(
        BattleLogEntry.objects.filter(battle=battle, seq__gt=base_seq).values(
            "seq", "kind", "payload"
        ),
        kind,
        payload,
        base_seq,
    ):
        raise Conflict(
            _(
                "The log moved on (now at entry %(seq)d) and touches the same warriors; "
                "reload and try again."
            )
            % {"seq": state.last_seq},
            code="log_moved_on",
            last_seq=state.last_seq,
        )


def _dice(seed: int | None, faces: Sequence[int] | None) -> Dice:
    try:
        if faces:
            return Dice(faces=list(faces))
        return Dice(seed=secrets.randbelow(MAX_SEED) if seed is None else seed)
    except RulesError as error:
        raise rules_error_to_validation(error, "faces" if faces else "seed") from error


def _resolve(
    state: BattleState,
    kind: str,
    payload: dict[str, Any],
    seed: int | None,
    faces: Sequence[int] | None,
) -> dict[str, Any] | None:
    """Roll a rolled entry into ``payload["result"]`` (or weigh a challenge); return the dice
    audit. Typed faces must be exactly those the entry needs (:func:`dice_plan`)."""
    if kind not in ROLLED_KINDS:
        if faces:
            check_faces(dice_plan(state, kind, payload, faces))
        if kind == "challenge":
            payload["result"] = resolve_challenge(state, payload).to_dict()
        return None
    if faces:
        check_faces(dice_plan(state, kind, payload, faces))
    dice = _dice(seed, faces)
    result = roll_entry(state, kind, payload, dice=dice)
    result.pop("rolls", None)  # kept once, in the entry's dice audit
    _duel_excess(state, kind, payload, result)
    payload["result"] = result
    return dice.to_dict()


def _duel_excess(
    state: BattleState, kind: str, payload: Mapping[str, Any], result: dict[str, Any]
) -> None:
    """¡Acobardamiento!: a duellist's blow on his opponent carries its excess wounds."""
    if kind == "attack":
        strikes = [(payload, result, result)]
    elif kind == "close-combat":
        strikes = [(blow, blow["result"], blow) for blow in result.get("blows", ())]
    else:
        return
    for who, rolled, into in strikes:
        duel = challenge_overkill(state, who, int(rolled.get("wounding_hits") or 0))
        if duel is not None:
            into["challenge"] = duel


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
