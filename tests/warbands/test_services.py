import pytest
from django.core.exceptions import ValidationError
from django.core.management import CommandError, call_command
from django.db.models import Sum

from annuminas.errors import Conflict
from tests.warbands.fixtures import equipment, fighter_type
from warbands import constraints, services
from warbands.models import EquipmentItem, Fighter, HenchmanGroup, LedgerEntry, Warband

pytestmark = pytest.mark.django_db


def ledger_sum(warband):
    return warband.ledger.aggregate(total=Sum("amount"))["total"]


def reloaded(warband):
    return Warband.objects.get(pk=warband.pk)


def hire(warband, slug, name="X", **kwargs):
    return services.fighter_hire(
        warband=warband, fighter_type=fighter_type(slug), name=name, **kwargs
    )


def buy(warband, slug, **holder):
    return services.equipment_buy(warband=warband, equipment=equipment(slug), **holder)


def fund(warband, amount=2000):
    services.ledger_record(warband=warband, amount=amount, reason="adjustment", description="+")


def assert_unchanged(warband, before):
    after = reloaded(warband)
    assert (after.treasury, after.version, after.rating) == before
    assert after.treasury == ledger_sum(after)


def snapshot(warband):
    warband = reloaded(warband)
    return (warband.treasury, warband.version, warband.rating)


# --- creating and hiring -----------------------------------------------------------------------


def test_create_records_the_starting_treasury(warband):
    assert warband.treasury == 500
    entry = warband.ledger.get()
    assert (entry.amount, entry.reason, entry.source) == (500, "starting_treasury", warband)
    assert warband.rating == 0


def test_hire_a_hero_pays_and_counts(warband):
    version = warband.version
    captain = hire(warband, "capitan-mercenario", "Bardo")
    assert captain.is_hero and captain.is_leader and captain.experience == 20
    assert warband.treasury == 440 == ledger_sum(warband)
    assert warband.version == version + 1
    assert warband.rating == 5 + 20
    entry = warband.ledger.latest("pk")
    assert (entry.reason, entry.amount, entry.source) == ("hire", -60, captain)


def test_hire_a_henchman_group(warband):
    group = hire(warband, "guerrero-mercenario", "Lanzas", count=3)
    assert isinstance(group, HenchmanGroup)
    assert group.members.count() == 3
    assert {m.ws for m in group.members.all()} == {3}
    assert warband.treasury == 500 - 75
    assert warband.rating == 15


def test_new_members_join_a_group_paying_its_equipment(warband):
    group = hire(warband, "guerrero-mercenario", "Lanzas", count=2)
    buy(warband, "lanza", group=group)
    treasury = reloaded(warband).treasury
    hire(warband, "guerrero-mercenario", "ignored", count=1, group=group)
    assert group.members.count() == 3
    assert reloaded(warband).treasury == treasury - (25 + 10)


def test_the_hire_price_is_what_hiring_charges(warband):
    group = hire(warband, "guerrero-mercenario", "Lanzas", count=2)
    buy(warband, "lanza", group=group)
    quoted = services.fighter_hire_price(
        fighter_type=fighter_type("guerrero-mercenario"), count=2, group=group
    )
    treasury = reloaded(warband).treasury
    hire(warband, "guerrero-mercenario", count=2, group=group)
    assert quoted == 2 * (25 + 10) == treasury - reloaded(warband).treasury


def test_rating_and_advances_due_follow_the_packs_numbers(warband):
    pack = warband.warband_type.pack
    pack.settings = {
        **(pack.settings or {}),
        "rating_per_warrior": 7,
        "hero_advance_thresholds": [21, 22],
        "henchman_advance_thresholds": [1],
    }
    pack.save(update_fields=["settings"])
    captain = hire(warband, "capitan-mercenario")  # hired with 20 XP
    group = hire(warband, "guerrero-mercenario", count=2)
    services.fighter_add_experience(fighter=captain, amount=2)
    services.fighter_add_experience(group=group, amount=1)
    assert Fighter.objects.get(pk=captain.pk).advances_due == 2
    assert HenchmanGroup.objects.get(pk=group.pk).advances_due == 1
    assert reloaded(warband).rating == (7 + 22) + 2 * (7 + 1)


