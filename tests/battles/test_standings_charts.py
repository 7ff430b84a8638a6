"""The standings page's charts follow the campaign's own scoring: the lines and
their legend come in the standings' order, and the points chart plots each warband's points
after each round as the campaign counts them."""

from __future__ import annotations

import re

import pytest
from django.urls import reverse

from battles.campaigns.scoring import standings_with_points
from battles.campaigns.services import campaign_update
from battles.models import BattleEvent
from battles.reports import services
from tests.battles.factories import first_battle, simple_report

pytestmark = pytest.mark.django_db


@pytest.fixture
def round_one(league):
    """Round 1: warband 0 beats warband 1, but warband 1 puts three of its men out of action."""
    a, b = league.warband(0), league.warband(1)
    battle = first_battle(league)
    events = [
        services.EventReport(
            turn=1,
            kind=BattleEvent.Kind.OUT_OF_ACTION,
            actor_warband_id=b.pk,
            target_warband_id=a.pk,
        )
        for _ in range(3)
    ]
    battle = services.battle_report(
        battle=battle, reporter=league.user(0), report=simple_report(battle, a, events=events)
    )
    services.battle_confirm(battle=battle, by=league.user(1))
    return league


def _legends(page: str, testid: str) -> list[str]:
    figure = page[page.index(f'data-testid="{testid}"') :]
    figure = figure[: figure.index("</figure>")]
    return re.findall(r'data-warband="([^"]*)"', figure)


def test_the_charts_follow_the_campaigns_scoring(client, round_one):
    league = round_one
    a, b = league.warband(0).name, league.warband(1).name
    url = reverse("campaign-standings", args=[league.campaign.slug])
    client.force_login(league.organiser)

    page = client.get(url).content.decode()
    assert _legends(page, "points-chart") == [a, b]  # 3 points for the win, 0 for the loss
    assert _legends(page, "rating-chart") == [a, b]
    ids = [league.warband(0).pk, league.warband(1).pk]
    _rows, rounds, points_of = standings_with_points(campaign=league.campaign)
    assert (rounds, points_of(ids)) == ([1], {ids[0]: [3], ids[1]: [0]})

    campaign_update(
        campaign=league.campaign, by=league.organiser, changes={"points_per_out_of_action": 2}
    )
    league.refresh()
    page = client.get(url).content.decode()
    assert _legends(page, "points-chart") == [b, a]  # 3 enemies out of action: 6 points
    assert _legends(page, "rating-chart") == [b, a]
    assert standings_with_points(campaign=league.campaign)[2](ids) == {ids[0]: [3], ids[1]: [6]}
    assert 'aria-labelledby="points-chart-title"' in page
    assert 'aria-labelledby="rating-chart-title"' in page


def test_no_points_chart_before_a_round_has_counted(client, league):
    client.force_login(league.organiser)
    page = client.get(reverse("campaign-standings", args=[league.campaign.slug])).content
    assert b'data-testid="points-chart"' not in page
    assert b'data-testid="rating-chart"' in page
