"""The "what next" home: what a player and an organiser are shown, the count in the navigation,
where sign-up and login land, and a query count that does not grow with the number of warbands."""

import pytest
from django.conf import settings
from django.test import Client
from django.urls import reverse

from annuminas.dashboard import BattleAction, RoundAction, dashboard_for
from battles.campaigns import services
from battles.models import Battle, Campaign, Job, PendingDecision, PostBattleResult, PostBattleRun
from battles.reports import services as reports
from tests.battles.factories import *  # noqa: F403 - the campaign fixtures
from tests.battles.factories import first_battle, new_warband, simple_report
from warbands.models import Fighter

pytestmark = pytest.mark.django_db


def english_client(user=None) -> Client:
    client = Client()
    client.cookies[settings.LANGUAGE_COOKIE_NAME] = "en"
    if user is not None:
        client.force_login(user)
    return client


def actions(dashboard) -> list[str]:
    return [item.action for item in dashboard.battles]


def open_decision(battle: Battle, warband) -> PendingDecision:
    """A decision left to ``warband``'s owner by the post-battle sequence of ``battle``."""
    run = PostBattleRun.objects.create(battle=battle, seed=1, status=PostBattleRun.Status.APPLIED)
    result = PostBattleResult.objects.create(run=run, warband=warband)
    return PendingDecision.objects.create(
        result=result,
        warband=warband,
        fighter=warband.fighters.get(is_leader=True),
        kind=PendingDecision.Kind.CHARACTERISTIC,
        options=["ws", "bs"],
    )


# --- the anonymous visitor -----------------------------------------------------------------------
def test_visitors_still_get_the_product_page(client):
    html = client.get("/").content.decode()
    assert "Hoja de Control de Banda" in html
    assert 'data-testid="dash-warbands"' not in html
    assert client.get(reverse("dashboard-waiting")).content.strip() == b""


# --- a player ------------------------------------------------------------------------------------
def test_a_player_sees_his_warband_his_battle_to_report_and_his_campaign(league):
    battle = first_battle(league)
    player, warband = league.user(0), league.warband(0)
    Fighter.objects.filter(warband=warband, is_leader=True).update(advances_due=2)

    html = english_client(player).get("/").content.decode()

    assert "What next" in html
    assert html.count('data-testid="dash-warband"') == 1
    assert warband.name in html and f"{warband.treasury} co" in html
    assert 'data-testid="advances-due"><span class="badge">2</span> advances due' in html
    assert 'data-testid="task-report"' in html
    # The battle is played at the table (the report fills itself); by hand is the other way.
    play = html.index('data-testid="task-play"')
    assert html.index(reverse("battle-log", args=[battle.pk])) < play
    assert "Play it at the table" in html and "or report it by hand" in html
    assert reverse("battle-report", args=[battle.pk]) in html[play:]
    assert league.warband(1).name in html  # the opponent is named
    assert league.campaign.name in html
    assert "Round 1 is being played." in html
    assert 'data-testid="dash-organiser"' not in html


def test_report_then_confirm_moves_the_battle_between_the_two_players(league):
    battle = first_battle(league)
    reporter, opponent = league.user(0), league.user(1)
    reports.battle_report(
        battle=battle, reporter=reporter, report=simple_report(battle, league.warband(0))
    )

    assert actions(dashboard_for(user=reporter)) == [BattleAction.WAIT_OPPONENT]
    assert dashboard_for(user=reporter).waiting_count == 0
    opponent_home = dashboard_for(user=opponent)
    assert actions(opponent_home) == [BattleAction.CONFIRM]
    assert opponent_home.waiting_count == 1

    reports.battle_confirm(battle=battle, by=opponent)
    assert actions(dashboard_for(user=opponent)) == [BattleAction.POSTBATTLE]
    html = english_client(opponent).get("/").content.decode()
    assert reverse("battle-postbattle", args=[battle.pk]) in html


