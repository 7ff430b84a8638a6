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

from django.core.management import call_command
from django.core.management.base import BaseCommand
from django.db import transaction
from rest_framework.authtoken.models import Token

from battles.campaigns import services
from battles.common import access
from battles.demo.seeding import (
    battle_owners,
    play_round,
    resolve_here,
    seed_report,
    seed_user,
    seed_warband,
)
from battles.models import Campaign, PendingDecision, Round
from battles.postbattle import battle_revert
from battles.reports import services as reports

PLAYERS = (
    ("guerreros-de-arthedain", "Compañía de Fornost"),
    ("orcos-de-angmar", "Colmillos de Angmar"),
    ("mercenarios-de-rhovanion", "Espadas de Rhovanion"),
    ("elfos-de-rivendel", "Guardia de Imladris"),
)
MAX_REPLAYS = 40  # post-battle seeds tried, at most, until a choice is left open


def _leave_a_choice_open(round: Round, organisers, seeds) -> None:
    """Replay one of the round's battles with other seeds until its sequence leaves a choice.

    The battle is the last one an organiser does not play in (only he may revert it)."""
    battle, organiser = next(
        (battle, organiser)
        for battle in round.battles.filter(is_bye=False).order_by("-pk")
        for organiser in organisers
        if access.can_revert(organiser, battle)
    )
    for _attempt in range(MAX_REPLAYS):
        if PendingDecision.objects.filter(status=PendingDecision.Status.OPEN).exists():
            return
        battle_revert(battle=battle, user=organiser)
        resolve_here(battle, next(seeds))


@transaction.atomic
def seed_fuzz_data(*, username: str) -> Token:
    main = seed_user(username)
    token, _created = Token.objects.get_or_create(user=main)
    if Campaign.objects.filter(memberships__user=main).exists():
        return token
    users = [main] + [seed_user(f"{username}-player{n}") for n in range(1, len(PLAYERS))]
    warbands = [
        seed_warband(user, type_slug, name)
        for user, (type_slug, name) in zip(users, PLAYERS, strict=True)
    ]
    seed_warband(main, "enanos-buscadores-de-tesoros", "Barbas de Hierro")  # in no campaign

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
    first = play_round(league, main, Round.Method.SWISS, seeds)
    services.round_close(round=first, by=main)
    second = play_round(league, main, Round.Method.RATING, seeds)
    _leave_a_choice_open(second, (main, users[1]), seeds)
    services.round_close(round=second, by=main)

    third = services.round_open(campaign=league, by=main)
    services.pairings_generate(round=third, by=main, method=Round.Method.SWISS)
    reported, disputed = third.battles.filter(is_bye=False).order_by("pk")[:2]
    for battle in (reported, disputed):
        reporter = battle_owners(battle)[0]
        winner = battle.participants.order_by("pk").first().warband_id
        reports.battle_report(battle=battle, reporter=reporter, report=seed_report(battle, winner))
    reports.battle_dispute(battle=disputed, by=battle_owners(disputed)[1], reason="No fue así.")
    services.pairing_create(
        campaign=league, by=main, round=None, warband_ids=[warbands[0].pk, warbands[3].pk]
    )

    services.campaign_create(organiser=main, name="Liga en preparación")
    stranger = seed_user(f"{username}-stranger")
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
