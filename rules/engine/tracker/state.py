"""The battle state as a fold over the log: appending an entry, corrections, and what the API
answers.

A log is a list of entries ``(seq, kind, payload)``; the first is the ``setup``. Folding them in
order gives each fighter's state (in play, derribado, aturdido, fuera de combate, huyendo) and
wounds left, the turn and the side to move, the combats, the routs, and the checks due now.
Entries are never edited: a ``correction`` points at an earlier entry and replaces (or voids)
it, and the whole log is folded again, so a correction that would make a later entry impossible
is refused.

Dice are never rolled here: rolled entries carry the engine's ``result`` (rolled once, when the
entry was written — see :mod:`rules.engine.tracker.rolls`), so folding the same log always gives
the same state. :meth:`BattleState.to_snapshot` (from :class:`~.data.BattleData`) and
:func:`resume` keep the fold beside the log, so appending does not fold it again.

What each kind of entry does: :mod:`.turns` (turns and the recovery phase, statuses, routs, the
finish, notes), :mod:`.checks`, :mod:`.melee` (charges, close-combat phases, automatic hits,
leaving a combat), :mod:`.shooting`, :mod:`.duels` (challenges).
"""

from __future__ import annotations

import copy
from collections.abc import Callable, Iterable, Mapping
from typing import Any

from rules.engine import vocabulary as v
from rules.engine.i18n import gettext_noop as _
from rules.engine.tracker.checks import apply_check
from rules.engine.tracker.data import BattleData
from rules.engine.tracker.due import checks_due
from rules.engine.tracker.duels import apply_challenge
from rules.engine.tracker.errors import TrackerError
from rules.engine.tracker.melee import (
    apply_charge,
    apply_close_combat,
    apply_disengage,
    apply_hits,
)
from rules.engine.tracker.model import CORRECTABLE, OUT_OF_ACTION, whole_id
from rules.engine.tracker.payloads import ROLLED_KINDS
from rules.engine.tracker.setup import BattleSetupData, setup_from_dict
from rules.engine.tracker.shooting import apply_attack
from rules.engine.tracker.turns import (
    apply_finish,
    apply_note,
    apply_rout,
    apply_status,
    apply_turn,
)

Entry = tuple[int, str, Mapping[str, Any]]


