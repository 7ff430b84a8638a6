"""Campaign pages on a phone: the battle report's events are labelled blocks,
every field has a label, and the tables that reflow say on each cell which column it is (the
CSS shows ``data-label`` beside the value below 48rem; the standings below 62rem)."""

import pytest
from django.urls import reverse

from battles.reports import services
from tests.battles.factories import first_battle, simple_report
from tests.battles.test_pages import client_for
from tests.markup import mislabelled_cells, reflow_tables, unlabelled_fields

pytestmark = pytest.mark.django_db


@pytest.fixture
def played(league):
    battle = first_battle(league)
    services.battle_report(
        battle=battle, reporter=league.user(0), report=simple_report(battle, league.warband(0))
    )
    services.battle_confirm(battle=battle, by=league.user(1))
    return league, battle


def test_every_field_of_the_battle_report_has_a_label(league):
    battle = first_battle(league)
    html = client_for(league.user(0)).get(reverse("battle-report", args=[battle.pk])).content
    html = html.decode()
    assert unlabelled_fields(html) == []
    assert html.count('data-testid="event-row"') == 6
    # Each event is a block of its own (a fieldset with a legend), not a row of a table.
    assert '<fieldset class="event-row"' in html and "events-table" not in html
    assert "Event 1</legend>" in html and "With (weapon)" in html


def test_the_organisers_campaign_page_labels_its_controls(played):
    league, _battle = played
    html = client_for(league.organiser).get(league.campaign.get_absolute_url()).content.decode()
    assert unlabelled_fields(html) == []
    assert 'for="id_username"' in html and 'for="id_method"' in html


@pytest.mark.parametrize(
    "page",
    ["campaign-list", "campaign-detail", "campaign-standings", "battle-detail"],
)
def test_tables_that_reflow_label_every_cell_with_its_column(played, page):
    league, battle = played
    args = [] if page == "campaign-list" else [league.campaign.slug]
    if page == "battle-detail":
        args = [battle.pk]
    html = client_for(league.organiser).get(reverse(page, args=args)).content.decode()
    tables = reflow_tables(html)
    assert tables, page
    for table in tables:
        assert table.rows, (page, table.testid)
        assert mislabelled_cells(table) == [], (page, table.testid)


def test_the_standings_reflow_as_cards_and_keep_their_columns(played):
    league, _battle = played
    html = (
        client_for(league.organiser)
        .get(reverse("campaign-standings", args=[league.campaign.slug]))
        .content.decode()
    )
    (table,) = reflow_tables(html)
    assert "reflow-grid" in table.classes and table.testid == "standings-table"
    assert table.headers[:4] == ["#", "Warband", "Player", "Points"]
    assert "Played" in table.headers and "Lost" in table.headers


def test_battle_links_and_round_tabs_are_finger_sized(played):
    league, _battle = played
    html = client_for(league.organiser).get(league.campaign.get_absolute_url()).content.decode()
    assert 'class="cell-link" data-testid="battle-link"' in html
    standings = client_for(league.organiser).get(
        reverse("campaign-standings", args=[league.campaign.slug])
    )
    assert 'class="round-nav"' in standings.content.decode()
