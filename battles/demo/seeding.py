"""Legal campaign data built through the services, as players and organisers could have made
it: the demo league of ``make run`` (``battles.demo.league``) and the schema fuzzer's seed
(``seed_fuzz``). Warbands with heroes, henchmen and the cheapest items of their lists; a battle
reported and confirmed; its post-battle sequence applied in this process (no worker needed)."""

from __future__ import annotations

import contextlib

from django.contrib.auth import get_user_model
from django.core.exceptions import ValidationError

from battles.campaigns.services import pairings_generate, round_open
from battles.models import Battle, Campaign, Round
from battles.postbattle import battle_resolve_start, postbattle_run_apply
from battles.reports import services
from warbands import services as warband_services
from warbands.models import Equipment, Warband, WarbandType


def seed_user(username: str):
    user, _created = get_user_model().objects.get_or_create(
        username=username, defaults={"email": f"{username}@example.com"}
    )
    return user


def _affordable_items(fighter_type) -> list[Equipment]:
    if fighter_type.equipment_list_id is None:
        return []
    return [
        entry.equipment
        for entry in fighter_type.equipment_list.entries.select_related("equipment").order_by(
            "equipment__cost", "pk"
        )
    ][:2]


def seed_warband(owner, type_slug: str, name: str) -> Warband:
    """Every hero type it may hire (jóvenes advance soon: choices to make) and a henchman group
    of three, each with the cheapest items of their list while the treasury lasts."""
    warband_type = WarbandType.objects.get(slug=type_slug)
    warband = warband_services.warband_create(owner=owner, warband_type=warband_type, name=name)
    types = list(warband_type.fighter_types.order_by("-role", "cost", "pk"))
    hired = []
    for fighter_type in types:
        count = 3 if fighter_type.role == "henchman" else 1
        if fighter_type.role == "henchman" and any(t.role == "henchman" for t, _h in hired):
            continue
        try:
            holder = warband_services.fighter_hire(
                warband=warband, fighter_type=fighter_type, name=fighter_type.name, count=count
            )
        except ValidationError:
            continue  # over a limit or too dear: the roster stays legal without it
        hired.append((fighter_type, holder))
    for fighter_type, holder in hired:
        where = {"group": holder} if fighter_type.role == "henchman" else {"fighter": holder}
        for item in _affordable_items(fighter_type):
            with contextlib.suppress(ValidationError):  # too dear now: the roster stays legal
                warband_services.equipment_buy(warband=warband, equipment=item, **where)
    warband.refresh_from_db()
    return warband


def seed_report(battle: Battle, winner_id: int) -> services.Report:
    participants = list(battle.participants.select_related("warband"))
    return services.Report(
        scenario="Escaramuza",
        winner_ids=[winner_id],
        participants=[
            services.ParticipantReport(
                warband_id=p.warband_id,
                fighter_ids=list(p.warband.fighters.values_list("pk", flat=True)),
            )
            for p in participants
        ],
    )


def battle_owners(battle: Battle) -> list:
    return [p.warband.owner for p in battle.participants.select_related("warband__owner")]


def report_and_confirm(battle: Battle) -> Battle:
    """The first participant reports a win; his opponent confirms it."""
    reporter, opponent = battle_owners(battle)[:2]
    winner = battle.participants.order_by("pk").first().warband_id
    report = seed_report(battle, winner)
    battle = services.battle_report(battle=battle, reporter=reporter, report=report)
    return services.battle_confirm(battle=battle, by=opponent)


def resolve_here(battle: Battle, seed: int) -> None:
    """Start the post-battle sequence and apply it here (there may be no worker: the fuzz server,
    ``make run``; a run already applied by a task is not applied twice). The seeding picks the
    seeds (reproducible data), not a user: the organiser plays, and whoever plays may not choose
    his battle's seed."""
    job = battle_resolve_start(battle=battle, user=None, seed=seed)
    for run_id in job.runs.values_list("pk", flat=True):
        postbattle_run_apply(run_id=run_id)


def play_round(league: Campaign, organiser, method: str, seeds) -> Round:
    """Open a round, pair it, report, confirm and resolve every battle, close it."""
    round = round_open(campaign=league, by=organiser)
    pairings_generate(round=round, by=organiser, method=method)
    for battle in round.battles.filter(is_bye=False).order_by("pk"):
        report_and_confirm(battle)
        resolve_here(battle, next(seeds))
    return round
