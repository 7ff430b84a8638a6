"""Before the battle: each player picks who fights for his own warband; the scenario comes from
the campaign's list (or the default one), with the attacker when the scenario has one."""

from __future__ import annotations

import pytest

from battles.battlelog.scenarios import DEFAULT_SCENARIOS
from battles.campaigns import services
from battles.models import BattleLogEntry, BattleSetup, Campaign, PostBattleResult, PostBattleRun
from battles.postbattle.upkeep import upkeep_answer, upkeep_decisions_open
from tests.battles.factories import first_battle
from tests.battles.test_battlelog_api import client_for, uid
from tests.battles.test_battlelog_pages import browser
from warbands.models import Fighter, HiredSword, Warband
from warbands.services.hired_swords import hired_sword_hire

pytestmark = pytest.mark.django_db


@pytest.fixture
def pre(make_league):
    league = make_league(henchmen=3)
    battle = first_battle(league)
    return league, battle, f"/api/v1/battles/{battle.pk}/"


def fighters(warband) -> list[int]:
    return list(
        Fighter.objects.filter(warband=warband)
        .order_by("-is_leader", "pk")
        .values_list("pk", flat=True)
    )


def test_a_player_picks_who_fights_for_his_own_warband_only(pre):
    league, battle, url = pre
    a, b = league.warband(0), league.warband(1)
    phone_a = client_for(league.user(0))
    mine = phone_a.put(
        f"{url}lineup/", {"warband": a.pk, "fighters": fighters(a)[:2]}, format="json"
    )
    assert mine.status_code == 200, mine.json()
    theirs = phone_a.put(
        f"{url}lineup/", {"warband": b.pk, "fighters": fighters(b)[:1]}, format="json"
    )
    assert theirs.status_code == 403
    assert theirs.json()["error"]["code"]
    # Nor through the setup itself.
    start = phone_a.post(
        f"{url}setup/",
        {"client_id": uid(), "fighters": {str(b.pk): fighters(b)[:1]}},
        format="json",
    )
    assert start.status_code == 403
    assert not BattleLogEntry.objects.filter(battle=battle).exists()
    # An organiser may pick for either.
    organiser = client_for(league.organiser)
    assert (
        organiser.put(
            f"{url}lineup/", {"warband": b.pk, "fighters": fighters(b)[:3]}, format="json"
        ).status_code
        == 200
    )
    options = client_for(league.user(1)).get(f"{url}setup/").json()
    by_warband = {w["warband"]: w for w in options["warbands"]}
    assert by_warband[a.pk]["lineup"] == fighters(a)[:2]
    assert by_warband[a.pk]["may_pick"] is False and by_warband[b.pk]["may_pick"] is True
    # The setup takes each side's lineup.
    started = phone_a.post(f"{url}setup/", {"client_id": uid(), "first": a.pk}, format="json")
    assert started.status_code == 201, started.json()
    sides = {
        s["warband"]: [f["id"] for f in s["fighters"]] for s in started.json()["payload"]["sides"]
    }
    assert sides == {a.pk: fighters(a)[:2], b.pk: fighters(b)[:3]}
    late = phone_a.put(f"{url}lineup/", {"warband": a.pk, "fighters": fighters(a)}, format="json")
    assert late.status_code == 409


def test_a_fighter_who_misses_the_battle_is_refused_with_the_reason(pre):
    league, battle, url = pre
    a = league.warband(0)
    injured = Fighter.objects.filter(warband=a, is_leader=False).first()
    injured.status = Fighter.Status.MISSES_NEXT
    injured.save(update_fields=["status"])
    refused = client_for(league.user(0)).put(
        f"{url}lineup/", {"warband": a.pk, "fighters": [injured.pk]}, format="json"
    )
    assert refused.status_code == 400
    assert "herida" in str(refused.json()["error"]["fields"]["fighters"])  # Spanish default


def test_the_scenario_comes_from_the_default_list_with_the_attacker_it_needs(pre):
    league, battle, url = pre
    a = league.warband(0)
    phone = client_for(league.user(0))
    options = phone.get(f"{url}setup/").json()
    assert [s["name"] for s in options["scenarios"]] == [s["name"] for s in DEFAULT_SCENARIOS]
    unknown = phone.post(f"{url}setup/", {"client_id": uid(), "scenario": "Ajedrez"}, format="json")
    assert unknown.status_code == 400
    assert "scenario" in unknown.json()["error"]["fields"]
    needs = phone.post(
        f"{url}setup/", {"client_id": uid(), "scenario": "defender el hallazgo"}, format="json"
    )
    assert needs.status_code == 400
    assert "attacker" in needs.json()["error"]["fields"]
    assert not BattleSetup.objects.filter(battle=battle).exists()
    ok = phone.post(
        f"{url}setup/",
        {"client_id": uid(), "scenario": "defender el hallazgo", "attacker": a.pk},
        format="json",
    )
    assert ok.status_code == 201, ok.json()
    assert ok.json()["payload"]["scenario"] == "Defender el hallazgo"
    assert ok.json()["payload"]["attacker"] == a.pk