class BattleState(BattleData):
    """The fold of a battle log. Build it with :func:`fold`; add entries with :meth:`append`."""

    def finish_due(self) -> dict[str, Any] | None:
        """The ``finish`` entry the rules write by themselves: a rout (failed test or voluntary)
        left one warband on the field, and the battle is not finished yet."""
        if self.finished or len(self.standing_sides) > 1:
            return None
        voluntary = any(self.routed.values())
        return {"reason": "voluntary-rout" if voluntary else "rout", "automatic": True}

    def checks_due(self) -> list[dict[str, Any]]:
        """The checks the rules call for now (:func:`~rules.engine.tracker.due.checks_due`)."""
        return checks_due(self)

    def to_dict(self) -> dict[str, Any]:
        next_turn, next_side = self.next_turn() if not self.ended else (None, None)
        return {
            "turn": self.turn,
            "side_to_move": self.side,
            "next": None if self.ended else {"turn": next_turn, "side": next_side},
            "last_seq": self.last_seq,
            "ended": self.ended,
            "finished": self.finished,
            "finish_reason": self.finish_reason,
            "winners": list(self.winners),
            "draw": self.draw,
            "scenario": self.setup.scenario,
            "challenges": self.setup.challenges,
            "duels": [duel.to_dict() for duel in self.duels],
            "refused_challenge": sorted(self.side_turn.refused),
            "log_version": self.setup.version,
            "combats": [self._combat_dict(c) for c in self.combats],
            "sides": [
                {
                    "warband": side.warband,
                    "name": side.name,
                    "rout_threshold": side.rout_threshold,
                    "out_of_action": self.out_of_action_count(side.warband),
                    "routed": side.warband in self.routed,
                    "voluntary_rout": self.routed.get(side.warband, False),
                    "fighters": [self._fighter_dict(f) for f in self.side_fighters(side.warband)],
                }
                for side in self.setup.sides
            ],
            "checks_due": self.checks_due(),
            "out_of_action_events": [event.to_dict() for event in self.out_of_action],
            "corrected": {str(k): v for k, v in self.corrected.items()},
        }

    def _combat_dict(self, combat: Any) -> dict[str, Any]:
        return {**combat.to_dict(), "fought": combat.id in self.side_turn.fought}

    def _fighter_dict(self, fighter: Any) -> dict[str, Any]:
        return {
            **fighter.to_dict(),
            "combat": getattr(self.combat_of(fighter.id), "id", None),
            "states": self.fighter_states(fighter),
            "players_rules": sorted(
                key for key in self.rules[fighter.id] if (v.rule(key) or _PLAYERS).players
            ),
        }

    def fighter_states(self, fighter: Any) -> list[str]:
        """What lasts for him now: this turn's states (charged, stood up, rallied, failed
        stupidity, failed a charge, shot, fear failed against an enemy, refused a challenge),
        his combat's (first round), the battle's (frenzied, frenzy lost; what he has used up)."""
        turn = self.side_turn
        states = [name for name in TURN_STATES if fighter.id in getattr(turn, name)]
        states += [
            f"fear_failed:{enemy}"
            for enemy, outcome in turn.fear.get(fighter.id, {}).items()
            if outcome == "hits_only_on_6"
        ]
        combat = self.combat_of(fighter.id)
        if combat is not None and combat.first_round(fighter.id):
            states.append("first_round")
        if self.has(fighter, v.FRENZY):
            states.append("frenzy_lost" if fighter.frenzy_lost else "frenzied")
        if fighter.id in self.pending_hits:
            states.append("hits_due")
        states += [f"spent:{item}" for item in sorted(fighter.spent)]
        return states

    def report(self) -> dict[str, Any]:
        """What the battle report says: winners, routs, who took whom out of action."""
        return {
            "scenario": self.setup.scenario,
            "draw": self.draw,
            "winners": list(self.winners),
            "sides": [
                {
                    "warband": side.warband,
                    "routed": side.warband in self.routed,
                    "voluntary_rout": self.routed.get(side.warband, False),
                    "fighters": [f.id for f in side.fighters],
                }
                for side in self.setup.sides
            ],
            "out_of_action": [event.to_dict() for event in self.out_of_action],
            "heroes_out_of_action": [
                f.id for f in self.fighters.values() if f.hero and f.status == OUT_OF_ACTION
            ],
            "last_turn": self.turn,
        }

    # --- entries -------------------------------------------------------------------------------
    def append(self, seq: int, kind: str, payload: Mapping[str, Any]) -> None:
        """Validate the entry against the state and apply it; raise :class:`TrackerError`. On an
        error the state may be half-changed: callers drop it (see :meth:`validate`)."""
        if kind not in APPLIERS and kind not in ("setup", "correction"):
            raise TrackerError(
                _("%(kind)s is not a kind of log entry."),
                code="entry.kind",
                field="kind",
                kind=kind,
            )
        if not isinstance(payload, Mapping):
            raise TrackerError(
                _("The payload is an object."), code="entry.invalid", field="payload"
            )
        if kind == "correction":
            self._correct(seq, payload)
            return
        if kind == "setup":
            raise TrackerError(_("The battle is already set up."), code="entry.setup_twice")
        if self.finished and kind != "note":
            raise TrackerError(
                _("The battle is finished: only notes can be logged."), code="entry.finished"
            )
        APPLIERS[kind](self, seq, payload)
        self.entries.append((seq, kind, dict(payload)))
        self.last_seq = max(self.last_seq, seq)

    def validate(self, kind: str, payload: Mapping[str, Any]) -> None:
        """Check an entry without changing this state; rolled entries are checked before their
        dice are rolled (without a ``result``)."""
        self.preview_of(kind).append(self.last_seq + 1, kind, payload)

    def preview_of(self, kind: str) -> BattleState:
        """A copy to try an entry on. The setup is frozen and logged entries are never changed
        in place: the copy shares them (copying the whole log was most of a validation's
        time)."""
        shared = (self.setup, self.setups, self.rules, self.entries)
        preview = copy.deepcopy(self, {id(item): item for item in shared})
        preview.entries = [*self.entries]
        preview.preview = kind in ROLLED_KINDS
        return preview

    def corrected_entries(self) -> list[tuple[int, str, dict[str, Any]]]:
        return [entry for entry in self.entries if entry[1] == "correction"]

    def correctable_entries(self) -> list[tuple[int, str, dict[str, Any]]]:
        """The entries a correction may still point at (not corrected yet, nor the setup)."""
        return [
            entry
            for entry in self.entries
            if entry[1] in CORRECTABLE and entry[0] not in self.corrected
        ]

    def decisive_seq(self) -> int | None:
        """The entry that finished the battle, which a correction may still strike out (the
        report waits for the opponent): the players' ``finish``, or the entry the automatic
        ``finish`` followed (a failed rout test, a voluntary rout). ``None`` while the battle
        goes on, or when the log is not loaded (a state resumed from its snapshot)."""
        if not self.finished:
            return None
        return decisive_of(self.entries, self.corrected)

    def _correct(self, seq: int, payload: Mapping[str, Any]) -> None:
        if not self.complete:
            raise TrackerError(
                _("A correction folds the whole log again: load it first."),
                code="entry.needs_log",
                field="corrects",
            )
        target_seq = whole_id(payload, "corrects")
        target = next((e for e in self.entries if e[0] == target_seq), None)
        decisive = self.decisive_seq()
        if target is None or (target[1] not in CORRECTABLE and target_seq != decisive):
            raise TrackerError(
                _("Entry %(seq)s cannot be corrected."),
                code="entry.not_correctable",
                field="corrects",
                seq=target_seq,
            )
        if target_seq in self.corrected:
            raise TrackerError(
                _("Entry %(seq)s was already corrected by entry %(by)s; correct that one."),
                code="entry.not_correctable",
                field="corrects",
                seq=target_seq,
                by=self.corrected[target_seq],
            )
        if self.finished and target_seq != decisive:
            raise TrackerError(
                _("The battle is finished: dispute the report instead."), code="entry.finished"
            )
        replacement = payload.get("replacement")
        if replacement is not None and not isinstance(replacement, Mapping):
            raise TrackerError(
                _("The replacement is an object."), code="entry.invalid", field="replacement"
            )
        if replacement is not None and target[1] == "finish":
            raise TrackerError(
                _("Finishing the battle is struck out, not replaced."),
                code="entry.bad_correction",
                field="replacement",
            )
        corrections = [*self.corrected_entries(), (seq, "correction", dict(payload))]
        originals = [e for e in self.entries if e[1] != "correction"]
        rebuilt = fold_entries(self.setup, originals, corrections)
        self.__dict__.update(rebuilt.__dict__)


