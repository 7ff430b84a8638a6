"""Campaign services: lifecycle, joining under house rules, rounds, pairings, reports."""

import pytest
from django.core.exceptions import PermissionDenied, ValidationError

from annuminas.errors import Conflict
from battles.campaigns import services
from battles.common import access
from battles.models import Battle, BattleCorrection, BattleEvent, Campaign, Membership, Round
from battles.reports import services as reports
from tests.battles.factories import (
    SOLDIER,
    fighter_type,
    first_battle,
    new_warband,
    simple_report,
)
from warbands import services as warband_services
from warbands.models import LedgerEntry, WarbandType

pytestmark = pytest.mark.django_db


# --- campaigns -----------------------------------------------------------------------------------
def test_create_takes_the_preset_and_overrides(league_content, make_user):
    organiser = make_user("glorfindel")
    campaign = services.campaign_create(
        organiser=organiser,
        name="Liga de Annúminas",
        preset="skirmish",
        house_rules={"points_win": 2, "optional_rules": ["challenges"]},
    )
    assert (campaign.rating_cap, campaign.max_fighter_type_copies) == (150, 2)
    assert campaign.starting_treasury == 400
    assert campaign.table_size == "90 × 90 cm"
    assert campaign.points_win == 2
    assert campaign.optional_rules == ["challenges"]
    assert campaign.state == Campaign.State.DRAFT
    assert campaign.slug == "liga-de-annuminas"
    assert len(campaign.join_code) == 8
    membership = campaign.memberships.get()
    assert (membership.user, membership.role) == (organiser, Membership.Role.ORGANISER)
    organiser = type(organiser).objects.get(pk=organiser.pk)
    assert not organiser.is_staff and not organiser.is_superuser, "organising is not staff"
    assert not organiser.has_perm("warbands.import_contentpack")
    assert campaign.history.count() == 1


def test_create_rejects_bad_house_rules(league_content, make_user):
    with pytest.raises(ValidationError) as error:
        services.campaign_create(
            organiser=make_user(),
            name=" ",
            house_rules={"optional_rules": ["duels"], "tables": {"nonsense": []}},
        )
    assert set(error.value.message_dict) == {"name", "optional_rules", "tables"}
    assert Campaign.objects.count() == 0


def test_only_organisers_update_and_stricter_rules_must_fit_members(league):
    player = league.user(0)
    with pytest.raises(PermissionDenied):
        services.campaign_update(campaign=league.campaign, by=player, changes={"rating_cap": 10})
    rating = league.warband(0).rating
    with pytest.raises(ValidationError) as error:
        services.campaign_update(
            campaign=league.campaign, by=league.organiser, changes={"rating_cap": rating - 1}
        )
    assert "Banda 1" in " ".join(error.value.messages)
    league.campaign.refresh_from_db()
    assert league.campaign.rating_cap == 250
    services.campaign_update(
        campaign=league.campaign, by=league.organiser, changes={"description": "Otoño 3019"}
    )
    assert league.campaign.history.first().history_change_reason == "House rules updated"


def test_state_machine(make_league):
    league = make_league(state=Campaign.State.DRAFT)
    campaign, organiser = league.campaign, league.organiser
    with pytest.raises(Conflict):
        services.campaign_transition(campaign=campaign, by=organiser, state="running")
    services.campaign_transition(campaign=campaign, by=organiser, state="open")
    with pytest.raises(ValidationError, match="two warbands"):
        services.campaign_transition(campaign=campaign, by=organiser, state="running")
    with pytest.raises(Conflict):
        services.campaign_archive(campaign=campaign, by=organiser)


def test_archived_campaign_is_frozen(make_league):
    league = make_league()
    services.campaign_transition(campaign=league.campaign, by=league.organiser, state="finished")
    services.campaign_archive(campaign=league.campaign, by=league.organiser)
    with pytest.raises(Conflict, match="archived"):
        services.round_open(campaign=league.campaign, by=league.organiser)


