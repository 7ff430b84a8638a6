"""Exports: an organiser's whole campaign, a player's whole account, on the pages and the API.

Who may export what (anonymous, a stranger, a player, an organiser, a superuser), what each
document holds and what it never holds (credentials, other players' rosters), and that each is
read in a fixed number of queries whatever the size of the campaign.
"""

import json
from itertools import count

import pytest
from django.contrib.auth import get_user_model
from django.db import connection
from django.test.utils import CaptureQueriesContext
from rest_framework.authtoken.models import Token
from rest_framework.test import APIClient

from annuminas.exports.account import account_export
from annuminas.exports.campaign import campaign_export
from battles.demo.seeding import play_round
from battles.models import BattleLogEntry, Campaign, Notification, PostBattleResult, Round
from tests.battles.factories import *  # noqa: F403 - league fixtures
from warbands.models import LedgerEntry, Warband
from warbands.services import warband_update

pytestmark = pytest.mark.django_db

SEEDS = count(101)


@pytest.fixture
def played(make_league):
    """Four players, a round played and resolved (reports, post-battle runs, notifications), a
    log entry at the table, a private note on a warband and an API token."""
    league = make_league(players=4)
    round = play_round(league.campaign, league.organiser, Round.Method.SWISS, SEEDS)
    battle = round.battles.filter(is_bye=False).order_by("pk").first()
    BattleLogEntry.objects.create(
        battle=battle, seq=1, kind="note", payload={"text": "Niebla en el puente"},
        author=league.user(0),
    )  # fmt: skip
    Warband.objects.filter(pk=league.warband(1).pk).update(notes="Nota privada de Arathorn")
    Notification.objects.create(
        recipient=league.user(0), event="pairings_published", key=f"round-{round.pk}",
        params={"round": round.number}, campaign=league.campaign,
    )  # fmt: skip
    Token.objects.create(user=league.user(0))
    for _user, warband in league.players:  # shared: the exports must not leak the links
        warband_update(warband=warband, expected_version=None, shared=True)
    league.battle = battle
    return league


def _page(client, user, path):
    if user is not None:
        client.force_login(user)
    return client.get(path)


def _api(user, path):
    client = APIClient()
    if user is not None:
        client.force_authenticate(user)
    return client.get(path)


# --- who may export --------------------------------------------------------------------------


def test_only_organisers_export_a_campaign(client, played, make_user):
    slug = played.campaign.slug
    page, api = f"/campaigns/{slug}/export.json", f"/api/v1/campaigns/{slug}/export/"
    stranger = make_user("forastero")
    superuser = make_user("root", is_superuser=True, is_staff=True)

    anonymous_page = _page(client, None, page)
    assert anonymous_page.status_code == 302 and "/accounts/login/" in anonymous_page["Location"]
    assert _api(None, api).status_code == 401
    assert _page(client, stranger, page).status_code == 404
    assert _api(stranger, api).status_code == 404
    refused = _api(played.user(0), api)
    assert refused.status_code == 403
    assert set(refused.json()["error"]) == {"code", "message", "fields"}
    assert _page(client, played.user(0), page).status_code == 403

    Campaign.objects.filter(pk=played.campaign.pk).update(public=True)
    assert _api(stranger, api).status_code == 403  # he may read it, not export it

    for reader in (played.organiser, superuser):
        assert _api(reader, api).status_code == 200
        download = _page(client, reader, page)
        assert download.status_code == 200
        assert download["Content-Disposition"].startswith(f'attachment; filename="{slug}-campaign')
        assert download["Cache-Control"] == "private, no-store"
        assert json.loads(download.content)["format"] == "annuminas.campaign"


def test_an_account_export_is_the_signed_in_users_alone(client, played):
    anonymous_page = _page(client, None, "/accounts/profile/export.json")
    assert anonymous_page.status_code == 302
    assert _api(None, "/api/v1/me/export/").status_code == 401
    mine = _api(played.user(0), "/api/v1/me/export/").json()
    assert mine["profile"]["username"] == played.user(0).username
    download = _page(client, played.user(0), "/accounts/profile/export.json")
    assert download.status_code == 200
    assert download["Content-Disposition"].startswith('attachment; filename="annuminas-')
    downloaded = json.loads(download.content)
    assert downloaded["profile"]["date_joined"] == mine["profile"]["date_joined"]
    assert [w["ledger"] for w in downloaded["warbands"]] == [w["ledger"] for w in mine["warbands"]]
    assert [w["id"] for w in downloaded["warbands"]] == [played.warband(0).pk]


def test_the_pages_offer_the_downloads(client, played):
    client.force_login(played.organiser)
    campaign = client.get(f"/campaigns/{played.campaign.slug}/").content.decode()
    assert f'href="/campaigns/{played.campaign.slug}/export.json"' in campaign
    client.force_login(played.user(0))
    assert "export.json" not in client.get(f"/campaigns/{played.campaign.slug}/").content.decode()
    profile = client.get("/accounts/profile/").content.decode()
    assert 'href="/accounts/profile/export.json"' in profile


