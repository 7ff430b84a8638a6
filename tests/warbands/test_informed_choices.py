"""The hire, buy and create pages say what a choice brings, costs and allows."""

import pytest
from django.urls import reverse

from tests.warbands.fixtures import equipment, fighter_type
from warbands import services
from warbands.models import WarbandType

pytestmark = pytest.mark.django_db


@pytest.fixture
def browser_client(client, user, content):
    client.force_login(user)
    return client


def test_hire_shows_profiles_costs_limits_and_rules_and_no_second_leader(
    browser_client, make_warband
):
    warband = make_warband(type_slug="orcos-de-angmar", leader=True)
    services.fighter_hire(warband=warband, fighter_type=fighter_type("orco-grande"), name="Uglúk")
    page = browser_client.get(reverse("warband-hire", args=[warband.pk])).content.decode()
    leader = fighter_type("cabecilla-orco")
    assert f'value="{leader.pk}"' not in page  # the select offers no second leader
    assert "cannot be hired again" in page
    assert "1 of 2 left" in page  # orco grande: one hired of two
    assert "Fear" in page and "Stupidity" in page  # the troll's rules in words, in English
    assert "Miedo" not in page and "Estupidez" not in page
    assert "large-target" not in page.replace('data-slug="large-target"', "")
    assert 'data-testid="profile"' in page and "200 co" in page


def test_hire_offers_the_leader_while_there_is_none(browser_client, make_warband):
    warband = make_warband(type_slug="orcos-de-angmar")
    page = browser_client.get(reverse("warband-hire", args=[warband.pk])).content.decode()
    assert f'value="{fighter_type("cabecilla-orco").pk}"' in page


def test_buy_says_the_first_dagger_is_free_then_charges_it(browser_client, make_warband):
    warband = make_warband(leader=True)
    leader = warband.fighters.get(is_leader=True)
    url = reverse("warband-buy", args=[warband.pk]) + f"?fighter={leader.pk}"
    page = browser_client.get(url).content.decode()
    assert "Dagger — 0 co (the first one is free)" in page
    assert "the first one is free (then 2 co)" in page
    assert "Parry." in page and "Parada." not in page  # the sword's rule in words
    services.equipment_buy(warband=warband, equipment=equipment("daga"), fighter=leader)
    page = browser_client.get(url).content.decode()
    assert "Dagger — 2 co" in page and "(the first one is free)" not in page
    assert "then 2 co" not in page


def test_buy_says_why_the_troll_can_buy_nothing(browser_client, make_warband):
    warband = make_warband(type_slug="orcos-de-angmar", leader=True)
    services.ledger_record(warband=warband, amount=500, reason="adjustment", description="x")
    troll = services.fighter_hire(
        warband=warband, fighter_type=fighter_type("troll-de-las-cavernas"), name="Bert"
    )
    url = reverse("warband-buy", args=[warband.pk]) + f"?group={troll.pk}"
    page = browser_client.get(url).content.decode()
    assert 'data-testid="buy-none"' in page
    assert "Cave Troll cannot carry equipment" in page
    assert 'data-testid="confirm-buy"' not in page


def test_create_describes_each_type(browser_client, content):
    page = browser_client.get(reverse("warband-create")).content.decode()
    for warband_type in WarbandType.objects.filter(playable=True):
        assert warband_type.name in page  # the book's names stay
        assert warband_type.display_description in page
        assert warband_type.description not in page
    elves = WarbandType.objects.get(slug="elfos-de-rivendel")
    assert (
        f"Starts with {elves.starting_treasury} co · {elves.min_size} to {elves.max_size} "
        f"warriors · at most {elves.max_heroes} heroes" in page
    )