# --- joining and house rules ------------------------------------------------------------------
def test_join_needs_the_code_and_own_warband(make_league, make_user):
    league = make_league(players=0, state=Campaign.State.OPEN)
    campaign = league.campaign
    player, other = make_user("beren"), make_user("luthien")
    warband = new_warband(player, "Los de Beren")
    with pytest.raises(ValidationError) as error:
        services.campaign_join(campaign=campaign, user=player, warband=warband, join_code="NOPE")
    assert "join_code" in error.value.message_dict
    with pytest.raises(ValidationError) as error:
        services.campaign_join(
            campaign=campaign, user=other, warband=warband, join_code=campaign.join_code
        )
    assert "warband" in error.value.message_dict
    membership = services.campaign_join(
        campaign=campaign, user=player, warband=warband, join_code=campaign.join_code.lower()
    )
    assert membership.role == Membership.Role.PLAYER
    second = new_warband(player, "Otra")
    with pytest.raises(ValidationError, match="already play"):
        services.campaign_join(
            campaign=campaign, user=player, warband=second, join_code=campaign.join_code
        )


def test_join_refused_when_the_campaign_is_not_open(make_league, make_user):
    league = make_league(state=Campaign.State.DRAFT)
    player = make_user()
    with pytest.raises(ValidationError, match="not taking"):
        services.campaign_join(
            campaign=league.campaign,
            user=player,
            warband=new_warband(player, "Tarde"),
            join_code=league.campaign.join_code,
        )


def test_join_checks_rating_cap_types_and_copies(make_league, make_user):
    elves = WarbandType.objects.get(slug="elfos-de-rivendel")
    league = make_league(players=0, state=Campaign.State.OPEN, rating_cap=40)
    campaign = league.campaign
    player = make_user("hurin")
    big = new_warband(player, "Grande", henchmen=4)  # captain 25 + 4 × 5 = 45
    with pytest.raises(ValidationError) as error:
        services.campaign_join(
            campaign=campaign, user=player, warband=big, join_code=campaign.join_code
        )
    assert "over the cap of 40" in error.value.messages[0]

    services.campaign_update(campaign=campaign, by=league.organiser, allowed_warband_types=[elves])
    small = new_warband(player, "Pequeña")
    with pytest.raises(ValidationError, match="does not allow Mercenarios de Rhovanion"):
        services.campaign_join(
            campaign=campaign, user=player, warband=small, join_code=campaign.join_code
        )

    services.campaign_update(
        campaign=campaign,
        by=league.organiser,
        changes={"rating_cap": None, "max_fighter_type_copies": 3},
        allowed_warband_types=[],
    )
    with pytest.raises(ValidationError, match="4 × Mercenary Warrior"):
        services.campaign_join(
            campaign=campaign, user=player, warband=big, join_code=campaign.join_code
        )
    assert not campaign.memberships.filter(user=player).exists()


def test_join_gives_a_new_warband_the_campaign_starting_treasury(make_league, make_user):
    league = make_league(players=0, state=Campaign.State.OPEN, starting_treasury=600)
    player = make_user("turin")
    warband = new_warband(player, "Nuevos")  # 500 − 60 for the captain
    services.campaign_join(
        campaign=league.campaign, user=player, warband=warband, join_code=league.campaign.join_code
    )
    warband.refresh_from_db()
    assert warband.treasury == 540
    entry = warband.ledger.order_by("-pk").first()
    assert (entry.amount, entry.reason) == (100, LedgerEntry.Reason.ADJUSTMENT)


def test_a_purchase_that_breaks_the_cap_is_refused_with_the_reason(make_league):
    league = make_league(rating_cap=40)
    warband = league.warband(0)  # rating 25: the captain with 20 XP
    soldier = fighter_type(SOLDIER)
    warband_services.fighter_hire(warband=warband, fighter_type=soldier, name="Dos", count=2)
    with pytest.raises(ValidationError) as error:
        warband_services.fighter_hire(warband=warband, fighter_type=soldier, name="Más", count=2)
    assert "over the cap of 40 of the campaign Liga de Fornost" in error.value.messages[0]
    warband.refresh_from_db()
    assert warband.rating == 35
    assert warband.fighters.count() == 3


def test_copies_limit_applies_to_hires(make_league):
    league = make_league(max_fighter_type_copies=2, rating_cap=None)
    warband = league.warband(0)
    with pytest.raises(ValidationError, match="3 × Mercenary Warrior"):
        warband_services.fighter_hire(
            warband=warband, fighter_type=fighter_type(SOLDIER), name="Tres", count=3
        )


def test_rules_bind_only_while_the_campaign_is_active(make_league):
    league = make_league(rating_cap=30)
    services.campaign_transition(campaign=league.campaign, by=league.organiser, state="finished")
    warband = league.warband(0)
    warband_services.fighter_hire(
        warband=warband, fighter_type=fighter_type(SOLDIER), name="Libres", count=3
    )
    warband.refresh_from_db()
    assert warband.rating == 40


