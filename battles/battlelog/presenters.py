"""What the table page shows, in words: each line of the log, the checks due, the combats, each
warrior's states and the rules the players apply. Plain data for the templates (and for the
phone page that will replace them): the views only render it.
"""

from __future__ import annotations

import uuid
from dataclasses import dataclass
from typing import Any

from django.utils.translation import gettext as _
from django.utils.translation import gettext_lazy, ngettext

from rules.engine import WEAPONS
from rules.engine import vocabulary as vocab
from rules.engine.checks import LABELS as CHECK_KINDS
from rules.engine.tracker import CORRECTABLE
from rules.engine.tracker.due import can_strike
from rules.engine.tracker.specs import attacker_spec, default_hands
from rules.presenters import CODE_LABELS, roll_purpose, weapon_name
from warbands.models.catalogue import PROFILE_HEADERS

STATUS_LABELS = {
    "in_play": gettext_lazy("in play"),
    "knocked_down": gettext_lazy("knocked down (derribado)"),
    "stunned": gettext_lazy("stunned (aturdido)"),
    "out_of_action": gettext_lazy("out of action (fuera de combate)"),
    "fleeing": gettext_lazy("fleeing"),
    "standing": gettext_lazy("in play"),
}
DUE_LABELS = {
    "voluntary-rout": gettext_lazy("Voluntary rout"),
    "challenge": gettext_lazy("Answer the challenge"),
    "hits": gettext_lazy("Automatic hits on a warrior who fled"),
    "close-combat": gettext_lazy("Close-combat phase"),
}
CHECK_OUTCOMES = {
    "stands": gettext_lazy("stands"),
    "routed": gettext_lazy("routs"),
    "rallied": gettext_lazy("rallies"),
    "keeps_fleeing": gettext_lazy("keeps fleeing"),
    "cannot_rally": gettext_lazy("cannot rally (an enemy is the nearest)"),
    "acts_normally": gettext_lazy("acts normally"),
    "does_not_attack": gettext_lazy("does not attack"),
    "moves_forward": gettext_lazy("moves forward"),
    "drools": gettext_lazy("stays put drooling"),
    "holds": gettext_lazy("holds his ground"),
    "flees": gettext_lazy("flees"),
    "hits_only_on_6": gettext_lazy("hits only on 6s in the first round"),
    "cannot_charge": gettext_lazy("cannot charge (a failed charge)"),
    "immune": gettext_lazy("ignores fear"),
    "not_required": gettext_lazy("no test needed"),
}
STATE_LABELS = {
    "charged": gettext_lazy("charged"),
    "was_charged": gettext_lazy("was charged"),
    "failed_charge": gettext_lazy("failed a charge"),
    "stood_up": gettext_lazy("stood up (strikes last)"),
    "rallied": gettext_lazy("rallied (does nothing else)"),
    "stupid": gettext_lazy("failed stupidity (no attacks)"),
    "shot": gettext_lazy("has shot"),
    "refused": gettext_lazy("refused a challenge"),
    "diving": gettext_lazy("diving charge"),
    "must_flee": gettext_lazy("must run 5D6 cm"),
    "first_round": gettext_lazy("first round"),
    "frenzied": gettext_lazy("frenzied"),
    "frenzy_lost": gettext_lazy("frenzy lost"),
    "hits_due": gettext_lazy("automatic hits due"),
    "fear_failed": gettext_lazy("failed fear: hits on 6s"),
    "spent": gettext_lazy("used"),
}
SITUATIONS = {
    "charging": gettext_lazy("wants to charge"),
    "charged": gettext_lazy("is charged"),
}
FEAR_PROMPTS = {
    "charging": gettext_lazy("%(enemy)s causes fear: a warrior who wants to charge him tests"),
    "charged": gettext_lazy("%(enemy)s causes fear: a warrior he charges tests"),
}
CHALLENGE_LABELS = {
    "issue": gettext_lazy("issues a challenge"),
    "accept": gettext_lazy("accepts the challenge"),
    "refuse": gettext_lazy("refuses the challenge (¡Buuu! ¡Cobardica!)"),
}
ATTACK_OPTIONS = {
    "charging": gettext_lazy("charging"),
    "hatred": gettext_lazy("hatred"),
    "frenzy": gettext_lazy("frenzy"),
    "fear_failed": gettext_lazy("failed a fear test"),
}
SHOOTING_MODIFIERS = {
    "cover": gettext_lazy("target in cover"),
    "long_range": gettext_lazy("long range"),
    "moved": gettext_lazy("the shooter moved"),
}
LEGACY_MODIFIERS = {**SHOOTING_MODIFIERS, "large_target": gettext_lazy("large target")}