def test_a_campaign_with_its_own_scenario_list_offers_that_one(pre):
    league, battle, url = pre
    Campaign.objects.filter(pk=league.campaign.pk).update(
        tables={"scenarios": [{"name": "El vado de Sarn", "attacker_defender": False}]}
    )
    phone = client_for(league.user(0))
    assert phone.get(f"{url}setup/").json()["scenarios"] == [
        {"name": "El vado de Sarn", "attacker_defender": False}
    ]
    assert (
        phone.post(
            f"{url}setup/", {"client_id": uid(), "scenario": "Escaramuza"}, format="json"
        ).status_code
        == 400
    )
    assert (
        phone.post(
            f"{url}setup/", {"client_id": uid(), "scenario": "El vado de Sarn"}, format="json"
        ).status_code
        == 201
    )


def test_the_setup_carries_the_underdog_bonus_from_the_ratings(pre):
    """The campaign tables, underdog bonus by rating gap: 0-50 none, 51-75 +1, 76-100 +2, 101-150
    +3, 151-300 +4, 301+ +5 — to the lower-rated warband only."""
    league, battle, url = pre
    a, b = league.warband(0), league.warband(1)
    Warband.objects.filter(pk=a.pk).update(rating=100)
    Warband.objects.filter(pk=b.pk).update(rating=180)  # a gap of 80
    started = client_for(league.user(0)).post(
        f"{url}setup/", {"client_id": uid(), "first": b.pk}, format="json"
    )
    assert started.status_code == 201, started.json()
    assert started.json()["payload"]["underdog"] == {str(a.pk): 2, str(b.pk): 0}
    assert BattleSetup.objects.get(battle=battle).data["underdog"] == {str(a.pk): 2, str(b.pk): 0}


@pytest.mark.parametrize(
    ("ratings", "bonus"),
    [((100, 150), 0), ((100, 151), 1), ((100, 250), 3), ((100, 400), 4), ((100, 401), 5)],
)
def test_the_underdog_bonus_follows_the_table_at_its_edges(pre, ratings, bonus):
    league, battle, url = pre
    a, b = league.warband(0), league.warband(1)
    Warband.objects.filter(pk=a.pk).update(rating=ratings[0])
    Warband.objects.filter(pk=b.pk).update(rating=ratings[1])
    started = client_for(league.user(0)).post(f"{url}setup/", {"client_id": uid()}, format="json")
    assert started.json()["payload"]["underdog"] == {str(a.pk): bonus, str(b.pk): 0}


def test_the_underdog_bonus_uses_the_campaigns_table_as_the_post_battle_does(pre):
    league, battle, url = pre
    a, b = league.warband(0), league.warband(1)
    Campaign.objects.filter(pk=league.campaign.pk).update(
        tables={
            "underdog_bonus": [
                {"min": 0, "max": 10, "result": 0},
                {"min": 11, "max": None, "result": 7},
            ]
        }
    )
    Warband.objects.filter(pk=a.pk).update(rating=120)
    Warband.objects.filter(pk=b.pk).update(rating=100)
    started = client_for(league.user(1)).post(f"{url}setup/", {"client_id": uid()}, format="json")
    assert started.json()["payload"]["underdog"] == {str(a.pk): 0, str(b.pk): 7}


def test_a_hired_sword_with_his_upkeep_unpaid_cannot_fight(pre):
    league, battle, url = pre
    a, b = league.warband(0), league.warband(1)
    ranger = hired_sword_hire(
        warband=a, hired_sword=HiredSword.objects.get(fighter_type__slug="montaraz-errante")
    )
    earlier = services.pairing_create(
        campaign=league.campaign, by=league.organiser, warband_ids=[a.pk, b.pk]
    )
    run = PostBattleRun.objects.create(battle=earlier, seed=7)
    for warband in (a, b):
        PostBattleResult.objects.create(run=run, warband=warband)
    (decision,) = upkeep_decisions_open(run=run)
    phone = client_for(league.user(0))
    options = phone.get(f"{url}setup/").json()
    mine = next(w for w in options["warbands"] if w["warband"] == a.pk)
    assert ranger.pk not in [f["id"] for f in mine["fighters"]]
    (excluded,) = [x for x in mine["excluded"] if x["id"] == ranger.pk]
    assert "mantenimiento" in excluded["reason"]  # Spanish by default: "upkeep unpaid"
    refused = phone.put(f"{url}lineup/", {"warband": a.pk, "fighters": [ranger.pk]}, format="json")
    assert refused.status_code == 400
    assert "mantenimiento" in str(refused.json()["error"]["fields"]["fighters"])
    # Paid: he fights again.
    upkeep_answer(decision=decision, user=league.user(0), choice="pay")
    options = phone.get(f"{url}setup/").json()
    mine = next(w for w in options["warbands"] if w["warband"] == a.pk)
    assert ranger.pk in [f["id"] for f in mine["fighters"]]
    assert ranger.pk not in [x["id"] for x in mine["excluded"]]


def test_the_setup_page_shows_why_the_hired_sword_stays_out(pre):
    league, battle, url = pre
    a, b = league.warband(0), league.warband(1)
    ranger = hired_sword_hire(
        warband=a, hired_sword=HiredSword.objects.get(fighter_type__slug="montaraz-errante")
    )
    earlier = services.pairing_create(
        campaign=league.campaign, by=league.organiser, warband_ids=[a.pk, b.pk]
    )
    run = PostBattleRun.objects.create(battle=earlier, seed=7)
    PostBattleResult.objects.create(run=run, warband=a)
    upkeep_decisions_open(run=run)
    page = browser(league.user(0)).get(f"/battles/{battle.pk}/table/").content.decode()
    assert f"{ranger.name}: upkeep unpaid" in page
