"""A hired sword in the roster: he never leads, never joins a group, takes no
equipment from the warband (unless his pack gives him a list) and keeps his own."""

from __future__ import annotations

import pytest
from django.core.exceptions import ValidationError
from django.urls import reverse

from tests.warbands.fixtures import build_roster, equipment
from warbands import services
from warbands.models import EquipmentItem, EquipmentListEntry, Fighter, HiredSword, LedgerEntry
from warbands.services.hired_swords import hired_sword_hire
from warbands.services.hiring import roster_limits_check

pytestmark = pytest.mark.django_db

RANGER = "montaraz-errante"


@pytest.fixture
def ranger(warband) -> Fighter:
    build_roster(warband, henchmen=0)  # leader, two heroes, 5000 co more
    terms = HiredSword.objects.get(fighter_type__slug=RANGER)
    return hired_sword_hire(warband=warband, hired_sword=terms, name="Halbarad")


def _writes(warband) -> tuple:
    warband.refresh_from_db()
    return (
        warband.version,
        warband.treasury,
        LedgerEntry.objects.filter(warband=warband).count(),
        sorted(EquipmentItem.objects.filter(warband=warband).values_list("pk", "fighter_id")),
    )


# --- he never leads ---------------------------------------------------------------------------


def test_a_hired_sword_cannot_be_made_leader_even_without_one(warband, ranger):
    captain = warband.fighters.get(is_leader=True)
    services.fighter_kill(fighter=captain)  # the leader died: nobody leads now
    before = _writes(warband)
    with pytest.raises(ValidationError, match="is a hired sword: he serves for pay and never"):
        services.fighter_make_leader(fighter=ranger)
    ranger.refresh_from_db()
    assert not ranger.is_leader
    assert _writes(warband) == before
    heir = warband.fighters.get(name="Campeón")
    services.fighter_make_leader(fighter=heir)  # one of its own heroes succeeds him
    assert warband.fighters.get(is_leader=True, status__in=Fighter.IN_ROSTER).pk == heir.pk


def test_the_roster_check_refuses_a_leading_or_grouped_sword_whatever_the_door(warband, ranger):
    captain = warband.fighters.get(is_leader=True)
    Fighter.objects.filter(pk=captain.pk).update(is_leader=False)
    Fighter.objects.filter(pk=ranger.pk).update(is_leader=True)
    with pytest.raises(ValidationError, match="never leads the warband"):
        roster_limits_check(warband)
    Fighter.objects.filter(pk=ranger.pk).update(is_leader=False)
    roster_limits_check(warband)


def test_the_lead_button_on_the_page_refuses_a_sword(client, user, warband, ranger):
    services.fighter_kill(fighter=warband.fighters.get(is_leader=True))
    client.force_login(user)
    url = reverse("warband-fighter-action", args=[warband.pk, ranger.pk, "lead"])
    client.post(url, {"version": Fighter.objects.get(pk=ranger.pk).warband.version})
    ranger.refresh_from_db()
    assert not ranger.is_leader
    page = client.get(reverse("warband-sheet", args=[warband.pk])).content.decode()
    assert "never leads the warband" in page
    cards = page[page.index('data-testid="hired-swords"') :]
    assert "Make leader" not in cards[: cards.index("</section>")]


# --- he takes no equipment ---------------------------------------------------------------------


def test_buying_for_a_hired_sword_is_refused_with_nothing_written(warband, ranger):
    before = _writes(warband)
    with pytest.raises(ValidationError, match="fights with the equipment he came with"):
        services.equipment_buy(warband=warband, equipment=equipment("daga"), fighter=ranger)
    assert _writes(warband) == before


def test_a_stash_item_cannot_be_given_to_a_hired_sword(warband, ranger):
    item = services.equipment_buy(warband=warband, equipment=equipment("daga"))
    before = _writes(warband)
    with pytest.raises(ValidationError, match="takes none from the warband"):
        services.equipment_assign(item=item, fighter=ranger)
    assert _writes(warband) == before
    captain = warband.fighters.get(is_leader=True)
    services.equipment_assign(item=item, fighter=captain)  # his own heroes still may


def test_his_own_gear_is_not_sold_stashed_or_given_away(warband, ranger):
    bow = EquipmentItem.objects.get(fighter=ranger, equipment__slug="arco-largo")
    captain = warband.fighters.get(is_leader=True)
    before = _writes(warband)
    for write in (
        lambda: services.equipment_sell(item=bow),
        lambda: services.equipment_stash(item=bow),
        lambda: services.equipment_assign(item=bow, fighter=captain),
    ):
        with pytest.raises(ValidationError, match="goes where he goes"):
            write()
    assert _writes(warband) == before


def test_a_pack_that_gives_him_a_list_lets_the_warband_equip_him(warband, ranger):
    fighter_type = ranger.fighter_type
    fighter_type.equipment_list = (
        EquipmentListEntry.objects.filter(equipment__slug="yelmo").first().equipment_list
    )
    fighter_type.save()
    item = services.equipment_buy(warband=warband, equipment=equipment("yelmo"), fighter=ranger)
    assert item.fighter_id == ranger.pk


def test_the_sheet_offers_no_gear_actions_on_a_hired_sword(client, user, warband, ranger):
    stash_item = services.equipment_buy(warband=warband, equipment=equipment("daga"))
    client.force_login(user)
    page = client.get(reverse("warband-sheet", args=[warband.pk])).content.decode()
    section = page[page.index('data-testid="hired-swords"') :]
    card = section[: section.index("</section>")]
    assert "Halbarad" in card and "next advance at 24" in card  # he advances as a hero
    assert "to the stash" not in card and 'data-testid="sell"' not in card
    assert 'data-testid="open-buy"' not in card
    dialog = client.get(
        reverse("warband-item-action", args=[warband.pk, stash_item.pk, "assign"])
    ).content.decode()
    assert "Capitán" in dialog and "Halbarad" not in dialog


def test_the_roster_check_refuses_a_sword_in_a_henchman_group(warband, ranger):
    services.fighter_hire(
        warband=warband,
        fighter_type=warband.warband_type.fighter_types.filter(role="henchman").first(),
        name="Guardias",
        count=2,
    )
    Fighter.objects.filter(pk=ranger.pk).update(group=warband.groups.get())
    with pytest.raises(ValidationError, match="never in a henchman group"):
        roster_limits_check(warband)
