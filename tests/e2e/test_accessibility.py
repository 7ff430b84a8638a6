"""Every main page at 390×844 and at 1280×800, in Spanish and in English: axe-core reports no
serious or critical violation, no sideways scroll, no console error, and the visible text holds no
English UI word on a Spanish page and no Spanish one on an English page. Screenshots go to
``test-results/a11y/`` (kept as CI artefacts)."""

import pytest
from django.contrib.auth import get_user_model
from playwright.sync_api import expect

from battles.models import Campaign, Round
from battles.services import campaign_join, campaign_transition, pairings_generate, round_open
from tests.battles.factories import build_league, new_warband
from tests.conftest import ROOT
from tests.e2e.a11y import (
    ALLOWED,
    ENGLISH_WORDS,
    SPANISH_WORDS,
    axe_source,
    axe_violations,
    leaked_words,
    sideways_scroll,
)
from warbands.content_loader import content_pack_load
from warbands.models import Fighter, Warband

pytestmark = [pytest.mark.e2e, pytest.mark.django_db(transaction=True)]

User = get_user_model()
VIEWPORTS = {"390": {"width": 390, "height": 844}, "1280": {"width": 1280, "height": 800}}
SHOTS = ROOT / "test-results" / "a11y"
LEAGUE = "Liga de los Túmulos de Tyrn Gorthad"
WARBAND = "Compañía de los Montaraces del Norte"


@pytest.fixture
def player(make_user):
    """A player with a warband in a running campaign, paired in round 1."""
    content_pack_load()
    league = build_league(make_user, players=1, name=LEAGUE, state="open")
    user = make_user("malbeth")
    warband = new_warband(user, WARBAND, henchmen=3)
    campaign = league.campaign
    campaign_join(campaign=campaign, user=user, warband=warband, join_code=campaign.join_code)
    campaign_transition(campaign=campaign, by=league.organiser, state=Campaign.State.RUNNING)
    round = round_open(campaign=campaign, by=league.organiser)
    pairings_generate(round=round, by=league.organiser, method=Round.Method.SWISS)
    user.warband = warband
    user.campaign = campaign
    user.names = [
        *Campaign.objects.values_list("name", flat=True),
        *Warband.objects.values_list("name", flat=True),
        *Fighter.objects.values_list("name", flat=True),
        *User.objects.values_list("username", flat=True),
    ]
    return user


def open_hire_dialog(page):
    page.get_by_test_id("open-hire").click()
    expect(page.get_by_test_id("hire-dialog")).to_be_visible()
    page.wait_for_load_state("networkidle")


def main_pages(user):
    """(name, path, action after load) for every page the audit visits."""
    sheet = f"/warbands/{user.warband.pk}/"
    campaign = f"/campaigns/{user.campaign.slug}/"
    return [
        ("home", "/", None),
        ("warbands", "/warbands/", None),
        ("sheet", sheet, None),
        ("hire", sheet, open_hire_dialog),
        ("print", f"/warbands/{user.warband.pk}/print/", None),
        ("campaigns", "/campaigns/", None),
        ("campaign", campaign, None),
        ("standings", f"{campaign}standings/", None),
        ("odds", "/rules/odds/", None),
        ("profile", "/accounts/profile/", None),
        ("notifications", "/notifications/", None),
    ]


@pytest.mark.parametrize("language", ["es", "en"])
@pytest.mark.parametrize("width", list(VIEWPORTS))
def test_main_pages_are_accessible_fit_and_speak_one_language(
    page, login, live_server, player, width, language
):
    axe_source()  # skip (or fail in CI) before any work when axe-core is missing
    login(player)
    page.set_viewport_size(VIEWPORTS[width])
    page.context.add_cookies(
        [{"name": "annuminas_language", "value": language, "url": live_server.url}]
    )
    words = ENGLISH_WORDS if language == "es" else SPANISH_WORDS
    allowed = ALLOWED + player.names
    SHOTS.mkdir(parents=True, exist_ok=True)
    problems: list[str] = []
    for name, path, action in main_pages(player):
        seen_errors = len(page.console_errors)
        response = page.goto(path)
        assert response is not None and response.ok, f"{path}: {response and response.status}"
        page.wait_for_load_state("networkidle")
        if action:
            action(page)
        assert page.locator("html").get_attribute("lang") == language, path
        page.screenshot(path=str(SHOTS / f"{name}-{width}-{language}.png"), full_page=True)
        where = f"{name} ({path}, {width}px, {language})"
        problems += [f"{where}: axe {v}" for v in axe_violations(page)]
        if scroll := sideways_scroll(page):
            problems.append(f"{where}: {scroll}")
        problems += [f"{where}: console error {e}" for e in page.console_errors[seen_errors:]]
        text = page.locator("body").inner_text()
        problems += [f"{where}: wrong language {w}" for w in leaked_words(text, words, allowed)]
    # The page fixture fails on console errors too; they are reported here with the page.
    page.console_errors.clear()
    assert not problems, "\n".join(["", *problems])
