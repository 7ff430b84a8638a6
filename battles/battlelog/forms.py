"""The table page's forms, read into entry payloads (the page posts plain forms; the tracker
checks what they say, as it does for the API)."""

from __future__ import annotations

from collections.abc import Callable
from typing import Any

from annuminas.converters import parse_id

from .presenters import ATTACK_OPTIONS, LEGACY_MODIFIERS, SITUATIONS

CHECK_PARAMS = ("war_horn", "talisman")


def faces(form) -> list[int]:
    return [int(x) for x in form.get("faces", "").replace(",", " ").split() if x.isdigit()]


def _check_params(form) -> dict[str, Any]:
    """What the table adds to a check: how many enemies he fights, whether he charges, a war
    horn blown nearby, the enemy's talisman close."""
    params: dict[str, Any] = {}
    if form.get("enemies"):
        params["enemies"] = parse_id(form.get("enemies"))
    if form.get("situation") in SITUATIONS:
        params["situation"] = form.get("situation")
    params.update({name: True for name in CHECK_PARAMS if form.get(name)})
    return {"params": params} if params else {}


def _flags(form, names) -> dict[str, bool]:
    return {name: True for name in names if form.get(name)}


def _ids(form, name: str) -> list[int]:
    return [value for value in (parse_id(v) for v in form.getlist(name)) if value]


def close_combat(form) -> dict[str, Any]:
    """A combat's phase: ``blows-<attacker>-<target>`` hold how many attacks go where (only
    needed for a warrior fighting several enemies), ``weapon-<fighter>`` /
    ``offhand-<fighter>`` the weapons he fights with when not his usual ones."""
    blows, loadouts = [], {}
    for key, value in form.items():
        parts = key.split("-")
        if parts[0] == "blows" and len(parts) == 3 and value.strip():
            attacker, target, count = parse_id(parts[1]), parse_id(parts[2]), parse_id(value)
            if attacker and target and count:
                blows.append({"attacker": attacker, "target": target, "attacks": count})
        elif parts[0] in ("weapon", "offhand") and len(parts) == 2 and value:
            fighter = parse_id(parts[1])
            if fighter:
                loadouts.setdefault(fighter, {"fighter": fighter})[parts[0]] = value[:40]
    return {
        "combat": parse_id(form.get("combat")),
        **({"blows": blows} if blows else {}),
        **({"loadouts": list(loadouts.values())} if loadouts else {}),
    }


def _attack(form) -> dict[str, Any]:
    mode = form.get("mode", "shooting")
    payload = {
        "attacker": parse_id(form.get("attacker")),
        "target": parse_id(form.get("target")),
        "mode": mode,
        "weapon": form.get("weapon", "").partition(":")[2][:40],
        "modifiers": _flags(form, LEGACY_MODIFIERS),
    }
    if mode == "melee":
        payload["options"] = _flags(form, ATTACK_OPTIONS)
    if form.get("shots", "").isdigit() and int(form["shots"]) > 1:
        payload["attacks"] = int(form["shots"])
    return payload


def payloads(form) -> dict[str, Callable[[], dict[str, Any]]]:
    """Each form's payload, by the form's ``op`` (the entry's kind)."""
    number = parse_id
    return {
        "turn": lambda: {"turn": number(form.get("turn")), "side": number(form.get("side"))},
        "status": lambda: {
            "fighter": number(form.get("fighter")),
            "status": form.get("status"),
            **({"by": number(form.get("by"))} if number(form.get("by")) else {}),
            "weapon": form.get("weapon", "")[:80],
        },
        "attack": lambda: _attack(form),
        "charge": lambda: {
            "charger": number(form.get("charger")),
            "targets": _ids(form, "targets"),
            **({"failed": True} if form.get("failed") else {}),
            **({"diving": True} if form.get("diving") else {}),
        },
        "close-combat": lambda: close_combat(form),
        "hits": lambda: {"target": number(form.get("target"))},
        "disengage": lambda: {"fighter": number(form.get("fighter"))},
        "challenge": lambda: {
            "step": form.get("step"),
            "fighter": number(form.get("fighter")),
            **({"issued": number(form.get("issued"))} if form.get("issued") else {}),
            "params": {
                **({"can_step_back": False} if form.get("cornered") else {}),
                **({"active_player_declined": True} if form.get("declined") else {}),
            },
        },
        "check": lambda: {
            "check": form.get("check"),
            **({"side": number(form.get("side"))} if form.get("check") == "rout" else {}),
            **({"fighter": number(form.get("fighter"))} if form.get("fighter") else {}),
            **({"against": number(form.get("against"))} if form.get("against") else {}),
            **_check_params(form),
        },
        "rout": lambda: {"side": number(form.get("side")), "voluntary": True},
        "finish": lambda: {
            **({"winner": number(form.get("winner"))} if form.get("winner", "").isdigit() else {}),
            "draw": form.get("winner") == "draw",
        },
        "note": lambda: {"text": form.get("text", "")},
        "correction": lambda: {"corrects": number(form.get("corrects"))},
    }
