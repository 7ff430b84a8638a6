"""``manage.py seed_fuzz``: the legal data schema fuzzing runs over (.ci/fuzz)."""

from io import StringIO

import pytest
from django.core.management import call_command
from rest_framework.authtoken.models import Token

from battles.models import Battle, Campaign, Membership, PendingDecision, PostBattleRun
from warbands.models import Warband

pytestmark = pytest.mark.django_db


def seed() -> str:
    out = StringIO()
    call_command("seed_fuzz", "--username", "fuzzer", stdout=out)
    return out.getvalue().strip().splitlines()[-1]


def test_seed_prints_the_token_of_an_organiser_who_plays_and_is_idempotent(league_content):
    key = seed()

    user = Token.objects.get(key=key).user
    assert user.username == "fuzzer"
    league = Campaign.objects.get(name="Liga de Annúminas")
    assert league.memberships.filter(user=user, role=Membership.Role.ORGANISER).exists()
    assert league.memberships.filter(user=user, warband__isnull=False).exists()
    statuses = set(league.battles.values_list("status", flat=True))
    assert {Battle.Status.RESOLVED, Battle.Status.REPORTED, Battle.Status.DISPUTED} <= statuses
    assert Battle.Status.SCHEDULED in statuses
    assert PostBattleRun.objects.filter(status=PostBattleRun.Status.APPLIED).count() == 4
    assert PendingDecision.objects.filter(status=PendingDecision.Status.OPEN).exists()
    assert all(w.fighters.exists() for w in Warband.objects.filter(owner=user))

    warbands = Warband.objects.count()
    assert seed() == key
    assert Warband.objects.count() == warbands
