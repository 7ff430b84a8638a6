"""Seed legal data for schema fuzzing (.ci/fuzz) and print the API token of the main user.

Everything is built through the services, so the data is what players and organisers could have
made: warbands with heroes, henchmen and equipment; a running campaign with four players; a
resolved round (post-battle sequences applied, choices left open) and a second round with a
reported, a disputed and a scheduled battle; a draft campaign; a campaign of someone else.
The main user (``--username``, created first so its objects get the low ids a fuzzer tries
first) organises the league and plays in it. Running it again changes nothing and prints the
same token.
"""

from __future__ import annotations

import contextlib

from django.contrib.auth import get_user_model
from django.core.exceptions import ValidationError
from django.core.management import call_command
from django.core.management.base import BaseCommand
from django.db import transaction
from rest_framework.authtoken.models import Token

from battles import services
from battles.models import Battle, Campaign, PendingDecision, Round
from battles.postbattle import battle_resolve_start, battle_revert, postbattle_run_apply
from warbands import services as warband_services
from warbands.models import Equipment, Warband, WarbandType

PLAYERS = (
    ("guerreros-de-arthedain", "Compañía de Fornost"),
    ("orcos-de-angmar", "Colmillos de Angmar"),
    ("mercenarios-de-rhovanion", "Espadas de Rhovanion"),
    ("elfos-de-rivendel", "Guardia de Imladris"),
)
MAX_REPLAYS = 40  # post-battle seeds tried, at most, until a choice is left open


def _user(username: str):
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


def _warband(owner, type_slug: str, name: str) -> Warband:
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


def _report(battle: Battle, winner_id: int) -> services.Report:
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


def _owners(battle: Battle) -> list:
    return [p.warband.owner for p in battle.participants.select_related("warband__owner")]


def _report_and_confirm(battle: Battle) -> Battle:
    """The first participant reports a win; his opponent confirms it."""
    reporter, opponent = _owners(battle)[:2]
    winner = battle.participants.order_by("pk").first().warband_id
    report = _report(battle, winner)
    battle = services.battle_report(battle=battle, reporter=reporter, report=report)
    return services.battle_confirm(battle=battle, by=opponent)


def _resolve(battle: Battle, seed: int) -> None:
    """Start the post-battle sequence and apply it here (the fuzz server may have no worker).
    The command picks the seeds (reproducible data), not a user: the main organiser plays, and
    whoever plays may not choose his battle's seed."""
    job = battle_resolve_start(battle=battle, user=None, seed=seed)
    for run_id in job.runs.values_list("pk", flat=True):
        postbattle_run_apply(run_id=run_id)


def _play_round(league: Campaign, organiser, method: str, seeds) -> Round:
    """Open a round, pair it, report, confirm and resolve every battle, close it."""
    round = services.round_open(campaign=league, by=organiser)
    services.pairings_generate(round=round, by=organiser, method=method)
    for battle in round.battles.filter(is_bye=False).order_by("pk"):
        _report_and_confirm(battle)
        _resolve(battle, next(seeds))
    return round


def _leave_a_choice_open(round: Round, organiser, seeds) -> None:
    """Replay the round's last battle with other seeds until its sequence leaves a choice."""
    battle = round.battles.filter(is_bye=False).order_by("pk").last()
    for _attempt in range(MAX_REPLAYS):
        if PendingDecision.objects.filter(status=PendingDecision.Status.OPEN).exists():
            return
        battle_revert(battle=battle, user=organiser)
        _resolve(battle, next(seeds))


@transaction.atomic
def seed_fuzz_data(*, username: str) -> Token:
    main = _user(username)
    token, _created = Token.objects.get_or_create(user=main)
    if Campaign.objects.filter(memberships__user=main).exists():
        return token
    users = [main] + [_user(f"{username}-player{n}") for n in range(1, len(PLAYERS))]
    warbands = [
        _warband(user, type_slug, name)
        for user, (type_slug, name) in zip(users, PLAYERS, strict=True)
    ]
    _warband(main, "enanos-buscadores-de-tesoros", "Barbas de Hierro")  # in no campaign

    league = services.campaign_create(
        organiser=main, name="Liga de Annúminas", public=True, description="Liga de prueba"
    )
    services.campaign_transition(campaign=league, by=main, state=Campaign.State.OPEN)
    for user, warband in zip(users, warbands, strict=True):
        services.campaign_join(
            campaign=league, user=user, warband=warband, join_code=league.join_code
        )
    services.campaign_add_organiser(campaign=league, by=main, username=users[1].username)
    services.campaign_transition(campaign=league, by=main, state=Campaign.State.RUNNING)

    seeds = iter(range(1, 10_000))
    first = _play_round(league, main, Round.Method.SWISS, seeds)
    services.round_close(round=first, by=main)
    second = _play_round(league, main, Round.Method.RATING, seeds)
    _leave_a_choice_open(second, main, seeds)
    services.round_close(round=second, by=main)

    third = services.round_open(campaign=league, by=main)
    services.pairings_generate(round=third, by=main, method=Round.Method.SWISS)
    reported, disputed = third.battles.filter(is_bye=False).order_by("pk")[:2]
    for battle in (reported, disputed):
        reporter = _owners(battle)[0]
        winner = battle.participants.order_by("pk").first().warband_id
        services.battle_report(battle=battle, reporter=reporter, report=_report(battle, winner))
    services.battle_dispute(battle=disputed, by=_owners(disputed)[1], reason="No fue así.")
    services.pairing_create(
        campaign=league, by=main, round=None, warband_ids=[warbands[0].pk, warbands[3].pk]
    )

    services.campaign_create(organiser=main, name="Liga en preparación")
    stranger = _user(f"{username}-stranger")
    elsewhere = services.campaign_create(organiser=stranger, name="Liga de Bree")
    services.campaign_transition(campaign=elsewhere, by=stranger, state=Campaign.State.OPEN)
    return token


class Command(BaseCommand):
    help = "Seed legal campaign data for schema fuzzing and print the main user's API token."

    def add_arguments(self, parser):
        parser.add_argument("--username", default="fuzz", help="The main user (token printed).")

    def handle(self, *args, username: str, **options):
        call_command("load_content", verbosity=0)
        token = seed_fuzz_data(username=username)
        self.stdout.write(token.key)
