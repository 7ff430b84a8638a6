"""The battle state as a fold over the log, and the rules that accept or refuse each entry.

A log is a list of entries ``(seq, kind, payload)``; the first is the ``setup``. Folding them in
order gives each fighter's state (in play, derribado, aturdido, fuera de combate, huyendo) and
wounds left, the turn and the side to move, the routs, and the checks due now. Entries are
never edited: a ``correction`` points at an earlier entry and replaces (or voids) it, and the
whole log is folded again, so a correction that would make a later entry impossible is refused.

Dice are never rolled here: ``check`` and ``attack`` entries carry the engine's ``result``
(rolled once, when the entry was written — see :mod:`rules.engine.tracker.rolls`), so folding
the same log always gives the same state.

Turn sequence (seed 000, "Secuencia de Turno"): each side's turn starts with the rout test
when a quarter or more are out of action (on the warriors as they stand when the turn starts, so
a leader stunned in the enemy's turn cannot lead it; nothing else of that side happens until it
is taken), then the recovery phase — stunned warriors become knocked down, knocked-down warriors
stand up — a rally test for each fleeing warrior, and stupidity for warriors with the rule.
Voluntary rout is offered at the start of any of the side's turns once two or more are out of
action. What each kind of entry does is in :mod:`~rules.engine.tracker.entries`,
:mod:`~rules.engine.tracker.checks` and :mod:`~rules.engine.tracker.duels`.
"""

from __future__ import annotations

import copy
from collections.abc import Callable, Iterable, Mapping
from typing import Any

from rules.engine.i18n import gettext_noop as _
from rules.engine.tracker import checks, duels, entries
from rules.engine.tracker.errors import TrackerError
from rules.engine.tracker.model import (
    CORRECTABLE,
    FLEEING,
    IN_PLAY,
    KINDS,
    KNOCKED_DOWN,
    OUT_OF_ACTION,
    Duel,
    FighterState,
    OutOfAction,
    SideTurn,
    whole_id,
)
from rules.engine.tracker.setup import STUPIDITY, BattleSetupData, setup_from_dict

Entry = tuple[int, str, Mapping[str, Any]]