def test_only_one_leader(warband):
    hire(warband, "capitan-mercenario")
    before = snapshot(warband)
    with pytest.raises(ValidationError, match="exactly one leader"):
        hire(warband, "capitan-mercenario", "Otro")
    assert_unchanged(warband, before)
    assert warband.fighters.count() == 1


def test_the_leader_cannot_be_dismissed_or_retired(warband):
    captain = hire(warband, "capitan-mercenario")
    with pytest.raises(ValidationError, match="leads the warband"):
        services.fighter_dismiss(fighter=captain)
    with pytest.raises(ValidationError, match="leads the warband"):
        services.fighter_retire(fighter=captain)


def test_a_new_leader_can_be_named(warband):
    captain = hire(warband, "capitan-mercenario")
    champion = hire(warband, "campeon-mercenario")
    services.fighter_kill(fighter=captain)
    services.fighter_make_leader(fighter=champion)
    assert Fighter.objects.get(pk=champion.pk).is_leader


def test_per_type_maximum(warband):
    hire(warband, "campeon-mercenario", "A")
    hire(warband, "campeon-mercenario", "B")
    with pytest.raises(ValidationError, match="at most 2 × Mercenary Champion"):
        hire(warband, "campeon-mercenario", "C")


def test_henchman_type_maximum_counts_members(warband):
    fund(warband)
    hire(warband, "tirador-mercenario", "A", count=5)
    with pytest.raises(ValidationError, match="at most 7 × Mercenary Marksman"):
        hire(warband, "tirador-mercenario", "B", count=3)


def test_hero_maximum(warband):
    warband.warband_type.max_heroes = 2
    warband.warband_type.save()
    hire(warband, "capitan-mercenario")
    hire(warband, "campeon-mercenario")
    with pytest.raises(ValidationError, match="at most 2 heroes"):
        hire(warband, "joven-mercenario")


def test_warband_size_limit(warband):
    fund(warband)
    hire(warband, "capitan-mercenario")
    for number in range(2):
        hire(warband, "guerrero-mercenario", f"G{number}", count=5)
    hire(warband, "espadachin", "E", count=4)
    before = snapshot(warband)
    with pytest.raises(ValidationError, match="at most 15 warriors; this would make 16"):
        hire(warband, "joven-mercenario")
    assert_unchanged(warband, before)


def test_group_size_limit(warband):
    with pytest.raises(ValidationError, match="at most 5 members"):
        hire(warband, "guerrero-mercenario", count=6)
    group = hire(warband, "guerrero-mercenario", count=4)
    with pytest.raises(ValidationError, match="at most 5 members"):
        hire(warband, "guerrero-mercenario", count=2, group=group)


def test_heroes_come_one_at_a_time(warband):
    with pytest.raises(ValidationError):
        hire(warband, "campeon-mercenario", count=2)


def test_not_enough_coronas(warband):
    services.ledger_record(warband=warband, amount=-450, reason="adjustment", description="-")
    before = snapshot(warband)
    with pytest.raises(ValidationError, match="Not enough coronas.*costs 60 co.*holds 50 co"):
        hire(warband, "capitan-mercenario")
    assert_unchanged(warband, before)
    assert not warband.fighters.filter(fighter_type__slug="capitan-mercenario").exists()


def test_fighter_type_of_another_warband_type(warband):
    with pytest.raises(ValidationError, match="cannot be hired"):
        hire(warband, "guerrero-elfo")


# --- equipment --------------------------------------------------------------------------------