def test_an_open_decision_is_listed_for_its_owner_only(league):
    battle = first_battle(league)
    decision = open_decision(battle, league.warband(0))

    owner_home = dashboard_for(user=league.user(0))
    assert owner_home.decisions == [decision]
    assert dashboard_for(user=league.user(1)).decisions == []
    html = english_client(league.user(0)).get("/").content.decode()
    assert 'data-testid="task-decision"' in html
    assert "Choose a characteristic" in html

    decision.status = PendingDecision.Status.ANSWERED
    decision.save()
    assert dashboard_for(user=league.user(0)).decisions == []


def test_the_navigation_count_is_what_he_can_act_on(league):
    battle = first_battle(league)
    open_decision(battle, league.warband(0))
    client = english_client(league.user(0))

    badge = client.get(reverse("dashboard-waiting")).content.decode()
    assert '<span class="badge">2</span>' in badge  # report the battle + the decision
    assert "things wait for you" in badge
    home = client.get("/").content.decode()
    assert 'data-testid="nav-waiting"' in home and "hx-get" not in home.split("<main")[0]
    other_page = client.get(reverse("campaign-list")).content.decode()
    assert f'hx-get="{reverse("dashboard-waiting")}"' in other_page


def test_a_user_with_nothing_gets_no_badge_and_a_clear_word(make_user):
    client = english_client(make_user("newcomer"))
    assert client.get(reverse("dashboard-waiting")).content.strip() == b""
    html = client.get("/").content.decode()
    assert "Nothing waits for you right now." in html
    assert "You have no warband yet." in html


# --- an organiser --------------------------------------------------------------------------------
def test_an_organiser_sees_the_round_to_open_then_to_pair(league):
    organiser = league.organiser
    assert [(r.action, r.number) for r in dashboard_for(user=organiser).rounds] == [
        (RoundAction.OPEN_NEXT, 1)
    ]
    services.round_open(campaign=league.campaign, by=organiser)
    home = dashboard_for(user=organiser)
    assert [(r.action, r.number) for r in home.rounds] == [(RoundAction.PAIR, 1)]
    html = english_client(organiser).get("/").content.decode()
    assert 'data-testid="task-round-pair"' in html
    assert f"{league.campaign.get_absolute_url()}#round-1" in html


def test_an_organiser_settles_disputes_resolves_and_closes(league):
    organiser, campaign = league.organiser, league.campaign
    battle = first_battle(league)
    reports.battle_report(
        battle=battle, reporter=league.user(0), report=simple_report(battle, league.warband(0))
    )
    reports.battle_dispute(battle=battle, by=league.user(1), reason="No fue así.")

    home = dashboard_for(user=organiser)
    assert [item.battle for item in home.settle] == [battle]
    assert actions(dashboard_for(user=league.user(0))) == [BattleAction.WAIT_ORGANISER]
    html = english_client(organiser).get("/").content.decode()
    assert 'data-testid="task-settle"' in html

    reports.battle_settle(
        battle=battle,
        by=organiser,
        reason="Visto",
        report=simple_report(battle, league.warband(0)),
    )
    home = dashboard_for(user=organiser)
    assert home.settle == []
    assert [(r.action, r.number, r.count) for r in home.rounds] == [(RoundAction.RESOLVE, 1, 1)]

    Battle.objects.filter(pk=battle.pk).update(status=Battle.Status.RESOLVED)
    assert [r.action for r in dashboard_for(user=organiser).rounds] == [RoundAction.CLOSE]
    job = Job.objects.create(
        kind=Job.Kind.ROUND, campaign=campaign, round=battle.round, total=1, status="running"
    )
    home = dashboard_for(user=organiser)
    assert home.jobs == [job]
    html = english_client(organiser).get("/").content.decode()
    assert reverse("job-detail", args=[job.pk]) in html


def test_finished_and_archived_campaigns_ask_nothing(league):
    organiser = league.organiser
    services.campaign_transition(
        campaign=league.campaign, by=organiser, state=Campaign.State.FINISHED
    )
    home = dashboard_for(user=organiser)
    assert home.rounds == [] and home.waiting_count == 0
    services.campaign_archive(campaign=league.campaign, by=organiser)
    assert dashboard_for(user=organiser).memberships == []


