"""The undo of the last roster change meets the campaign (found by a review): it is
refused while one of the warband's battles is under way, what it brings back must still satisfy
the campaign's house rules, and it never brings back a warrior whose leaving settled something
else (a hired sword's upkeep, a captive's fate)."""

from __future__ import annotations

import pytest
from django.core.exceptions import ValidationError
from rest_framework.test import APIClient

from annuminas.errors import Conflict
from battles.models import Campaign, PendingDecision, PostBattleResult, PostBattleRun
from battles.postbattle.upkeep import upkeep_decisions_open
from battles.reports import services
from tests.battles.factories import first_battle, simple_report
from warbands import services as roster
from warbands.models import Equipment, Fighter, HiredSword, Warband
from warbands.services.hired_swords import hired_sword_hire

pytestmark = pytest.mark.django_db


def reloaded(warband: Warband) -> Warband:
    return Warband.objects.select_related("undo_point").get(pk=warband.pk)


def buy_sword(warband: Warband) -> None:
    fighter = warband.fighters.filter(is_leader=True).first()
    roster.equipment_buy(
        warband=warband, equipment=Equipment.objects.get(slug="espada"), fighter=fighter
    )


def test_no_undo_while_a_battle_of_the_warband_is_under_way(league):
    warband = league.warband(0)
    battle = first_battle(league)  # scheduled, nothing logged: the undo still works
    buy_sword(warband)
    roster.warband_undo(warband=reloaded(warband))

    buy_sword(warband)
    services.battle_report(
        battle=battle, reporter=league.user(0), report=simple_report(battle, warband)
    )
    treasury = reloaded(warband).treasury
    with pytest.raises(Conflict) as refused:
        roster.warband_undo(warband=reloaded(warband))
    assert "under way" in str(refused.value.detail)
    assert reloaded(warband).treasury == treasury  # nothing came back
    services.battle_confirm(battle=battle, by=league.user(1))
    with pytest.raises(Conflict):  # confirmed, its sequence not applied yet
        roster.warband_undo(warband=reloaded(warband))


def test_the_api_answers_409_while_a_battle_is_under_way(league):
    warband = league.warband(0)
    battle = first_battle(league)
    buy_sword(warband)
    services.battle_report(
        battle=battle, reporter=league.user(0), report=simple_report(battle, warband)
    )
    api = APIClient()
    api.force_authenticate(warband.owner)
    response = api.post(f"/api/v1/warbands/{warband.pk}/undo/", {}, format="json")
    assert response.status_code == 409
    assert set(response.json()["error"]) == {"code", "message", "fields"}


def test_what_an_undo_brings_back_must_keep_the_house_rules(make_league):
    league = make_league(henchmen=2)
    warband = league.warband(0)
    soldier = warband.fighters.filter(group__isnull=False).first()
    roster.fighter_dismiss(fighter=soldier)
    # The organiser tightens the cap to the rating the warband has now, without the soldier.
    Campaign.objects.filter(pk=league.campaign.pk).update(rating_cap=reloaded(warband).rating)
    before = reloaded(warband)
    with pytest.raises(ValidationError) as refused:
        roster.warband_undo(warband=before)
    assert "cap" in str(refused.value)
    after = reloaded(warband)
    assert (after.treasury, after.version) == (before.treasury, before.version)
    assert not Fighter.objects.filter(pk=soldier.pk).exists()


@pytest.fixture
def sword_with_upkeep_due(league):
    warband = league.warband(0)
    sword = hired_sword_hire(
        warband=warband, hired_sword=HiredSword.objects.get(fighter_type__slug="montaraz-errante")
    )
    battle = first_battle(league)
    run = PostBattleRun.objects.create(battle=battle, seed=7)
    for participant in battle.participants.all():
        PostBattleResult.objects.create(run=run, warband_id=participant.warband_id)
    [decision] = upkeep_decisions_open(run=run)
    return warband, sword, decision


def test_a_hired_sword_is_let_go_not_dismissed(sword_with_upkeep_due):
    warband, sword, decision = sword_with_upkeep_due
    with pytest.raises(ValidationError):
        roster.fighter_dismiss(fighter=sword)  # would delete him, and his upkeep with him
    api = APIClient()
    api.force_authenticate(warband.owner)
    left = api.delete(f"/api/v1/warbands/{warband.pk}/fighters/{sword.pk}/")
    assert left.status_code == 200, left.content
    sword.refresh_from_db()
    assert sword.status == Fighter.Status.RETIRED  # on the record, as hired swords leave
    assert PendingDecision.objects.filter(pk=decision.pk).exists()  # the upkeep is not erased


def test_a_captive_is_not_dismissed_from_under_his_captor(make_league):
    league = make_league(henchmen=2)
    warband = league.warband(0)
    captive = warband.fighters.filter(group__isnull=False).first()
    Fighter.objects.filter(pk=captive.pk).update(status=Fighter.Status.CAPTURED)
    with pytest.raises(ValidationError) as refused:
        roster.fighter_dismiss(fighter=Fighter.objects.get(pk=captive.pk))
    assert "captive" in str(refused.value)
    assert Fighter.objects.filter(pk=captive.pk).exists()