def test_buy_from_the_allowed_list_only(warband):
    captain = hire(warband, "capitan-mercenario")
    before = snapshot(warband)
    with pytest.raises(ValidationError, match="not in the equipment list"):
        buy(warband, "mayal", fighter=captain)
    assert_unchanged(warband, before)


def test_rare_items_need_to_be_found(content, make_warband):
    elves = make_warband(type_slug="elfos-de-rivendel")
    lord = hire(elves, "senor-elfo")
    with pytest.raises(ValidationError, match="rare"):
        buy(elves, "cota-de-mithril", fighter=lord)
    services.equipment_buy(
        warband=elves, equipment=equipment("cota-de-mithril"), fighter=lord, rare_found=True
    )
    assert lord.equipment.get().equipment.slug == "cota-de-mithril"
    assert reloaded(elves).treasury == 500 - 90 - 200


def test_a_list_may_make_a_rare_item_common(content, make_warband):
    elves = make_warband(type_slug="elfos-de-rivendel")
    lord = hire(elves, "senor-elfo")
    item = buy(elves, "arco-elfico", fighter=lord)
    assert item.unit_price == 35


def test_first_dagger_is_free(warband):
    captain = hire(warband, "capitan-mercenario")
    first = buy(warband, "daga", fighter=captain)
    second = buy(warband, "daga", fighter=captain)
    assert (first.unit_price, second.unit_price) == (0, 2)
    assert warband.treasury == 440 - 2 == ledger_sum(warband)


def test_group_purchase_costs_price_times_members(warband):
    group = hire(warband, "guerrero-mercenario", count=3)
    item = buy(warband, "espada", group=group)
    assert item.group == group and item.unit_price == 10
    assert warband.treasury == 500 - 75 - 30
    assert warband.ledger.latest("pk").amount == -30


def test_buying_for_a_member_buys_for_the_group(warband):
    group = hire(warband, "guerrero-mercenario", count=2)
    member = group.members.first()
    item = buy(warband, "hacha", fighter=member)
    assert item.group_id == group.pk and item.fighter_id is None
    assert warband.treasury == 500 - 50 - 10


@pytest.mark.parametrize(
    ("first", "second", "message"),
    [
        ("arma-a-dos-manos", "escudo", "needs both hands"),
        ("escudo", "alabarda", "needs both hands"),
        ("espada", "alabarda", "second close-combat weapon"),
        ("lanza", "hacha", "second close-combat weapon"),
        ("mangual", "escudo-pequeno", "cannot be used with"),
        ("armadura-ligera", "armadura-pesada", "one suit of armour"),
        ("escudo", "escudo-pequeno", "one shield"),
    ],
)
def test_incompatible_equipment(warband, first, second, message):
    fund(warband)
    captain = hire(warband, "capitan-mercenario")
    buy(warband, first, fighter=captain)
    before = snapshot(warband)
    with pytest.raises(ValidationError, match=message):
        buy(warband, second, fighter=captain)
    assert_unchanged(warband, before)
    assert captain.equipment.count() == 1


def test_at_most_two_close_combat_weapons_besides_the_dagger(warband):
    captain = hire(warband, "capitan-mercenario")
    for slug in ("daga", "espada", "maza"):
        buy(warband, slug, fighter=captain)
    with pytest.raises(ValidationError, match="at most 2 close-combat weapons"):
        buy(warband, "hacha", fighter=captain)


def test_a_two_handed_weapon_with_a_dagger_is_fine(warband):
    captain = hire(warband, "capitan-mercenario")
    buy(warband, "daga", fighter=captain)
    buy(warband, "arma-a-dos-manos", fighter=captain)
    assert captain.equipment.count() == 2


def test_animals_carry_nothing(content, make_warband):
    angmar = make_warband(type_slug="angmarim-de-carn-dum")
    wargs = hire(angmar, "huargo", count=1)
    with pytest.raises(ValidationError, match="cannot carry equipment"):
        buy(angmar, "daga", group=wargs)


