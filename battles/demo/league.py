"""The demo league of ``make run``: the demo player's warband in a running campaign he organises,
against three rival warbands, one round played (reported, confirmed, post-battle applied) and the
second round paired, so a newcomer sees standings, a played battle with its post-battle sequence
and a battle of his own ready for the live log. Built through the services; idempotent."""

from __future__ import annotations

from django.contrib.auth import get_user_model
from django.db import transaction

from battles.campaigns import services
from battles.demo.seeding import play_round, seed_warband
from battles.models import Campaign, Round
from warbands.models import Warband

DEMO_LEAGUE_NAME = "Liga del Baranduin"
DEMO_LEAGUE_DESCRIPTION = (
    "Liga de demostración: la primera ronda ya se jugó; en la segunda te espera una batalla."
)
RIVALS = (  # (username, warband type, warband name)
    ("rival-angmar", "orcos-de-angmar", "Colmillos de Angmar"),
    ("rival-rhovanion", "mercenarios-de-rhovanion", "Espadas de Rhovanion"),
    ("rival-imladris", "elfos-de-rivendel", "Guardia de Imladris"),
)


@transaction.atomic
def demo_league_ensure(*, user, warband: Warband) -> Campaign:
    """The demo league organised by ``user`` with ``warband`` in it, built once (running it
    again returns it and changes nothing). The rivals cannot log in (unusable passwords) and have
    no e-mail address (the league's notifications to them stay in the app)."""
    existing = Campaign.objects.filter(memberships__user=user, name=DEMO_LEAGUE_NAME).first()
    if existing is not None:
        return existing
    players = [(user, warband)]
    for username, type_slug, name in RIVALS:
        rival, created = get_user_model().objects.get_or_create(username=username)
        if created:
            rival.set_unusable_password()
            rival.save(update_fields=["password"])
        players.append((rival, seed_warband(rival, type_slug, name)))
    league = services.campaign_create(
        organiser=user, name=DEMO_LEAGUE_NAME, public=True, description=DEMO_LEAGUE_DESCRIPTION
    )
    services.campaign_transition(campaign=league, by=user, state=Campaign.State.OPEN)
    for player, player_warband in players:
        services.campaign_join(
            campaign=league, user=player, warband=player_warband, join_code=league.join_code
        )
    services.campaign_transition(campaign=league, by=user, state=Campaign.State.RUNNING)
    first = play_round(league, user, Round.Method.SWISS, iter(range(1, 1_000)))
    services.round_close(round=first, by=user)
    second = services.round_open(campaign=league, by=user)
    services.pairings_generate(round=second, by=user, method=Round.Method.SWISS)
    return league
