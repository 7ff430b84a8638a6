"""The post-battle sequence applied to rosters, with fixed dice (faces typed at the table)."""

import pytest
from django.core.exceptions import PermissionDenied, ValidationError

from annuminas.errors import Conflict
from battles.campaigns.services import round_close
from battles.models import Battle, BattleEvent, Job, PendingDecision, PostBattleRun
from battles.postbattle import (
    battle_resolve_start,
    battle_revert,
    decision_answer,
    postbattle_run_apply,
    round_resolve_start,
)
from battles.reports import services
from rules.engine import sell_finds
from tests.battles.factories import first_battle, simple_report
from warbands import services as roster
from warbands.models import Equipment, Fighter, LedgerEntry
from warbands.services import warband_export

pytestmark = pytest.mark.django_db


def fight(league, *, winner=0, events=()):
    """Round 1 between players 0 and 1, reported by player 0 and confirmed by player 1."""
    battle = first_battle(league)
    report = simple_report(
        battle, league.warband(winner), events=[services.EventReport(**e) for e in events]
    )
    services.battle_report(battle=battle, reporter=league.user(0), report=report)
    services.battle_confirm(battle=battle, by=league.user(1))
    battle.refresh_from_db()
    return battle


def out_of_action(actor, target, turn=2):
    return {
        "turn": turn,
        "kind": BattleEvent.Kind.OUT_OF_ACTION,
        "actor_warband_id": actor.warband_id,
        "actor_id": actor.pk,
        "target_warband_id": target.warband_id,
        "target_id": target.pk,
    }


def leader(warband):
    return Fighter.objects.get(warband=warband, is_leader=True)


@pytest.fixture
def resolve(django_capture_on_commit_callbacks):
    """Resolve a battle now (tasks run in-process) and return its run."""

    def do(battle, **kwargs):
        with django_capture_on_commit_callbacks(execute=True):
            battle_resolve_start(battle=battle, **kwargs)
        return PostBattleRun.objects.exclude(status="reverted").get(battle=battle)

    return do


def faces(**per_warband):
    return {str(warband.pk): list(values) for warband, values in per_warband.values()}


def test_dead_hero_is_removed_with_his_equipment(league, resolve):
    a, b = league.warband(0), league.warband(1)
    sword = Equipment.objects.get(slug="espada")
    roster.equipment_buy(warband=b, equipment=sword, fighter=leader(b))
    battle = fight(league, events=[out_of_action(leader(a), leader(b))])
    treasury_a = a.treasury

    run = resolve(
        battle,
        faces={
            str(a.pk): [3, 4, 1, 1],  # exploration 2 dice = 7 → 2 finds; rare items 2D6 = 2
            str(b.pk): [1, 1],  # serious injury D66 = 11: dead
        },
    )

    assert run.status == "applied", run.error
    dead = Fighter.objects.get(pk=leader_pk(b, run))
    assert dead.status == "dead"
    assert not dead.equipment.exists()
    assert LedgerEntry.objects.filter(warband=b, reason="injury").exists()
    a.refresh_from_db()
    gold = sell_finds(finds=2, warband_size=1)
    assert a.treasury == treasury_a + gold
    assert list(
        LedgerEntry.objects.filter(warband=a, reason__in=["exploration", "sell_finds"])
        .order_by("pk")
        .values_list("reason", "finds_delta", "amount")
    ) == [("exploration", 2, 0), ("sell_finds", -2, gold)]
    assert a.finds == 0
    battle.refresh_from_db()
    assert battle.status == Battle.Status.RESOLVED


def leader_pk(warband, run):
    return next(
        step["fighter_id"]
        for result in run.results.filter(warband=warband)
        for step in result.steps
        if step["step"] == "injury"
    )


