"""Every main page at 390×844 and at 1280×800, in Spanish and in English: axe-core reports no
serious or critical violation, no sideways scroll, no console error, no table wider than its box
on a phone (tables reflow), and the visible text holds no English UI word on a Spanish page and no
Spanish one on an English page. The player's pages and the organiser's (the campaign page with
the round's controls, the post-battle page with its revert) are visited. Screenshots go to
``test-results/a11y/`` (``.ci/run`` keeps them as CI artefacts)."""

import pytest
from django.contrib.auth import get_user_model
from django.db import transaction
from playwright.sync_api import expect

from battles.campaigns import services
from battles.models import Campaign, PendingDecision, PostBattleRun, Round
from battles.postbattle import battle_resolve_start
from battles.reports import services as reports
from tests.battles.factories import build_league, new_warband, simple_report
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
from warbands.models import (
    Equipment,
    Fighter,
    FighterType,
    Skill,
    SkillList,
    SpecialRule,
    Warband,
    WarbandType,
)

pytestmark = [pytest.mark.e2e, pytest.mark.django_db(transaction=True)]

User = get_user_model()
VIEWPORTS = {"390": {"width": 390, "height": 844}, "1280": {"width": 1280, "height": 800}}
SHOTS = ROOT / "test-results" / "a11y"
LEAGUE = "Liga de los Túmulos de Tyrn Gorthad"
WARBAND = "Compañía de los Montaraces del Norte"


def game_terms() -> list[str]:
    """The content pack's own words (Spanish in both languages): names and descriptions."""
    terms: list[str] = []
    for model, fields in (
        (Equipment, ("name", "description")),
        (WarbandType, ("name", "description")),
        (FighterType, ("name",)),
        (SpecialRule, ("name", "description")),
        (Skill, ("name",)),
        (SkillList, ("name",)),
    ):
        for values in model.objects.values_list(*fields):
            terms += [value for value in values if value]
    return terms


@pytest.fixture
def player(make_user):
    """A player with a warband in a running campaign: round 1's battle reported, confirmed and
    resolved (a rare item and a skill to decide), round 2 open with a battle to report."""
    content_pack_load()
    league = build_league(make_user, players=1, name=LEAGUE, state="open")
    user = make_user("malbeth")
    warband = new_warband(user, WARBAND, henchmen=3)
    campaign = league.campaign
    organiser = league.organiser
    services.campaign_join(
        campaign=campaign, user=user, warband=warband, join_code=campaign.join_code
    )
    services.campaign_transition(campaign=campaign, by=organiser, state=Campaign.State.RUNNING)
    first = services.round_open(campaign=campaign, by=organiser)
    services.pairings_generate(round=first, by=organiser, method=Round.Method.SWISS)
    played = first.battles.get(is_bye=False)
    reports.battle_report(battle=played, reporter=user, report=simple_report(played, warband))
    reports.battle_confirm(battle=played, by=league.user(0))
    with transaction.atomic():
        battle_resolve_start(battle=played, user=organiser)
    run = PostBattleRun.objects.get(battle=played)
    assert run.status == "applied", run.error
    result = run.results.get(warband=warband)
    leader = Fighter.objects.get(warband=warband, is_leader=True)
    bow = Equipment.objects.get(slug="arco-largo")
    PendingDecision.objects.bulk_create(
        [
            PendingDecision(
                result=result,
                warband=warband,
                fighter=leader,
                kind=PendingDecision.Kind.RARE_ITEM,
                options=[bow.slug],
                payload={"prices": {bow.slug: 25}},
            ),
            PendingDecision(
                result=result,
                warband=warband,
                fighter=leader,
                kind=PendingDecision.Kind.SKILL,
                options=list(Skill.objects.order_by("slug").values_list("slug", flat=True)[:3]),
            ),
        ]
    )
    services.round_close(round=first, by=organiser)
    second = services.round_open(campaign=campaign, by=organiser)
    next_battle = services.pairing_create(
        campaign=campaign,
        by=organiser,
        round=second,
        warband_ids=[warband.pk, league.warband(0).pk],
    )
    user.warband = warband
    user.campaign = campaign
    user.organiser = organiser
    user.played = played
    user.next_battle = next_battle
    user.names = [
        *Campaign.objects.values_list("name", flat=True),
        *Warband.objects.values_list("name", flat=True),
        *Fighter.objects.values_list("name", flat=True),
        *User.objects.values_list("username", flat=True),
        *game_terms(),
    ]
    return user