def test_sell_for_half_rounded_down(warband):
    captain = hire(warband, "capitan-mercenario")
    axe = buy(warband, "hacha", fighter=captain)
    entry = services.equipment_sell(item=axe)
    assert entry.amount == 2 and entry.reason == "sell"
    assert reloaded(warband).treasury == 440 - 5 + 2 == ledger_sum(warband)
    assert not EquipmentItem.objects.filter(pk=axe.pk).exists()


def test_sell_a_group_item(warband):
    group = hire(warband, "guerrero-mercenario", count=3)
    spears = buy(warband, "lanza", group=group)
    assert services.equipment_sell(item=spears).amount == 15


def test_stash_and_reallocate(warband):
    captain = hire(warband, "capitan-mercenario")
    champion = hire(warband, "campeon-mercenario")
    sword = buy(warband, "espada", fighter=captain)
    treasury = reloaded(warband).treasury
    (stashed,) = services.equipment_stash(item=sword)
    assert stashed.in_stash
    moved = services.equipment_assign(item=stashed, fighter=champion)
    assert moved.fighter == champion
    assert reloaded(warband).treasury == treasury


def test_group_items_stash_one_per_member_and_come_back_together(warband):
    group = hire(warband, "guerrero-mercenario", count=3)
    spears = buy(warband, "lanza", group=group)
    stashed = services.equipment_stash(item=spears)
    assert len(stashed) == 3 and all(item.in_stash for item in stashed)
    services.equipment_sell(item=stashed[0])
    with pytest.raises(ValidationError, match="needs 3 × Spear in the stash and there are 2"):
        services.equipment_assign(item=stashed[1], group=group)
    buy(warband, "lanza")
    services.equipment_assign(item=stashed[1], group=group)
    assert group.equipment.get().equipment.slug == "lanza"
    assert not warband.equipment_items.filter(fighter=None, group=None).exists()


def test_buy_into_the_stash(warband):
    item = buy(warband, "escudo")
    assert item.in_stash and reloaded(warband).treasury == 495


def test_reallocation_respects_the_list_and_loadout(warband):
    captain = hire(warband, "capitan-mercenario")
    buy(warband, "arma-a-dos-manos", fighter=captain)
    shield = buy(warband, "escudo")
    with pytest.raises(ValidationError, match="needs both hands"):
        services.equipment_assign(item=shield, fighter=captain)
    assert reloaded(warband).equipment_items.get(pk=shield.pk).in_stash


# --- dismiss, retire ---------------------------------------------------------------------------


def test_dismiss_moves_equipment_to_the_stash(warband):
    hire(warband, "capitan-mercenario")
    champion = hire(warband, "campeon-mercenario")
    buy(warband, "espada", fighter=champion)
    services.fighter_dismiss(fighter=champion)
    assert not Fighter.objects.filter(pk=champion.pk).exists()
    assert warband.equipment_items.get().in_stash
    assert reloaded(warband).rating == 25
    assert warband.ledger.latest("pk").reason == "dismiss"


def test_dismiss_a_group_member_and_a_group(warband):
    group = hire(warband, "guerrero-mercenario", count=2)
    buy(warband, "lanza", group=group)
    services.fighter_dismiss(fighter=group.members.first())
    assert group.members.count() == 1
    assert warband.equipment_items.filter(group=None, fighter=None).count() == 1
    services.group_dismiss(group=group)
    assert not HenchmanGroup.objects.filter(pk=group.pk).exists()
    assert warband.equipment_items.filter(group=None, fighter=None).count() == 2
    assert reloaded(warband).rating == 0


def test_retire(warband):
    champion = hire(warband, "campeon-mercenario")
    services.fighter_retire(fighter=champion)
    assert Fighter.objects.get(pk=champion.pk).status == "retired"
    assert reloaded(warband).rating == 0


# --- versions, ledger, rating, post-battle hooks ----------------------------------------------