class _Players:
    players = True


_PLAYERS = _Players()
"""A key nobody declared (a league's own): the players apply it."""
TURN_STATES = (
    "charged",
    "was_charged",
    "failed_charge",
    "stood_up",
    "rallied",
    "stupid",
    "shot",
    "refused",
    "diving",
    "must_flee",
)

Applier = Callable[[BattleData, int, Mapping[str, Any]], None]
APPLIERS: dict[str, Applier] = {
    "turn": apply_turn,
    "status": apply_status,
    "check": apply_check,
    "charge": apply_charge,
    "close-combat": apply_close_combat,
    "hits": apply_hits,
    "disengage": apply_disengage,
    "attack": apply_attack,
    "challenge": apply_challenge,
    "rout": apply_rout,
    "finish": apply_finish,
    "note": apply_note,
}
"""What each kind of entry does to the state (the setup starts it; corrections fold again)."""


def _replace(state: BattleState, seq: int, kind: str, replacement: Mapping[str, Any]) -> None:
    """Apply a correction's replacement in place of entry ``seq`` (not recorded separately)."""
    try:
        APPLIERS[kind](state, seq, replacement)
    except TrackerError as error:
        raise TrackerError(
            _("The correction of entry %(seq)d does not fit the battle: %(why)s"),
            code="entry.bad_correction",
            field="replacement",
            seq=seq,
            why=str(error),
        ) from error