class BattleState:
    """The fold of a battle log. Build it with :func:`fold`; add entries with :meth:`append`."""

    def __init__(self, setup: BattleSetupData) -> None:
        self.setup = setup
        self.order = [side.warband for side in setup.sides]
        self.fighters: dict[int, FighterState] = {
            f.id: FighterState(
                id=f.id,
                side=side.warband,
                name=f.name,
                leader=f.leader,
                hero=f.hero,
                leadership=f.leadership,
                wounds=f.wounds,
                rules=f.rules,
                equipment=f.equipment,
            )
            for side in setup.sides
            for f in side.fighters
        }
        self.turn = 0
        self.side: int | None = None
        self.side_turn = SideTurn()
        self.routed: dict[int, bool] = {}  # side → voluntary?
        self.finished = False
        self.winners: list[int] = []
        self.draw = False
        self.finish_reason = ""
        self.out_of_action: list[OutOfAction] = []
        self.duels: list[Duel] = []
        self.entries: list[tuple[int, str, dict[str, Any]]] = []
        self.corrected: dict[int, int] = {}  # corrected seq → the correction's seq
        self.last_seq = 0
        self.preview = False  # validating a check or attack before its dice are rolled

    # --- reading -------------------------------------------------------------------------------
    def fighter(self, fighter_id: Any, name: str = "fighter") -> FighterState:
        fighter = self.fighters.get(fighter_id) if isinstance(fighter_id, int) else None
        if fighter is None:
            raise TrackerError(
                _("Fighter %(id)s is not in this battle."),
                code="entry.unknown_fighter",
                field=name,
                id=fighter_id,
            )
        return fighter

    def side_fighters(self, side: int) -> list[FighterState]:
        return [f for f in self.fighters.values() if f.side == side]

    def out_of_action_count(self, side: int) -> int:
        return sum(1 for f in self.side_fighters(side) if f.status == OUT_OF_ACTION)

    def leader(self, side: int) -> FighterState | None:
        return next((f for f in self.side_fighters(side) if f.leader), None)

    @property
    def ended(self) -> bool:
        """A rout left one warband (or none) on the field, or the battle was finished."""
        return self.finished or len(self.standing_sides) <= 1

    @property
    def standing_sides(self) -> list[int]:
        return [side for side in self.order if side not in self.routed]

    def finish_due(self) -> dict[str, Any] | None:
        """The ``finish`` entry the rules write by themselves: a rout (failed test or voluntary)
        left one warband on the field, and the battle is not finished yet."""
        if self.finished or len(self.standing_sides) > 1:
            return None
        voluntary = any(self.routed.values())
        return {"reason": "voluntary-rout" if voluntary else "rout", "automatic": True}

    def next_turn(self) -> tuple[int, int]:
        """The turn and side that come next (routed warbands no longer take turns)."""
        standing = self.standing_sides
        if self.side is None:
            return 1, standing[0]
        later = [s for s in self.order[self.order.index(self.side) + 1 :] if s in standing]
        if later:
            return self.turn, later[0]
        return self.turn + 1, standing[0]

    def rout_test_due(self, side: int) -> bool:
        return (
            not self.ended
            and side == self.side
            and not self.side_turn.rout_tested
            and not self.side_turn.acted
            and self.out_of_action_count(side) >= self.setup.side(side).rout_threshold
        )

    def _fighter_checks_due(self, side: int) -> list[dict[str, Any]]:
        due = []
        for fighter in self.side_fighters(side):
            if (
                STUPIDITY in fighter.rules
                and fighter.status in (IN_PLAY, KNOCKED_DOWN)
                and ("stupidity", fighter.id) not in self.side_turn.tested
            ):
                due.append(
                    {"check": "stupidity", "side": side, "fighter": fighter.id, "required": True}
                )
            if (
                fighter.status == FLEEING
                and fighter.id in self.side_turn.fleeing_at_start
                and ("rally", fighter.id) not in self.side_turn.tested
            ):
                due.append(
                    {"check": "rally", "side": side, "fighter": fighter.id, "required": True}
                )
        return due

    def checks_due(self) -> list[dict[str, Any]]:
        """The checks the rules call for now, the required ones first; then those the log shows
        may be due and the table confirms (charged while fleeing, all alone, fear: ``required``
        false, see :func:`~rules.engine.tracker.checks.prompted`)."""
        if self.ended or self.side is None:
            return []
        side = self.side
        due: list[dict[str, Any]] = []
        if self.rout_test_due(side):
            due.append({"check": "rout", "side": side, "required": True})
        due += self._fighter_checks_due(side)
        for duel in duels.pending(self):
            due.append(
                {
                    "check": "challenge",
                    "side": duel.side,
                    "fighter": duel.challenger,
                    "issued": duel.seq,
                    "required": True,
                }
            )
        if not self.side_turn.acted and self.out_of_action_count(side) >= 2:
            due.append({"check": "voluntary-rout", "side": side, "required": False})
        if not self.rout_test_due(side):
            due += checks.prompted(self)
        return due

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
            "sides": [
                {
                    "warband": side.warband,
                    "name": side.name,
                    "rout_threshold": side.rout_threshold,
                    "out_of_action": self.out_of_action_count(side.warband),
                    "routed": side.warband in self.routed,
                    "voluntary_rout": self.routed.get(side.warband, False),
                    "fighters": [f.to_dict() for f in self.side_fighters(side.warband)],
                }
                for side in self.setup.sides
            ],
            "checks_due": self.checks_due(),
            "out_of_action_events": [event.to_dict() for event in self.out_of_action],
            "corrected": {str(k): v for k, v in self.corrected.items()},
        }

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

    # --- guards the entries use ----------------------------------------------------------------
    def require_started(self) -> None:
        if self.side is None:
            raise TrackerError(
                _("The battle has not started: log the first turn."), code="entry.not_started"
            )

    def require_open(self) -> None:
        if self.ended:
            raise TrackerError(
                _("The battle is over: only notes and the finish can be logged."),
                code="entry.battle_over",
            )

    def require_rout_first(self) -> None:
        if self.side is not None and self.rout_test_due(self.side):
            raise TrackerError(
                _("The rout test is due first, at the start of this turn."),
                code="entry.rout_test_due",
            )

    def require_started_turn(self) -> None:
        """The battle is on, a turn has started and its rout test (if due) was taken."""
        self.require_open()
        self.require_started()
        self.require_rout_first()

    def require_able(self, fighter: FighterState, name: str, *, allowed: tuple[str, ...]) -> None:
        if fighter.status == OUT_OF_ACTION:
            raise TrackerError(
                _("%(fighter)s is out of action and can do nothing more in this battle."),
                code="entry.out_of_action",
                field=name,
                fighter=fighter.name,
            )
        if fighter.status not in allowed:
            raise TrackerError(
                _("%(fighter)s is %(status)s and cannot do that."),
                code="entry.cannot_act",
                field=name,
                fighter=fighter.name,
                status=fighter.status,
            )

    def touch(self) -> None:
        self.side_turn.acted = True

    # --- entries -------------------------------------------------------------------------------
    def append(self, seq: int, kind: str, payload: Mapping[str, Any]) -> None:
        """Validate the entry against the state and apply it; raise :class:`TrackerError`. On an
        error the state may be half-changed: callers drop it (see :meth:`validate`)."""
        if kind not in KINDS:
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
        """Check an entry without changing this state; ``check`` and ``attack`` entries are
        checked before their dice are rolled (without a ``result``)."""
        # The setup is frozen and logged entries are never changed in place: the preview
        # shares them (copying the whole log was most of a validation's time).
        preview = copy.deepcopy(
            self, {id(self.setup): self.setup, id(self.entries): [*self.entries]}
        )
        preview.preview = kind in ("check", "attack")
        preview.append(self.last_seq + 1, kind, payload)

    def corrected_entries(self) -> list[tuple[int, str, dict[str, Any]]]:
        return [entry for entry in self.entries if entry[1] == "correction"]

    def correctable_entries(self) -> list[tuple[int, str, dict[str, Any]]]:
        """The entries a correction may still point at (not corrected yet, nor the setup)."""
        return [
            entry
            for entry in self.entries
            if entry[1] in CORRECTABLE and entry[0] not in self.corrected
        ]

    def _correct(self, seq: int, payload: Mapping[str, Any]) -> None:
        target_seq = whole_id(payload, "corrects")
        target = next((e for e in self.entries if e[0] == target_seq), None)
        if target is None or target[1] not in CORRECTABLE:
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
        if self.finished:
            raise TrackerError(
                _("The battle is finished: dispute the report instead."), code="entry.finished"
            )
        replacement = payload.get("replacement")
        if replacement is not None and not isinstance(replacement, Mapping):
            raise TrackerError(
                _("The replacement is an object."), code="entry.invalid", field="replacement"
            )
        corrections = [*self.corrected_entries(), (seq, "correction", dict(payload))]
        originals = [e for e in self.entries if e[1] != "correction"]
        rebuilt = fold_entries(self.setup, originals, corrections)
        self.__dict__.update(rebuilt.__dict__)


Applier = Callable[[BattleState, int, Mapping[str, Any]], None]
APPLIERS: dict[str, Applier] = {
    "turn": entries.apply_turn,
    "status": entries.apply_status,
    "check": checks.apply_check,
    "attack": entries.apply_attack,
    "challenge": duels.apply_challenge,
    "rout": entries.apply_rout,
    "finish": entries.apply_finish,
    "note": entries.apply_note,
}


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


def fold_entries(
    setup: BattleSetupData, entries: Iterable[Entry], corrections: Iterable[Entry] = ()
) -> BattleState:
    """Fold ``entries`` (not the setup, no corrections) with ``corrections`` applied in place:
    a corrected entry is replaced by the correction's ``replacement`` or, without one, voided."""
    corrections = list(corrections)
    fixes = {int(c[2]["corrects"]): c[2] for c in corrections}
    state = BattleState(setup)
    timeline = sorted(
        [(seq, kind, payload) for seq, kind, payload in entries if kind != "correction"]
        + [(c[0], "correction", c[2]) for c in corrections],
        key=lambda entry: entry[0],
    )
    for seq, kind, payload in timeline:
        if kind == "correction":
            state.corrected[int(payload["corrects"])] = seq
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
