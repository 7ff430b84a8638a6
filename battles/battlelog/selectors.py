"""Reads of the battle log: who may fight, the entries after a seq, the state."""

from __future__ import annotations

from typing import Any

from django.db.models import Count, Max, Prefetch, Q, QuerySet
from django.utils.translation import gettext as _

from battles.models import Battle, BattleLogEntry, PendingDecision
from battles.models.battlelog import BattleLineup
from warbands.models import EquipmentItem, Fighter, Skill

PROFILE = ("m", "ws", "bs", "s", "t", "w", "i", "a", "ld")
MAX_PAGE = 500


def _profile(fighter: Fighter) -> dict[str, int | float]:
    values = {name: getattr(fighter, name) for name in PROFILE}
    values["m"] = int(values["m"]) if float(values["m"]).is_integer() else values["m"]
    return values


def eligible_fighters(battle: Battle) -> dict[int, dict[str, Any]]:
    """For each warband of the battle: the fighters who may fight (as setup data) and those who
    may not, with the reason (an injury that makes him miss this battle; a hired sword whose
    upkeep is still unpaid, his decision open after an earlier battle). Six queries.

    A fighter's ``rules`` are every special-rule key he carries (his type's, his own from
    injuries, his group's, his skills' slugs); his ``items`` each carried item's kind and rules
    data, which the tracker reads (:mod:`rules.engine.vocabulary`)."""
    items = Prefetch("equipment", queryset=EquipmentItem.objects.select_related("equipment"))
    group_items = Prefetch(
        "group__equipment", queryset=EquipmentItem.objects.select_related("equipment")
    )
    participants = list(battle.participants.select_related("warband").order_by("id"))
    fighters = (
        Fighter.objects.filter(
            warband__in=[p.warband_id for p in participants], status__in=Fighter.IN_ROSTER
        )
        .select_related("fighter_type__race", "group")
        .prefetch_related(
            items,
            group_items,
            Prefetch("skills", queryset=Skill.objects.only("slug", "pack_version_id")),
        )
        .order_by("-is_leader", "-is_hero", "pk")
    )
    unpaid = set(
        PendingDecision.objects.filter(
            kind=PendingDecision.Kind.UPKEEP,
            status=PendingDecision.Status.OPEN,
            fighter__warband__in=[p.warband_id for p in participants],
        ).values_list("fighter_id", flat=True)
    )
    out: dict[int, dict[str, Any]] = {
        p.warband_id: {"name": p.warband.name, "fighters": [], "excluded": []} for p in participants
    }
    for fighter in fighters:
        side = out[fighter.warband_id]
        reason = _excluded_because(fighter, unpaid)
        if reason:
            side["excluded"].append({"id": fighter.pk, "name": fighter.name, "reason": reason})
            continue
        carried = [item.equipment for item in fighter.equipment.all()]
        if fighter.group is not None:
            carried += [item.equipment for item in fighter.group.equipment.all()]
        rules = [
            *fighter.fighter_type.special_rules,
            *fighter.special_rules,
            *(fighter.group.special_rules if fighter.group is not None else ()),
            *(skill.local_slug for skill in fighter.skills.all()),
        ]
        side["fighters"].append(
            {
                "id": fighter.pk,
                "name": fighter.name,
                "profile": _profile(fighter),
                "leader": fighter.is_leader,
                "hero": fighter.is_hero,
                "rules": sorted({str(r) for r in rules}),
                "equipment": [item.local_slug for item in carried],
                "items": [_item(item) for item in carried],
                "race": fighter.fighter_type.race.local_slug,
            }
        )
    return out


def _item(equipment) -> dict[str, Any]:
    """An item as the tracker reads it: its kind and the rules data of the catalogue."""
    return {
        "slug": equipment.local_slug,
        "name": equipment.name,
        "kind": equipment.kind,
        "rules": dict(equipment.rules or {}),
    }


def _excluded_because(fighter: Fighter, unpaid: set[int]) -> str:
    """Why this fighter may not fight, or ``""``."""
    if fighter.status != Fighter.Status.ACTIVE:
        return _("misses this battle recovering from an injury")
    if fighter.pk in unpaid:
        return _("upkeep unpaid (pay it, or let him go, before he fights again)")
    return ""


# What an entry shows (``battles.battlelog.api.entry_data``); its author by name only.
ENTRY_FIELDS = ("battle_id", "seq", "kind", "payload", "created", "client_id", "dice", "author")


def log_entries(battle: Battle, *, after: int = 0, limit: int = MAX_PAGE) -> QuerySet:
    """The entries after ``after``, in order, with their authors: one query whatever the log."""
    return (
        BattleLogEntry.objects.filter(battle=battle, seq__gt=after)
        .select_related("author")
        .only(*ENTRY_FIELDS, "author__username")
        .order_by("seq")[:limit]
    )


def log_entries_before(battle: Battle, *, before: int, limit: int = MAX_PAGE) -> list:
    """The last ``limit`` entries before ``before``, in order: one query whatever the log."""
    entries = (
        BattleLogEntry.objects.filter(battle=battle, seq__lt=before)
        .select_related("author")
        .only(*ENTRY_FIELDS, "author__username")
        .order_by("-seq")[:limit]
    )
    return list(reversed(entries))


def log_extent(battle: Battle, *, upto: int = 0) -> dict[str, int]:
    """The log's last seq, its number of entries and how many are at or before ``upto``: one
    query (the log's ETag and its page links read it)."""
    extent = BattleLogEntry.objects.filter(battle_id=battle.pk).aggregate(
        last=Max("seq"), count=Count("pk"), upto=Count("pk", filter=Q(seq__lte=upto))
    )
    return {"last": extent["last"] or 0, "count": extent["count"], "upto": extent["upto"]}


def lineups(battle: Battle) -> dict[int, list[int]]:
    """Each warband's chosen lineup (fighter ids), for those who chose one."""
    return dict(BattleLineup.objects.filter(battle=battle).values_list("warband_id", "fighters"))


def with_participants(battle: Battle) -> Battle:
    """The battle with its participants' warbands and its campaign's memberships at hand."""
    return (
        Battle.objects.select_related("campaign")
        .prefetch_related("participants__warband", "campaign__memberships")
        .get(pk=battle.pk)
    )


def battle_at_table(user) -> Battle | None:
    """His latest battle set up at the table and not yet reported (the home page's way to the
    table), or None. One query."""
    return (
        Battle.objects.filter(
            status=Battle.Status.SCHEDULED,
            participants__warband__owner=user,
            log_setup__isnull=False,
        )
        .order_by("-log_setup__pk")
        .first()
    )