def _automatic_finishes(timeline: Iterable[Entry]) -> dict[int, int]:
    """Each entry followed by an automatic ``finish`` (the rules wrote it because that entry
    left one warband on the field) → that finish's seq: correcting the entry voids the finish
    with it."""
    after: dict[int, int] = {}
    previous: Entry | None = None
    for entry in timeline:
        seq, kind, payload = entry
        if (
            kind == "finish"
            and payload.get("automatic")
            and previous is not None
            and previous[1] != "correction"
        ):
            after[previous[0]] = seq
        previous = entry
    return after


def decisive_of(entries: Iterable[Entry], corrected: Mapping[int, int]) -> int | None:
    """The entry that finished the battle in a log (entries and corrections, the setup left
    out or not): the ``finish`` in force when the players logged it, or the entry its
    automatic ``finish`` followed; ``None`` when no finish is in force or it followed a
    correction (a correction is not corrected)."""
    timeline = sorted(entries, key=lambda entry: entry[0])
    finish = next(
        (e for e in reversed(timeline) if e[1] == "finish" and e[0] not in corrected), None
    )
    if finish is None:
        return None
    if not finish[2].get("automatic"):
        return finish[0]
    followed = {seq: by for by, seq in _automatic_finishes(timeline).items()}
    return followed.get(finish[0])


def fold_entries(
    setup: BattleSetupData, entries: Iterable[Entry], corrections: Iterable[Entry] = ()
) -> BattleState:
    """Fold ``entries`` (not the setup, no corrections) with ``corrections`` applied in place:
    a corrected entry is replaced by the correction's ``replacement`` or, without one, voided;
    the automatic ``finish`` it was followed by is voided with it (the same correction marks
    both corrected)."""
    corrections = list(corrections)
    fixes = {int(c[2]["corrects"]): c[2] for c in corrections}
    state = BattleState(setup)
    timeline = sorted(
        [(seq, kind, payload) for seq, kind, payload in entries if kind != "correction"]
        + [(c[0], "correction", c[2]) for c in corrections],
        key=lambda entry: entry[0],
    )
    finishes = {
        seq: finish for seq, finish in _automatic_finishes(timeline).items() if seq in fixes
    }
    for finish in finishes.values():
        fixes.setdefault(finish, {"corrects": finish})
    for seq, kind, payload in timeline:
        if kind == "correction":
            target = int(payload["corrects"])
            state.corrected[target] = seq
            if target in finishes:
                state.corrected[finishes[target]] = seq
        elif seq in fixes:
            if fixes[seq].get("replacement") is not None:
                _replace(state, seq, kind, fixes[seq]["replacement"])
        else:
            try:
                state.append(seq, kind, payload)
            except TrackerError as error:
                if not fixes:
                    raise
                raise TrackerError(
                    _("After this correction, entry %(seq)d no longer fits the battle: %(why)s"),
                    code="entry.bad_correction",
                    field="corrects",
                    seq=seq,
                    why=str(error),
                ) from error
            continue
        state.entries.append((seq, kind, dict(payload)))
        state.last_seq = max(state.last_seq, seq)
    return state


def resume(setup_payload: Mapping[str, Any], snapshot: Mapping[str, Any]) -> BattleState:
    """The state a snapshot kept (:meth:`BattleData.to_snapshot`), without the entries: enough
    to append, not to correct (a correction folds the log again, :func:`fold`)."""
    state = BattleState(setup_from_dict(setup_payload))
    state.restore(snapshot)
    state.complete = False
    return state


def fold(entries: Iterable[Mapping[str, Any]]) -> BattleState:
    """The state after a log: ``entries`` are ``{"seq", "kind", "payload"}`` in seq order, the
    first being the ``setup``."""
    items = [(int(e["seq"]), str(e["kind"]), e["payload"]) for e in entries]
    if not items or items[0][1] != "setup":
        raise TrackerError(_("A battle log starts with its setup."), code="entry.no_setup")
    setup = setup_from_dict(items[0][2])
    rest = items[1:]
    corrections = [e for e in rest if e[1] == "correction"]
    state = fold_entries(setup, [e for e in rest if e[1] != "correction"], corrections)
    state.last_seq = max(state.last_seq, items[0][0])
    return state


def start(setup_payload: Mapping[str, Any], seq: int = 1) -> BattleState:
    """The state right after the ``setup`` entry."""
    state = BattleState(setup_from_dict(setup_payload))
    state.last_seq = seq
    return state