@dataclass(frozen=True)
class Names:
    """Who is who in a log: fighters and warbands by their ids, kept apart (a fighter and a
    warband may share an id number)."""

    fighters: dict[int, str]
    sides: dict[int, str]

    @classmethod
    def of(cls, state) -> Names:
        return cls(
            fighters={f.id: f.name for f in state.fighters.values()},
            sides={side.warband: side.name for side in state.setup.sides},
        )

    def fighter(self, pk) -> str | None:
        return self.fighters.get(pk)

    def side(self, pk) -> str | None:
        return self.sides.get(pk)


def label(code: Any) -> str:
    if code in STATUS_LABELS:
        return str(STATUS_LABELS[code])
    if code in CHECK_OUTCOMES:
        return str(CHECK_OUTCOMES[code])
    return str(CODE_LABELS.get(code, code))


def check_label(check: str) -> str:
    """A check's (or a due entry's) name: the engine's registry, else the page's."""
    if check in CHECK_KINDS:
        return _(CHECK_KINDS[check])
    return str(DUE_LABELS.get(check, check))


def state_label(state: str, names: Names) -> str:
    name, _sep, rest = state.partition(":")
    text = str(STATE_LABELS.get(name, name))
    if name == "fear_failed" and rest.isdigit():
        return f"{text} ({names.fighter(int(rest))})"
    if name == "spent":
        return f"{text}: {rest}"
    return text


def rule_label(key: str) -> str:
    declared = vocab.rule(key)
    text = _(declared.label) if declared is not None else key
    target = vocab.targeted([key], vocab.base_key(key))
    return f"{text} ({target[0]})" if target else text


def _check_line(p: dict[str, Any], names: Names) -> str:
    result = p.get("result") or {}
    text = _("%(check)s of %(who)s: %(outcome)s.") % {
        "check": check_label(p["check"]),
        "who": names.fighter(p.get("fighter")) or names.side(p.get("side")),
        "outcome": label(result.get("outcome")),
    }
    if p.get("against"):
        text += " " + _("(against %(enemy)s)") % {"enemy": names.fighter(p["against"])}
    flee = (result.get("details") or {}).get("flee_cm")
    if flee:
        text += " " + _("He runs %(cm)s cm.") % {"cm": flee}
    return text


def _fight_line(p: dict[str, Any], names: Names) -> str:
    result = p.get("result") or {}
    blows = [
        _("%(attacker)s on %(target)s: %(outcome)s")
        % {
            "attacker": names.fighter(b["attacker"]),
            "target": names.fighter(b["target"]),
            "outcome": label(b["result"]["outcome"]),
        }
        for b in result.get("blows", ())
    ]
    return _("Close combat: %(blows)s.") % {"blows": "; ".join(blows) or _("no blow struck")}


def _charge_line(p: dict[str, Any], names: Names) -> str:
    targets = ", ".join(str(names.fighter(t)) for t in p.get("targets") or ())
    if p.get("failed"):
        return _("%(charger)s charges %(targets)s but falls short (a failed charge).") % {
            "charger": names.fighter(p["charger"]),
            "targets": targets,
        }
    return _("%(charger)s charges %(targets)s.") % {
        "charger": names.fighter(p["charger"]),
        "targets": targets,
    }


def _status_line(p: dict[str, Any], names: Names) -> str:
    if p.get("status") == "out_of_action" and p.get("by"):
        who = {"actor": names.fighter(p["by"]), "target": names.fighter(p["fighter"])}
        if not p.get("weapon"):  # no weapon named: no "with —"
            return _("%(actor)s puts %(target)s out of action.") % who
        return _("%(actor)s puts %(target)s out of action with %(weapon)s.") % {
            **who,
            "weapon": weapon_name(p["weapon"]),
        }
    return _("%(fighter)s is now %(status)s.") % {
        "fighter": names.fighter(p["fighter"]),
        "status": label(p["status"]),
    }


def _attack_line(p: dict[str, Any], names: Names) -> str:
    result = p.get("result") or {}
    return _("%(attacker)s attacks %(target)s (%(mode)s): %(outcome)s.") % {
        "attacker": names.fighter(p["attacker"]),
        "target": names.fighter(p["target"]),
        "mode": _("shooting") if p.get("mode") == "shooting" else _("close combat"),
        "outcome": label(result.get("outcome")),
    }


