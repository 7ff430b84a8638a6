"""A campaign as one JSON document (format ``annuminas.campaign`` version 1), for its organisers.

What it holds: the campaign and its house rules (with its pack version and the campaign tables
in force), its members, the warbands that play in it as
the campaign sees them (name, type, player, rating, and the warriors the battles name), its
rounds, every battle with its report (participants, results, events, corrections), its battle
log (setup, lineups, entries with their dice) and its post-battle runs (seed, steps and dice per
warband, decisions), and the standings by the campaign's own scoring.

What it leaves out: each warband's own roster (equipment, treasury, ledger, notes) stays its
player's — he exports it with his account —, and nothing that opens a door (the join code,
webhooks and their secrets).
"""

from __future__ import annotations

from dataclasses import asdict
from typing import Any

from django.conf import settings
from django.db.models import Prefetch
from django.utils import timezone

from battles.campaigns.selectors import campaign_tables
from battles.campaigns.services import standings_compute
from battles.models import (
    Battle,
    BattleCorrection,
    BattleLogEntry,
    BattleParticipant,
    Campaign,
    Membership,
    PostBattleResult,
    PostBattleRun,
)
from warbands.models import Fighter, HenchmanGroup, PackVersion, Warband

FORMAT = "annuminas.campaign"
FORMAT_VERSION = 1

HOUSE_RULES = (
    "preset",
    "starting_treasury",
    "rating_cap",
    "max_fighter_type_copies",
    "points_win",
    "points_draw",
    "points_loss",
    "points_bye",
    "points_per_out_of_action",
    "points_per_objective",
    "tie_breakers",
    "optional_rules",
    "tables",
    "hired_swords_forbidden",
    "table_size",
    "game_length",
)


def _username(user) -> str | None:
    return user.get_username() if user is not None else None


def _campaign(campaign: Campaign) -> dict[str, Any]:
    return {
        "id": campaign.pk,
        "slug": campaign.slug,
        "name": campaign.name,
        "description": campaign.description,
        "state": campaign.state,
        "archived": campaign.archived,
        "public": campaign.public,
        "created_by": _username(campaign.created_by),
        "created_at": campaign.created_at,
        "house_rules": {
            **{name: getattr(campaign, name) for name in HOUSE_RULES},
            "allowed_warband_types": sorted(t.slug for t in campaign.allowed_warband_types.all()),
        },
        # The content pack version it plays (None: the default catalogue), and the campaign
        # tables in force: the version's, each replaced by the campaign's own ``tables`` entry
        # (the tables not named are the rules engine's defaults).
        "pack_version": _pack_version(campaign),
        "tables_in_force": campaign_tables(campaign),
    }


def _pack_version(campaign: Campaign) -> dict[str, Any] | None:
    """Its pack and number (read without the version's whole document)."""
    if campaign.pack_version_id is None:
        return None
    pack, number = (
        PackVersion.objects.filter(pk=campaign.pack_version_id)
        .values_list("pack__slug", "number")
        .get()
    )
    return {"pack": pack, "number": number}


def _warbands(warbands: dict[int, Any]) -> list[dict[str, Any]]:
    fighters = Fighter.objects.filter(warband_id__in=warbands).select_related("fighter_type")
    groups = HenchmanGroup.objects.filter(warband_id__in=warbands).select_related("fighter_type")
    members: dict[int, dict[str, list]] = {pk: {"fighters": [], "groups": []} for pk in warbands}
    for fighter in fighters.order_by("pk"):
        members[fighter.warband_id]["fighters"].append(
            {
                "id": fighter.pk,
                "name": fighter.name,
                "type": fighter.fighter_type.slug,
                "group": fighter.group_id,
                "hero": fighter.is_hero,
                "leader": fighter.is_leader,
                "hired_sword": fighter.hired_sword_id is not None,
                "status": fighter.status,
            }
        )
    for group in groups.order_by("pk"):
        members[group.warband_id]["groups"].append(
            {"id": group.pk, "name": group.name, "type": group.fighter_type.slug}
        )
    return [
        {
            "id": warband.pk,
            "name": warband.name,
            "type": warband.warband_type.slug,
            "player": _username(warband.owner),
            "rating": warband.rating,
            **members[warband.pk],
        }
        for warband in warbands.values()
    ]


def _battles() -> Prefetch:
    return Prefetch(
        "battles",
        queryset=Battle.objects.select_related(
            "round", "reported_by", "confirmed_by", "disputed_by", "log_setup"
        )
        .prefetch_related(
            Prefetch(
                "participants",
                queryset=BattleParticipant.objects.prefetch_related("fighters").order_by("pk"),
            ),
            "events",
            Prefetch("corrections", queryset=BattleCorrection.objects.select_related("by")),
            "lineups",
            Prefetch("log_entries", queryset=BattleLogEntry.objects.select_related("author")),
            Prefetch(
                "postbattle_runs",
                queryset=PostBattleRun.objects.prefetch_related(
                    Prefetch(
                        "results", queryset=PostBattleResult.objects.prefetch_related("decisions")
                    )
                ),
            ),
        )
        .order_by("pk"),
    )


