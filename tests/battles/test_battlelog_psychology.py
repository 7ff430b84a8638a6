"""Fear, all alone and charged while fleeing at the table: the state offers them when the log
shows them due, and the page and the API log them (Reglas › Liderazgo y psicología)."""

from __future__ import annotations

import pytest

from battles.models import BattleLogEntry
from tests.battles.factories import first_battle
from tests.battles.test_battlelog_api import Table, uid
from tests.battles.test_battlelog_pages import browser, post
from warbands.models import Fighter

pytestmark = pytest.mark.django_db


@pytest.fixture
def fear_table(make_league):
    """Two warbands of four; B's leader causes fear."""
    league = make_league(henchmen=3, max_fighter_type_copies=None)
    battle = first_battle(league)
    table = Table(league, battle)
    Fighter.objects.filter(warband=table.b, is_leader=True).update(special_rules=["fear"])
    response = table.phone_a.post(
        f"{table.url}setup/", {"client_id": uid(), "first": table.a.pk}, format="json"
    )
    assert response.status_code == 201, response.json()
    table.post(table.phone_a, "turn", payload={"turn": 1, "side": table.a.pk})
    return table


def due(table: Table, check: str) -> list[dict]:
    return [c for c in table.state()["checks_due"] if c["check"] == check]


def test_the_state_offers_fear_and_the_api_logs_it(fear_table):
    table = fear_table
    a, b = table.fighters(table.a), table.fighters(table.b)
    (fear,) = due(table, "fear")
    assert fear == {
        "check": "fear",
        "side": table.a.pk,
        "against": b[0],
        "fighters": sorted(a),
        "situation": "charging",
        "required": False,
    }
    entry = table.post(
        table.phone_a,
        "check",
        payload={"check": "fear", "fighter": a[1], "against": b[0]},
        faces=[6, 6],
    )
    assert entry["payload"]["result"]["outcome"] == "cannot_charge"
    assert due(table, "fear")[0]["fighters"] == sorted(set(a) - {a[1]})
    refused = table.post(
        table.phone_a,
        "check",
        expect=400,
        payload={"check": "fear", "fighter": a[1], "against": b[1]},  # b[1] causes no fear
    )
    assert "payload.against" in refused["error"]["fields"]


def test_all_alone_offered_after_two_enemies_and_charged_while_fleeing_after(fear_table):
    """A's warrior charges two of B's; after their combat's phase he is alone against two:
    the test is offered; he fails, flees, and each enemy strikes him an automatic hit (an
    entry the log requires); in B's turn he is charged while fleeing and runs again."""
    table = fear_table
    a, b = table.fighters(table.a), table.fighters(table.b)
    table.post(table.phone_a, "charge", payload={"charger": a[1], "targets": b[1:3]})
    assert due(table, "all-alone") == []  # at the end of the combat's phase, not before
    # Strike order: he charged (first); B's two roll off (5, 3). Every blow misses (1s).
    table.post(
        table.phone_a,
        "close-combat",
        payload={"fighter": a[1], "blows": [{"attacker": a[1], "target": b[1]}]},
        faces=[5, 3, 1, 1, 1],
    )
    (alone,) = due(table, "all-alone")
    assert (alone["fighter"], alone["enemies"], alone["required"]) == (a[1], sorted(b[1:3]), False)
    entry = table.post(
        table.phone_a,
        "check",
        payload={"check": "all-alone", "fighter": a[1]},
        faces=[6, 6, 2, 2, 2, 2, 2],
    )
    assert entry["payload"]["result"]["outcome"] == "flees"
    assert entry["payload"]["result"]["details"]["flee_cm"] == 10
    assert due(table, "all-alone") == []
    (hits,) = due(table, "hits")
    assert (hits["fighter"], hits["enemies"], hits["required"]) == (a[1], sorted(b[1:3]), True)
    table.post(table.phone_b, "turn", expect=400, payload={"turn": 1, "side": table.b.pk})
    # Two automatic hits, F3 against R3: 4+ to wound; both dice are 1s.
    struck = table.post(table.phone_a, "hits", payload={"target": a[1]}, faces=[1, 1])
    assert struck["payload"]["result"]["outcome"] == "unharmed"
    table.post(table.phone_b, "turn", payload={"turn": 1, "side": table.b.pk})
    assert due(table, "charged-while-fleeing") == []  # only once someone charges him
    table.post(table.phone_b, "charge", payload={"charger": b[1], "targets": [a[1]]})
    (charged,) = due(table, "charged-while-fleeing")
    assert charged["fighter"] == a[1] and charged["required"] is True
    assert table.state()["combats"] == []  # he runs before any blow: no fight
    entry = table.post(
        table.phone_b,
        "check",
        payload={"check": "charged-while-fleeing", "fighter": a[1]},
        faces=[1, 2, 3, 4, 5],
    )
    assert entry["payload"]["result"]["details"]["flee_cm"] == 15
    assert due(table, "charged-while-fleeing") == []


