"""The campaigns and battles API follows the pages' visibility: anyone reads a
public campaign, its standings, battles and their logs; nothing of a private one leaks to an
anonymous caller (401, whether it exists or not) or to a stranger (404); writes need a login."""

from __future__ import annotations

import json

import pytest
from rest_framework.test import APIClient

from battles.campaigns.services import campaign_update
from battles.models import Campaign
from battles.reports import services
from tests.battles.factories import *  # noqa: F403 - the campaign fixtures
from tests.battles.factories import build_league, first_battle, quick_user, simple_report

pytestmark = pytest.mark.django_db
API = "/api/v1"


def _league_with_battle(name: str, *, public: bool):
    league = build_league(quick_user, name=name, prefix=name[:3].lower())
    if public:
        campaign_update(campaign=league.campaign, by=league.organiser, changes={"public": True})
    battle = first_battle(league)
    battle = services.battle_report(
        battle=battle,
        reporter=league.user(0),
        report=simple_report(battle, league.warband(0)),
    )
    services.battle_confirm(battle=battle, by=league.user(1))
    league.refresh()
    return league, battle


@pytest.fixture(scope="module")
def _two_campaigns(module_transaction):
    """A public and a private campaign, each with a confirmed battle (built once)."""
    with module_transaction:
        public, public_battle = _league_with_battle("Liga Abierta", public=True)
        private, private_battle = _league_with_battle("Liga Cerrada", public=False)
        return {
            "public": (public, public_battle),
            "private": (private, private_battle),
            "stranger": quick_user("mirón"),
        }


@pytest.fixture
def two_campaigns(_two_campaigns, fresh):
    return fresh(_two_campaigns)


def _client(user=None) -> APIClient:
    client = APIClient()
    if user is not None:
        client.force_authenticate(user)
    return client


DETAIL_URLS = {
    "detail": lambda c, b: f"{API}/campaigns/{c.slug}/",
    "members": lambda c, b: f"{API}/campaigns/{c.slug}/members/",
    "rounds": lambda c, b: f"{API}/campaigns/{c.slug}/rounds/",
    "pairings": lambda c, b: f"{API}/campaigns/{c.slug}/rounds/1/pairings/",
    "standings": lambda c, b: f"{API}/campaigns/{c.slug}/standings/",
    "standings csv": lambda c, b: f"{API}/campaigns/{c.slug}/standings/?format=csv",
    "battle": lambda c, b: f"{API}/battles/{b.pk}/",
    "battle events": lambda c, b: f"{API}/battles/{b.pk}/events/",
    "battle log": lambda c, b: f"{API}/battles/{b.pk}/log/",
    "battle state": lambda c, b: f"{API}/battles/{b.pk}/state/",
}
# (who, which campaign) → the answer for every detail URL
EXPECTED = {
    ("anonymous", "public"): 200,
    ("anonymous", "private"): 401,
    ("stranger", "public"): 200,
    ("stranger", "private"): 404,
    ("member", "private"): 200,
}


@pytest.mark.parametrize("what", list(DETAIL_URLS))
@pytest.mark.parametrize(("who", "which"), list(EXPECTED))
def test_detail_matrix(two_campaigns, who, which, what):
    league, battle = two_campaigns[which]
    user = {"anonymous": None, "stranger": two_campaigns["stranger"], "member": league.user(0)}
    response = _client(user[who]).get(DETAIL_URLS[what](league.campaign, battle))
    expected = EXPECTED[(who, which)]  # the battle log and state answer as the rest (401)
    assert response.status_code == expected, (who, which, what, response.content[:300])
    if expected != 200:
        # (the CSV form answers its errors as the same JSON, under application/json)
        assert response["Content-Type"].startswith("application/json")
        assert set(json.loads(response.content)["error"]) == {"code", "message", "fields"}
        assert league.campaign.name not in response.content.decode()