def test_experience_winning_leader_kills_and_underdog(league, resolve):
    a, b = league.warband(0), league.warband(1)
    battle = fight(league, events=[out_of_action(leader(a), leader(b))])
    battle.participants.filter(warband=b).update(rating_at_battle=10)
    battle.participants.filter(warband=a).update(rating_at_battle=100)  # gap 90 → +2
    xp_a, xp_b = leader(a).experience, leader(b).experience

    run = resolve(battle, faces={str(a.pk): [1, 1, 1, 1], str(b.pk): [4, 1]})  # b: D66 41

    assert run.status == "applied", run.error
    assert leader(a).experience == xp_a + 3  # survived, winning leader, one enemy
    assert leader(b).experience == xp_b + 1 + 2  # survived (full recovery), underdog +2
    result_b = run.results.get(warband=b)
    assert result_b.experience_gained == 3


def test_henchman_dies_on_a_one_or_two(make_league, resolve):
    league = make_league(henchmen=2)
    a, b = league.warband(0), league.warband(1)
    soldier = Fighter.objects.filter(warband=b, group__isnull=False).first()
    battle = fight(league, events=[out_of_action(leader(a), soldier)])

    run = resolve(
        battle,
        faces={str(a.pk): [1, 1, 1, 1], str(b.pk): [2, 1, 1, 1]},  # b: henchman D6 = 2
    )

    assert run.status == "applied", run.error
    soldier.refresh_from_db()
    assert soldier.status == "dead"
    survivor = Fighter.objects.filter(warband=b, group__isnull=False, status="active").get()
    assert survivor.experience == 1  # the group gains as a group


def test_threshold_crossed_rolls_an_advance(league, resolve):
    a, b = league.warband(0), league.warband(1)
    captain = leader(a)
    battle = fight(league, events=[out_of_action(captain, leader(b))])
    strength = captain.s
    # 20 XP + 3 + scenario bonus 1 = 24: a hero threshold. Advance 2D6 = 6, then D6 = 1: +1 F.
    run = resolve(
        battle,
        faces={str(a.pk): [3, 3, 1, 1, 1, 1, 1], str(b.pk): [4, 1]},
        options={"scenario_bonus": {str(captain.pk): 1}},
    )
    assert run.status == "applied", run.error
    captain.refresh_from_db()
    assert captain.experience == 24
    assert captain.s == strength + 1
    assert captain.advances_due == 0
    assert captain.advances[-1]["characteristic"] == "s"


def test_a_choice_becomes_a_pending_decision_for_the_owner(league, resolve):
    a, b = league.warband(0), league.warband(1)
    captain = leader(a)
    battle = fight(league, events=[out_of_action(captain, leader(b))])
    run = resolve(
        battle,
        faces={str(a.pk): [3, 4, 1, 1, 1, 1], str(b.pk): [4, 1]},  # advance 2D6 = 7: HA or HP
        options={"scenario_bonus": {str(captain.pk): 1}},
    )
    assert run.status == "applied", run.error
    decision = PendingDecision.objects.get(warband=a, kind="characteristic")
    assert decision.options == ["ws", "bs"]

    with pytest.raises(PermissionDenied):
        decision_answer(decision=decision, user=league.user(1), choice="ws")  # not his warband
    with pytest.raises(ValidationError):
        decision_answer(decision=decision, user=league.user(0), choice="s")
    ws = captain.ws
    decision_answer(decision=decision, user=league.user(0), choice="ws")
    captain.refresh_from_db()
    assert captain.ws == ws + 1
    with pytest.raises(Conflict):
        decision_answer(decision=decision, user=league.user(0), choice="bs")


def test_the_lads_got_talent(make_league, resolve):
    league = make_league(henchmen=2)
    a, b = league.warband(0), league.warband(1)
    group = a.groups.get()
    battle = fight(league, events=[out_of_action(leader(a), leader(b))])
    # The group reaches 2 XP (survived + scenario bonus): an advance; 2D6 = 12: talent.
    run = resolve(
        battle,
        faces={str(a.pk): [6, 6, 1, 1, 1, 1], str(b.pk): [4, 1]},
        options={"scenario_bonus": {f"group:{group.pk}": 1}},
    )
    assert run.status == "applied", run.error
    decision = PendingDecision.objects.get(warband=a, kind="lads_got_talent")
    lad = Fighter.objects.get(pk=decision.options[0])
    lists = decision.payload["skill_lists"][:2]
    decision_answer(
        decision=decision, user=league.user(0), choice={"fighter": lad.pk, "skill_lists": lists}
    )
    lad.refresh_from_db()
    assert lad.is_hero and lad.group_id is None
    assert lad.skill_lists == lists
    assert lad.experience == 2
    assert "hero_advance" in PendingDecision.objects.get(pk=decision.pk).payload


