"""The organiser's scoring: points, bonus points, the order of tie-breakers; the
standings (page, CSV, API) follow it; a change is recorded and recomputes the standings."""

import pytest
from django.conf import settings
from django.urls import reverse
from django.utils import timezone
from rest_framework.test import APIClient

from battles.campaigns import scoring, services
from battles.campaigns.standings import (
    DEFAULT_TIE_BREAKERS,
    LOSS,
    WIN,
    Competitor,
    Outcome,
    PointsScheme,
    Result,
    compute_standings,
)
from battles.models import Campaign, Job, StandingsSnapshot
from battles.reports import services as reports
from tests.battles.factories import simple_report

pytestmark = pytest.mark.django_db


# --- the pure function --------------------------------------------------------------------------
def test_head_to_head_counts_only_battles_among_the_warbands_still_tied():
    # A beat B; B beat C; C beat A: all on 3 points, and level on head-to-head (3 each among
    # them) and on wins; the warband rating separates them.
    competitors = [Competitor("A", "A", 100), Competitor("B", "B", 120), Competitor("C", "C", 90)]
    outcomes = [
        Outcome(1, (Result("A", WIN), Result("B", LOSS))),
        Outcome(2, (Result("B", WIN), Result("C", LOSS))),
        Outcome(3, (Result("C", WIN), Result("A", LOSS))),
    ]
    scheme = PointsScheme(tie_breakers=("head_to_head", "wins", "rating"))
    rows = compute_standings(competitors, outcomes, scheme)
    assert [(r.competitor_id, r.rank, r.head_to_head) for r in rows] == [
        ("B", 1, 3),
        ("A", 2, 3),
        ("C", 3, 3),
    ]
    # Without tie-breakers they all share the first place, listed by name.
    rows = compute_standings(competitors, outcomes, PointsScheme(tie_breakers=()))
    assert [(r.competitor_id, r.rank) for r in rows] == [("A", 1), ("B", 1), ("C", 1)]


def test_rating_difference_rewards_the_warband_that_fought_stronger_ones():
    competitors = [Competitor("A", "A", 150), Competitor("B", "B", 150)]
    outcomes = [
        # A (rated 100 then) beat a warband rated 180; B (rated 200) beat one rated 120.
        Outcome(1, (Result("A", WIN, rating=100), Result("X", LOSS, rating=180))),
        Outcome(1, (Result("B", WIN, rating=200), Result("Y", LOSS, rating=120))),
    ]
    rows = compute_standings(
        competitors, outcomes, PointsScheme(tie_breakers=("rating_difference",))
    )
    assert [(r.competitor_id, r.rating_difference, r.rank) for r in rows] == [
        ("A", 80, 1),
        ("B", -80, 2),
    ]


# --- a league -------------------------------------------------------------------------------
def _fight(league, winner: int, loser: int, *, events=()):
    """A battle outside rounds between two players, reported by the winner and confirmed."""
    campaign, organiser = league.campaign, league.organiser
    battle = services.pairing_create(
        campaign=campaign,
        by=organiser,
        warband_ids=[league.warband(winner).pk, league.warband(loser).pk],
    )
    events = [
        reports.EventReport(turn=1, kind=kind, actor_warband_id=league.warband(actor).pk, **extra)
        for kind, actor, extra in events
    ]
    battle = reports.battle_report(
        battle=battle,
        reporter=league.user(winner),
        report=simple_report(battle, league.warband(winner), events=events),
    )
    reports.battle_confirm(battle=battle, by=league.user(loser))


def _ooa(actor: int, target_warband_id: int):
    return ("out_of_action", actor, {"target_warband_id": target_warband_id})


@pytest.fixture
def tied_league(make_league):
    """A beat B, but B put two of A's men out of action; then B beat D. A and B: 3 points each,
    opponents' points 3 each. Head-to-head puts A first; enemies out of action put B first."""
    league = make_league(players=4, name="Liga del Desempate")
    a = league.warband(0)
    _fight(league, 0, 1, events=[_ooa(1, a.pk), _ooa(1, a.pk)])
    _fight(league, 1, 3)
    return league


def _order(campaign) -> list[str]:
    campaign.refresh_from_db()
    return [row.name for row in services.standings_compute(campaign=campaign)[:2]]


def test_the_tie_breaker_order_changes_the_standings(tied_league):
    campaign, organiser = tied_league.campaign, tied_league.organiser
    a, b = tied_league.warband(0).name, tied_league.warband(1).name
    services.campaign_update(
        campaign=campaign,
        by=organiser,
        changes={"tie_breakers": ["head_to_head", "enemies_out_of_action"]},
    )
    assert _order(campaign) == [a, b]
    services.campaign_update(
        campaign=campaign,
        by=organiser,
        changes={"tie_breakers": ["enemies_out_of_action", "head_to_head"]},
    )
    assert _order(campaign) == [b, a]


