"""The rendered sheet is cached per warband version: a repeat costs little, a change shows."""

import re

import pytest
from django.core.cache import cache
from django.middleware.csrf import _unmask_cipher_token
from django.test import Client
from django.urls import reverse

from tests.warbands.fixtures import build_roster, equipment, fighter_type
from tests.warbands.test_pages import browser_client, sheet_url  # noqa: F401 - fixture
from warbands import services
from warbands.presentation import experience_grid

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
    page = browser_client.get(sheet_url(warband)).content.decode()
    assert '<span class="item-name">Sword ' in page  # his new item, in the reader's English


def test_the_sheet_follows_the_language(browser_client, warband):  # noqa: F811
    english = browser_client.get(sheet_url(warband)).content.decode()
    browser_client.cookies["annuminas_language"] = "es"
    spanish = browser_client.get(sheet_url(warband)).content.decode()
    assert "Treasury" in english and "Tesoro" in spanish


def _token_in(page: str) -> str:
    return re.search(r'name="csrfmiddlewaretoken" value="([^"]+)"', page).group(1)


def test_a_new_visitor_is_served_from_the_cache_with_his_own_token(
    client, user, warband, assert_max_queries
):
    build_roster(warband, henchmen=3)
    services.warband_update(warband=warband, expected_version=None, shared=True)
    tokens = []
    for visitor in ("a" * 32, "b" * 32):
        client.force_login(user)
        client.cookies["csrftoken"] = visitor
        if tokens:  # the second visitor, with another CSRF secret, finds the page rendered
            with assert_max_queries(4):
                page = client.get(sheet_url(warband)).content.decode()
        else:
            page = client.get(sheet_url(warband)).content.decode()
        assert "annuminas-sheet-" not in page  # no stand-in is left
        assert f"http://testserver/share/{warband.share_token}/" in page
        token = _token_in(page)
        assert _unmask_cipher_token(token) == visitor
        assert page.count(token) == page.count("csrfmiddlewaretoken") + 1  # + the htmx header
        tokens.append(token)


def test_a_posted_form_of_the_cached_page_passes_the_csrf_check(user, warband):
    client = Client(enforce_csrf_checks=True)
    client.force_login(user)
    client.get(sheet_url(warband))
    page = client.get(sheet_url(warband)).content.decode()
    response = client.post(
        reverse("warband-edit", args=[warband.pk]),
        {
            "name": "Los Lobos Grises",
            "notes": "",
            "version": warband.version,
            "csrfmiddlewaretoken": _token_in(page),
        },
    )
    assert response.status_code == 302
    assert "Los Lobos Grises" in client.get(sheet_url(warband)).content.decode()


def test_the_sheet_rendered_ahead_makes_the_first_view_warm(
    browser_client,  # noqa: F811
    warband,
    assert_max_queries,
    django_capture_on_commit_callbacks,
    sheet_warm_on_write,
):
    build_roster(warband, henchmen=3)
    with django_capture_on_commit_callbacks(execute=True):  # the write commits: the task runs
        services.fighter_hire(
            warband=warband, fighter_type=fighter_type("campeon-mercenario"), name="Hathol"
        )
    with assert_max_queries(4):  # session, user, the warband's version: the body is ready
        page = browser_client.get(sheet_url(warband)).content.decode()
    assert "Hathol" in page
    api = reverse("api-warband-sheet", args=[warband.pk])
    with assert_max_queries(4):
        assert "Hathol" in browser_client.get(api).content.decode()


def test_the_experience_grid_marks_filled_boxes_and_thresholds():
    grid = experience_grid(3, (2, 4), 5)
    assert grid.html == (
        '<span class="xp filled" title="1"></span>'
        '<span class="xp filled threshold" title="2"></span>'
        '<span class="xp filled" title="3"></span>'
        '<span class="xp threshold" title="4"></span>'
        '<span class="xp" title="5"></span>'
    )
    assert grid.print_html.count('class="filled"') == 2
    assert experience_grid(3, (2, 4), 5) is grid  # built once per process