@pytest.mark.parametrize("choice", ["ransom", "sell", "exchange"])
def test_captive_ransom_sale_or_exchange_through_the_ledger(league, resolve, choice):
    a, b = league.warband(0), league.warband(1)
    sword = Equipment.objects.get(slug="espada")
    roster.equipment_buy(warband=b, equipment=sword, fighter=leader(b))
    captive = leader(b)
    battle = fight(league, events=[out_of_action(leader(a), captive)])
    # b: D66 = 61 captured, sale value D6 = 4 → 20 co
    run = resolve(battle, faces={str(a.pk): [1, 1, 1, 1], str(b.pk): [6, 1, 4]})
    assert run.status == "applied", run.error
    captive.refresh_from_db()
    assert captive.status == "captured"
    decision = PendingDecision.objects.get(kind="captive")
    assert decision.warband_id == a.pk and decision.payload["sale_value"] == 20
    a.refresh_from_db()
    b.refresh_from_db()
    before_a, before_b = a.treasury, b.treasury

    decision_answer(decision=decision, user=league.user(0), choice=choice)
    if choice == "ransom":  # an offer: the owner accepts it and pays
        offer = PendingDecision.objects.get(warband=b, kind="captive", status="open")
        assert offer.options == ["accept", "refuse"]
        b.refresh_from_db()
        assert b.treasury == before_b  # nothing paid before he accepts
        decision_answer(decision=offer, user=league.user(1), choice="accept")

    a.refresh_from_db()
    b.refresh_from_db()
    captive.refresh_from_db()
    if choice == "ransom":
        assert (a.treasury, b.treasury) == (before_a + 20, before_b - 20)
        assert captive.status == "active"
    elif choice == "sell":
        assert (a.treasury, b.treasury) == (before_a + 20, before_b)
        assert captive.status == "dead"
        assert a.equipment_items.filter(equipment=sword, fighter__isnull=True).exists()
    else:
        assert (a.treasury, b.treasury) == (before_a, before_b)
        assert captive.status == "active"
    for warband in (a, b):
        assert sum(warband.ledger.values_list("amount", flat=True)) == warband.treasury


def snapshot(warband):
    """The roster as exported, without the ledger's rows (the ledger is append-only: a revert
    adds compensating entries, so its *sum* returns, checked separately)."""
    warband.refresh_from_db()
    data = warband_export(warband=warband)
    data.pop("exported_at", None)
    data.pop("ledger", None)
    return data, warband.treasury, warband.finds, warband.rating


def test_revert_returns_roster_ledger_and_rating_exactly(league, resolve):
    a, b = league.warband(0), league.warband(1)
    roster.equipment_buy(
        warband=b, equipment=Equipment.objects.get(slug="espada"), fighter=leader(b)
    )
    battle = fight(league, events=[out_of_action(leader(a), leader(b))])
    before = {w.pk: snapshot(w) for w in (a, b)}
    run = resolve(battle, faces={str(a.pk): [3, 4, 1, 1], str(b.pk): [1, 1]})  # b's leader dies
    assert run.status == "applied"
    assert snapshot(b) != before[b.pk]

    ledger_before = {w.pk: w.ledger.count() for w in (a, b)}
    battle_revert(battle=battle, user=league.organiser)

    for warband in (a, b):
        assert snapshot(warband) == before[warband.pk]
        assert sum(warband.ledger.values_list("amount", flat=True)) == warband.treasury
        assert sum(warband.ledger.values_list("finds_delta", flat=True)) == warband.finds
    # b's leader died and a sold finds: each got exactly one compensating entry
    assert a.ledger.count() == ledger_before[a.pk] + 1
    assert a.ledger.order_by("pk").last().reason == "revert"
    battle.refresh_from_db()
    assert battle.status == Battle.Status.CONFIRMED
    # and it can be resolved again, with new dice
    again = resolve(battle, seed=3)
    assert again.status == "applied" and again.pk != run.pk