def describe(entry: Any, names: Names) -> str:
    """One line of the log, as a player would say it."""
    kind = entry["kind"] if isinstance(entry, dict) else entry.kind
    p = entry["payload"] if isinstance(entry, dict) else entry.payload
    name, side = names.fighter, names.side
    lines = {
        "setup": lambda: (
            _("The battle is set up: %(scenario)s.") % {"scenario": p.get("scenario") or "—"}
        ),
        "turn": lambda: (
            _("Turn %(turn)s: %(side)s moves.") % {"turn": p["turn"], "side": side(p["side"])}
        ),
        "status": lambda: _status_line(p, names),
        "attack": lambda: _attack_line(p, names),
        "check": lambda: _check_line(p, names),
        "charge": lambda: _charge_line(p, names),
        "close-combat": lambda: _fight_line(p, names),
        "hits": lambda: (
            _("%(target)s takes the automatic hits as he flees: %(outcome)s.")
            % {
                "target": name(p["target"]),
                "outcome": label((p.get("result") or {}).get("outcome")),
            }
        ),
        "disengage": lambda: _("%(fighter)s leaves the combat.") % {"fighter": name(p["fighter"])},
        "challenge": lambda: (
            _("%(fighter)s %(action)s.")
            % {"fighter": name(p["fighter"]), "action": CHALLENGE_LABELS.get(p["step"], p["step"])}
        ),
        "rout": lambda: _("%(side)s withdraws from the battle.") % {"side": side(p["side"])},
        "finish": lambda: (
            _("The battle is over: a warband routed.")
            if p.get("automatic")
            else _("The battle is over.")
        ),
        "correction": lambda: _("Corrects entry #%(seq)s.") % {"seq": p["corrects"]},
    }
    return lines[kind]() if kind in lines else p.get("text", "")


def label_check(check: dict[str, Any], names: Names) -> None:
    """What the page shows of a check due: who tests, against whom, a fresh client_id."""
    check["label"] = check_label(check["check"])
    check["who"] = names.fighter(check.get("fighter")) or names.side(check["side"])
    check["client_id"] = uuid.uuid4()
    if "against" in check:
        check["against_name"] = names.fighter(check["against"])
        check["prompt"] = FEAR_PROMPTS[check["situation"]] % {"enemy": check["against_name"]}
        check["testers"] = [{"id": f, "name": names.fighter(f)} for f in check["fighters"]]
    if "enemies" in check:
        check["enemy_names"] = ", ".join(str(names.fighter(e)) for e in check["enemies"])


def combat_rows(state, names: Names) -> list[dict[str, Any]]:
    """Each combat: who fights whom, who is in his first round, whether its phase is logged,
    and for each warrior the enemies he may split his attacks between (the form's rows)."""
    rows = []
    for combat in state.combats:
        fighters = []
        for fighter_id in sorted(combat.members):
            fighter = state.fighters[fighter_id]
            contacts = combat.contacts(fighter_id)
            fighters.append(
                {
                    "id": fighter_id,
                    "name": fighter.name,
                    "side": fighter.side,
                    "status": label(fighter.status),
                    "first_round": combat.first_round(fighter_id),
                    "contacts": [{"id": e, "name": names.fighter(e)} for e in contacts],
                    "attacks": usual_attacks(state, combat, fighter_id),
                    "weapons": _melee_choices(state, fighter_id),
                }
            )
        rows.append(
            {
                "id": combat.id,
                "fought": combat.id in state.side_turn.fought,
                "fighters": fighters,
                "client_id": uuid.uuid4(),
                "title": ngettext(
                    "Combat %(id)s: %(count)s warrior",
                    "Combat %(id)s: %(count)s warriors",
                    len(fighters),
                )
                % {"id": combat.id, "count": len(fighters)},
            }
        )
    return rows


def usual_attacks(state, combat, fighter_id: int) -> int:
    """How many attacks he makes this phase with his usual weapons (0: he does not strike)."""
    fighter = state.fighters[fighter_id]
    if can_strike(state, fighter):
        return 0
    hands = default_hands(state, fighter)
    enemies = len(combat.contacts(fighter_id))
    first = combat.first_round(fighter_id)
    return attacker_spec(state, fighter, hands, first_round=first, enemies=enemies).total_attacks


def _melee_choices(state, fighter_id: int) -> list[dict[str, str]]:
    rows = state.setups[fighter_id].carried("melee", "shield")
    return [{"slug": row.slug, "name": row.name} for row in rows]


def fighter_rows(state, names: Names) -> list[dict[str, Any]]:
    """Each side's warriors with their status, states and the rules the players apply."""
    data = state.to_dict()
    for side in data["sides"]:
        for fighter in side["fighters"]:
            fighter["status_label"] = label(fighter["status"])
            fighter["state_labels"] = [state_label(s, names) for s in fighter["states"]]
            fighter["players_rule_labels"] = [rule_label(k) for k in fighter["players_rules"]]
    return data["sides"]


