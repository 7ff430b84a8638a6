"""What a phone app needs: "mine" filters, the job of one's own battle, conditional GET on the
battle's log and state, strict ?after= and ?ordering=, UTC timestamps and absolute links."""

from __future__ import annotations

import re
import uuid

import pytest
from rest_framework.test import APIClient

from tests.battles.factories import *  # noqa: F403 - league fixtures
from tests.battles.factories import first_battle
from tests.battles.test_postbattle import fight, leader, out_of_action

pytestmark = pytest.mark.django_db
UTC_Z = re.compile(r"^\d{4}-\d\d-\d\dT\d\d:\d\d:\d\d(\.\d+)?Z$")


def client_for(user) -> APIClient:
    client = APIClient()
    client.force_authenticate(user)
    return client


def test_mine_filters_battles_and_campaigns(league, make_user):
    first_battle(league)
    player = client_for(league.user(0))
    mine = player.get("/api/v1/battles/?mine=true").json()
    assert mine["count"] >= 1
    ids = {b["id"] for b in mine["results"]}
    others = player.get("/api/v1/battles/?mine=false").json()
    assert ids.isdisjoint({b["id"] for b in others["results"]})
    assert player.get("/api/v1/campaigns/?mine=true").json()["count"] == 1
    outsider = client_for(make_user("outsider"))
    assert outsider.get("/api/v1/battles/?mine=true").json()["count"] == 0
    assert outsider.get("/api/v1/campaigns/?mine=true").json()["count"] == 0


def test_a_player_reads_the_job_of_his_own_battle(
    league, make_user, django_capture_on_commit_callbacks
):
    a, b = league.warband(0), league.warband(1)
    battle = fight(league, events=[out_of_action(leader(a), leader(b))])
    with django_capture_on_commit_callbacks(execute=True):
        started = client_for(league.organiser).post(
            f"/api/v1/battles/{battle.pk}/resolve/", {"seed": 5}, format="json"
        )
    assert started.status_code == 202
    job = started.json()
    assert job["url"].startswith("http://testserver/api/v1/jobs/")
    assert job["campaign"] == league.campaign.slug  # a slug, as everywhere
    mine = client_for(league.user(0)).get(job["url"])
    assert mine.status_code == 200 and mine.json()["status"] == "succeeded"
    assert client_for(make_user("nosy")).get(job["url"]).status_code == 404


def test_the_log_and_the_state_answer_304_until_something_changes(league):
    battle = first_battle(league)
    phone = client_for(league.user(0))
    url = f"/api/v1/battles/{battle.pk}/"
    assert (
        phone.post(f"{url}setup/", {"client_id": str(uuid.uuid4())}, format="json").status_code
        == 201
    )
    for part in ("log/", "state/"):
        first = phone.get(url + part)
        etag = first["ETag"]
        assert first.status_code == 200 and etag
        assert phone.get(url + part, HTTP_IF_NONE_MATCH=etag).status_code == 304
        assert phone.get(url + part, HTTP_IF_NONE_MATCH=f'"x", W/{etag}').status_code == 304
    log = phone.get(f"{url}log/").json()
    assert UTC_Z.match(log["results"][0]["created_at"])
    old_log, old_state = phone.get(f"{url}log/")["ETag"], phone.get(f"{url}state/")["ETag"]
    note = {"client_id": str(uuid.uuid4()), "kind": "note", "payload": {"text": "uno"}}
    assert phone.post(f"{url}log/", note, format="json").status_code == 201
    assert phone.get(f"{url}log/", HTTP_IF_NONE_MATCH=old_log).status_code == 200
    assert phone.get(f"{url}state/", HTTP_IF_NONE_MATCH=old_state).status_code == 200


@pytest.mark.parametrize("after", ["-1", "abc", "1.5", "9999999999", "²", "٣"])
def test_a_bad_after_is_400(league, after):
    battle = first_battle(league)
    response = client_for(league.user(0)).get(f"/api/v1/battles/{battle.pk}/log/?after={after}")
    assert response.status_code == 400
    assert "after" in response.json()["error"]["fields"]


def test_an_unknown_ordering_is_400(league):
    player = client_for(league.user(0))
    assert player.get("/api/v1/battles/?ordering=-id").status_code == 200
    refused = player.get("/api/v1/battles/?ordering=password")
    assert refused.status_code == 400
    assert refused.json()["error"]["code"] == "invalid_ordering"


def test_timestamps_are_utc_with_z(league):
    campaign = client_for(league.organiser).get(f"/api/v1/campaigns/{league.campaign.slug}/")
    assert UTC_Z.match(campaign.json()["created_at"]), campaign.json()["created_at"]


def test_planning_an_entry_before_the_setup_is_the_same_409_as_posting_it(league):
    battle = first_battle(league)
    phone = client_for(league.user(0))
    entry = {"kind": "check", "payload": {"check": "rout", "side": league.warband(0).pk}}
    planned = phone.post(f"/api/v1/battles/{battle.pk}/log/plan/", entry, format="json")
    posted = phone.post(
        f"/api/v1/battles/{battle.pk}/log/",
        {**entry, "client_id": str(uuid.uuid4())},
        format="json",
    )
    assert planned.status_code == posted.status_code == 409
    assert planned.json()["error"]["code"] == posted.json()["error"]["code"] == "battle_not_set_up"