def test_bonus_points_for_enemies_out_of_action_and_objectives(tied_league):
    campaign, organiser = tied_league.campaign, tied_league.organiser
    a, b = tied_league.warband(0), tied_league.warband(1)
    _fight(
        tied_league,
        2,
        3,
        events=[("objective", 2, {}), ("objective", 2, {}), ("objective", 3, {})],
    )
    services.campaign_update(
        campaign=campaign,
        by=organiser,
        changes={"points_per_out_of_action": 1, "points_per_objective": 2},
    )
    campaign.refresh_from_db()
    rows = {row.competitor_id: row for row in services.standings_compute(campaign=campaign)}
    assert (rows[b.pk].points, rows[b.pk].bonus_points) == (5, 2)
    assert (rows[a.pk].points, rows[a.pk].bonus_points) == (3, 0)
    c, d = tied_league.warband(2), tied_league.warband(3)
    assert (rows[c.pk].points, rows[c.pk].objectives) == (3 + 4, 2)
    assert (rows[d.pk].points, rows[d.pk].objectives) == (0 + 2, 1)


def test_a_change_of_scoring_is_recorded_with_who_made_it_and_recomputes(tied_league):
    campaign, organiser = tied_league.campaign, tied_league.organiser
    services.campaign_update(
        campaign=campaign, by=organiser, changes={"tie_breakers": ["head_to_head"]}
    )
    latest = campaign.history.order_by("-history_id").first()
    assert latest.history_user == organiser
    assert latest.tie_breakers == ["head_to_head"]
    assert latest.prev_record.tie_breakers == list(DEFAULT_TIE_BREAKERS)
    snapshot = StandingsSnapshot.objects.get(campaign=campaign, day=timezone.localdate())
    assert [row["name"] for row in snapshot.rows[:2]] == [
        tied_league.warband(0).name,
        tied_league.warband(1).name,
    ]
    services.campaign_update(
        campaign=campaign, by=organiser, changes={"tie_breakers": ["enemies_out_of_action"]}
    )
    snapshot.refresh_from_db()
    assert [row["name"] for row in snapshot.rows[:2]] == [
        tied_league.warband(1).name,
        tied_league.warband(0).name,
    ]
    assert not Job.objects.filter(campaign=campaign).exists(), "a small league: no job"


def test_a_big_league_recomputes_in_a_job(
    tied_league, monkeypatch, django_capture_on_commit_callbacks
):
    monkeypatch.setattr(scoring, "BIG_LEAGUE_BATTLES", 1)
    campaign, organiser = tied_league.campaign, tied_league.organiser
    client = APIClient()
    client.force_authenticate(organiser)
    url = reverse("api-campaign-detail", args=[campaign.slug])
    with django_capture_on_commit_callbacks(execute=True) as callbacks:
        response = client.patch(url, {"tie_breakers": ["enemies_out_of_action"]}, format="json")
    assert response.status_code == 202, response.content
    assert len(callbacks) == 1
    job = Job.objects.get(campaign=campaign, kind=Job.Kind.STANDINGS)
    assert response["Location"] == "http://testserver" + reverse("api-job-detail", args=[job.pk])
    assert (job.status, job.done, job.total, job.created_by) == (
        Job.Status.SUCCEEDED,
        1,
        1,
        organiser,
    )
    snapshot = StandingsSnapshot.objects.get(campaign=campaign, day=timezone.localdate())
    assert snapshot.rows[0]["name"] == tied_league.warband(1).name
    # The job is idempotent: run again, nothing changes.
    finished_at = job.finished_at
    scoring.standings_recompute_job_run(job_id=job.pk)
    job.refresh_from_db()
    assert job.finished_at == finished_at
    assert client.get(response["Location"]).json()["status"] == "succeeded"
    # A change that leaves the scoring as it is starts no job.
    response = client.patch(url, {"description": "Sin cambios de puntos"}, format="json")
    assert response.status_code == 200
    assert Job.objects.filter(campaign=campaign).count() == 1


# --- the doors: API, form, page, CSV --------------------------------------------------------------
BAD_SCORING = [
    ({"tie_breakers": ["head_to_head", "head_to_head"]}, "tie_breakers"),
    ({"tie_breakers": ["coin_toss"]}, "tie_breakers"),
    ({"tie_breakers": "wins"}, "tie_breakers"),
    ({"points_per_out_of_action": "many"}, "points_per_out_of_action"),
    ({"points_per_objective": 500}, "points_per_objective"),
    ({"points_draw": 5}, "points_draw"),  # more than a win (3)
    ({"points_win": -1}, "points_win"),  # less than a loss (0)
]


