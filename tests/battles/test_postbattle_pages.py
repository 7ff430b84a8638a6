import pytest

from battles.models import Job
from tests.battles.test_postbattle import fight, leader, out_of_action

pytestmark = pytest.mark.django_db


@pytest.fixture
def battle(league):
    a, b = league.warband(0), league.warband(1)
    return fight(league, events=[out_of_action(leader(a), leader(b))])


def test_participant_resolves_and_sees_the_dice(
    client, league, battle, django_capture_on_commit_callbacks
):
    client.force_login(league.user(0))
    page = client.get(f"/battles/{battle.pk}/postbattle/")
    assert page.status_code == 200 and 'data-testid="resolve-battle"' in page.content.decode()
    with django_capture_on_commit_callbacks(execute=True):
        response = client.post(f"/battles/{battle.pk}/postbattle/resolve/")
    job = Job.objects.get()
    assert response.status_code == 302 and response["Location"] == f"/jobs/{job.pk}/"
    progress = client.get(f"/jobs/{job.pk}/", HTTP_HX_REQUEST="true").content.decode()
    assert 'data-status="succeeded"' in progress and "<html" not in progress
    html = client.get(f"/battles/{battle.pk}/postbattle/").content.decode()
    assert "🎲" in html
    assert f'data-testid="result-{league.warband(0).pk}"' in html
    assert f'data-testid="spend-{league.warband(0).pk}"' in html


def test_strangers_get_404(client, battle, make_user):
    client.force_login(make_user("stranger"))
    assert client.get(f"/battles/{battle.pk}/postbattle/").status_code == 404
    assert client.post(f"/battles/{battle.pk}/postbattle/resolve/").status_code == 404


def test_only_organisers_revert(client, league, battle, django_capture_on_commit_callbacks):
    client.force_login(league.organiser)
    with django_capture_on_commit_callbacks(execute=True):
        client.post(f"/battles/{battle.pk}/postbattle/resolve/")
    client.force_login(league.user(0))
    assert client.post(f"/battles/{battle.pk}/postbattle/revert/").status_code == 403
    client.force_login(league.organiser)
    client.post(f"/battles/{battle.pk}/postbattle/revert/", {"confirmed": "1"})
    battle.refresh_from_db()
    assert battle.status == "confirmed"


def test_organiser_resolves_a_round_from_the_campaign_page(
    client, league, battle, django_capture_on_commit_callbacks
):
    client.force_login(league.organiser)
    html = client.get(f"/campaigns/{league.campaign.slug}/").content.decode()
    assert 'data-testid="resolve-round-1"' in html
    with django_capture_on_commit_callbacks(execute=True):
        response = client.post(f"/campaigns/{league.campaign.slug}/rounds/1/resolve/")
    job = Job.objects.get()
    assert response["Location"] == f"/jobs/{job.pk}/"
    assert job.round.number == 1


def test_postbattle_page_query_budget(
    client, league, battle, django_capture_on_commit_callbacks, assert_max_queries
):
    client.force_login(league.organiser)
    with django_capture_on_commit_callbacks(execute=True):
        client.post(f"/battles/{battle.pk}/postbattle/resolve/")
    with assert_max_queries(20):
        client.get(f"/battles/{battle.pk}/postbattle/")


@pytest.mark.parametrize(
    "data",
    [
        {"op": "close_round", "round": "abc"},
        {"op": "delete_pairing", "battle": "abc"},
        {"op": "withdraw", "membership": "1; drop"},
    ],
)
def test_malformed_ids_in_the_manage_form_are_404_not_500(client, league, data):
    client.force_login(league.organiser)
    response = client.post(f"/campaigns/{league.campaign.slug}/manage/", data)
    assert response.status_code == 404


def test_huge_numbers_are_refused_by_the_campaign_api(league):
    from rest_framework.test import APIClient

    client = APIClient()
    client.force_authenticate(league.organiser)
    for field in ("starting_treasury", "rating_cap"):
        response = client.post("/api/v1/campaigns/", {"name": "X", field: 10**20}, format="json")
        assert response.status_code == 400
        assert field in response.json()["error"]["fields"]


def test_a_player_who_co_organises_cannot_revert_his_own_battle(
    client, league, battle, django_capture_on_commit_callbacks
):
    """Resolve → revert → resolve until the dice suit him: refused, as settling a dispute is."""
    from battles.campaigns import services

    player = league.user(0)
    services.campaign_add_organiser(
        campaign=league.campaign, by=league.organiser, username=player.username
    )
    client.force_login(player)
    with django_capture_on_commit_callbacks(execute=True):
        client.post(f"/battles/{battle.pk}/postbattle/resolve/")
    page = client.get(f"/battles/{battle.pk}/postbattle/").content.decode()
    assert 'data-testid="revert-battle"' not in page
    response = client.post(f"/battles/{battle.pk}/postbattle/revert/", {"confirmed": "1"})
    assert response.status_code == 403
    battle.refresh_from_db()
    assert battle.status == "resolved"
    # the organiser who does not play in it still can
    client.force_login(league.organiser)
    page = client.get(f"/battles/{battle.pk}/postbattle/").content.decode()
    assert 'data-testid="revert-battle"' in page
    client.post(f"/battles/{battle.pk}/postbattle/revert/", {"confirmed": "1"})
    battle.refresh_from_db()
    assert battle.status == "confirmed"


def test_the_revert_service_refuses_an_organiser_who_plays(
    league, battle, django_capture_on_commit_callbacks
):
    """Every path (admin, jobs, commands) goes through the service, which checks it too."""
    from django.core.exceptions import PermissionDenied

    from battles.campaigns import services
    from battles.postbattle import battle_resolve_start, battle_revert

    services.campaign_add_organiser(
        campaign=league.campaign, by=league.organiser, username=league.user(1).username
    )
    with django_capture_on_commit_callbacks(execute=True):
        battle_resolve_start(battle=battle, user=league.organiser)
    with pytest.raises(PermissionDenied):
        battle_revert(battle=battle, user=league.user(1))
    with pytest.raises(PermissionDenied):
        battle_revert(battle=battle, user=None)