def test_revert_is_refused_once_the_roster_changed(league, resolve):
    a, b = league.warband(0), league.warband(1)
    battle = fight(league, events=[out_of_action(leader(a), leader(b))])
    resolve(battle, faces={str(a.pk): [1, 1, 1, 1], str(b.pk): [4, 1]})
    roster.equipment_buy(warband=a, equipment=Equipment.objects.get(slug="daga"), fighter=leader(a))
    with pytest.raises(Conflict):
        battle_revert(battle=battle, user=league.organiser)


def test_applying_a_run_twice_changes_nothing(league, resolve):
    a, b = league.warband(0), league.warband(1)
    battle = fight(league, events=[out_of_action(leader(a), leader(b))])
    run = resolve(battle, seed=11)
    state = {w.pk: snapshot(w) for w in (a, b)}
    ledger = LedgerEntry.objects.count()

    again = postbattle_run_apply(run_id=run.pk)

    assert again.status == "applied"
    assert LedgerEntry.objects.count() == ledger
    assert {w.pk: snapshot(w) for w in (a, b)} == state
    assert run.results.count() == 2


def test_same_seed_same_dice(league, resolve):
    a, b = league.warband(0), league.warband(1)
    battle = fight(league, events=[out_of_action(leader(a), leader(b))])
    first = resolve(battle, seed=2024)
    rolls = {r.warband_id: r.rolls for r in first.results.all()}
    battle_revert(battle=battle, user=league.organiser)
    second = resolve(battle, seed=2024)
    assert {r.warband_id: r.rolls for r in second.results.all()} == rolls


def test_unresolvable_battles_are_refused(league):
    battle = first_battle(league)
    with pytest.raises(ValidationError):
        battle_resolve_start(battle=battle, user=league.organiser)
    assert not PostBattleRun.objects.exists()


def test_a_bad_battle_is_recorded_and_the_job_says_so(league, resolve):
    a, b = league.warband(0), league.warband(1)
    battle = fight(league, events=[out_of_action(leader(a), leader(b))])
    run = resolve(battle, faces={str(a.pk): [1], str(b.pk): [4, 1]})  # too few dice for a
    assert run.status == "failed"
    assert run.error
    job = Job.objects.get(battle=battle)
    assert job.status == Job.Status.FAILED
    assert str(battle.pk) in job.errors
    a.refresh_from_db()
    assert not a.postbattle_results.exists()  # nothing half-written


def test_round_resolution_is_one_job_and_duplicates_share_it(
    make_league, django_capture_on_commit_callbacks
):
    league = make_league(players=4)
    battle = first_battle(league)
    round = battle.round
    for battle in round.battles.filter(is_bye=False):
        participants = list(battle.participants.select_related("warband"))
        winner = participants[0].warband
        report = simple_report(battle, winner)
        owner = winner.owner
        services.battle_report(battle=battle, reporter=owner, report=report)
        services.battle_confirm(battle=battle, by=participants[1].warband.owner)
    with django_capture_on_commit_callbacks(execute=True):
        job = round_resolve_start(round=round, user=league.organiser)
        assert round_resolve_start(round=round, user=league.organiser).pk in {job.pk}
    job.refresh_from_db()
    assert job.total == 2
    assert (job.status, job.done, job.failed) == (Job.Status.SUCCEEDED, 2, 0)
    assert set(round.battles.filter(is_bye=False).values_list("status", flat=True)) == {"resolved"}
    # once finished, a new submission has nothing left to do
    with pytest.raises(ValidationError):
        round_resolve_start(round=round, user=league.organiser)


