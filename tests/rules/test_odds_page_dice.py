"""Odds page: a seed or the dice typed at the table, weapons by name, no
impossible "wounded 0/1" row, and a picked defender brings his armour and parry."""

import pytest

from tests.rules.test_odds_page import FORM
from tests.warbands.fixtures import *  # noqa: F403 - the warband fixtures
from tests.warbands.fixtures import equipment, fighter_type
from warbands import services

pytestmark = pytest.mark.django_db


def roll(client, **extra):
    return client.post("/rules/odds/", {**FORM, "roll": "1", **extra}).content.decode()


def test_typed_dice_are_used_in_order(client):
    html = roll(client, faces="5 3")
    assert 'data-testid="faces-used">5 3<' in html
    assert 'data-testid="seed"' not in html
    # HA 3 against HA 3 hits on 4+: the 5 hits; F3 against R3 wounds on 4+: the 3 fails.
    assert 'data-code="melee.to_hit"' in html and "5" in html
    assert 'data-testid="roll-outcome">' in html


def test_the_same_seed_rolls_the_same_dice(client):
    first, second = roll(client, seed="77"), roll(client, seed="77")
    steps = lambda html: html[html.index("<ol>") : html.index("</ol>")]  # noqa: E731
    assert steps(first) == steps(second)


@pytest.mark.parametrize(
    "extra",
    [{"faces": "5 9"}, {"faces": "cinco"}, {"faces": "5 3", "seed": "4"}, {"faces": "5"}],
)
def test_bad_dice_are_explained_and_nothing_rolled(client, extra):
    html = roll(client, **extra)
    assert 'data-testid="odds-errors"' in html
    assert 'data-testid="roll-result"' not in html


def test_weapons_are_named_not_slugged(client):
    html = client.post("/rules/odds/", FORM).content.decode()
    assert "arma-de-mano" not in html.replace('value="arma-de-mano"', "")
    assert "Arma de mano" in html or "Hand weapon" in html


def test_an_impossible_outcome_is_not_listed_as_zero(client):
    html = client.post("/rules/odds/", FORM).content.decode()  # one wound: never "wounded"
    assert 'data-outcome="wounded"' not in html and ">0/1<" not in html
    html = client.post("/rules/odds/", {**FORM, "d_w": "2"}).content.decode()
    assert 'data-outcome="wounded"' in html


def test_a_picked_defender_brings_his_armour_and_parry(client, warband):
    services.ledger_record(warband=warband, amount=500, reason="adjustment", description="x")
    captain = services.fighter_hire(
        warband=warband, fighter_type=fighter_type("capitan-mercenario"), name="Bardo"
    )
    for slug in ("armadura-ligera", "escudo", "espada", "yelmo"):
        services.equipment_buy(warband=warband, equipment=equipment(slug), fighter=captain)
    fencer = services.fighter_hire(
        warband=warband, fighter_type=fighter_type("campeon-mercenario"), name="Brand"
    )
    for slug in ("espada", "escudo-pequeno"):
        services.equipment_buy(warband=warband, equipment=equipment(slug), fighter=fencer)
    group = services.fighter_hire(
        warband=warband, fighter_type=fighter_type("guerrero-mercenario"), name="Lanzas", count=2
    )
    services.equipment_buy(warband=warband, equipment=equipment("escudo"), group=group)
    client.force_login(warband.owner)
    html = client.get("/rules/odds/").content.decode()
    option = html[html.index(f'value="{captain.pk}"') :].split(">")[0]
    assert 'data-parry="single"' in option and 'data-helmet="1"' in option
    light = equipment("armadura-ligera").rules["save"]
    assert f'data-armour_save="{light - 1}"' in option  # armour, one better with the shield
    option = html[html.index(f'value="{fencer.pk}"') :].split(">")[0]
    assert 'data-parry="reroll"' in option and 'data-armour_save=""' in option
    member = group.members.first()
    option = html[html.index(f'value="{member.pk}"') :].split(">")[0]
    assert 'data-armour_save="6"' in option and 'data-parry="none"' in option