def correctable(entries, state, names: Names) -> list[dict[str, Any]]:
    """The recent entries a correction may still point at (not corrected yet, nor the setup)."""
    return [
        {"seq": e.seq, "text": describe(e, names)}
        for e in entries
        if e.kind in CORRECTABLE and e.seq not in state.corrected
    ]


OUT = "out_of_action"


def fighter_cards(state, names: Names) -> list[dict[str, Any]]:
    """Each side's warriors as the table page's cards: his profile in short, wounds, status,
    this turn's states, whom he fights, and what his card offers to log (the enemies he may
    charge or shoot, his missile weapons, the fear-causing enemies he may test against). An
    out-of-action warrior offers nothing to log but a change of status."""
    sides = fighter_rows(state, names)
    in_play = {
        f["id"]: {"id": f["id"], "name": f["name"], "side": side["warband"]}
        for side in sides
        for f in side["fighters"]
        if f["status"] != OUT
    }
    fear = {f.id for f in state.fighters.values() if state.causes_fear(f)}
    kinds = ("missile",) if state.setup.strict else ("missile", "melee")
    for side in sides:
        enemies = [f for f in in_play.values() if f["side"] != side["warband"]]
        for fighter in side["fighters"]:
            setup = state.setups[fighter["id"]]
            combat = state.combat_of(fighter["id"])
            fighter["profile"] = [
                (str(abbr), setup.profile[key])
                for key, abbr in PROFILE_HEADERS.items()
                if key in setup.profile
            ]
            fighter["max_wounds"] = setup.profile.get("w", 1)
            fighter["acts"] = fighter["status"] != OUT
            fighter["engaged_with"] = (
                [names.fighter(e) for e in combat.contacts(fighter["id"])] if combat else []
            )
            fighter["enemies"] = enemies
            fighter["fear_of"] = [e for e in enemies if e["id"] in fear]
            fighter["missiles"] = [
                {"value": f"{fighter['id']}:{slug}", "name": WEAPONS[slug].name}
                for slug in setup.equipment
                if slug in WEAPONS and WEAPONS[slug].kind in kinds
            ]
            fighter["fleeing"] = fighter["status"] == "fleeing"
            fighter["ids"] = {form: uuid.uuid4() for form in CARD_FORMS}
    return sides


CARD_FORMS = ("attack", "charge", "status", "fear", "alone", "charged", "disengage")


def dice_lines(entry: Any, names: Names) -> list[dict[str, Any]]:
    """An entry's rolled dice, step by step in words (each step's purpose, who against whom,
    the faces): what the log shows folded under the entry's line."""
    audit = entry.dice if not isinstance(entry, dict) else entry.get("dice")
    record = (audit or {}).get("record") or ()
    steps: list[dict[str, Any]] = []
    for roll in record:
        key = (roll.get("purpose", ""), roll.get("scope", ""), roll.get("reroll_of") is not None)
        if steps and steps[-1]["key"] == key:
            steps[-1]["faces"].extend(roll.get("faces") or ())
            continue
        steps.append({"key": key, "faces": list(roll.get("faces") or ())})
    for step in steps:
        purpose, scope, reroll = step.pop("key")
        step["purpose"] = roll_purpose(purpose) if purpose else _("dice")
        step["reroll"] = reroll
        step["scope"] = scope_label(scope, names)
    return steps


def scope_label(scope: str, names: Names) -> str:
    """``"12>31"`` (who rolls against whom) in names, when the log knows them."""
    if not scope:
        return ""
    parts = [names.fighter(int(p)) if p.isdigit() else None for p in scope.split(">")]
    return " → ".join(str(p) for p in parts) if all(parts) else ""


def plan_lines(plan: dict[str, Any]) -> dict[str, Any]:
    """A dice plan in words: the steps the typed dice filled, each with its faces, and what
    is asked next ("3 dice to hit")."""
    done = [
        {"purpose": roll_purpose(step["purpose"]), "faces": step["faces"]} for step in plan["done"]
    ]
    following = plan["next"]
    asked = None
    if following is not None:
        asked = ngettext(
            "%(count)s more die (%(dice)s): %(purpose)s",
            "%(count)s more dice (%(dice)s): %(purpose)s",
            following["missing"],
        ) % {
            "count": following["missing"],
            "dice": following["dice"],
            "purpose": roll_purpose(following["purpose"]),
        }
    return {"done": done, "next": asked, "surplus": plan["surplus"], "complete": plan["complete"]}