def test_stale_version_is_a_conflict_and_changes_nothing(warband):
    version = warband.version
    hire(warband, "capitan-mercenario")
    before = snapshot(warband)
    with pytest.raises(Conflict):
        services.fighter_hire(
            warband=warband,
            fighter_type=fighter_type("campeon-mercenario"),
            name="Tarde",
            expected_version=version,
        )
    with pytest.raises(Conflict):
        services.warband_update(warband=warband, expected_version=version, name="Otro")
    assert_unchanged(warband, before)
    assert reloaded(warband).name == "Los Lobos"


def test_update_with_current_version(warband):
    services.warband_update(warband=warband, expected_version=warband.version, notes="Hola")
    services.warband_rename(warband=warband, name="Los Osos")
    assert (reloaded(warband).name, reloaded(warband).notes) == ("Los Osos", "Hola")
    with pytest.raises(ValidationError):
        services.warband_update(warband=warband, expected_version=None, treasury=9000)


def test_ledger_never_below_zero(warband):
    with pytest.raises(ValidationError, match="Not enough coronas"):
        services.ledger_record(warband=warband, amount=-501, reason="adjustment", description="x")
    with pytest.raises(ValidationError, match="Not enough finds"):
        services.ledger_record(
            warband=warband, amount=0, finds_delta=-1, reason="sell_finds", description="x"
        )
    services.ledger_record(
        warband=warband, amount=0, finds_delta=3, reason="exploration", description="x"
    )
    assert (reloaded(warband).treasury, reloaded(warband).finds) == (500, 3)


def test_ledger_entries_are_append_only(warband):
    entry = warband.ledger.get()
    entry.amount = 1
    with pytest.raises(ValueError, match="append-only"):
        entry.save()
    with pytest.raises(ValueError, match="append-only"):
        entry.delete()


def test_check_ledger_command(warband):
    call_command("check_ledger")
    Warband.objects.filter(pk=warband.pk).update(treasury=499)
    with pytest.raises(CommandError, match="1 warband"):
        call_command("check_ledger")


def test_rating_counts_large_creatures_as_20(content, make_warband):
    orcs = make_warband(type_slug="orcos-de-angmar")
    fund(orcs)
    hire(orcs, "troll-de-las-cavernas", count=1)
    hire(orcs, "guerrero-orco", count=2)
    assert reloaded(orcs).rating == 20 + 10


def test_experience_and_advances_due(warband):
    captain = hire(warband, "capitan-mercenario")
    group = hire(warband, "guerrero-mercenario", count=2)
    assert Fighter.objects.get(pk=captain.pk).advances_due == 0
    services.fighter_add_experience(fighter=captain, amount=4)  # 20 → 24: crosses 24
    assert Fighter.objects.get(pk=captain.pk).advances_due == 1
    services.fighter_add_experience(group=group, amount=5)  # crosses 2 and 5
    group.refresh_from_db()
    assert group.advances_due == 2
    assert {m.experience for m in group.members.all()} == {5}
    assert reloaded(warband).rating == (5 + 24) + 2 * (5 + 5)
    services.fighter_add_advance(group=group, record={"roll": 8}, characteristic="a")
    group.refresh_from_db()
    assert (group.advances_due, group.a) == (1, 2)
    assert {m.a for m in group.members.all()} == {2}


def test_racial_maximum(warband):
    captain = hire(warband, "capitan-mercenario")
    services.fighter_apply_profile_change(fighter=captain, characteristic="s", delta=1)
    with pytest.raises(ValidationError, match="racial maximum for F"):
        services.fighter_apply_profile_change(fighter=captain, characteristic="s", delta=1)
    services.fighter_apply_profile_change(fighter=captain, characteristic="m", delta=-2.5)
    captain.refresh_from_db()
    assert (captain.s, captain.m) == (4, 7.5)


