"""The safety net: the last roster change can be undone while nothing has changed
since, by a compensating ledger entry (never a deletion of one)."""

import pytest
from django.db.models import Sum
from django.urls import reverse
from rest_framework.test import APIClient

from annuminas.errors import Conflict
from tests.warbands.fixtures import equipment, fighter_type
from warbands import services
from warbands.models import Fighter, LedgerEntry, UndoPoint, Warband
from warbands.services.hired_swords import hired_sword_hire, hired_sword_leave, hired_swords_for

pytestmark = pytest.mark.django_db


def reloaded(warband: Warband) -> Warband:
    return Warband.objects.select_related("undo_point").get(pk=warband.pk)


def roster_state(warband: Warband) -> dict:
    """What a player sees of the roster: members, groups, gear, money."""
    warband = reloaded(warband)
    return {
        "treasury": warband.treasury,
        "finds": warband.finds,
        "rating": warband.rating,
        "fighters": sorted(
            (f.pk, f.name, f.status, f.group_id, f.is_leader, f.experience, f.m)
            for f in warband.fighters.all()
        ),
        "groups": sorted((g.pk, g.name, g.experience) for g in warband.groups.all()),
        "items": sorted(
            (i.pk, i.equipment_id, i.fighter_id, i.group_id, i.unit_price)
            for i in warband.equipment_items.all()
        ),
    }


def ledger_sum(warband: Warband) -> int:
    return warband.ledger.aggregate(total=Sum("amount"))["total"]


def hire(warband, slug, name="X", **kwargs):
    return services.fighter_hire(
        warband=warband, fighter_type=fighter_type(slug), name=name, **kwargs
    )


def buy(warband, slug, **holder):
    return services.equipment_buy(warband=warband, equipment=equipment(slug), **holder)


def undo_brings_back(warband, before: dict, change) -> str:
    """Make the change, check it can be undone, undo it and check the roster is as before
    and the ledger still adds up (one more line, none deleted)."""
    lines = warband.ledger.count()
    change()
    offer = services.undo_offer(reloaded(warband))
    assert offer is not None
    words = services.warband_undo(warband=reloaded(warband))
    assert roster_state(warband) == before
    assert ledger_sum(warband) == reloaded(warband).treasury
    assert warband.ledger.count() >= lines + 1  # the change's lines stay; nothing is deleted
    assert services.undo_offer(reloaded(warband)) is None
    return words


@pytest.fixture
def captain(warband):
    return hire(warband, "capitan-mercenario", name="Aranarth")


def test_undo_a_purchase_gives_the_money_back_by_a_ledger_entry(warband, captain):
    before = roster_state(warband)
    words = undo_brings_back(warband, before, lambda: buy(warband, "espada", fighter=captain))
    assert words == "the purchase of Sword"
    last = warband.ledger.latest("pk")
    assert last.reason == LedgerEntry.Reason.REVERT and last.amount > 0
    assert last.text == "Undone: the purchase of Sword"


def test_undo_a_hero_and_a_group_hire(warband, captain):
    before = roster_state(warband)
    assert (
        undo_brings_back(warband, before, lambda: hire(warband, "campeon-mercenario", name="Brand"))
        == "the hire of Brand"
    )
    assert undo_brings_back(
        warband, before, lambda: hire(warband, "guerrero-mercenario", name="Lanzas", count=3)
    ).startswith("the hire of 3 × ")


def test_undo_a_sale_brings_the_item_back_as_it_was(warband, captain):
    sword = buy(warband, "espada", fighter=captain)
    before = roster_state(warband)
    undo_brings_back(warband, before, lambda: services.equipment_sell(item=sword))
    assert captain.equipment.get().pk == sword.pk


def test_undo_a_dismissal_brings_him_back_with_his_gear(warband, captain):
    champion = hire(warband, "campeon-mercenario", name="Brand")
    buy(warband, "espada", fighter=champion)
    group = hire(warband, "guerrero-mercenario", name="Lanzas", count=2)
    buy(warband, "lanza", group=group)
    before = roster_state(warband)
    undo_brings_back(warband, before, lambda: services.fighter_dismiss(fighter=champion))
    undo_brings_back(warband, before, lambda: services.group_dismiss(group=group))
    member = group.members.first()
    undo_brings_back(warband, before, lambda: services.fighter_dismiss(fighter=member))
    assert Fighter.objects.get(pk=champion.pk).equipment.get().equipment.slug == "espada"