def test_a_failed_run_can_be_tried_again_with_new_dice(league, resolve):
    a, b = league.warband(0), league.warband(1)
    battle = fight(league, events=[out_of_action(leader(a), leader(b))])
    failed = resolve(battle, faces={str(a.pk): [1], str(b.pk): [4, 1]})
    assert failed.status == "failed"
    again = resolve(battle, faces={str(a.pk): [1, 1, 1, 1], str(b.pk): [4, 1]})
    assert again.pk == failed.pk and again.status == "applied"


def test_a_battle_queued_by_its_round_keeps_the_round_job(league):
    a, b = league.warband(0), league.warband(1)
    battle = fight(league, events=[out_of_action(leader(a), leader(b))])
    round_job = round_resolve_start(round=battle.round, user=league.organiser)  # not run yet
    assert battle_resolve_start(battle=battle, user=league.user(0)).pk == round_job.pk
    assert PostBattleRun.objects.get(battle=battle).job_id == round_job.pk


def test_an_advance_waiting_for_a_choice_is_not_rolled_again(league, resolve):
    a, b = league.warband(0), league.warband(1)
    captain = leader(a)
    battle = fight(league, events=[out_of_action(captain, leader(b))])
    resolve(
        battle,
        faces={str(a.pk): [3, 4, 1, 1, 1, 1], str(b.pk): [4, 1]},  # 7: HA or HP, left open
        options={"scenario_bonus": {str(captain.pk): 1}},
    )
    assert PendingDecision.objects.filter(warband=a, status="open").count() == 1
    # A second battle (round 2) brings no new threshold: no new roll for the old advance.
    round_close(round=battle.round, by=league.organiser)
    second = first_battle(league)
    report = simple_report(second, a)
    services.battle_report(battle=second, reporter=league.user(0), report=report)
    services.battle_confirm(battle=second, by=league.user(1))
    run = resolve(second, faces={str(a.pk): [1, 1, 1, 1], str(b.pk): [1, 1, 1]})
    assert run.status == "applied", run.error
    assert PendingDecision.objects.filter(warband=a, status="open").count() == 1


def test_a_rare_item_found_can_be_bought_at_its_rolled_price(league, resolve):
    from warbands.models import EquipmentListEntry, FighterType

    a, b = league.warband(0), league.warband(1)
    # The organiser lets mercenary heroes use mithril (a catalogue edit, as in the admin).
    EquipmentListEntry.objects.create(
        equipment_list=leader(a).fighter_type.equipment_list,
        equipment=Equipment.objects.get(slug="cota-de-mithril"),
        cost=100,
    )
    roster.ledger_record(warband=a, amount=500, reason="adjustment", description="test")
    rare_in_lists = sorted(
        set(
            EquipmentListEntry.objects.filter(
                equipment_list__in=FighterType.objects.filter(warband_type=a.warband_type).values(
                    "equipment_list"
                ),
                equipment__rarity__isnull=False,
                common=False,
            ).values_list("equipment__slug", flat=True)
        )
    )
    battle = fight(league, events=[out_of_action(leader(a), leader(b))])
    # a: exploration 1+1 dice, rare items 2D6 = 12: everything rare in its lists is found (the
    # pack's own rare items too); the 1s that follow are the price dice ("35+3D6") of those.
    run = resolve(battle, faces={str(a.pk): [1, 1, 6, 6, *[1] * 30], str(b.pk): [4, 1]})
    assert run.status == "applied", run.error
    decision = PendingDecision.objects.get(warband=a, kind="rare_item")
    assert decision.options == rare_in_lists
    assert "cota-de-mithril" in decision.options
    slug = "cota-de-mithril"
    price = decision.payload["prices"][slug]
    assert price == 100  # the list's price (no price dice)
    a.refresh_from_db()
    treasury = a.treasury
    decision_answer(decision=decision, user=league.user(0), choice=slug)
    a.refresh_from_db()
    assert a.treasury == treasury - price
    assert a.equipment_items.filter(equipment__slug=slug).exists()


def test_injuries_are_recorded_with_a_readable_label(league, resolve):
    a, b = league.warband(0), league.warband(1)
    battle = fight(league, events=[out_of_action(leader(a), leader(b))])
    resolve(battle, faces={str(a.pk): [1, 1, 1, 1], str(b.pk): [2, 6]})  # D66 26: chest wound
    injuries = leader(b).injuries
    assert [(i["code"], i["label"]) for i in injuries] == [("chest_wound", "Chest wound")]


