"""Campaign pages: permission matrix, what each page shows, query budgets."""

from __future__ import annotations

import pytest
from django.conf import settings
from django.test import Client
from django.urls import reverse

from battles.campaigns import services
from battles.models import Battle, Campaign
from battles.reports import services as reports
from tests.battles.factories import (
    build_league,
    build_world,
    new_warband,
    quick_user,
    simple_report,
)

pytestmark = pytest.mark.django_db

ROLES = ("anonymous", "stranger", "participant", "opponent", "organiser", "other_organiser")


@pytest.fixture(scope="module")
def _world(module_transaction):
    with module_transaction:
        return build_world()


@pytest.fixture
def world(_world, fresh):
    return fresh(_world)


def _name(w, role: str) -> str:
    return w["users"][role].username


def client_for(user) -> Client:
    client = Client()
    client.cookies[settings.LANGUAGE_COOKIE_NAME] = "en"
    if user is not None:
        client.force_login(user)
    return client


def _slug(w):
    return w["league"].campaign.slug


HIDDEN = {"anonymous": 302, "stranger": 404, "other_organiser": 404}
PAGES = [
    ("detail", lambda w: reverse("campaign-detail", args=[_slug(w)]), HIDDEN),
    ("standings", lambda w: reverse("campaign-standings", args=[_slug(w)]), HIDDEN),
    ("standings csv", lambda w: reverse("campaign-standings-csv", args=[_slug(w)]), HIDDEN),
    ("battle", lambda w: reverse("battle-detail", args=[w["battle"].pk]), HIDDEN),
    ("report form", lambda w: reverse("battle-report", args=[w["battle"].pk]), HIDDEN),
    ("edit", lambda w: reverse("campaign-edit", args=[_slug(w)]),
     {**HIDDEN, "participant": 403, "opponent": 403}),
    ("list", lambda w: reverse("campaign-list"), {}),
    ("create", lambda w: reverse("campaign-create"), {"anonymous": 302}),
    ("join", lambda w: reverse("campaign-join"), {"anonymous": 302}),
]  # fmt: skip


@pytest.mark.parametrize("role", ROLES)
@pytest.mark.parametrize("page", PAGES, ids=[p[0] for p in PAGES])
def test_page_matrix(world, role, page):
    _name, url, expected = page
    response = client_for(world["users"][role]).get(url(world))
    assert response.status_code == expected.get(role, 200)
    if response.status_code == 302:
        assert response["Location"].startswith(reverse("account_login"))


def _manage(world, **data):
    return reverse("campaign-manage", args=[_slug(world)]), data


def _reported(world):
    reports.battle_report(
        battle=world["battle"],
        reporter=world["users"]["participant"],
        report=simple_report(world["battle"], world["league"].warband(0)),
    )


ORGANISER_ONLY = {**HIDDEN, "participant": 403, "opponent": 403, "organiser": 302}
WRITES = [
    ("generate", lambda w: _manage(w, op="generate", round=1, method="rating"), None,
     ORGANISER_ONLY),
    ("transition", lambda w: _manage(w, op="transition", state="finished", confirmed="1"), None,
     ORGANISER_ONLY),
    ("co-organiser", lambda w: _manage(w, op="add_organiser", username=_name(w, "stranger")), None,
     ORGANISER_ONLY),
    ("report", lambda w: (reverse("battle-report", args=[w["battle"].pk]),
                          {"winners": [w["league"].warband(0).pk], "events-TOTAL_FORMS": 0,
                           "events-INITIAL_FORMS": 0}),
     None, {**HIDDEN, "participant": 302, "opponent": 302, "organiser": 302}),
    ("confirm", lambda w: (reverse("battle-detail", args=[w["battle"].pk]), {"op": "confirm"}),
     _reported, {**HIDDEN, "participant": 403, "opponent": 302, "organiser": 302}),
    ("dispute", lambda w: (reverse("battle-detail", args=[w["battle"].pk]),
                           {"op": "dispute", "reason": "No"}),
     _reported, {**HIDDEN, "participant": 403, "opponent": 302, "organiser": 403}),
    ("settle", lambda w: (reverse("battle-detail", args=[w["battle"].pk]),
                          {"op": "settle", "reason": "Visto"}),
     _reported, ORGANISER_ONLY),
]  # fmt: skip


@pytest.mark.parametrize("role", ROLES)
@pytest.mark.parametrize("write", WRITES, ids=[w[0] for w in WRITES])
def test_page_write_matrix(world, role, write):
    _name, request, setup, expected = write
    if setup:
        setup(world)
    before = Battle.objects.filter(pk=world["battle"].pk).values().first()
    url, data = request(world)
    response = client_for(world["users"][role]).post(url, data)
    assert response.status_code == expected.get(role, 200)
    if response.status_code != 302 or role == "anonymous":
        assert Battle.objects.filter(pk=world["battle"].pk).values().first() == before


