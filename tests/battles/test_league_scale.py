"""A league of many warbands: drawing a round's pairings costs the same number of statements
whatever the number of players, and the standings and campaign pages read a fixed number of
rows per page, not the whole history."""

from __future__ import annotations

import re

import pytest
from django.db import connection
from django.test.utils import CaptureQueriesContext
from django.urls import reverse

from battles.campaigns import selectors, services, standings_views
from battles.campaigns.scoring import standings_compute
from battles.models import Battle, BattleParticipant, Round
from battles.reports import services as reports
from tests.battles.factories import *  # noqa: F403 - the campaign fixtures
from tests.battles.factories import simple_report
from tests.battles.test_pages import client_for

pytestmark = pytest.mark.django_db


@pytest.mark.parametrize("method", [Round.Method.SWISS, Round.Method.RATING])
def test_drawing_pairings_costs_the_same_statements_for_7_and_31_players(make_league, method):
    small = make_league(players=7, name="Liga pequeña")
    big = make_league(players=23, name="Liga grande")
    counts = {}
    for league in (small, big):
        round = services.round_open(campaign=league.campaign, by=league.organiser)
        with CaptureQueriesContext(connection) as captured:
            battles = services.pairings_generate(round=round, by=league.organiser, method=method)
        counts[len(league.players)] = captured
        assert len(battles) == len(league.players) // 2 + 1  # and one bye
        assert BattleParticipant.objects.filter(battle__round=round).count() == len(league.players)
        assert Battle.history.filter(round_id=round.pk).count() == len(battles)
    few, many = (len(counts[n]) for n in (7, 23))
    assert few == many, "\n".join(q["sql"][:160] for q in counts[23].captured_queries)
    assert many <= 25, many


@pytest.fixture
def played(make_league):
    """Five warbands, round 1 drawn and confirmed (a bye), round 2 open and drawn."""
    league = make_league(players=5)
    organiser = league.organiser
    first = services.round_open(campaign=league.campaign, by=organiser)
    services.pairings_generate(round=first, by=organiser, method=Round.Method.SWISS)
    for battle in first.battles.filter(is_bye=False):
        winner = battle.participants.first().warband
        battle = reports.battle_report(
            battle=battle, reporter=organiser, report=simple_report(battle, winner)
        )
        reports.battle_confirm(battle=battle, by=organiser)
    services.round_close(round=first, by=organiser)
    second = services.round_open(campaign=league.campaign, by=organiser)
    services.pairings_generate(round=second, by=organiser, method=Round.Method.SWISS)
    return league


def _fighter_reads(captured) -> list[str]:
    return [q["sql"] for q in captured.captured_queries if "battleparticipant_fighters" in q["sql"]]


def test_the_standings_come_a_page_at_a_time_with_charts_of_that_page(played, monkeypatch):
    monkeypatch.setattr(standings_views, "STANDINGS_PER_PAGE", 2)
    monkeypatch.setattr(standings_views, "CHART_LINES", 1)
    league = played
    rows = standings_compute(campaign=league.campaign)
    last = rows[-1].competitor_id  # the reader: the last of the five, on page 3
    reader = next(user for user, warband in league.players if warband.pk == last)
    player = client_for(reader)
    url = reverse("campaign-standings", args=[league.campaign.slug])
    with CaptureQueriesContext(connection) as captured:
        first = player.get(url).content.decode()
    assert not _fighter_reads(captured)
    assert first.count('data-testid="standings-row"') == 2
    assert 'data-testid="standings-pages"' in first and "?page=2#standings-title" in first
    legend = first[first.index('data-testid="rating-chart"') :]
    drawn = re.findall(r'data-warband="([^"]*)"', legend[: legend.index("</figure>")])
    assert drawn == [rows[0].name, rows[-1].name]  # the page's first, and the reader's own
    assert re.findall(r">R(\d+)</text>", legend[: legend.index("</svg>")]) == ["1", "2"]
    assert f"?page=3#w{last}" in first  # where the reader's warband stands
    third = player.get(url + "?page=3").content.decode()
    assert third.count('data-testid="standings-row"') == 1
    assert f'id="w{last}" class="mine"' in third
    assert player.get(url + "?page=99").status_code == 200  # past the end: the last page