def test_a_henchman_who_is_fine_gets_no_injury_record(make_league, resolve):
    league = make_league(henchmen=2)
    a, b = league.warband(0), league.warband(1)
    soldier = Fighter.objects.filter(warband=b, group__isnull=False).first()
    battle = fight(league, events=[out_of_action(leader(a), soldier)])
    resolve(battle, faces={str(a.pk): [1, 1, 1, 1], str(b.pk): [5, 1, 1, 1]})
    soldier.refresh_from_db()
    assert soldier.status == "active" and soldier.injuries == []


def test_a_promoted_lad_counts_hero_advances_from_his_promotion(make_league, resolve):
    league = make_league(henchmen=2)
    a, b = league.warband(0), league.warband(1)
    group = a.groups.get()
    battle = fight(league, events=[out_of_action(leader(a), leader(b))])
    resolve(
        battle,
        faces={str(a.pk): [6, 6, 1, 1, 1, 1], str(b.pk): [4, 1]},
        options={"scenario_bonus": {f"group:{group.pk}": 1}},
    )
    decision = PendingDecision.objects.get(warband=a, kind="lads_got_talent")
    lad = Fighter.objects.get(pk=decision.options[0])
    decision_answer(
        decision=decision,
        user=league.user(0),
        choice={"fighter": lad.pk, "skill_lists": decision.payload["skill_lists"][:2]},
    )
    lad.refresh_from_db()
    assert (lad.experience, lad.hired_experience, lad.advances, lad.advances_due) == (2, 2, [], 0)
    # The next hero threshold after 2 XP is 4: two more experience earn one advance.
    roster.fighter_add_experience(fighter=lad, amount=2)
    lad.refresh_from_db()
    assert lad.advances_due == 1


def test_malformed_talent_answers_are_refused(make_league, resolve):
    league = make_league(henchmen=2)
    a, b = league.warband(0), league.warband(1)
    group = a.groups.get()
    battle = fight(league, events=[out_of_action(leader(a), leader(b))])
    resolve(
        battle,
        faces={str(a.pk): [6, 6, 1, 1, 1, 1], str(b.pk): [4, 1]},
        options={"scenario_bonus": {f"group:{group.pk}": 1}},
    )
    decision = PendingDecision.objects.get(warband=a, kind="lads_got_talent")
    for choice in (
        {"fighter": decision.options[0], "skill_lists": [[1], [2]]},
        {"fighter": "x"},
        "nope",
    ):
        with pytest.raises(ValidationError):
            decision_answer(decision=decision, user=league.user(0), choice=choice)


def test_a_refused_ransom_gives_the_choice_back_to_the_captor(league, resolve):
    a, b = league.warband(0), league.warband(1)
    battle = fight(league, events=[out_of_action(leader(a), leader(b))])
    resolve(battle, faces={str(a.pk): [1, 1, 1, 1], str(b.pk): [6, 1, 4]})
    decision = PendingDecision.objects.get(warband=a, kind="captive")
    decision_answer(decision=decision, user=league.user(0), choice="ransom")
    offer = PendingDecision.objects.get(warband=b, status="open")
    decision_answer(decision=offer, user=league.user(1), choice="refuse")
    decision.refresh_from_db()
    assert decision.status == "open" and decision.options == ["sell", "exchange"]
    assert Fighter.objects.get(warband=b, is_leader=True).status == "captured"


def test_a_leader_back_from_captivity_returns_as_a_hero_if_another_leads(league, resolve):
    a, b = league.warband(0), league.warband(1)
    captive = leader(b)
    champion = roster.fighter_hire(
        warband=b,
        fighter_type=captive.fighter_type.warband_type.fighter_types.get(slug="campeon-mercenario"),
        name="Campeón",
    )
    battle = fight(league, events=[out_of_action(leader(a), captive)])
    resolve(battle, faces={str(a.pk): [1, 1, 1, 1], str(b.pk): [6, 1, 4, 1, 1, 1]})
    captive.refresh_from_db()
    assert captive.status == "captured"
    roster.fighter_make_leader(fighter=champion)
    decision = PendingDecision.objects.get(warband=a, kind="captive")
    decision_answer(decision=decision, user=league.user(0), choice="exchange")
    captive.refresh_from_db()
    champion.refresh_from_db()
    assert captive.status == "active" and not captive.is_leader
    assert champion.is_leader


