"""The table page of a battle its log reported: the banner, and for its players the entry that
finished it, which they may still strike out (asked first, with and without JavaScript) until
the opponent confirms the report."""

import uuid

import pytest

from battles.models import Battle, BattleLogEntry
from battles.reports import services as reports
from tests.battles.factories import first_battle
from tests.battles.test_battlelog_pages import browser, post

pytestmark = pytest.mark.django_db


@pytest.fixture
def table(make_league):
    league = make_league(henchmen=3)
    battle = first_battle(league)
    return league, battle, f"/battles/{battle.pk}/table/"


def routed(league, url):
    """Player A's warband routs of its own will (two of four out of action): the battle ends."""
    a = league.warband(0)
    phone = browser(league.user(0))
    post(phone, url, op="setup", first=a.pk)
    post(phone, url, op="turn", turn=1, side=a.pk)
    for down in a.fighters.filter(is_leader=False)[:2]:
        post(phone, url, op="status", fighter=down.pk, status="out_of_action")
    post(phone, url, op="turn", turn=1, side=league.warband(1).pk)
    post(phone, url, op="turn", turn=2, side=a.pk)
    post(phone, url, op="rout", side=a.pk, confirmed="1")
    return BattleLogEntry.objects.get(kind="rout").seq


def test_the_players_strike_out_the_decisive_entry_from_the_page(table):
    league, battle, url = table
    seq = routed(league, url)
    battle.refresh_from_db()
    assert battle.status == Battle.Status.REPORTED
    phone_b = browser(league.user(1))  # the opponent, who has not confirmed yet
    page = phone_b.get(url).content.decode()
    banner = page.split('data-testid="report-banner"')[1].split("</section>")[0]
    assert "waits for the opponent to confirm" in banner
    assert f"Strike out the decisive entry (#{seq} · " in banner
    assert f'name="corrects" value="{seq}"' in banner
    assert 'data-testid="next-turn"' not in page
    # Someone who does not play in it sees the banner, not the button.
    organiser = browser(league.organiser)
    assert 'data-testid="strike-decisive"' not in organiser.get(url).content.decode()
    # Asked first: a page without JavaScript, the question as JSON with it; nothing written.
    count = BattleLogEntry.objects.filter(battle=battle).count()
    fields = {"client_id": str(uuid.uuid4()), "op": "correction", "corrects": seq}
    asking = phone_b.post(url, fields)
    assert asking.status_code == 200
    assert f"Strike out entry #{seq}, which finished the battle?" in asking.content.decode()
    scripted = phone_b.post(url, fields, headers={"X-Table": "1"}).json()
    assert "the battle goes on" in scripted["confirm"]
    assert BattleLogEntry.objects.filter(battle=battle).count() == count
    # With JavaScript the answer is the live part: the battle under way again.
    live = phone_b.post(url, {**fields, "confirmed": "1"}, headers={"X-Table": "1"})
    text = live.content.decode()
    assert live.status_code == 200 and 'data-testid="report-banner"' not in text
    assert f'<li value="{seq}" data-seq="{seq}"' in text and "<s>" in text
    assert 'data-testid="note-form"' in text and 'data-testid="decisive"' in text
    battle.refresh_from_db()
    assert battle.status == Battle.Status.SCHEDULED
    assert not battle.participants.filter(routed=True).exists()


def test_without_javascript_the_strike_out_returns_to_the_table_under_way(table):
    league, battle, url = table
    seq = routed(league, url)
    phone_a = browser(league.user(0))
    done = phone_a.post(
        url,
        {"client_id": str(uuid.uuid4()), "op": "correction", "corrects": seq, "confirmed": "1"},
        follow=True,
    )
    page = done.content.decode()
    assert "The report is withdrawn: the battle goes on." in page
    assert 'data-testid="report-banner"' not in page and 'data-testid="finish"' in page


def test_a_confirmed_battle_offers_no_strike_out(table):
    league, battle, url = table
    seq = routed(league, url)
    battle.refresh_from_db()
    reports.battle_confirm(battle=battle, by=league.user(1))
    phone_a = browser(league.user(0))
    assert 'data-testid="strike-decisive"' not in phone_a.get(url).content.decode()
    refused = phone_a.post(
        url,
        {"client_id": str(uuid.uuid4()), "op": "correction", "corrects": seq, "confirmed": "1"},
        headers={"X-Table": "1"},
    )
    assert refused.status_code == 409 and "confirmed" in refused.json()["errors"]["__all__"][0]
    battle.refresh_from_db()
    assert battle.status == Battle.Status.CONFIRMED
