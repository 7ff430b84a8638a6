"""Hired swords in campaigns: the house rule that forbids them, and the upkeep
after a battle as a pending decision (pay, or the sword leaves; never a negative treasury)."""

from __future__ import annotations

import pytest
from django.core.exceptions import PermissionDenied, ValidationError

from annuminas.errors import Conflict
from battles.campaigns import services
from battles.campaigns.house_rules import house_rules_clean
from battles.models import PendingDecision, PostBattleResult, PostBattleRun
from battles.postbattle.upkeep import upkeep_answer, upkeep_decisions_open
from tests.battles.factories import first_battle
from warbands import services as roster
from warbands.models import Fighter, HiredSword, LedgerEntry
from warbands.services.hired_swords import hired_sword_hire

pytestmark = pytest.mark.django_db

RANGER = "montaraz-errante"
SCOUT = "batidor-de-bree"


def sword(slug: str) -> HiredSword:
    return HiredSword.objects.get(fighter_type__slug=slug)


# --- the house rule ---------------------------------------------------------------------------


def test_house_rule_values_are_checked(league_content):
    assert house_rules_clean({"hired_swords_forbidden": "all"}) == {"hired_swords_forbidden": "all"}
    assert house_rules_clean({"hired_swords_forbidden": [RANGER, RANGER]}) == {
        "hired_swords_forbidden": [RANGER]
    }
    with pytest.raises(ValidationError) as error:
        house_rules_clean({"hired_swords_forbidden": ["nadie"]})
    assert "Unknown hired swords: nadie" in str(error.value.message_dict)
    with pytest.raises(ValidationError):
        house_rules_clean({"hired_swords_forbidden": 3})


def test_a_campaign_that_forbids_a_sword_refuses_its_hire(league):
    services.campaign_update(
        campaign=league.campaign,
        by=league.organiser,
        changes={"hired_swords_forbidden": [RANGER]},
    )
    warband = league.warband(0)
    before = warband.treasury
    with pytest.raises(ValidationError, match="does not allow the hired sword"):
        hired_sword_hire(warband=warband, hired_sword=sword(RANGER))
    warband.refresh_from_db()
    assert warband.treasury == before
    assert not warband.fighters.filter(hired_sword__isnull=False).exists()
    hired_sword_hire(warband=warband, hired_sword=sword(SCOUT))  # not forbidden


def test_forbidding_all_refuses_every_sword(league):
    services.campaign_update(
        campaign=league.campaign, by=league.organiser, changes={"hired_swords_forbidden": "all"}
    )
    with pytest.raises(ValidationError, match="does not allow the hired sword"):
        hired_sword_hire(warband=league.warband(1), hired_sword=sword(SCOUT))


# --- the upkeep -------------------------------------------------------------------------------


@pytest.fixture
def run_with_sword(league):
    warband = league.warband(0)
    ranger = hired_sword_hire(warband=warband, hired_sword=sword(RANGER))
    battle = first_battle(league)
    run = PostBattleRun.objects.create(battle=battle, seed=7)
    for participant in battle.participants.all():
        PostBattleResult.objects.create(run=run, warband_id=participant.warband_id)
    return run, warband, ranger


def test_one_open_decision_per_sword_and_none_twice(run_with_sword):
    run, warband, ranger = run_with_sword
    warband.refresh_from_db()
    treasury, entries = warband.treasury, LedgerEntry.objects.count()
    [decision] = upkeep_decisions_open(run=run)
    assert (decision.kind, decision.status, decision.fighter_id) == ("upkeep", "open", ranger.pk)
    assert decision.warband_id == warband.pk
    assert decision.payload["upkeep"] == 20 and decision.options == ["pay", "leave"]
    assert upkeep_decisions_open(run=run) == []
    assert PendingDecision.objects.filter(kind="upkeep").count() == 1
    warband.refresh_from_db()
    assert warband.treasury == treasury and LedgerEntry.objects.count() == entries  # no charge


def test_paying_the_upkeep_goes_through_the_ledger(run_with_sword, league):
    run, warband, ranger = run_with_sword
    [decision] = upkeep_decisions_open(run=run)
    warband.refresh_from_db()
    before = warband.treasury
    answered = upkeep_answer(decision=decision, user=league.user(0), choice="pay")
    assert answered.status == "answered"
    warband.refresh_from_db()
    assert warband.treasury == before - 20
    entry = LedgerEntry.objects.filter(warband=warband).latest("pk")
    assert (entry.amount, entry.source_id) == (-20, ranger.pk)
    with pytest.raises(Conflict):
        upkeep_answer(decision=decision, user=league.user(0), choice="pay")


def test_a_short_treasury_cannot_pay_and_the_sword_may_leave(run_with_sword, league):
    run, warband, ranger = run_with_sword
    [decision] = upkeep_decisions_open(run=run)
    warband.refresh_from_db()
    roster.ledger_record(
        warband=warband, amount=-(warband.treasury - 5), reason="adjustment", description="t"
    )
    with pytest.raises(ValidationError, match="Not enough coronas"):
        upkeep_answer(decision=decision, user=league.user(0), choice="pay")
    decision.refresh_from_db()
    warband.refresh_from_db()
    assert decision.status == "open" and warband.treasury == 5
    answered = upkeep_answer(decision=decision, user=league.user(0), choice="leave")
    assert answered.status == "declined"
    ranger.refresh_from_db()
    warband.refresh_from_db()
    assert ranger.status == Fighter.Status.RETIRED and warband.treasury == 5
    assert not warband.equipment_items.exists()  # his own gear went with him


def test_only_the_owner_answers_and_only_pay_or_leave(run_with_sword, league):
    run, _warband, _ranger = run_with_sword
    [decision] = upkeep_decisions_open(run=run)
    with pytest.raises(PermissionDenied):
        upkeep_answer(decision=decision, user=league.user(1), choice="pay")
    with pytest.raises(ValidationError):
        upkeep_answer(decision=decision, user=league.user(0), choice="maybe")
    decision.refresh_from_db()
    assert decision.status == "open"
