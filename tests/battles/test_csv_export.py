"""Every CSV export neutralises spreadsheet formulas (OWASP "CSV injection")."""

import csv
import io

import pytest
from django.db import connection
from django.test.utils import CaptureQueriesContext
from django.urls import reverse
from rest_framework.test import APIClient

from battles.campaigns.exports import _cell
from tests.battles.factories import *  # noqa: F403 - league fixtures
from warbands.models import Warband

pytestmark = pytest.mark.django_db

HOSTILE_NAMES = [
    '=HYPERLINK("http://evil.example","x")',
    "+1+cmd|' /C calc'!A0",
    "-2+3",
    "@SUM(1+1)*cmd|' /C calc'!A0",
    "\t=1+1",
    "\r=1+1",
]


def _rows(text: str) -> list[list[str]]:
    return list(csv.reader(io.StringIO(text)))


@pytest.fixture
def hostile_league(league):
    """Both warbands and one player's username start with formula characters."""
    Warband.objects.filter(pk=league.warband(0).pk).update(name=HOSTILE_NAMES[0])
    Warband.objects.filter(pk=league.warband(1).pk).update(name=HOSTILE_NAMES[3])
    player = league.user(1)
    player.username = "-cmd"
    player.save(update_fields=["username"])
    return league


def _assert_neutralised(text: str) -> None:
    rows = _rows(text)
    body = {cell for row in rows[1:] for cell in row}
    assert "'" + HOSTILE_NAMES[0] in body
    assert "'" + HOSTILE_NAMES[3] in body
    assert "'-cmd" in body
    for row in rows:
        for cell in row:
            # Numbers (rank, points, rating) stay numbers; only text is quoted.
            if cell.lstrip("-").isdigit():
                continue
            assert not cell.startswith(("=", "+", "-", "@", "\t", "\r")), cell


def test_standings_page_export_neutralises_formulas(hostile_league):
    client = APIClient()
    client.force_login(hostile_league.user(0))
    response = client.get(reverse("campaign-standings-csv", args=[hostile_league.campaign.slug]))
    assert response.status_code == 200
    _assert_neutralised(response.content.decode())


def test_standings_api_csv_neutralises_formulas(hostile_league):
    client = APIClient()
    client.force_authenticate(hostile_league.user(0))
    response = client.get(f"/api/v1/campaigns/{hostile_league.campaign.slug}/standings/?format=csv")
    assert response.status_code == 200
    assert response["Content-Type"].startswith("text/csv")
    _assert_neutralised(response.content.decode())


@pytest.mark.parametrize("text", HOSTILE_NAMES)
def test_text_starting_with_a_formula_character_gets_an_apostrophe(text):
    assert _cell(text) == "'" + text


@pytest.mark.parametrize("value", [-3, 0, 12, "Banda 1", "", "a=b", None])
def test_numbers_and_plain_text_are_unchanged(value):
    assert _cell(value) == value


def test_unknown_campaign_csv_is_a_json_404(league):
    """An error on the CSV route is the error shape as application/json, as the schema declares
    (schema fuzzing found a 404 served as text/csv)."""
    client = APIClient()
    client.force_authenticate(league.user(0))
    response = client.get("/api/v1/campaigns/no-such-campaign/standings/?round=137339&format=csv")
    assert response.status_code == 404
    assert response["Content-Type"].startswith("application/json")
    assert set(response.json()["error"]) == {"code", "message", "fields"}


def _queries(client, path: str) -> int:
    with CaptureQueriesContext(connection) as captured:
        response = client.get(path)
    assert response.status_code == 200, path
    return len(captured)


@pytest.mark.parametrize(
    "path",
    [
        "/campaigns/{slug}/standings/",
        "/campaigns/{slug}/standings.csv",
        "/api/v1/campaigns/{slug}/standings/?format=csv",
    ],
)
def test_the_standings_and_their_players_cost_the_same_queries_for_two_or_six(make_league, path):
    """The players' names come with the campaign's memberships (``players_by_warband``): more
    players, not more queries."""
    counts = []
    for players, name in ((2, "Liga pequena"), (6, "Liga grande")):
        league = make_league(players=players, name=name, prefix=f"q{players}-")
        client = APIClient()
        client.force_login(league.user(0))
        url = path.format(slug=league.campaign.slug)
        _queries(client, url)  # the session and the catalogue caches are warm for the count
        counts.append(_queries(client, url))
    assert counts[0] == counts[1], counts