# --- landing after login and sign-up ------------------------------------------------------------
def test_login_lands_on_the_dashboard(client, make_user, password):
    user = make_user("arveleg")
    response = client.post(
        reverse("account_login"), {"login": "arveleg", "password": password}, follow=True
    )
    assert response.redirect_chain[-1][0] == reverse("home")
    assert response.wsgi_request.user == user
    assert 'data-testid="dash-warbands"' in response.content.decode()


def test_signup_lands_on_the_dashboard(client):
    response = client.post(
        reverse("account_signup"),
        {
            "username": "argeleb",
            "email": "argeleb@example.com",
            "password1": "Fornost-Erain-1974",
            "password2": "Fornost-Erain-1974",
        },
        follow=True,
    )
    assert response.redirect_chain[-1][0] == reverse("home")
    assert 'data-testid="dash-warbands"' in response.content.decode()


# --- query counts --------------------------------------------------------------------------------
def _player_in_leagues(make_league, make_user, count: int):
    """One player with ``count`` warbands, each in its own running campaign, paired in round 1,
    with an open decision each."""
    player = make_user(f"dashboard-{count}")
    for number in range(count):
        league = make_league(players=1, name=f"Liga {count}-{number}", state=Campaign.State.OPEN)
        warband = new_warband(player, f"Banda {count}-{number}", henchmen=2)
        services.campaign_join(
            campaign=league.campaign,
            user=player,
            warband=warband,
            join_code=league.campaign.join_code,
        )
        services.campaign_transition(
            campaign=league.campaign, by=league.organiser, state=Campaign.State.RUNNING
        )
        battle = first_battle(league)
        open_decision(battle, warband)
    return player


@pytest.mark.parametrize("warbands", [1, 5])
def test_dashboard_query_count_does_not_grow(make_league, make_user, assert_max_queries, warbands):
    player = _player_in_leagues(make_league, make_user, warbands)
    client = english_client(player)
    with assert_max_queries(10):
        response = client.get("/")
    html = response.content.decode()
    assert html.count('data-testid="dash-warband"') == warbands
    assert html.count('data-testid="task-report"') == warbands
    assert html.count('data-testid="task-decision"') == warbands
    with assert_max_queries(10):
        badge = client.get(reverse("dashboard-waiting")).content.decode()
    assert f'<span class="badge">{2 * warbands}</span>' in badge


@pytest.mark.parametrize("campaigns", [1, 5])
def test_organiser_dashboard_query_count_does_not_grow(make_league, assert_max_queries, campaigns):
    organiser = None
    for number in range(campaigns):
        league = make_league(players=2, name=f"Org {campaigns}-{number}")
        if organiser is None:
            organiser = league.organiser
        else:
            services.campaign_add_organiser(
                campaign=league.campaign, by=league.organiser, username=organiser.username
            )
        battle = first_battle(league)
        reports.battle_report(
            battle=battle, reporter=league.user(0), report=simple_report(battle, league.warband(0))
        )
        reports.battle_dispute(battle=battle, by=league.user(1), reason="No.")
    client = english_client(organiser)
    with assert_max_queries(10):
        html = client.get("/").content.decode()
    assert html.count('data-testid="task-settle"') == campaigns


# --- small fixes from the same issue ---------------------------------------------------------
def test_profile_shows_the_authorization_header_literally(client, user):
    client.force_login(user)
    html = client.get(reverse("profile")).content.decode()
    assert "Authorization: Token &lt;token&gt;</code>" in html
    client.post(reverse("profile-token"))
    html = client.get(reverse("profile")).content.decode()
    token = user.auth_token.key
    assert f"Authorization: Token {token}</code>" in html


def test_standings_columns_are_explained(league):
    html = (
        english_client(league.organiser)
        .get(reverse("campaign-standings", args=[league.campaign.slug]))
        .content.decode()
    )
    assert '<abbr title="Lost">L</abbr>' in html
    assert '<abbr title="Played">P</abbr>' in html
    assert 'class="table-scroll"' in html