def test_the_campaigns_own_tables_are_used(make_league, resolve):
    from battles.models import Campaign

    league = make_league(henchmen=2)
    # A merciful league: henchmen put out of action always recover.
    Campaign.objects.filter(pk=league.campaign.pk).update(
        tables={"henchman_injuries": [{"min": 1, "max": 6, "result": "fine"}]}
    )
    a, b = league.warband(0), league.warband(1)
    soldier = Fighter.objects.filter(warband=b, group__isnull=False).first()
    battle = fight(league, events=[out_of_action(leader(a), soldier)])
    run = resolve(battle, faces={str(a.pk): [1, 1, 1, 1], str(b.pk): [1, 1, 1, 1]})
    assert run.status == "applied", run.error
    soldier.refresh_from_db()
    assert soldier.status == "active"  # a 1 kills him on the default table


def test_a_broken_campaign_table_is_not_played_the_default_one_is(make_league, resolve):
    """A stored table the check refuses (only data older than the check can be one) is left
    out of the tables in force: the run plays the default table rather than failing."""
    from battles.models import Campaign

    league = make_league(henchmen=2)
    Campaign.objects.filter(pk=league.campaign.pk).update(
        tables={"henchman_injuries": [{"from": 1, "to": 6}]}
    )
    a, b = league.warband(0), league.warband(1)
    soldier = Fighter.objects.filter(warband=b, group__isnull=False).first()
    battle = fight(league, events=[out_of_action(leader(a), soldier)])
    run = resolve(battle, faces={str(a.pk): [1, 1, 1, 1], str(b.pk): [1, 1, 1, 1]})
    assert run.status == "applied", run.error
    assert Job.objects.get(battle=battle).status == Job.Status.SUCCEEDED


def _injured_leader(league, resolve, faces_b, *, with_sword=False):
    a, b = league.warband(0), league.warband(1)
    victim = leader(b)
    if with_sword:
        roster.equipment_buy(
            warband=b, equipment=Equipment.objects.get(slug="espada"), fighter=victim
        )
    before = Fighter.objects.get(pk=victim.pk)
    battle = fight(league, events=[out_of_action(leader(a), victim)])
    run = resolve(battle, faces={str(a.pk): [1, 1, 1, 1], str(b.pk): faces_b})
    assert run.status == "applied", run.error
    return before, Fighter.objects.get(pk=victim.pk)


@pytest.mark.parametrize(
    ("faces", "check"),
    [
        ([2, 2], lambda old, new: new.m == old.m - 2.5),  # leg wound
        ([2, 3, 1], lambda old, new: "arm_lost" in new.special_rules),  # arm wound, arm lost
        ([2, 3, 4], lambda old, new: new.status == "misses_next"),  # arm wound, healed slowly
        ([2, 4, 2], lambda old, new: "stupidity" in new.special_rules),  # madness
        ([2, 4, 5], lambda old, new: "frenzy" in new.special_rules),
        ([2, 5, 1], lambda old, new: "cannot_run" in new.special_rules),  # smashed leg
        ([3, 1], lambda old, new: new.bs == old.bs - 1),  # blinded in one eye
        ([3, 2], lambda old, new: "old_battle_wound" in new.special_rules),
        ([3, 3], lambda old, new: new.i == old.i - 1),  # nervous condition
        ([3, 4], lambda old, new: new.ws == old.ws - 1),  # hand injury
        ([3, 5, 2], lambda old, new: (new.status, new.misses_battles) == ("misses_next", 2)),
        ([5, 6, 1], lambda old, new: any(r.startswith("hatred") for r in new.special_rules)),
        ([6, 2], lambda old, new: "immune-fear" in new.special_rules),  # hardened
        ([6, 4], lambda old, new: "fear" in new.special_rules),  # horrible scars
        ([6, 6], lambda old, new: new.experience == old.experience + 1 + 1),  # +1, survived +1
    ],
)
def test_each_serious_injury_changes_the_roster(league, resolve, faces, check):
    old, new = _injured_leader(league, resolve, faces)
    assert check(old, new), (faces, new.__dict__)


