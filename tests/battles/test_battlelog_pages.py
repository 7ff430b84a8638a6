"""The phone page at the table: setup, entries posted by forms, the live part, the report."""

import uuid

import pytest
from django.test import Client

from battles.models import Battle, BattleLogEntry
from tests.battles.factories import first_battle
from warbands.models import Fighter

pytestmark = pytest.mark.django_db


def browser(user) -> Client:
    client = Client()
    client.force_login(user)
    return client


@pytest.fixture
def at_table(make_league):
    league = make_league(henchmen=3)
    battle = first_battle(league)
    return league, battle, f"/battles/{battle.pk}/table/"


def post(client, url, **data):
    response = client.post(url, {"client_id": str(uuid.uuid4()), **data})
    assert response.status_code == 302
    return response


def test_battle_page_links_to_the_table(at_table):
    league, battle, url = at_table
    page = browser(league.user(0)).get(f"/battles/{battle.pk}/")
    assert url in page.content.decode()


def test_setup_then_log_a_battle_from_the_page(at_table, django_assert_max_num_queries):
    league, battle, url = at_table
    a, b = league.warband(0), league.warband(1)
    phone_a, phone_b = browser(league.user(0)), browser(league.user(1))
    setup_page = phone_a.get(url)
    assert setup_page.status_code == 200
    assert 'data-testid="setup-form"' in setup_page.content.decode()
    fielded = list(Fighter.objects.filter(warband=a).values_list("pk", flat=True))
    post(
        phone_a,
        url,
        op="setup",
        first=a.pk,
        scenario="Escaramuza",
        **{f"w{a.pk}": fielded},
    )
    page = phone_b.get(url)
    assert page.status_code == 200
    assert 'data-testid="next-turn"' in page.content.decode()
    post(phone_a, url, op="turn", turn=1, side=a.pk)
    victim = Fighter.objects.filter(warband=a, is_leader=False).first()
    killer = Fighter.objects.get(warband=b, is_leader=True)
    post(
        phone_b,
        url,
        op="status",
        fighter=victim.pk,
        status="out_of_action",
        by=killer.pk,
        weapon="espada",
    )
    post(phone_b, url, op="turn", turn=1, side=b.pk)
    post(phone_a, url, op="turn", turn=2, side=a.pk)
    live = phone_b.get(f"{url}live/")
    text = live.content.decode()
    assert "out of action with espada" in text
    assert 'data-testid="check-rout"' in text  # 1 of 4 out: a quarter, the test is due
    last = BattleLogEntry.objects.filter(battle=battle).count()
    with django_assert_max_num_queries(8):
        unchanged = phone_b.get(f"{url}live/?seen={last}")
    assert unchanged.status_code == 204
    post(phone_a, url, op="check", check="rout", side=a.pk, faces="6 6")
    battle.refresh_from_db()  # the failed rout test finished the battle by itself
    assert battle.status == Battle.Status.REPORTED
    assert battle.participants.get(warband=a).routed
    assert battle.participants.get(warband=b).result == "win"


def test_a_bad_entry_shows_why_and_writes_nothing(at_table):
    league, battle, url = at_table
    phone = browser(league.user(0))
    post(phone, url, op="setup")
    count = BattleLogEntry.objects.filter(battle=battle).count()
    response = phone.post(
        url, {"client_id": str(uuid.uuid4()), "op": "turn", "turn": 4, "side": 1}, follow=True
    )
    assert "Out of order" in response.content.decode()
    assert BattleLogEntry.objects.filter(battle=battle).count() == count


def test_someone_else_cannot_write(at_table, make_user):
    league, battle, url = at_table
    post(browser(league.user(0)), url, op="setup")
    stranger = browser(make_user("curioso"))
    assert stranger.get(url).status_code == 404