def _report(battle: Battle) -> dict[str, Any]:
    return {
        "reported_by": _username(battle.reported_by),
        "reported_at": battle.reported_at,
        "confirmed_by": _username(battle.confirmed_by),
        "confirmed_at": battle.confirmed_at,
        "disputed_by": _username(battle.disputed_by),
        "dispute_reason": battle.dispute_reason,
        "participants": [
            {
                "warband": p.warband_id,
                "result": p.result,
                "routed": p.routed,
                "voluntary_rout": p.voluntary_rout,
                "rating_at_battle": p.rating_at_battle,
                "fighters": sorted(f.pk for f in p.fighters.all()),
            }
            for p in battle.participants.all()
        ],
        "events": [
            {
                "turn": e.turn,
                "kind": e.kind,
                "actor_warband": e.actor_warband_id,
                "actor": e.actor_id,
                "target_warband": e.target_warband_id,
                "target": e.target_id,
                "weapon": e.weapon,
                "voluntary": e.voluntary,
                "notes": e.notes,
            }
            for e in battle.events.all()
        ],
        "corrections": [
            {
                "by": _username(c.by),
                "at": c.created_at,
                "reason": c.reason,
                "before": c.before,
                "after": c.after,
            }
            for c in battle.corrections.all()
        ],
    }


def _log(battle: Battle) -> dict[str, Any]:
    setup = getattr(battle, "log_setup", None)
    return {
        "setup": None if setup is None else {"scenario": setup.scenario, "data": setup.data},
        "lineups": [
            {"warband": lineup.warband_id, "fighters": lineup.fighters}
            for lineup in battle.lineups.all()
        ],
        "entries": [
            {
                "seq": entry.seq,
                "kind": entry.kind,
                "payload": entry.payload,
                "dice": entry.dice,
                "author": _username(entry.author),
                "created": entry.created,
                "client_id": entry.client_id,
            }
            for entry in battle.log_entries.all()
        ],
    }


def _postbattle(battle: Battle) -> list[dict[str, Any]]:
    return [
        {
            "status": run.status,
            "seed": run.seed,
            "faces": run.faces,
            "faces_typed_by_player": run.faces_typed_by_player,
            "options": run.options,
            "applied_at": run.applied_at,
            "reverted_at": run.reverted_at,
            "results": [
                {
                    "warband": result.warband_id,
                    "steps": result.steps,
                    "dice": result.rolls,
                    "experience_gained": result.experience_gained,
                    "finds_found": result.finds_found,
                    "gold_gained": result.gold_gained,
                    "decisions": [
                        {
                            "kind": d.kind,
                            "warband": d.warband_id,
                            "fighter": d.fighter_id,
                            "group": d.group_id,
                            "options": d.options,
                            "choice": d.choice,
                            "status": d.status,
                        }
                        for d in result.decisions.all()
                    ],
                }
                for result in run.results.all()
            ],
        }
        for run in battle.postbattle_runs.all()
    ]


def _battle(battle: Battle) -> dict[str, Any]:
    return {
        "id": battle.pk,
        "round": battle.round.number if battle.round else None,
        "scenario": battle.scenario,
        "status": battle.status,
        "bye": battle.is_bye,
        "draw": battle.is_draw,
        "notes": battle.notes,
        **_report(battle),
        "log": _log(battle),
        "postbattle": _postbattle(battle),
    }


def campaign_export(*, campaign_id: int) -> dict[str, Any]:
    """The whole campaign; the caller has checked that the reader organises it."""
    campaign = (
        Campaign.objects.select_related("created_by")
        .prefetch_related(
            "allowed_warband_types",
            "rounds",
            _battles(),
            Prefetch(
                "memberships",
                queryset=Membership.objects.select_related(
                    "user", "warband__owner", "warband__warband_type"
                ),
            ),
        )
        .get(pk=campaign_id)
    )
    memberships = list(campaign.memberships.all())
    warbands = {m.warband_id: m.warband for m in memberships if m.warband_id}
    battles = list(campaign.battles.all())
    for battle in battles:
        for participant in battle.participants.all():
            warbands.setdefault(participant.warband_id, None)
    missing = [pk for pk, warband in warbands.items() if warband is None]
    if missing:  # a participant who is no longer a member
        rows = Warband.objects.filter(pk__in=missing).select_related("owner", "warband_type")
        warbands.update({warband.pk: warband for warband in rows})
    return {
        "format": FORMAT,
        "format_version": FORMAT_VERSION,
        "exported_at": timezone.now(),
        "site": settings.SITE_URL,
        "campaign": _campaign(campaign),
        "members": [
            {
                "player": _username(m.user),
                "role": m.role,
                "warband": m.warband_id,
                "active": m.active,
                "joined_at": m.joined_at,
            }
            for m in memberships
        ],
        "warbands": _warbands(warbands),
        "rounds": [
            {
                "number": r.number,
                "status": r.status,
                "pairing_method": r.pairing_method,
                "opened_at": r.opened_at,
                "closed_at": r.closed_at,
                "starts_on": r.starts_on,
                "closes_at": r.closes_at,
            }
            for r in campaign.rounds.all()
        ],
        "battles": [_battle(battle) for battle in battles],
        "standings": [
            {key: value for key, value in asdict(row).items() if key != "opponents"}
            for row in standings_compute(campaign=campaign)
        ],
    }
