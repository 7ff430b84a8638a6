"""The rendered sheet is cached per warband version: a repeat costs little, a change shows."""

import pytest
from django.core.cache import cache

from tests.warbands.fixtures import build_roster, equipment, fighter_type
from tests.warbands.test_pages import browser_client, sheet_url  # noqa: F401 - fixture
from warbands import services

pytestmark = [pytest.mark.django_db, pytest.mark.usefixtures("english")]


@pytest.fixture(autouse=True)
def _empty_cache():
    cache.clear()
    yield
    cache.clear()


def test_a_repeated_visit_reads_only_the_warband_row(browser_client, warband, assert_max_queries):  # noqa: F811
    build_roster(warband, henchmen=3)
    browser_client.get(sheet_url(warband))
    with assert_max_queries(4):  # session, user, the warband's version — nothing else
        response = browser_client.get(sheet_url(warband))
    assert response.status_code == 200
    assert response.content.decode().count('data-testid="hero-card"') == 3


def test_every_roster_change_shows_at_once(browser_client, warband):  # noqa: F811
    browser_client.get(sheet_url(warband))
    services.fighter_hire(
        warband=warband, fighter_type=fighter_type("campeon-mercenario"), name="Hathol"
    )
    page = browser_client.get(sheet_url(warband)).content.decode()
    assert "Hathol" in page
    hero = warband.fighters.get(name="Hathol")
    services.equipment_buy(warband=warband, equipment=equipment("espada"), fighter=hero)
    assert "Espada" in browser_client.get(sheet_url(warband)).content.decode()


def test_the_sheet_follows_the_language(browser_client, warband):  # noqa: F811
    english = browser_client.get(sheet_url(warband)).content.decode()
    browser_client.cookies["annuminas_language"] = "es"
    spanish = browser_client.get(sheet_url(warband)).content.decode()
    assert "Treasury" in english and "Tesoro" in spanish