def test_undo_a_retirement_a_stash_and_a_gift(warband, captain):
    champion = hire(warband, "campeon-mercenario", name="Brand")
    sword = buy(warband, "espada", fighter=champion)
    before = roster_state(warband)
    undo_brings_back(warband, before, lambda: services.fighter_retire(fighter=champion))
    undo_brings_back(warband, before, lambda: services.equipment_stash(item=sword))
    words = undo_brings_back(
        warband, before, lambda: services.equipment_assign(item=sword, fighter=captain)
    )
    assert words == "giving Sword to Aranarth"


def test_undo_a_hired_sword(warband, captain):
    terms = min(hired_swords_for(warband.warband_type), key=lambda sword: sword.fighter_type.cost)
    services.ledger_record(warband=warband, amount=500, reason="adjustment", description="+")
    before = roster_state(warband)
    hired_sword_hire(warband=reloaded(warband), hired_sword=terms)
    services.warband_undo(warband=reloaded(warband))
    assert roster_state(warband) == before
    sword = hired_sword_hire(warband=reloaded(warband), hired_sword=terms)
    after_hire = roster_state(warband)
    undo_brings_back(warband, after_hire, lambda: hired_sword_leave(fighter=sword))


def test_only_the_last_change_and_only_while_nothing_changed_since(warband, captain):
    buy(warband, "espada", fighter=captain)
    services.fighter_update(fighter=captain, name="Aranarth el Viejo")  # not undoable, a write
    with pytest.raises(Conflict):
        services.warband_undo(warband=reloaded(warband))
    assert services.undo_offer(reloaded(warband)) is None
    buy(warband, "daga", fighter=captain)
    with pytest.raises(Conflict):  # a stale version is refused like any other write
        services.warband_undo(warband=reloaded(warband), expected_version=1)
    services.warband_undo(warband=reloaded(warband))
    with pytest.raises(Conflict):  # and there is only one step
        services.warband_undo(warband=reloaded(warband))


def test_a_refused_change_keeps_the_previous_undo(warband, captain):
    buy(warband, "espada", fighter=captain)
    point = UndoPoint.objects.get(warband=warband)
    with pytest.raises(Exception):  # noqa: B017, PT011 - a refusal, whichever kind
        hire(warband, "capitan-mercenario", name="Otro")  # a second leader
    assert UndoPoint.objects.get(warband=warband).version_after == point.version_after
    assert services.undo_offer(reloaded(warband)).code == "bought"


# --- the sheet and the API ------------------------------------------------------------------


def test_the_sheet_offers_the_undo_and_asks_first(client, warband, captain, user):
    client.force_login(user)
    buy(warband, "espada", fighter=captain)
    sheet = client.get(reverse("warband-sheet", args=[warband.pk]))
    assert 'data-testid="undo-line"' in sheet.content.decode()
    assert "Undo the purchase of Sword" in sheet.content.decode()
    url = reverse("warband-undo", args=[warband.pk])
    version = reloaded(warband).version

    asked = client.post(url, {"version": version})  # no JavaScript: a page that asks
    assert asked.status_code == 200 and "Undo the purchase of Sword?" in asked.content.decode()
    assert captain.equipment.exists()

    done = client.post(url, {"version": version, "confirmed": "1"}, follow=True)
    assert not captain.equipment.exists()
    assert "Undone: the purchase of Sword." in done.content.decode()
    assert 'data-testid="undo-line"' not in done.content.decode()


def test_someone_elses_warband_cannot_be_undone(client, warband, captain, make_user):
    buy(warband, "espada", fighter=captain)
    client.force_login(make_user("intruso"))
    response = client.post(reverse("warband-undo", args=[warband.pk]), {"confirmed": "1"})
    assert response.status_code == 404
    assert captain.equipment.exists()


def test_the_api_shows_and_undoes_the_last_change(warband, captain, user):
    api = APIClient(HTTP_ACCEPT_LANGUAGE="en")
    api.force_authenticate(user)
    url = f"/api/v1/warbands/{warband.pk}/"
    assert api.get(url).json()["undo"]["code"] == "hired_hero"
    buy(warband, "espada", fighter=captain)
    body = api.get(url).json()
    assert body["undo"] == {"code": "bought", "change": "the purchase of Sword"}

    stale = api.post(url + "undo/", {"version": body["version"] - 1}, format="json")
    assert stale.status_code == 409
    assert set(stale.json()["error"]) == {"code", "message", "fields", "version"}
    assert stale.json()["error"]["code"] == "stale_version"
    done = api.post(url + "undo/", {"version": body["version"]}, format="json")
    assert done.status_code == 200, done.json()
    assert done.json()["undone"] == "the purchase of Sword"
    assert done.json()["warband"]["undo"] is None
    assert done["ETag"] == reloaded(warband).etag
    again = api.post(url + "undo/", {}, format="json")
    assert again.status_code == 409 and again.json()["error"]["code"] == "nothing_to_undo"
    assert not captain.equipment.exists()
