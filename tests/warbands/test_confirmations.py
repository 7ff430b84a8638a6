"""Every destructive action on the sheet asks first. With htmx the button asks
(``hx-confirm``) and sends ``confirmed``; without JavaScript the POST gets a page that asks, and
nothing changes until that page's form is sent."""

import pytest
from django.urls import reverse

from tests.warbands.fixtures import equipment, fighter_type
from warbands import services
from warbands.models import EquipmentItem, Fighter, HenchmanGroup, Warband

pytestmark = pytest.mark.django_db


@pytest.fixture
def browser_client(client, user):
    client.force_login(user)
    return client


@pytest.fixture
def roster(warband):
    services.ledger_record(warband=warband, amount=1000, reason="adjustment", description="x")
    captain = services.fighter_hire(
        warband=warband, fighter_type=fighter_type("capitan-mercenario"), name="Bardo"
    )
    champion = services.fighter_hire(
        warband=warband, fighter_type=fighter_type("campeon-mercenario"), name="Brand"
    )
    group = services.fighter_hire(
        warband=warband, fighter_type=fighter_type("guerrero-mercenario"), name="Lanzas", count=3
    )
    sword = services.equipment_buy(warband=warband, equipment=equipment("espada"), fighter=captain)
    return {"captain": captain, "champion": champion, "group": group, "sword": sword}


def destructive_urls(warband, roster):
    member = roster["group"].members.order_by("pk").first()
    fighter_action = "warband-fighter-action"
    return [
        reverse(fighter_action, args=[warband.pk, roster["champion"].pk, "dismiss"]),
        reverse(fighter_action, args=[warband.pk, roster["champion"].pk, "retire"]),
        reverse(fighter_action, args=[warband.pk, member.pk, "dismiss"]),
        reverse("warband-group-dismiss", args=[warband.pk, roster["group"].pk]),
        reverse("warband-item-action", args=[warband.pk, roster["sword"].pk, "sell"]),
        reverse("warband-delete", args=[warband.pk]),
    ]


def snapshot(warband):
    warband.refresh_from_db()
    return (
        warband.treasury,
        warband.version,
        sorted(Fighter.objects.filter(warband=warband).values_list("pk", "status")),
        HenchmanGroup.objects.filter(warband=warband).count(),
        EquipmentItem.objects.filter(warband=warband).count(),
        warband.ledger.count(),
    )


def test_a_destructive_post_without_confirmation_changes_nothing(browser_client, warband, roster):
    before = snapshot(warband)
    for url in destructive_urls(warband, roster):
        response = browser_client.post(url, {"version": warband.version})
        page = response.content.decode()
        assert response.status_code == 200, url
        assert 'data-testid="confirm-page"' in page
        assert 'name="confirmed" value="1"' in page and f'action="{url}"' in page
        assert snapshot(warband) == before, url


def test_the_confirmation_page_says_what_is_lost(browser_client, warband, roster):
    url = reverse("warband-group-dismiss", args=[warband.pk, roster["group"].pk])
    page = browser_client.post(url).content.decode()
    assert "Dismiss the whole group Lanzas (3 members)?" in page
    assert "not refunded" in page
    url = reverse("warband-item-action", args=[warband.pk, roster["sword"].pk, "sell"])
    assert "Sell Sword for 5 co?" in browser_client.post(url).content.decode()


def test_confirmed_posts_do_what_they_say(browser_client, warband, roster):
    member = roster["group"].members.order_by("pk").first()
    post = lambda url: browser_client.post(url, {"confirmed": "1"})  # noqa: E731
    post(reverse("warband-item-action", args=[warband.pk, roster["sword"].pk, "sell"]))
    assert not EquipmentItem.objects.filter(pk=roster["sword"].pk).exists()
    post(reverse("warband-fighter-action", args=[warband.pk, member.pk, "dismiss"]))
    assert roster["group"].members.count() == 2
    post(reverse("warband-fighter-action", args=[warband.pk, roster["champion"].pk, "retire"]))
    assert Fighter.objects.get(pk=roster["champion"].pk).status == "retired"
    post(reverse("warband-group-dismiss", args=[warband.pk, roster["group"].pk]))
    assert not HenchmanGroup.objects.filter(pk=roster["group"].pk).exists()
    post(reverse("warband-delete", args=[warband.pk]))
    assert not Warband.objects.filter(pk=warband.pk).exists()


def test_the_sheet_buttons_ask_with_htmx_and_send_the_confirmation(browser_client, warband, roster):
    page = browser_client.get(reverse("warband-sheet", args=[warband.pk])).content.decode()
    for testid in ("dismiss", "retire", "dismiss-group", "remove-member", "sell", "delete-warband"):
        assert f'data-testid="{testid}"' in page, testid
    forms = [chunk for chunk in page.split("<form") if "confirm-form" in chunk.split(">")[0]]
    assert len(forms) >= 6
    for form in forms:
        head = form.split(">")[0]
        assert "hx-confirm=" in head and "confirmed" in head and 'hx-boost="true"' in head
    assert "Dismiss Brand? He leaves the warband for good" in page


def test_making_a_leader_needs_no_confirmation(browser_client, warband):
    champion = services.fighter_hire(
        warband=warband, fighter_type=fighter_type("campeon-mercenario"), name="Brand"
    )
    browser_client.post(reverse("warband-fighter-action", args=[warband.pk, champion.pk, "lead"]))
    assert Fighter.objects.get(pk=champion.pk).is_leader


def test_selling_a_groups_item_says_it_is_every_members(browser_client, warband, roster):
    """A group's spear is one line of the sheet but three spears: the button and its question
    say so (found on a phone: "Spear (10 co) · sell (15 co)" read like a profit)."""
    spears = services.equipment_buy(
        warband=warband, equipment=equipment("lanza"), group=roster["group"]
    )
    value = services.item_sale_value(spears)
    assert services.item_copies(spears) == 3 and value == (spears.unit_price * 3) // 2
    sheet = browser_client.get(reverse("warband-sheet", args=[warband.pk])).content.decode()
    asked = f"Sell the Spear of all 3 members of the group for {value} co? They leave the warband."
    assert asked in sheet and f"sell 3 ({value} co)" in sheet
    url = reverse("warband-item-action", args=[warband.pk, spears.pk, "sell"])
    page = browser_client.post(url).content.decode()
    assert asked in page and f"sell 3 ({value} co)" in page
    assert "Sell Sword for 5 co? It leaves the warband." in sheet  # a hero's item: one