def test_robbed_loses_all_his_equipment(league, resolve):
    _old, new = _injured_leader(league, resolve, [3, 6], with_sword=True)
    assert not new.equipment.exists()
    assert new.status == "active"


def test_nightly_standings_snapshot(league, resolve):
    from battles.models import StandingsSnapshot
    from battles.postbattle import standings_recompute_all

    a, b = league.warband(0), league.warband(1)
    resolve(fight(league), faces={str(a.pk): [1, 1, 1, 1], str(b.pk): [1, 1, 1]})
    assert standings_recompute_all() == 1
    assert standings_recompute_all() == 1  # the same day: updated, not duplicated
    snapshot = StandingsSnapshot.objects.get(campaign=league.campaign)
    assert [row["name"] for row in snapshot.rows][0] == a.name
    assert snapshot.rows[0]["points"] > snapshot.rows[1]["points"]


def test_an_advance_in_movement_adds_one_inch_in_centimetres(league, resolve):
    """M is in cm (a human M10 is Mordheim's 4"): an advance adds 2.5 cm, as the engine says,
    whether the table gives it or the player chooses it."""
    from battles.models import Campaign

    a, b = league.warband(0), league.warband(1)
    captain = leader(a)
    Fighter.objects.filter(pk=captain.pk).update(m=5)  # crippled before: room to grow
    Campaign.objects.filter(pk=league.campaign.pk).update(
        tables={
            "hero_advances": [
                {"min": 2, "max": 6, "result": "characteristic", "options": ["m"]},
                {"min": 7, "max": 12, "result": "choice", "options": ["m", "ws"]},
            ]
        }
    )
    battle = fight(league, events=[out_of_action(captain, leader(b))])
    # As test_threshold_crossed_rolls_an_advance: 24 XP, one advance; 2D6 = 6: +1 M.
    run = resolve(
        battle,
        faces={str(a.pk): [3, 3, 1, 1, 1, 1, 1], str(b.pk): [4, 1]},
        options={"scenario_bonus": {str(captain.pk): 1}},
    )
    assert run.status == "applied", run.error
    captain.refresh_from_db()
    assert (captain.m, captain.advances[-1]["characteristic"]) == (7.5, "m")

    choice = PendingDecision.objects.create(
        result=run.results.get(warband=a),
        warband=a,
        fighter=captain,
        kind=PendingDecision.Kind.CHARACTERISTIC,
        options=["m", "ws"],
        payload={"battle_id": battle.pk, "free": True},  # as a promotion's own advance
    )
    decision_answer(decision=choice, user=league.user(0), choice="m")
    captain.refresh_from_db()
    assert captain.m == 10


def test_warriors_who_never_gain_experience_are_shown_no_gain(make_league, resolve):
    """A cave troll (a fighter type without experience) is not told "+1 XP" his roster would
    never keep; the others still gain theirs."""
    from warbands.models import FighterType, HenchmanGroup

    league = make_league(henchmen=2)
    a = league.warband(0)
    group = HenchmanGroup.objects.filter(warband=a).get()
    FighterType.objects.filter(pk=group.fighter_type_id).update(can_gain_experience=False)
    battle = fight(league)
    run = resolve(battle, seed=5)
    result = run.results.get(warband=a)
    gains = [step for step in result.steps if step["step"] == "experience"]
    assert gains and all(step.get("group_id") != group.pk for step in gains)
    group.refresh_from_db()
    assert group.experience == 0
    html_steps = [step for step in result.steps if group.name in str(step.get("who", ""))]
    assert not [step for step in html_steps if step["step"] == "experience"]