def test_anonymous_lists_hold_public_campaigns_and_their_battles_only(two_campaigns):
    public, public_battle = two_campaigns["public"]
    private, private_battle = two_campaigns["private"]
    client = _client()
    campaigns = client.get(f"{API}/campaigns/")
    assert campaigns.status_code == 200
    assert [c["slug"] for c in campaigns.json()["results"]] == [public.campaign.slug]
    battles = client.get(f"{API}/battles/")
    assert battles.status_code == 200
    ids = {b["id"] for b in battles.json()["results"]}
    assert public_battle.pk in ids and private_battle.pk not in ids
    filtered = client.get(f"{API}/battles/?campaign={private.campaign.slug}")
    assert filtered.status_code == 200 and filtered.json()["results"] == []


def test_anonymous_reads_show_no_secrets(two_campaigns):
    public, _battle = two_campaigns["public"]
    body = _client().get(f"{API}/campaigns/{public.campaign.slug}/").json()
    assert body["join_code"] is None
    assert body["is_organiser"] is False
    assert public.campaign.join_code not in str(body)
    standings = _client().get(f"{API}/campaigns/{public.campaign.slug}/standings/").json()
    assert [row["points"] for row in standings["results"]] == [3, 0]


def test_a_draft_public_campaign_stays_hidden(league_content):
    draft = build_league(quick_user, name="Liga en Borrador", state=Campaign.State.DRAFT)
    campaign_update(campaign=draft.campaign, by=draft.organiser, changes={"public": True})
    response = _client().get(f"{API}/campaigns/{draft.campaign.slug}/")
    assert response.status_code == 401
    listed = [c["slug"] for c in _client().get(f"{API}/campaigns/").json()["results"]]
    assert draft.campaign.slug not in listed


def test_a_missing_campaign_answers_anonymous_callers_like_a_private_one(two_campaigns):
    assert _client().get(f"{API}/campaigns/no-such-league/").status_code == 401
    assert _client().get(f"{API}/battles/999999/").status_code == 401


WRITES = [
    ("patch", lambda c, b: f"{API}/campaigns/{c.slug}/", {"description": "pintada"}),
    ("post", lambda c, b: f"{API}/campaigns/{c.slug}/rounds/", {}),
    ("post", lambda c, b: f"{API}/campaigns/{c.slug}/transition/", {"state": "finished"}),
    ("post", lambda c, b: f"{API}/battles/{b.pk}/dispute/", {"reason": "trampa"}),
    ("delete", lambda c, b: f"{API}/battles/{b.pk}/", None),
]


@pytest.mark.parametrize("which", ["public", "private"])
@pytest.mark.parametrize(("method", "url", "body"), WRITES, ids=lambda v: str(v)[:20])
def test_anonymous_writes_need_a_login_and_change_nothing(two_campaigns, which, method, url, body):
    league, battle = two_campaigns[which]
    campaign = league.campaign
    battle.refresh_from_db()
    before = (campaign.history.count(), campaign.rounds.count(), battle.version)
    response = getattr(_client(), method)(url(campaign, battle), body, format="json")
    assert response.status_code == 401, response.content[:300]
    assert set(response.json()["error"]) == {"code", "message", "fields"}
    battle.refresh_from_db()
    assert (campaign.history.count(), campaign.rounds.count(), battle.version) == before
    assert battle.log_entries.count() == 0


@pytest.mark.parametrize(("which", "expected"), [("public", 401), ("private", 401)])
def test_anonymous_cannot_write_a_battle_log(two_campaigns, which, expected):
    """The battle-log views read anonymously where the campaign is public; writing asks for a
    login (401) whether the battle is public or hidden."""
    league, battle = two_campaigns[which]
    body = {"client_id": "5f0c6f1e-7d43-4c51-9a0e-2b1f3f0a9b11", "kind": "note", "payload": {}}
    response = _client().post(f"{API}/battles/{battle.pk}/log/", body, format="json")
    assert response.status_code == expected, response.content[:300]
    assert battle.log_entries.count() == 0
