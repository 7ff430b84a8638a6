"""The demo league of ``make run`` (``bootstrap_demo`` → ``battles.demo.league``): a newcomer
logs in as the demo player and finds a running league with a round played and a battle of his
own to play."""

import pytest
from django.contrib.auth import get_user_model
from django.core import mail
from django.core.management import call_command

from battles.demo.league import DEMO_LEAGUE_NAME
from battles.models import Battle, Campaign, PendingDecision
from warbands.demo import DEMO_WARBAND_NAME

pytestmark = pytest.mark.django_db


def test_the_demo_league_is_built_once_with_a_round_played_and_one_to_play(client):
    call_command("bootstrap_demo", verbosity=0)
    league = Campaign.objects.get(name=DEMO_LEAGUE_NAME)
    demo = get_user_model().objects.get(username="demo")
    assert league.state == Campaign.State.RUNNING and league.public
    assert league.memberships.filter(user=demo, role="organiser").exists()
    warbands = set(league.memberships.exclude(warband=None).values_list("warband__name", flat=True))
    assert len(warbands) == 4 and DEMO_WARBAND_NAME in warbands
    first, second = league.rounds.order_by("number")
    played = list(first.battles.filter(is_bye=False))
    assert len(played) == 2
    assert all(battle.status == Battle.Status.RESOLVED for battle in played)
    mine = second.battles.get(participants__warband__name=DEMO_WARBAND_NAME)
    assert mine.status == Battle.Status.SCHEDULED
    # The rivals cannot log in and get no mail; nothing of the league's past was mailed.
    rivals = (
        get_user_model()
        .objects.filter(campaign_memberships__campaign=league)
        .distinct()
        .exclude(pk=demo.pk)
    )
    assert rivals.count() == 3
    assert not any(rival.has_usable_password() or rival.email for rival in rivals)
    assert mail.outbox == []

    counts = (Campaign.objects.count(), Battle.objects.count(), PendingDecision.objects.count())
    call_command("bootstrap_demo", verbosity=0)
    again = (Campaign.objects.count(), Battle.objects.count(), PendingDecision.objects.count())
    assert again == counts

    client.force_login(demo)
    standings = client.get(f"/campaigns/{league.slug}/standings/")
    assert standings.status_code == 200
    for name in warbands:
        assert name in standings.content.decode()
    assert client.get(f"/battles/{mine.pk}/").status_code == 200