def test_co_organiser_and_withdrawal(league, make_user):
    helper = make_user("cirdan")
    with pytest.raises(PermissionDenied):
        services.campaign_add_organiser(
            campaign=league.campaign, by=league.user(0), username="cirdan"
        )
    membership = services.campaign_add_organiser(
        campaign=league.campaign, by=league.organiser, username="CIRDAN"
    )
    assert membership.role == Membership.Role.ORGANISER
    helper.refresh_from_db()
    assert not helper.is_staff, "organising is not staff"
    assert access.is_organiser(helper, league.campaign)
    player_membership = league.campaign.memberships.get(user=league.user(1))
    services.membership_withdraw(membership=player_membership, by=league.user(1))
    player_membership.refresh_from_db()
    assert not player_membership.active


# --- rounds and pairings ------------------------------------------------------------------
def test_rounds_open_in_order_and_close_when_confirmed(league):
    campaign, organiser = league.campaign, league.organiser
    round1 = services.round_open(campaign=campaign, by=organiser)
    assert round1.number == 1
    with pytest.raises(Conflict, match="still open"):
        services.round_open(campaign=campaign, by=organiser)
    battles = services.pairings_generate(round=round1, by=organiser, method="swiss")
    assert len(battles) == 1
    with pytest.raises(ValidationError, match="not confirmed"):
        services.round_close(round=round1, by=organiser)
    battle = battles[0]
    reports.battle_report(
        battle=battle, reporter=league.user(0), report=simple_report(battle, league.warband(0))
    )
    reports.battle_confirm(battle=battle, by=league.user(1))
    services.round_close(round=round1, by=organiser)
    assert services.round_open(campaign=campaign, by=organiser).number == 2


def test_generate_with_an_odd_count_gives_a_bye_and_avoids_rematches(make_league):
    league = make_league(players=3)
    campaign, organiser = league.campaign, league.organiser
    seen_byes = set()
    met = set()
    for number in (1, 2, 3):
        round = services.round_open(campaign=campaign, by=organiser)
        battles = services.pairings_generate(round=round, by=organiser, method="swiss")
        byes = [b for b in battles if b.is_bye]
        assert len(byes) == 1 and byes[0].status == Battle.Status.CONFIRMED
        seen_byes.add(byes[0].participants.get().warband_id)
        real = next(b for b in battles if not b.is_bye)
        pair = frozenset(real.participants.values_list("warband_id", flat=True))
        assert pair not in met, f"rematch in round {number}"
        met.add(pair)
        reports.battle_report(
            battle=real,
            reporter=organiser,
            report=simple_report(real, real.participants.first().warband),
        )
        reports.battle_confirm(battle=real, by=organiser)
        services.round_close(round=round, by=organiser)
    assert len(seen_byes) == 3, "byes rotate"


def test_regenerating_replaces_untouched_pairings_but_not_reported_ones(make_league):
    league = make_league(players=4)
    round = services.round_open(campaign=league.campaign, by=league.organiser)
    services.pairings_generate(round=round, by=league.organiser, method="rating")
    services.pairings_generate(round=round, by=league.organiser, method="swiss")
    assert round.battles.count() == 2
    battle = round.battles.first()
    winner = battle.participants.first().warband
    reports.battle_report(
        battle=battle, reporter=league.organiser, report=simple_report(battle, winner)
    )
    with pytest.raises(Conflict, match="already reported"):
        services.pairings_generate(round=round, by=league.organiser, method="swiss")


def test_hand_edited_multiplayer_pairing(make_league):
    league = make_league(players=4)
    round = services.round_open(campaign=league.campaign, by=league.organiser)
    battles = services.pairings_generate(round=round, by=league.organiser, method="swiss")
    first, second = battles
    moved = second.participants.first().warband_id
    with pytest.raises(ValidationError, match="Already paired"):
        services.pairing_edit(
            battle=first,
            by=league.organiser,
            warband_ids=[*first.participants.values_list("warband_id", flat=True), moved],
        )
    services.pairing_delete(battle=second, by=league.organiser)
    edited = services.pairing_edit(
        battle=first,
        by=league.organiser,
        warband_ids=[*first.participants.values_list("warband_id", flat=True), moved],
    )
    assert edited.participants.count() == 3
    round.refresh_from_db()
    assert round.pairing_method == Round.Method.MANUAL
    with pytest.raises(PermissionDenied):
        services.pairing_edit(battle=first, by=league.user(0), warband_ids=[moved])


