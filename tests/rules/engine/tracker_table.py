"""A battle table for the tracker's tests: warriors described in a line, a log written as the
service writes it (validate, roll through the engine with typed faces, append), and the fold of
the same log to compare with."""

from __future__ import annotations

from typing import Any

from rules.engine import Dice
from rules.engine.tracker import (
    LOG_VERSION,
    TrackerError,
    dice_plan,
    fold,
    resume,
    roll_entry,
    start,
)
from rules.engine.tracker.payloads import ROLLED_KINDS
from rules.engine.tracker.plans import check_faces

PROFILE = ("m", "ws", "bs", "s", "t", "w", "i", "a", "ld")
ITEMS: dict[str, tuple[str, dict[str, Any]]] = {
    "daga": ("melee", {"enemy_save_bonus": 1, "first_free": True}),
    "espada": ("melee", {"parry": True}),
    "hacha": ("melee", {"save_modifier": -1}),
    "maza": ("melee", {"concussion": True}),
    "lanza": ("melee", {"strikes_first_first_round": True, "no_second_weapon": True}),
    "mangual": (
        "melee",
        {"strength_bonus_first_round": 1, "no_second_weapon": True, "no_buckler": True},
    ),
    "arma-a-dos-manos": ("melee", {"strength_bonus": 2, "two_handed": True, "strikes_last": True}),
    "arco": ("missile", {"range_cm": 60, "strength": 3}),
    "armadura-ligera": ("armour", {"save": 6}),
    "armadura-pesada": ("armour", {"save": 5}),
    "escudo": ("shield", {"save_bonus": 1}),
    "escudo-pequeno": ("shield", {"parry": True, "buckler": True}),
    "yelmo": ("helmet", {"special_save_vs_stun": 4}),
    "capa-elfica": ("misc", {"missile_hit_penalty": 1}),
    "amuleto-de-la-suerte": ("misc", {"first_wound_save": 4}),
    "veneno-negro": ("misc", {"single_use": True, "to_wound_bonus": 1}),
    "hierba-de-la-cuaderna": ("misc", {"single_use": True, "reroll_rout_test": True}),
    "cuerno-de-guerra": ("misc", {"once_per_battle": True, "reroll_leadership_cm": 15}),
    "setas-de-locura": ("misc", {"single_use": True, "grants_rule": "frenzy"}),
    "talisman-de-angmar": ("misc", {"enemy_leadership_penalty": 1, "range_cm": 15}),
    "pocion-orca": ("misc", {"single_use": True, "stand_up_free": True}),
    "pintura-de-guerra": ("misc", {"immune_fear_first_round": True}),
    "lembas": ("misc", {"single_use": True, "stunned_becomes_knocked_down": True}),
    "hacha-de-acero-enano": ("melee", {"save_modifier": -2}),
}
"""The default content pack's rows the tests use (kind and rules data, as the catalogue has
them)."""
A, B = 1, 2


def warrior(
    id: int,
    name: str,
    profile: str = "10 3 3 3 3 1 3 1 7",
    *,
    gear: tuple[str, ...] = (),
    rules: tuple[str, ...] = (),
    leader: bool = False,
    hero: bool = False,
    race: str = "human",
) -> dict[str, Any]:
    """``profile``: M HA HP F R H I A L, as the rulebook prints it."""
    values = [float(v) if "." in v else int(v) for v in profile.split()]
    return {
        "id": id,
        "name": name,
        "profile": dict(zip(PROFILE, values, strict=True)),
        "leader": leader,
        "hero": hero,
        "rules": list(rules),
        "equipment": list(gear),
        "items": [
            {"slug": slug, "name": slug, "kind": ITEMS[slug][0], "rules": ITEMS[slug][1]}
            for slug in gear
        ],
        "race": race,
    }


def battle(side_a: list[dict], side_b: list[dict], **extra: Any) -> dict[str, Any]:
    return {
        "version": LOG_VERSION,
        "scenario": "Escaramuza",
        "sides": [
            {"warband": A, "name": "Arnor", "fighters": side_a},
            {"warband": B, "name": "Angmar", "fighters": side_b},
        ],
        **extra,
    }


class Table:
    """A log written entry by entry as the service writes it."""

    def __init__(self, setup: dict[str, Any]) -> None:
        self.entries: list[dict[str, Any]] = [{"seq": 1, "kind": "setup", "payload": setup}]
        self.state = start(setup)
        self.setup = setup

    def add(self, kind: str, faces: list[int] | None = None, seed: int = 1, **payload: Any):
        """Append an entry; a rolled one is rolled with ``faces`` (exactly those it needs) or
        the ``seed``. Returns its payload (with the result)."""
        if kind in ROLLED_KINDS:
            if faces is not None:
                check_faces(dice_plan(self.state, kind, payload, faces))
            dice = Dice(faces=faces) if faces is not None else Dice(seed=seed)
            result = roll_entry(self.state, kind, payload, dice=dice)
            result.pop("rolls", None)
            payload = {**payload, "result": result}
        seq = self.state.last_seq + 1
        self.state.append(seq, kind, payload)
        self.entries.append({"seq": seq, "kind": kind, "payload": payload})
        return payload

    def refused(self, kind: str, **payload: Any) -> TrackerError:
        """The entry is refused, and nothing changes."""
        before = self.state.to_dict()
        try:
            self.state.validate(kind, payload)
        except TrackerError as error:
            assert self.state.to_dict() == before
            return error
        raise AssertionError(f"{kind} {payload} was accepted")

    def turn(self, turn: int, side: int) -> None:
        self.add("turn", turn=turn, side=side)

    def fighter(self, fighter_id: int) -> dict[str, Any]:
        return next(
            f
            for side in self.state.to_dict()["sides"]
            for f in side["fighters"]
            if f["id"] == fighter_id
        )

    def due(self, check: str) -> list[dict[str, Any]]:
        return [c for c in self.state.checks_due() if c["check"] == check]

    def fold(self):
        return fold(self.entries)

    def resumed(self):
        return resume(self.setup, self.state.to_snapshot())