@pytest.mark.parametrize(("body", "field"), BAD_SCORING)
def test_bad_scoring_on_the_api_is_a_400_and_writes_nothing(league, body, field):
    campaign = league.campaign
    before = campaign.history.count()
    client = APIClient()
    client.force_authenticate(league.organiser)
    response = client.patch(
        reverse("api-campaign-detail", args=[campaign.slug]), body, format="json"
    )
    assert response.status_code == 400, response.content
    error = response.json()["error"]
    assert error["code"] and error["message"]
    assert any(key.split(".")[0] == field for key in error["fields"]), error
    campaign.refresh_from_db()
    assert campaign.history.count() == before
    assert (campaign.points_win, campaign.points_draw, campaign.points_loss) == (3, 1, 0)
    assert campaign.tie_breakers == ["opponents_points", "enemies_out_of_action", "rating"]
    assert (campaign.points_per_out_of_action, campaign.points_per_objective) == (0, 0)


def test_bad_scoring_in_the_campaign_form_is_a_form_error_and_writes_nothing(client, league):
    campaign = league.campaign
    before = campaign.history.count()
    client.force_login(league.organiser)
    client.cookies[settings.LANGUAGE_COOKIE_NAME] = "en"  # the assertions quote English
    url = reverse("campaign-edit", args=[campaign.slug])
    page = client.get(url)
    assert page.status_code == 200
    form = page.context["form"]
    data = {
        name: value
        for name, value in form.initial.items()
        if value is not None and name != "allowed_warband_types"
    }
    data.update(
        {"optional_rules": [], "tie_breaker_1": "wins", "tie_breaker_2": "wins", "tables": ""}
    )
    response = client.post(url, data)
    assert response.status_code == 200
    assert "Each tie-breaker may be chosen once." in response.content.decode()
    campaign.refresh_from_db()
    assert campaign.history.count() == before
    assert campaign.tie_breakers == ["opponents_points", "enemies_out_of_action", "rating"]
    data.update({f"tie_breaker_{n}": "" for n in range(1, 7)})
    data.update({"tie_breaker_1": "head_to_head", "points_per_objective": 2})
    response = client.post(url, data)
    assert response.status_code == 302, response.content.decode()[:2000]
    campaign.refresh_from_db()
    assert campaign.tie_breakers == ["head_to_head"]
    assert campaign.points_per_objective == 2
    assert client.get(url).context["form"].initial["tie_breaker_1"] == "head_to_head"


def test_creating_with_the_api_takes_the_scoring(make_user):
    organiser = make_user("scorer")
    client = APIClient()
    client.force_authenticate(organiser)
    body = {
        "name": "Liga de Bree",
        "points_per_out_of_action": 1,
        "tie_breakers": ["wins", "head_to_head"],
    }
    response = client.post(reverse("api-campaign-list"), body, format="json")
    assert response.status_code == 201, response.content
    assert response.json()["tie_breakers"] == ["wins", "head_to_head"]
    campaign = Campaign.objects.get(slug=response.json()["slug"])
    assert (campaign.points_per_out_of_action, campaign.tie_breakers) == (
        1,
        ["wins", "head_to_head"],
    )


def test_standings_page_csv_and_api_follow_the_campaign_order(client, tied_league):
    campaign, organiser = tied_league.campaign, tied_league.organiser
    a, b = tied_league.warband(0).name, tied_league.warband(1).name
    services.campaign_update(
        campaign=campaign, by=organiser, changes={"tie_breakers": ["enemies_out_of_action"]}
    )
    client.force_login(organiser)
    client.cookies[settings.LANGUAGE_COOKIE_NAME] = "en"  # the assertions quote English
    page = client.get(reverse("campaign-standings", args=[campaign.slug]))
    html = page.content.decode()
    assert html.index(b) < html.index(a)
    assert "Order: points, then Enemies put out of action." in html
    csv = client.get(reverse("campaign-standings-csv", args=[campaign.slug])).content.decode()
    assert csv.index(b) < csv.index(a)
    api = APIClient()
    api.force_authenticate(organiser)
    body = api.get(reverse("api-campaign-standings", args=[campaign.slug])).json()
    assert body["scoring"]["tie_breakers"] == ["enemies_out_of_action"]
    assert [row["warband_name"] for row in body["results"][:2]] == [b, a]