# --- reports -----------------------------------------------------------------------------------
def _event(**kwargs):
    return reports.EventReport(**kwargs)


def test_report_confirm_and_frozen(league, make_user):
    battle = first_battle(league)
    a, b = league.warband(0), league.warband(1)
    a_leader, b_leader = a.fighters.get(), b.fighters.get()
    report = simple_report(
        battle,
        a,
        events=[
            _event(
                turn=2,
                kind="out_of_action",
                actor_id=a_leader.pk,
                target_id=b_leader.pk,
                weapon="espada",
            ),
            _event(turn=3, kind="rout", actor_warband_id=b.pk, voluntary=True),
        ],
        notes="Buena partida",
    )
    with pytest.raises(PermissionDenied):
        reports.battle_report(battle=battle, reporter=make_user("outsider"), report=report)
    with pytest.raises(Conflict):
        reports.battle_report(
            battle=battle, reporter=league.user(0), report=report, expected_version=7
        )
    battle = reports.battle_report(
        battle=battle, reporter=league.user(0), report=report, expected_version=1
    )
    assert (battle.status, battle.version) == (Battle.Status.REPORTED, 2)
    results = dict(battle.participants.values_list("warband_id", "result"))
    assert results == {a.pk: "win", b.pk: "loss"}
    loser = battle.participants.get(warband=b)
    assert loser.routed and loser.voluntary_rout
    assert loser.fighters.get() == b_leader
    event = battle.events.get(kind=BattleEvent.Kind.OUT_OF_ACTION)
    assert (event.actor_warband_id, event.target_warband_id, event.weapon) == (a.pk, b.pk, "espada")

    with pytest.raises(PermissionDenied):
        reports.battle_confirm(battle=battle, by=league.user(0))
    battle = reports.battle_confirm(battle=battle, by=league.user(1), expected_version=2)
    assert battle.status == Battle.Status.CONFIRMED and battle.confirmed_by == league.user(1)
    with pytest.raises(Conflict, match="frozen"):
        reports.battle_report(battle=battle, reporter=league.user(1), report=report)
    with pytest.raises(Conflict):
        reports.battle_dispute(battle=battle, by=league.user(1), reason="no")
    assert battle.history.count() == 3


def test_bad_reports_write_nothing(league):
    battle = first_battle(league)
    a, b = league.warband(0), league.warband(1)
    cases = [
        (reports.Report(winner_ids=[]), "winners"),
        (reports.Report(winner_ids=[a.pk, b.pk]), "winners"),
        (reports.Report(is_draw=True, winner_ids=[a.pk]), "winners"),
        (
            reports.Report(
                winner_ids=[a.pk],
                participants=[
                    reports.ParticipantReport(warband_id=a.pk, fighter_ids=[b.fighters.get().pk])
                ],
            ),
            "participants",
        ),
        (
            reports.Report(winner_ids=[a.pk], events=[_event(turn=0, kind="out_of_action")]),
            "events",
        ),
        (reports.Report(winner_ids=[a.pk], events=[_event(turn=1, kind="rout")]), "events"),
    ]
    for report, field in cases:
        with pytest.raises(ValidationError) as error:
            reports.battle_report(battle=battle, reporter=league.user(0), report=report)
        assert field in error.value.message_dict
    battle.refresh_from_db()
    assert (battle.status, battle.version) == (Battle.Status.SCHEDULED, 1)
    assert not battle.events.exists()