def test_the_page_prompts_and_logs_each_check(fear_table):
    table = fear_table
    battle = table.battle
    url = f"/battles/{battle.pk}/table/"
    a, b = table.fighters(table.a), table.fighters(table.b)
    phone_a = browser(table.battle.participants.get(warband=table.a).warband.owner)
    # Each warrior's card offers his tests: fear of the enemies who cause it, all alone.
    card = phone_a.get(f"{url}cards/{a[2]}/").content.decode()
    assert f'data-testid="fear-form-{a[2]}"' in card
    assert f'data-testid="alone-form-{a[1]}"' in phone_a.get(f"{url}cards/{a[1]}/").content.decode()
    live = phone_a.get(f"{url}live/").content.decode()
    assert 'data-testid="check-fear"' in live and "causes fear" in live
    # The prompt's form: who tests is chosen, the enemy and the situation come with it.
    post(phone_a, url, op="check", check="fear", fighter=a[2], against=b[0], faces="1 1")
    fear = BattleLogEntry.objects.filter(battle=battle, kind="check").last()
    assert fear.payload["fighter"] == a[2] and fear.payload["against"] == b[0]
    assert fear.payload["result"]["outcome"] == "passed"
    # All alone from the free form, the table saying how many enemies he fights.
    post(
        phone_a,
        url,
        op="check",
        check="all-alone",
        fighter=a[1],
        enemies="3",
        faces="6 6 1 1 1 1 1",
    )
    alone = BattleLogEntry.objects.filter(battle=battle, kind="check").last()
    assert alone.payload["params"] == {"enemies": 3}
    assert alone.payload["result"]["details"]["automatic_hits"] == 3
    live = phone_a.get(f"{url}live/").content.decode()
    assert "All alone" in live and "flees" in live and "He runs" in live
    # Charged while fleeing: his own side moves, so the page shows why it is refused.
    refused = phone_a.post(
        url,
        {"client_id": uid(), "op": "check", "check": "charged-while-fleeing", "fighter": a[1]},
        follow=True,
    )
    assert "Only the warband whose turn it is charges" in refused.content.decode()
    count = BattleLogEntry.objects.filter(battle=battle).count()
    post(phone_a, url, op="turn", turn=1, side=table.b.pk)
    # B's leader charges the fleeing warrior from the page: he must run first.
    post(phone_a, url, op="charge", charger=b[0], targets=[a[1]])
    live = phone_a.get(f"{url}live/").content.decode()
    assert 'data-testid="check-charged-while-fleeing"' in live
    page = phone_a.get(f"{url}cards/{a[1]}/").content.decode()
    assert f'data-testid="charged-form-{a[1]}"' in page  # on the fleeing warrior's card
    post(phone_a, url, op="check", check="charged-while-fleeing", fighter=a[1], faces="6 6 6 6 6")
    charged = BattleLogEntry.objects.filter(battle=battle, kind="check").last()
    assert charged.seq == count + 3
    assert charged.payload["result"]["details"]["flee_cm"] == 30