def test_the_campaign_page_lists_members_and_battles_a_page_at_a_time(played, monkeypatch):
    monkeypatch.setattr(selectors, "MEMBERS_PER_PAGE", 2)
    monkeypatch.setattr(selectors, "BATTLES_PER_PAGE", 1)
    league = played
    organiser = client_for(league.organiser)
    url = league.campaign.get_absolute_url()
    with CaptureQueriesContext(connection) as captured:
        page = organiser.get(url).content.decode()
    assert not _fighter_reads(captured)
    assert page.count('data-testid="battle-row"') == 1  # round 2's first battle
    assert 'data-testid="show-round-1"' in page  # round 1 folded
    assert 'data-testid="members-pages"' in page and "?members=2#members" in page
    assert 'name="op" value="edit_pairing"' not in page  # the pairing's form comes on demand
    battle = league.campaign.rounds.get(number=2).battles.order_by("id").first()
    editing = organiser.get(f"{url}?edit={battle.pk}").content.decode()
    assert 'name="op" value="edit_pairing"' in editing
    assert editing.count("<option") >= len(league.players)
    old = organiser.get(f"{url}?round=1&page=2").content.decode()
    assert old.count('data-testid="battle-row"') == 1 and 'data-testid="show-round-2"' in old
    assert 'data-testid="all-paired"' in page  # every warband has its battle in round 2


def test_a_button_on_a_page_of_battles_comes_back_to_it(played):
    league = played
    battle = league.campaign.rounds.get(number=2).battles.filter(is_bye=False).first()
    response = client_for(league.organiser).post(
        reverse("campaign-manage", args=[league.campaign.slug]),
        {"op": "delete_pairing", "battle": battle.pk, "round": 2, "page": 3, "confirmed": "1"},
    )
    assert response.url == f"{league.campaign.get_absolute_url()}?round=2&page=3#round-2"


def test_the_standings_api_pages_as_every_list_in_rank_order(played):
    """Five warbands, two rows a page: the pages' rows in turn are the standings in rank order,
    the links absolute; the CSV still holds every row."""
    league = played
    ranked = [row.competitor_id for row in standings_compute(campaign=league.campaign)]
    player = client_for(league.organiser)
    url = f"/api/v1/campaigns/{league.campaign.slug}/standings/"
    page = player.get(url + "?page_size=2").json()
    assert set(page) == {"count", "next", "previous", "results", "round", "scoring"}
    assert page["count"] == 5 and page["previous"] is None
    pages = [page]
    while page["next"]:
        assert page["next"].startswith("http://testserver/") and "page_size=2" in page["next"]
        page = player.get(page["next"]).json()
        assert page["previous"].startswith("http://testserver/")
        pages.append(page)
    assert [len(p["results"]) for p in pages] == [2, 2, 1]
    assert [row["warband"] for p in pages for row in p["results"]] == ranked
    assert [row["rank"] for p in pages for row in p["results"]] == sorted(
        row["rank"] for p in pages for row in p["results"]
    )
    assert len(player.get(url).json()["results"]) == 5  # 50 a page by default
    csv = player.get(url + "?format=csv&page_size=2").content.decode()
    assert len(csv.strip().splitlines()) == 1 + 5


def test_a_redraw_replaces_the_pairings_in_the_same_statements_for_8_and_64_warbands(make_league):
    """Drawing a round again deletes its untouched battles in bulk: the statements do not grow
    with the warbands, and every deleted battle and seat still leaves its history row."""
    counts = {}
    for players in (8, 64):
        league = make_league(players=players, name=f"Liga de {players}")
        round = services.round_open(campaign=league.campaign, by=league.organiser)
        drawn = services.pairings_generate(
            round=round, by=league.organiser, method=Round.Method.SWISS
        )
        old = {battle.pk for battle in drawn}
        seats = set(BattleParticipant.objects.filter(battle__in=old).values_list("pk", flat=True))
        with CaptureQueriesContext(connection) as captured:
            again = services.pairings_generate(
                round=round, by=league.organiser, method=Round.Method.RATING
            )
        counts[players] = captured
        assert len(again) == players // 2
        assert not Battle.objects.filter(pk__in=old).exists()
        assert set(round.battles.values_list("pk", flat=True)) == {b.pk for b in again}
        assert BattleParticipant.objects.filter(battle__round=round).count() == players
        gone = Battle.history.filter(id__in=old, history_type="-")
        assert gone.count() == len(old)
        assert set(gone.values_list("history_user", flat=True)) == {league.organiser.pk}
        assert BattleParticipant.history.filter(id__in=seats, history_type="-").count() == players
    few, many = (len(counts[n]) for n in (8, 64))
    assert few == many, "\n".join(q["sql"][:160] for q in counts[64].captured_queries)
    assert many <= 40, many