def test_dispute_settle_and_correct_are_recorded(league, make_user):
    battle = first_battle(league)
    a, b = league.warband(0), league.warband(1)
    reports.battle_report(battle=battle, reporter=league.user(0), report=simple_report(battle, a))
    with pytest.raises(ValidationError):
        reports.battle_dispute(battle=battle, by=league.user(1), reason="  ")
    with pytest.raises(PermissionDenied):
        reports.battle_dispute(battle=battle, by=league.user(0), reason="me")
    battle = reports.battle_dispute(battle=battle, by=league.user(1), reason="Gané yo")
    assert battle.status == Battle.Status.DISPUTED and battle.dispute_reason == "Gané yo"
    with pytest.raises(PermissionDenied):
        reports.battle_settle(battle=battle, by=league.user(1), reason="yo")
    other = make_user("other-organiser")
    services.campaign_create(organiser=other, name="Otra liga")
    with pytest.raises(PermissionDenied):
        reports.battle_settle(battle=battle, by=other, reason="yo")
    battle = reports.battle_settle(
        battle=battle, by=league.organiser, reason="Visto el vídeo", report=simple_report(battle, b)
    )
    assert battle.status == Battle.Status.CONFIRMED
    assert battle.participants.get(warband=b).result == "win"
    settlement = BattleCorrection.objects.get(battle=battle)
    assert settlement.before["participants"][0]["result"] == "win"
    assert settlement.after["participants"][0]["result"] == "loss"

    battle = reports.battle_correct(
        battle=battle,
        by=league.organiser,
        reason="Era empate",
        report=reports.Report(is_draw=True, scenario="Escaramuza"),
    )
    assert set(battle.participants.values_list("result", flat=True)) == {"draw"}
    assert battle.corrections.count() == 2
    assert battle.history.first().history_change_reason == "Corrected: Era empate"


# --- standings ---------------------------------------------------------------------------------
def test_standings_from_reports(make_league):
    league = make_league(players=3)
    organiser = league.organiser
    round = services.round_open(campaign=league.campaign, by=organiser)
    battles = services.pairings_generate(round=round, by=organiser, method="rating")
    real = next(b for b in battles if not b.is_bye)
    bye_warband = next(b for b in battles if b.is_bye).participants.get().warband
    winner, loser = [p.warband for p in real.participants.select_related("warband")]
    report = simple_report(
        real,
        winner,
        events=[
            _event(
                turn=1, kind="out_of_action", actor_warband_id=winner.pk, target_warband_id=loser.pk
            ),
            _event(
                turn=2, kind="out_of_action", actor_warband_id=winner.pk, target_warband_id=loser.pk
            ),
        ],
    )
    reports.battle_report(battle=real, reporter=organiser, report=report)
    rows = services.standings_compute(campaign=league.campaign)
    assert [r.points for r in rows] == [3, 0, 0], "the bye counts, the unconfirmed battle not yet"
    assert rows[0].competitor_id == bye_warband.pk
    reports.battle_confirm(battle=real, by=organiser)
    rows = services.standings_compute(campaign=league.campaign, round=1)
    # Winner and bye both 3 points; winner has opponents' points 0 too, but 2 enemies OOA.
    assert [(r.competitor_id, r.points, r.enemies_out_of_action) for r in rows] == [
        (winner.pk, 3, 2),
        (bye_warband.pk, 3, 0),
        (loser.pk, 0, 0),
    ]


def test_the_report_check_is_pure_and_returns_the_plan_to_write():
    """``report_plan`` reads no database: a report and the battle's facts in, a plan out."""
    from battles.reports.check import (
        BattleFacts,
        EventReport,
        FighterFacts,
        ParticipantReport,
        Report,
        report_plan,
    )

    facts = BattleFacts(
        warbands={1: "Arthedain", 2: "Angmar"},
        fighters={
            10: FighterFacts(warband_id=1, name="Aragost", active=True, status_label="active"),
            20: FighterFacts(warband_id=2, name="Orco", active=False, status_label="dead"),
        },
    )
    report = Report(
        winner_ids=[1],
        participants=[ParticipantReport(warband_id=1, fighter_ids=[10])],
        events=[
            EventReport(turn=3, kind=BattleEvent.Kind.OUT_OF_ACTION, actor_id=10, target_id=20),
            EventReport(turn=4, kind=BattleEvent.Kind.ROUT, actor_warband_id=2, voluntary=True),
        ],
    )
    plan = report_plan(report, facts, check_fighter_status=True)
    rows = [
        (p.warband_id, p.result, p.routed, p.voluntary_rout, p.fighter_ids)
        for p in plan.participants
    ]
    assert rows == [(1, "win", False, False, (10,)), (2, "loss", True, True, None)]
    assert (plan.events[0].actor_warband_id, plan.events[0].target_warband_id) == (1, 2)
    dead = Report(winner_ids=[2], participants=[ParticipantReport(warband_id=2, fighter_ids=[20])])
    with pytest.raises(ValidationError) as error:
        report_plan(dead, facts, check_fighter_status=True)
    assert error.value.message_dict == {"participants": ["Orco cannot take part: dead."]}