def open_hire_dialog(page):
    page.get_by_test_id("open-hire").click()
    expect(page.get_by_test_id("hire-dialog")).to_be_visible()
    page.wait_for_load_state("networkidle")


def open_buy_dialog(page):
    page.locator("[data-testid=hero-card]").first.get_by_test_id("open-buy").click()
    expect(page.get_by_test_id("buy-dialog")).to_be_visible()
    page.wait_for_load_state("networkidle")


def main_pages(user):
    """(name, path, action after load) for every page the audit visits as the player."""
    sheet = f"/warbands/{user.warband.pk}/"
    campaign = f"/campaigns/{user.campaign.slug}/"
    return [
        ("home", "/", None),
        ("warbands", "/warbands/", None),
        ("create-warband", "/warbands/new/", None),
        ("sheet", sheet, None),
        ("hire", sheet, open_hire_dialog),
        ("buy", sheet, open_buy_dialog),
        ("ledger", f"{sheet}ledger/", None),
        ("print", f"{sheet}print/", None),
        ("campaigns", "/campaigns/", None),
        ("campaign", campaign, None),
        ("standings", f"{campaign}standings/", None),
        ("battle", f"/battles/{user.played.pk}/", None),
        ("battle-report", f"/battles/{user.next_battle.pk}/report/", None),
        ("postbattle", f"/battles/{user.played.pk}/postbattle/", None),
        ("odds", "/rules/odds/", None),
        ("profile", "/accounts/profile/", None),
        ("notifications", "/notifications/", None),
    ]


def organiser_pages(user):
    """The organiser's pages: the campaign with the open round's controls, the post-battle page
    with its revert."""
    return [
        ("organiser-campaign", f"/campaigns/{user.campaign.slug}/", None),
        ("organiser-postbattle", f"/battles/{user.played.pk}/postbattle/", None),
    ]


# Tables wider than the box they sit in: on a phone every table reflows instead of scrolling.
WIDE_TABLES = """() => [...document.querySelectorAll('main table')]
  .filter(t => t.offsetParent)
  .map(t => [t.dataset.testid || t.className || 'table', t.scrollWidth,
             t.parentElement.clientWidth])
  .filter(([, width, box]) => width > box + 1)"""


def audit(page, live_server, pages, *, width: str, language: str, allowed: list[str]):
    """Visit each page; the problems found, one line each (screenshots in SHOTS)."""
    words = ENGLISH_WORDS if language == "es" else SPANISH_WORDS
    page.set_viewport_size(VIEWPORTS[width])
    page.context.add_cookies(
        [{"name": "annuminas_language", "value": language, "url": live_server.url}]
    )
    SHOTS.mkdir(parents=True, exist_ok=True)
    problems: list[str] = []
    for name, path, action in pages:
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
        if width == "390":
            problems += [
                f"{where}: table {name_} is {w}px wide in a {box}px box"
                for name_, w, box in page.evaluate(WIDE_TABLES)
            ]
        problems += [f"{where}: console error {e}" for e in page.console_errors[seen_errors:]]
        text = page.locator("body").inner_text()
        problems += [f"{where}: wrong language {w}" for w in leaked_words(text, words, allowed)]
    # The page fixture fails on console errors too; they are reported here with the page.
    page.console_errors.clear()
    return problems


@pytest.mark.parametrize("language", ["es", "en"])
@pytest.mark.parametrize("width", list(VIEWPORTS))
def test_main_pages_are_accessible_fit_and_speak_one_language(
    page, login, live_server, player, width, language
):
    axe_source()  # skip (or fail in CI) before any work when axe-core is missing
    login(player)
    problems = audit(
        page,
        live_server,
        main_pages(player),
        width=width,
        language=language,
        allowed=ALLOWED + player.names,
    )
    assert not problems, "\n".join(["", *problems])


@pytest.mark.parametrize("language", ["es", "en"])
@pytest.mark.parametrize("width", list(VIEWPORTS))
def test_organiser_pages_are_accessible_fit_and_speak_one_language(
    page, login, live_server, player, width, language
):
    axe_source()
    login(player.organiser)
    problems = audit(
        page,
        live_server,
        organiser_pages(player),
        width=width,
        language=language,
        allowed=ALLOWED + player.names,
    )
    assert not problems, "\n".join(["", *problems])
