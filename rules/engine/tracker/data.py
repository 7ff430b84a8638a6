"""The battle's state as data, with the reads and guards every kind of entry shares.

:class:`BattleData` holds what the fold of a log knows: each warrior, the turn and the side to
move, the side's turn so far (:class:`~rules.engine.tracker.model.SideTurn`), the combats, the
duels, the routs and the report's events. The entry modules change it; :mod:`.state` adds the
log's own behaviour (appending, corrections, the answer of the API). It turns into JSON and back
(:meth:`BattleData.to_snapshot`, :meth:`BattleData.restore`) without the entries themselves, so a
snapshot stays the same size however long the log grows.
"""

from __future__ import annotations

from collections.abc import Mapping
from typing import Any

from rules.engine import vocabulary as v
from rules.engine.i18n import gettext_noop as _
from rules.engine.tracker.errors import TrackerError
from rules.engine.tracker.model import (
    FLEEING,
    IN_PLAY,
    KNOCKED_DOWN,
    OUT_OF_ACTION,
    STUNNED,
    Combat,
    Duel,
    FighterState,
    OutOfAction,
    SideTurn,
)
from rules.engine.tracker.setup import BattleSetupData, FighterSetup

SNAPSHOT_VERSION = 1


class BattleData:
    """What the fold of a log knows (see the module's docstring)."""

    def __init__(self, setup: BattleSetupData) -> None:
        self.setup = setup
        self.order = [side.warband for side in setup.sides]
        self.setups: dict[int, FighterSetup] = {
            f.id: f for side in setup.sides for f in side.fighters
        }
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
        self.rules: dict[int, frozenset[str]] = {
            f.id: f.effective_rules for side in setup.sides for f in side.fighters
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
        self.combats: list[Combat] = []
        self.next_combat = 1
        self.pending_hits: dict[int, list[int]] = {}
        """Warriors who fled a combat → the enemies who each strike him an automatic hit."""
        self.side_spent: dict[int, set[str]] = {}
        """One-use things a warband has used: its pipe-weed, its wine, its war horn."""
        self.entries: list[tuple[int, str, dict[str, Any]]] = []
        self.complete = True  # every entry is in ``entries`` (not a state resumed from a snapshot)
        self.corrected: dict[int, int] = {}  # corrected seq → the correction's seq
        self.last_seq = 0
        self.preview = False  # validating an entry before its dice are rolled

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

    def side_fighters(self, side: int | None) -> list[FighterState]:
        return [f for f in self.fighters.values() if f.side == side]

    def out_of_action_count(self, side: int) -> int:
        return sum(1 for f in self.side_fighters(side) if f.status == OUT_OF_ACTION)

    def leader(self, side: int) -> FighterState | None:
        return next((f for f in self.side_fighters(side) if f.leader), None)

    def has(self, fighter: FighterState | int, key: str) -> bool:
        """Whether a warrior carries the rule ``key`` (his skills' and items' grants counted)."""
        fighter_id = fighter if isinstance(fighter, int) else fighter.id
        return key in self.rules[fighter_id]

    def gear(self, fighter: FighterState | int, key: str) -> Any:
        """The value of an item key he carries (``None`` when he carries none)."""
        fighter_id = fighter if isinstance(fighter, int) else fighter.id
        return self.setups[fighter_id].gear_of(key)

    def side_carries(self, side: int, key: str) -> FighterState | None:
        """A warrior of ``side`` still in the battle who carries an item with ``key``."""
        return next(
            (
                f
                for f in self.side_fighters(side)
                if f.status != OUT_OF_ACTION and self.gear(f, key) is not None
            ),
            None,
        )

    def frenzied(self, fighter: FighterState) -> bool:
        return self.has(fighter, v.FRENZY) and not fighter.frenzy_lost

    def fear_immune(self, fighter: FighterState, *, first_round: bool = True) -> str | None:
        """Why he ignores fear (a key), or ``None``: he causes fear himself, is immune to fear
        or to psychology, frenzied (immune within charge range, which is where fear is tested),
        or, in the first round of a combat, wears war paint."""
        for key in (v.FEAR, v.IMMUNE_FEAR, v.IMMUNE_PSYCHOLOGY):
            if self.has(fighter, key):
                return key
        if self.frenzied(fighter):
            return v.FRENZY
        if first_round and self.gear(fighter, v.IMMUNE_FEAR_FIRST_ROUND):
            return v.IMMUNE_FEAR_FIRST_ROUND
        return None

    def causes_fear(self, fighter: FighterState) -> bool:
        return self.has(fighter, v.FEAR)

    @property
    def ended(self) -> bool:
        """A rout left one warband (or none) on the field, or the battle was finished."""
        return self.finished or len(self.standing_sides) <= 1

    @property
    def standing_sides(self) -> list[int]:
        return [side for side in self.order if side not in self.routed]

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

    # --- combats -------------------------------------------------------------------------------
    def combat_of(self, fighter_id: int) -> Combat | None:
        return next((c for c in self.combats if fighter_id in c.members), None)

    def combat(self, combat_id: Any, name: str = "combat") -> Combat:
        found = next((c for c in self.combats if c.id == combat_id), None)
        if found is None:
            raise TrackerError(
                _("There is no combat %(id)s now."),
                code="entry.unknown_combat",
                field=name,
                id=combat_id,
            )
        return found

    def contacts(self, fighter_id: int) -> list[int]:
        combat = self.combat_of(fighter_id)
        return [] if combat is None else combat.contacts(fighter_id)

    def engaged(self, fighter_id: int) -> bool:
        return self.combat_of(fighter_id) is not None

    def engage(self, one: int, others: list[int]) -> Combat:
        """Put ``one`` in base contact with ``others``: a new combat, or the one they are in
        (two combats he joins become one)."""
        joined = [c for c in self.combats if c.members & {one, *others}]
        if joined:
            combat = min(joined, key=lambda c: c.id)
            for other in joined:
                if other is not combat:
                    combat.pairs |= other.pairs
                    combat.rounds.update(other.rounds)
                    self.combats.remove(other)
        else:
            combat = Combat(self.next_combat)
            self.next_combat += 1
            self.combats.append(combat)
        for enemy in others:
            combat.engage(one, enemy)
        return combat

    def leave_combat(self, fighter_id: int) -> None:
        """He is no longer in base contact with anyone (out of action, fled, moved away). What
        is left of his combat splits into the fights still in contact; one with nobody left
        ends."""
        combat = self.combat_of(fighter_id)
        if combat is None:
            return
        combat.drop(fighter_id)
        self.combats.remove(combat)
        for index, members in enumerate(_components(combat.pairs)):
            part = Combat(combat.id if index == 0 else self.next_combat)
            if index:
                self.next_combat += 1
            part.pairs = {pair for pair in combat.pairs if pair[0] in members}
            part.rounds = {f: combat.rounds.get(f, 0) for f in members}
            self.combats.append(part)
        self.combats.sort(key=lambda c: c.id)

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

    # --- snapshot ------------------------------------------------------------------------------
    def to_snapshot(self) -> dict[str, Any]:
        """Everything the fold knows but the setup and the entries, as JSON."""
        return {
            "snapshot": SNAPSHOT_VERSION,
            "turn": self.turn,
            "side": self.side,
            "side_turn": self.side_turn.to_snapshot(),
            "routed": {str(k): val for k, val in self.routed.items()},
            "finished": self.finished,
            "winners": list(self.winners),
            "draw": self.draw,
            "finish_reason": self.finish_reason,
            "out_of_action": [event.to_dict() for event in self.out_of_action],
            "duels": [duel.to_dict() for duel in self.duels],
            "combats": [combat.to_dict() for combat in self.combats],
            "next_combat": self.next_combat,
            "pending_hits": {str(k): list(val) for k, val in self.pending_hits.items()},
            "side_spent": {str(k): sorted(val) for k, val in self.side_spent.items()},
            "fighters": [f.to_snapshot() for f in self.fighters.values()],
            "corrected": {str(k): val for k, val in self.corrected.items()},
            "last_seq": self.last_seq,
        }

    def restore(self, data: Mapping[str, Any]) -> None:
        """Take the state a :meth:`to_snapshot` wrote (on a state built from the same setup)."""
        self.turn = data["turn"]
        self.side = data["side"]
        self.side_turn = SideTurn.from_snapshot(data["side_turn"])
        self.routed = {int(k): val for k, val in data["routed"].items()}
        self.finished = data["finished"]
        self.winners = list(data["winners"])
        self.draw = data["draw"]
        self.finish_reason = data["finish_reason"]
        self.out_of_action = [OutOfAction(**event) for event in data["out_of_action"]]
        self.duels = [Duel(**duel) for duel in data["duels"]]
        self.combats = [Combat.from_dict(combat) for combat in data["combats"]]
        self.next_combat = data["next_combat"]
        self.pending_hits = {int(k): list(val) for k, val in data["pending_hits"].items()}
        self.side_spent = {int(k): set(val) for k, val in data["side_spent"].items()}
        for row in data["fighters"]:
            self.fighters[row["id"]].restore(row)
        self.corrected = {int(k): val for k, val in data["corrected"].items()}
        self.last_seq = data["last_seq"]


def _components(pairs: set[tuple[int, int]]) -> list[set[int]]:
    """The groups of warriors linked by base contact, the group of the lowest pair first."""
    groups: list[set[int]] = []
    for a, b in sorted(pairs):
        touching = [g for g in groups if a in g or b in g]
        merged = {a, b}.union(*touching)
        groups = [g for g in groups if g not in touching] + [merged]
    return sorted(groups, key=min)


DOWN = (KNOCKED_DOWN, STUNNED)
ABLE = (IN_PLAY,)
STANDING_OR_FLEEING = (IN_PLAY, FLEEING)