def test_kill_removes_equipment_and_records_it(warband):
    captain = hire(warband, "capitan-mercenario")
    buy(warband, "espada", fighter=captain)
    services.fighter_kill(fighter=captain)
    captain.refresh_from_db()
    assert captain.status == "dead" and not captain.equipment.exists()
    assert "Espada" in warband.ledger.latest("pk").description
    assert reloaded(warband).rating == 0


def test_status_and_injuries(warband):
    champion = hire(warband, "campeon-mercenario")
    services.fighter_set_status(fighter=champion, status="misses_next")
    services.fighter_add_injury(fighter=champion, code="35", label="Herida profunda", battle_id=7)
    champion.refresh_from_db()
    assert champion.status == "misses_next" and champion.misses_battles == 1
    assert champion.injuries == [{"code": "35", "label": "Herida profunda", "battle_id": 7}]


def test_animals_never_gain_experience(content, make_warband):
    angmar = make_warband(type_slug="angmarim-de-carn-dum")
    wargs = hire(angmar, "huargo", count=2)
    assert services.fighter_add_experience(group=wargs, amount=3) == 0


def test_registered_constraints_roll_the_change_back(warband):
    def at_most_two(candidate):
        if candidate.fighters.count() > 2:
            raise ValidationError("Liga: como mucho 2 guerreros.")

    constraints.register(at_most_two)
    hire(warband, "guerrero-mercenario", count=2)
    before = snapshot(warband)
    with pytest.raises(ValidationError, match="como mucho 2"):
        hire(warband, "capitan-mercenario")
    assert_unchanged(warband, before)
    assert warband.fighters.count() == 2
    assert LedgerEntry.objects.filter(warband=warband, reason="hire").count() == 1


# --- export / import ----------------------------------------------------------------------------


def test_export_import_reproduces_the_roster(warband, user):
    fund(warband)
    captain = hire(warband, "capitan-mercenario", "Bardo")
    champion = hire(warband, "campeon-mercenario", "Brand")
    group = hire(warband, "guerrero-mercenario", "Lanzas", count=3)
    buy(warband, "espada", fighter=captain)
    buy(warband, "arco", fighter=champion)
    buy(warband, "lanza", group=group)
    buy(warband, "escudo")
    services.fighter_add_injury(fighter=champion, code="33", label="Nervios")
    services.fighter_add_experience(fighter=captain, amount=5)
    services.fighter_kill(fighter=group.members.first())
    services.ledger_record(
        warband=warband, amount=0, finds_delta=2, reason="exploration", description="2"
    )
    exported = services.warband_export(warband=warband)
    copy = services.warband_import(owner=user, data=exported)
    again = services.warband_export(warband=copy)
    exported.pop("exported_at")
    again.pop("exported_at")
    assert again == exported
    assert (copy.treasury, copy.finds, copy.rating) == (
        reloaded(warband).treasury,
        2,
        reloaded(warband).rating,
    )


@pytest.mark.parametrize(
    ("mutate", "message"),
    [
        (lambda d: d.update(format="other"), "not an Annúminas warband"),
        (lambda d: d.update(format_version=99), "format version 99"),
        (lambda d: d["warband"].update(type="nope"), "unknown warband type"),
        (lambda d: d["warband"].update(treasury=9999), "does not match its ledger"),
        (lambda d: d["fighters"][0].update(type="guerrero-mercenario"), "put it in a group"),
        (
            lambda d: (
                d["fighters"][0]["equipment"].append({"item": "escudo"})
                or d["fighters"][0]["equipment"].append({"item": "arma-a-dos-manos"})
            ),
            "needs both hands",
        ),
    ],
)
def test_import_refuses_bad_files(warband, user, mutate, message):
    hire(warband, "capitan-mercenario", "Bardo")
    data = services.warband_export(warband=warband)
    mutate(data)
    count = Warband.objects.count()
    with pytest.raises(ValidationError, match=message):
        services.warband_import(owner=user, data=data)
    assert Warband.objects.count() == count