def test_page_flow_report_confirm_standings(world):
    battle, league = world["battle"], world["league"]
    a, b = league.warband(0), league.warband(1)
    participant = client_for(world["users"]["participant"])
    page = participant.get(reverse("battle-report", args=[battle.pk]))
    assert page.status_code == 200
    leader_a, leader_b = a.fighters.get(), b.fighters.get()
    response = participant.post(
        reverse("battle-report", args=[battle.pk]),
        {
            "scenario": "Escaramuza",
            "winners": [a.pk],
            f"w{a.pk}_fighters": [leader_a.pk],
            f"w{b.pk}_fighters": [leader_b.pk],
            f"w{b.pk}_voluntary": "on",
            "events-TOTAL_FORMS": 2,
            "events-INITIAL_FORMS": 0,
            "events-0-turn": 2,
            "events-0-kind": "out_of_action",
            "events-0-actor": f"f{leader_a.pk}",
            "events-0-target": f"f{leader_b.pk}",
            "events-0-weapon": "espada",
            "events-1-turn": "",
            "events-1-kind": "",
            "version": 1,
        },
    )
    assert response.status_code == 302, response.content.decode()[:2000]
    battle.refresh_from_db()
    assert battle.status == Battle.Status.REPORTED
    assert battle.participants.get(warband=b).voluntary_rout
    assert battle.events.get().target == leader_b

    opponent = client_for(world["users"]["opponent"])
    detail = opponent.get(reverse("battle-detail", args=[battle.pk])).content.decode()
    assert (
        'data-testid="confirm"' in detail and ">Sword<" in detail
    )  # the weapon by its name, not its slug
    opponent.post(reverse("battle-detail", args=[battle.pk]), {"op": "confirm", "version": 2})
    battle.refresh_from_db()
    assert battle.status == Battle.Status.CONFIRMED

    standings = opponent.get(reverse("campaign-standings", args=[_slug(world)])).content.decode()
    assert "<svg" in standings and "Banda 1" in standings
    csv = opponent.get(reverse("campaign-standings-csv", args=[_slug(world)]))
    lines = csv.content.decode().splitlines()
    assert lines[1].startswith("1,Banda 1,")


def test_invalid_report_shows_the_reason_and_writes_nothing(world):
    battle = world["battle"]
    response = client_for(world["users"]["participant"]).post(
        reverse("battle-report", args=[battle.pk]),
        {"events-TOTAL_FORMS": 0, "events-INITIAL_FORMS": 0},
    )
    assert response.status_code == 200
    assert "Say who won" in response.content.decode()
    battle.refresh_from_db()
    assert battle.status == Battle.Status.SCHEDULED


def test_create_campaign_page_uses_the_preset(league_content):
    organiser = quick_user("elrond")
    response = client_for(organiser).post(
        reverse("campaign-create"),
        {"name": "Liga de Imladris", "preset": "war", "points_win": 3, "points_draw": 1,
         "points_loss": 0, "points_bye": 3, "optional_rules": ["challenges"]},
    )  # fmt: skip
    assert response.status_code == 302
    campaign = Campaign.objects.get(name="Liga de Imladris")
    assert (campaign.rating_cap, campaign.starting_treasury) == (400, 600)
    assert campaign.optional_rules == ["challenges"]


def test_list_shows_only_visible_campaigns(world):
    page = client_for(world["users"]["stranger"]).get(reverse("campaign-list")).content.decode()
    assert "Liga de Fornost" not in page and "Liga de Bree" not in page
    page = client_for(world["users"]["participant"]).get(reverse("campaign-list")).content.decode()
    assert "Liga de Fornost" in page and "Liga de Bree" not in page


def test_public_campaign_is_readable_by_anyone(world):
    league = world["league"]
    services.campaign_update(
        campaign=league.campaign, by=league.organiser, changes={"public": True}
    )
    for role in ("anonymous", "stranger"):
        client = client_for(world["users"][role])
        assert client.get(reverse("campaign-detail", args=[_slug(world)])).status_code == 200
        assert client.get(reverse("campaign-standings", args=[_slug(world)])).status_code == 200
        page = client.get(reverse("campaign-detail", args=[_slug(world)])).content.decode()
        assert league.campaign.join_code not in page