# --- what they hold --------------------------------------------------------------------------


def test_a_campaign_export_holds_the_campaign_and_no_one_s_secrets(played):
    data = _api(played.organiser, f"/api/v1/campaigns/{played.campaign.slug}/export/").json()
    assert data["format"] == "annuminas.campaign" and data["format_version"] == 1
    assert data["campaign"]["slug"] == played.campaign.slug
    assert data["campaign"]["house_rules"]["starting_treasury"] == 500
    players = {member["player"] for member in data["members"]}
    assert {played.user(n).username for n in range(4)} | {played.organiser.username} == players
    warbands = {warband["id"]: warband for warband in data["warbands"]}
    assert set(warbands) == {played.warband(n).pk for n in range(4)}
    fighter_ids = {f["id"] for warband in warbands.values() for f in warband["fighters"]}

    battles = [battle for battle in data["battles"] if not battle["bye"]]
    assert len(battles) == 2
    for battle in battles:
        assert battle["status"] == "resolved"
        assert {p["result"] for p in battle["participants"]} == {"win", "loss"}
        assert set().union(*(p["fighters"] for p in battle["participants"])) <= fighter_ids
        (run,) = battle["postbattle"]
        assert run["status"] == "applied" and isinstance(run["seed"], int)
        assert len(run["results"]) == 2
        assert all(result["steps"] and result["dice"] for result in run["results"])
    logged = next(b for b in battles if b["id"] == played.battle.pk)
    assert logged["log"]["entries"][0]["payload"] == {"text": "Niebla en el puente"}
    ranks = [row["rank"] for row in data["standings"]]
    assert len(ranks) == 4 and ranks == sorted(ranks) and ranks[0] == 1

    text = json.dumps(data)
    assert played.campaign.join_code not in text
    assert "Nota privada de Arathorn" not in text  # a player's notes are his
    assert Token.objects.get(user=played.user(0)).key not in text
    for warband in Warband.objects.all():
        assert warband.share_token and warband.share_token not in text
    assert not {"treasury", "ledger", "equipment", "notes"} & set(data["warbands"][0])


def test_an_account_export_holds_the_players_data_and_not_the_others(played):
    user = played.user(0)
    warband = played.warband(0)
    data = account_export(user=user)
    assert data["format"] == "annuminas.account" and data["format_version"] == 1
    assert data["profile"]["username"] == user.username
    assert data["profile"]["date_joined"] == user.date_joined
    (exported,) = data["warbands"]
    assert exported["id"] == warband.pk and exported["format"] == "annuminas.warband"
    assert len(exported["ledger"]) == LedgerEntry.objects.filter(warband=warband).count()
    assert [c["campaign"] for c in data["campaigns"]] == [played.campaign.slug]

    (battle,) = data["battles"]
    assert [p["mine"] for p in battle["participants"]].count(True) == 1
    results = battle["postbattle"]
    assert [result["warband"] for result in results] == [warband.pk]
    assert results[0]["dice"] == PostBattleResult.objects.get(warband=warband).rolls
    assert data["battle_log_entries"][0]["payload"] == {"text": "Niebla en el puente"}
    inbox = Notification.objects.filter(recipient=user).count()
    assert inbox > 0 and len(data["notifications"]) == inbox

    text = json.dumps(data, default=str)
    assert Token.objects.get(user=user).key not in text
    warband.refresh_from_db()
    assert warband.share_token and warband.share_token not in text
    assert get_user_model().objects.get(pk=user.pk).password not in text
    assert "Nota privada de Arathorn" not in text  # another player's note
    other = played.warband(1)
    assert not any(r["warband"] == other.pk for b in data["battles"] for r in b["postbattle"])


# --- in a fixed number of queries ------------------------------------------------------------


def _queries(read) -> int:
    with CaptureQueriesContext(connection) as captured:
        read()
    return len(captured.captured_queries)


def test_the_exports_take_the_same_queries_for_one_round_or_three(played):
    campaign_id = played.campaign.pk
    user = played.user(0)
    one_round = (
        _queries(lambda: campaign_export(campaign_id=campaign_id)),
        _queries(lambda: account_export(user=user)),
    )
    for _ in range(2):
        Round.objects.filter(campaign=played.campaign).update(status=Round.Status.CLOSED)
        play_round(played.campaign, played.organiser, Round.Method.SWISS, SEEDS)
    three_rounds = (
        _queries(lambda: campaign_export(campaign_id=campaign_id)),
        _queries(lambda: account_export(user=user)),
    )
    assert three_rounds == one_round
    assert one_round[0] <= 25
