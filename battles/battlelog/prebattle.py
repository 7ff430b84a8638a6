"""Before the battle: each player's lineup, then the setup that starts the log.

* :func:`battle_lineup_set` — a player picks who fights for *his* warband (an organiser may pick
  for either); fighters who must miss the battle are refused with the reason.
* :func:`battle_log_setup` — the scenario from the campaign's list (with the attacker when the
  scenario needs one), who moves first, each side's fighters (its lineup, or everyone who may
  fight), the underdog bonus from the ratings and the campaign's optional rules (challenges).
  Writes the :class:`BattleSetup` and the log's first entry.

Both lock the battle row.
"""

from __future__ import annotations

import uuid
from collections.abc import Mapping, Sequence
from typing import Any

from django.core.exceptions import PermissionDenied, ValidationError
from django.db import transaction
from django.utils.translation import gettext as _

from annuminas.errors import Conflict
from battles.campaigns.selectors import campaign_tables
from battles.common import access
from battles.models import Battle, BattleLogEntry, BattleSetup
from battles.models.battlelog import BattleLineup
from rules.engine import underdog_bonus
from rules.engine.optional_rules import OPTIONAL_RULE_KEYS
from rules.engine.tracker import LOG_VERSION, TrackerError, setup_from_dict, start

from . import selectors
from .scenarios import pick_scenario
from .services import _existing, _invalid, _lock, _require_writer, same_entry_or_conflict


def may_pick_for(user, battle: Battle, warband_id: int) -> bool:
    """A player picks for his own warband; an organiser of the campaign for any of the battle's."""
    owners = {p.warband_id: p.warband.owner_id for p in battle.participants.all()}
    if warband_id not in owners:
        return False
    return owners[warband_id] == user.pk or access.is_organiser(user, battle.campaign)


def _require_picker(user, battle: Battle, warband_ids: Sequence[int]) -> None:
    participants = {p.warband_id for p in battle.participants.all()}
    if not set(warband_ids) <= participants:
        raise ValidationError({"fighters": [_("Only the warbands of this battle fight in it.")]})
    if not all(may_pick_for(user, battle, w) for w in warband_ids):
        raise PermissionDenied(_("A player picks who fights for his own warband only."))


def _require_before_start(battle: Battle) -> None:
    if battle.status != Battle.Status.SCHEDULED:
        raise Conflict(
            _("Only a scheduled battle can be set up at the table."), code="battle_not_scheduled"
        )
    if BattleSetup.objects.filter(battle=battle).exists():
        raise Conflict(_("This battle is already set up."), code="already_set_up")


def _fielded(option: Mapping[str, Any], picked: Sequence[int]) -> list[dict[str, Any]]:
    """The setup data of the fighters picked; a 400 naming those who cannot fight, and why."""
    can_fight = {f["id"]: f for f in option["fighters"]}
    errors = []
    for fighter_id in picked:
        if fighter_id in can_fight:
            continue
        excluded = next((x for x in option["excluded"] if x["id"] == fighter_id), None)
        errors.append(
            _("%(fighter)s cannot fight: %(reason)s.")
            % {"fighter": excluded["name"], "reason": excluded["reason"]}
            if excluded
            else _("%(warband)s has no fighter %(id)s who can fight.")
            % {"warband": option["name"], "id": fighter_id}
        )
    if errors:
        raise ValidationError({"fighters": errors})
    if not picked:
        raise ValidationError({"fighters": [_("Every warband needs at least one warrior.")]})
    return [can_fight[f] for f in dict.fromkeys(picked)]


@transaction.atomic
def battle_lineup_set(
    *, battle: Battle, by, warband_id: int, fighters: Sequence[int]
) -> BattleLineup:
    """Who ``warband_id`` fields in ``battle``, chosen by its player (or an organiser)."""
    battle = _lock(battle)
    _require_writer(by, battle)
    _require_picker(by, battle, [warband_id])
    _require_before_start(battle)
    option = selectors.eligible_fighters(battle)[warband_id]
    picked = [f["id"] for f in _fielded(option, list(fighters))]
    lineup, _created = BattleLineup.objects.update_or_create(
        battle=battle, warband_id=warband_id, defaults={"fighters": picked, "chosen_by": by}
    )
    return lineup


def _order(participants: Sequence[int], first: int | None) -> list[int]:
    order = sorted(participants)
    if first is not None:
        if first not in participants:
            raise ValidationError({"first": [_("The first to move must be one of the warbands.")]})
        order.remove(first)
        order.insert(0, first)
    return order


def _scenario(battle: Battle, name: str, attacker: int | None, participants) -> str:
    if attacker is not None and attacker not in participants:
        raise ValidationError({"attacker": [_("The attacker must be one of the warbands.")]})
    if not name.strip():
        return (battle.scenario or "").strip()[:120]
    scenario = pick_scenario(battle.campaign, name)
    if scenario["attacker_defender"] and attacker is None:
        raise ValidationError(
            {"attacker": [_("This scenario has an attacker and a defender: say who attacks.")]}
        )
    return scenario["name"]


def _underdog(
    order: Sequence[int], participants: Mapping[int, Any], tables: Mapping[str, Any]
) -> dict[str, int]:
    """The XP each survivor of the lower-rated warband will get, by the rating gap — from the
    table in force (the campaign's pack, its own override), as the post-battle sequence
    grants it."""
    if len(order) != 2:
        return {}
    a, b = order
    rating = {w: participants[w].warband.rating for w in order}
    table = {"table": tables["underdog_bonus"]} if tables.get("underdog_bonus") else {}
    return {
        str(a): underdog_bonus(own_rating=rating[a], enemy_rating=rating[b], **table),
        str(b): underdog_bonus(own_rating=rating[b], enemy_rating=rating[a], **table),
    }


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
    """Start the battle. ``fighters`` maps warband ids to the fighters they field (only for the
    warbands ``by`` may pick for); other warbands field their lineup, or everyone who may fight.
    ``first`` moves first."""
    battle = _lock(battle)
    _require_writer(by, battle)
    existing = _existing(battle, client_id)
    if existing is not None:
        same_entry_or_conflict(existing, "setup", None)
        return existing, False
    _require_before_start(battle)
    participants = {p.warband_id: p for p in battle.participants.all()}
    if len(participants) < 2:
        raise ValidationError(_("A battle needs two warbands to be set up."))
    chosen = {int(k): [int(f) for f in v] for k, v in (fighters or {}).items()}
    _require_picker(by, battle, list(chosen))
    lineups = selectors.lineups(battle)
    order = _order(list(participants), first)
    options = selectors.eligible_fighters(battle)
    sides = []
    for warband_id in order:
        option = options[warband_id]
        picked = chosen.get(warband_id) or lineups.get(warband_id)
        picked = picked or [f["id"] for f in option["fighters"]]
        sides.append(
            {"warband": warband_id, "name": option["name"], "fighters": _fielded(option, picked)}
        )
    payload = {
        "scenario": _scenario(battle, scenario, attacker, participants),
        "attacker": attacker,
        "underdog": _underdog(order, participants, campaign_tables(battle.campaign)),
        "optional_rules": [r for r in battle.campaign.optional_rules if r in OPTIONAL_RULE_KEYS],
        "sides": sides,
        "version": LOG_VERSION,
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
        state=start(data).to_snapshot(),
        state_seq=1,
    )
    entry = BattleLogEntry.objects.create(
        battle=battle, seq=1, kind="setup", payload=data, author=by, client_id=client_id
    )
    return entry, True