def test_join_page(make_league):
    league = make_league(players=0, state="open")
    player = quick_user("beleg")
    warband = new_warband(player, "Arqueros")
    client = client_for(player)
    page = client.get(reverse("campaign-join") + f"?code={league.campaign.join_code}")
    assert league.campaign.join_code in page.content.decode()
    bad = client.post(reverse("campaign-join"), {"join_code": "WRONG", "warband": warband.pk})
    assert bad.status_code == 200
    ok = client.post(
        reverse("campaign-join"), {"join_code": league.campaign.join_code, "warband": warband.pk}
    )
    assert ok.status_code == 302
    assert league.campaign.memberships.filter(user=player, warband=warband).exists()


# --- query budgets ------------------------------------------------------------------------
def _played_league(players):
    league = build_league(players=players, henchmen=2, prefix=f"q{players}-")
    round = services.round_open(campaign=league.campaign, by=league.organiser)
    battles = services.pairings_generate(round=round, by=league.organiser, method="swiss")
    real = [b for b in battles if not b.is_bye]
    for battle in real:
        participants = list(battle.participants.select_related("warband"))
        winner, loser = participants[0].warband, participants[1].warband
        report = simple_report(
            battle,
            winner,
            events=[
                reports.EventReport(
                    turn=1,
                    kind="out_of_action",
                    actor_id=winner.fighters.first().pk,
                    target_id=loser.fighters.first().pk,
                )
            ],
        )
        reports.battle_report(battle=battle, reporter=league.organiser, report=report)
        reports.battle_confirm(battle=battle, by=league.organiser)
    return league, real[0]


@pytest.fixture(scope="module")
def _played_leagues(module_transaction):
    """A league of 2 and one of 9 with round 1 reported and confirmed (built once)."""
    with module_transaction:
        return {players: _played_league(players) for players in (2, 9)}


@pytest.fixture
def played_leagues(_played_leagues, fresh):
    return fresh(_played_leagues)


PAGE_BUDGETS = [
    ("list", lambda league, battle: reverse("campaign-list"), 8),
    ("detail", lambda league, battle: reverse("campaign-detail", args=[league.campaign.slug]), 14),
    ("standings", lambda league, battle: reverse("campaign-standings", args=[league.campaign.slug]),
     14),
    ("standings csv",
     lambda league, battle: reverse("campaign-standings-csv", args=[league.campaign.slug]), 12),
    ("battle", lambda league, battle: reverse("battle-detail", args=[battle.pk]), 14),
    ("report form", lambda league, battle: reverse("battle-report", args=[battle.pk]), 16),
]  # fmt: skip


@pytest.mark.parametrize("players", [2, 9])
@pytest.mark.parametrize("page", PAGE_BUDGETS, ids=[p[0] for p in PAGE_BUDGETS])
def test_page_query_budgets(played_leagues, assert_max_queries, players, page):
    _name, url, budget = page
    league, battle = played_leagues[players]
    client = client_for(league.organiser)
    target = url(league, battle)
    with assert_max_queries(budget):
        response = client.get(target)
    assert response.status_code == 200


def test_more_rows_keeps_what_was_typed(world):
    """ "More rows" posts the form: the rows typed so far come back with more empty ones, no
    error is shown yet and nothing is written."""
    battle, league = world["battle"], world["league"]
    a, b = league.warband(0), league.warband(1)
    leader_a, leader_b = a.fighters.get(), b.fighters.get()
    participant = client_for(world["users"]["participant"])
    url = reverse("battle-report", args=[battle.pk])
    page = participant.get(url).content.decode()
    assert 'data-testid="more-rows"' in page and 'href="?rows=' not in page
    rows_before = page.count('data-testid="event-row"')
    response = participant.post(
        url,
        {
            "scenario": "Emboscada en el vado",
            "winners": [],  # not chosen yet: no complaint while adding rows
            "events-TOTAL_FORMS": rows_before,
            "events-INITIAL_FORMS": 0,
            "events-0-turn": 3,
            "events-0-kind": "out_of_action",
            "events-0-actor": f"f{leader_a.pk}",
            "events-0-target": f"f{leader_b.pk}",
            "events-0-weapon": "espada",
            "notes": "Llovía",
            "more_rows": "1",
            "version": 1,
        },
    )
    assert response.status_code == 200
    html = response.content.decode()
    assert html.count('data-testid="event-row"') > rows_before
    assert 'value="Emboscada en el vado"' in html and "Llovía" in html
    assert f'value="f{leader_b.pk}" selected' in html and 'value="3"' in html
    assert 'role="alert"' not in html
    battle.refresh_from_db()
    assert battle.status == Battle.Status.SCHEDULED
