"""A whole battle through the API, every die typed and worked by hand against the rulebook:
combats of one against one, two against one and three against two; chargers; a flail; a
buckler; a frenzied hero, a hardened hero and a scarred hero (his rules from the roster, nobody
ticking anything). Then the post-battle round trip: a hero scarred in one battle causes fear in
the next."""

from __future__ import annotations

import pytest

from battles.campaigns import services
from battles.models import Battle, BattleLogEntry
from tests.battles.factories import first_battle
from tests.battles.test_battlelog_api import Table, uid
from tests.battles.test_postbattle import fight as report
from tests.battles.test_postbattle import leader, out_of_action
from tests.battles.test_postbattle import resolve as resolve  # noqa: F401 - the fixture
from warbands import services as roster
from warbands.models import Equipment, Fighter, FighterType

pytestmark = pytest.mark.django_db


def hire(warband, type_slug: str, name: str, *, gear=(), rules=()) -> int:
    fighter = roster.fighter_hire(
        warband=warband, fighter_type=FighterType.objects.get(slug=type_slug), name=name
    )
    fighter = Fighter.objects.get(warband=warband, name=name)
    for slug in gear:
        roster.equipment_buy(
            warband=warband, equipment=Equipment.objects.get(slug=slug), fighter=fighter
        )
    if rules:
        Fighter.objects.filter(pk=fighter.pk).update(special_rules=list(rules))
    return fighter.pk


@pytest.fixture
def armies(make_league):
    """Arnor (A) and Angmar (B), Mercenarios de Rhovanion both: a captain (HA4 I4 L8), two
    warriors (HA3 I3 L7) and heroes (champions HA4 I3 L7; a youngblood HA2 I3 L6).

    A: Beren, the captain, sword and buckler; Barahir, champion, a flail, frenzied (madness);
    Dior, champion, hardened (immune to fear). B: Gorbag, the captain, horribly scarred (he
    causes fear); Ugluk, champion, a sword; Lagduf, youngblood."""
    league = make_league(henchmen=2, max_fighter_type_copies=None, rating_cap=None)
    battle = first_battle(league)
    table = Table(league, battle)
    a, b = table.a, table.b
    cast = {
        "beren": Fighter.objects.get(warband=a, is_leader=True).pk,
        "gorbag": Fighter.objects.get(warband=b, is_leader=True).pk,
    }
    cast["a1"], cast["a2"] = table.fighters(a)[1:3]
    cast["b1"], cast["b2"] = table.fighters(b)[1:3]
    for slug in ("espada", "escudo-pequeno"):
        roster.equipment_buy(
            warband=a,
            equipment=Equipment.objects.get(slug=slug),
            fighter=Fighter.objects.get(pk=cast["beren"]),
        )
    Fighter.objects.filter(pk=cast["gorbag"]).update(special_rules=["fear"])
    cast["barahir"] = hire(a, "campeon-mercenario", "Barahir", gear=("mangual",), rules=("frenzy",))
    cast["dior"] = hire(a, "campeon-mercenario", "Dior", rules=("immune-fear",))
    cast["ugluk"] = hire(b, "campeon-mercenario", "Ugluk", gear=("espada",))
    cast["lagduf"] = hire(b, "joven-mercenario", "Lagduf")
    response = table.phone_a.post(
        f"{table.url}setup/", {"client_id": uid(), "first": a.pk}, format="json"
    )
    assert response.status_code == 201, response.json()
    return table, cast


def fight(table: Table, phone, faces, **payload) -> dict:
    return table.post(phone, "close-combat", payload=payload, faces=faces)["payload"]["result"]


def fighter(table: Table, pk: int) -> dict:
    return next(f for side in table.state()["sides"] for f in side["fighters"] if f["id"] == pk)


def blow(result: dict, attacker: int) -> dict:
    return next(b for b in result["blows"] if b["attacker"] == attacker)


def test_a_whole_battle_worked_by_hand(armies):
    table, c = armies
    a, b = table.a.pk, table.b.pk
    table.post(table.phone_a, "turn", payload={"turn": 1, "side": a})
    # The scarred captain causes fear: whoever of Arnor wants to charge him tests first — not
    # the frenzied Barahir, not the hardened Dior (Liderazgo y psicología › Miedo).
    (fear,) = [x for x in table.state()["checks_due"] if x["check"] == "fear"]
    assert fear["against"] == c["gorbag"] and fear["situation"] == "charging"
    assert c["barahir"] not in fear["fighters"] and c["dior"] not in fear["fighters"]
    assert "frenzied" in fighter(table, c["barahir"])["states"]

    # Movement: the charges (¡A la carga!).
    table.post(table.phone_a, "charge", payload={"charger": c["barahir"], "targets": [c["gorbag"]]})
    table.post(table.phone_a, "charge", payload={"charger": c["dior"], "targets": [c["ugluk"]]})
    table.post(table.phone_a, "charge", payload={"charger": c["beren"], "targets": [c["lagduf"]]})
    table.post(table.phone_a, "charge", payload={"charger": c["a1"], "targets": [c["lagduf"]]})
    combats = {frozenset(x["fighters"]): x["id"] for x in table.state()["combats"]}
    one_on_one = combats[frozenset({c["barahir"], c["gorbag"]})]
    duel = combats[frozenset({c["dior"], c["ugluk"]})]
    melee = combats[frozenset({c["beren"], c["a1"], c["lagduf"]})]  # two against one

    # 1 v 1, first round. Barahir charged: he strikes first. Frenzy doubles his A (2 attacks);
    # the flail gives +1 F in the first round: F4. HA4 against HA4 hits on 4+: 4 hits, 2
    # misses. F4 against R3 wounds on 3+: a 3. No armour. Injury 4: stunned. Gorbag, stunned,
    # does not strike back.
    result = fight(table, table.phone_a, [4, 2, 3, 4], combat=one_on_one)
    assert result["order"] == [c["barahir"], c["gorbag"]]
    assert blow(result, c["barahir"])["result"]["attacks"] == 2
    assert fighter(table, c["gorbag"])["status"] == "stunned"

    # Dior against Ugluk, first round: Dior charged. HA4 against HA4: 4+, a 5 hits. Ugluk
    # parries with his sword: a 6 beats the 5. Ugluk strikes back: a 1 misses.
    result = fight(table, table.phone_a, [5, 6, 1], combat=duel)
    assert blow(result, c["dior"])["result"]["parried"] is True

    # Two against one. Both charged: Beren (I4) then the warrior (I3); Lagduf, who fights two,
    # says whom he strikes. Beren, HA4 against HA2: 3+, a 2 misses (one attack: his buckler
    # holds the other hand). The warrior, HA3 against HA2: 3+, a 3 hits; 4 wounds; injury 1:
    # knocked down. Lagduf, down, does not strike.
    blows = [{"attacker": c["lagduf"], "target": c["beren"]}]
    result = fight(table, table.phone_a, [2, 3, 4, 1], combat=melee, blows=blows)
    assert result["order"] == [c["beren"], c["a1"], c["lagduf"]]
    assert fighter(table, c["lagduf"])["status"] == "knocked_down"

    table.post(table.phone_b, "turn", payload={"turn": 1, "side": b})
    # Recovery: Gorbag stunned → knocked down; Lagduf stands up (and strikes last this turn).
    assert fighter(table, c["gorbag"])["status"] == "knocked_down"
    assert "stood_up" in fighter(table, c["lagduf"])["states"]
    # Angmar's warriors join the two against one: three against two.
    table.post(table.phone_b, "charge", payload={"charger": c["b1"], "targets": [c["beren"]]})
    table.post(table.phone_b, "charge", payload={"charger": c["b2"], "targets": [c["a1"]]})
    melee_now = next(x for x in table.state()["combats"] if c["b1"] in x["fighters"])
    assert melee_now["id"] == melee
    assert set(melee_now["fighters"]) == {c["beren"], c["a1"], c["lagduf"], c["b1"], c["b2"]}

    # 1 v 1, second round: the flail is F3 now, nobody charged. Gorbag is knocked down: he
    # cannot strike, and Barahir's two attacks hit him automatically. F3 against R3: 4+, a 4
    # wounds (the 1 does not): a knocked-down warrior who is wounded is out of action.
    result = fight(table, table.phone_b, [4, 1], combat=one_on_one)
    strength = next(
        s for s in blow(result, c["barahir"])["result"]["steps"] if s["code"] == "melee.weapon"
    )["params"]["strength"]
    assert strength == 3
    assert fighter(table, c["gorbag"])["status"] == "out_of_action"
    assert all(c["gorbag"] not in x["fighters"] for x in table.state()["combats"])

    # Dior against Ugluk, second round: I3 each, a roll-off, 5 against 2: Dior first. A 4 hits;
    # Ugluk's parry, a 3, does not beat it. To wound a 6 (4+ needed): a critical hit, 5: a
    # master strike, 2 wounds, no save, +2 to injure. Ugluk (1 W) rolls twice: 1+2 and 2+2,
    # stunned. He does not strike.
    result = fight(table, table.phone_b, [5, 2, 4, 3, 6, 5, 1, 2], combat=duel)
    dior = blow(result, c["dior"])["result"]
    assert dior["criticals"] == ["master"] and dior["outcome"] == "stunned"

    # Three against two. The two who charged strike first (a roll-off between them, 4 and 3),
    # then Beren (I4) and the warrior (I3), Lagduf last (he stood up). Beren and the warrior
    # each fight two: they say whom they strike.
    blows = [
        {"attacker": c["beren"], "target": c["b1"]},
        {"attacker": c["a1"], "target": c["b2"]},
        {"attacker": c["lagduf"], "target": c["beren"]},
    ]
    # B1 on Beren: HA3 against HA4, 4+: a 5 hits. Beren parries: a 2 fails; sword and buckler
    # re-roll it: a 6 beats the 5. B2 on the warrior: a 1 misses. Beren on B1: 3+, a 3 hits; 5
    # wounds; injury 5: out of action. The warrior on B2: 4+, a 4 hits; a 2 does not wound.
    # Lagduf on Beren: HA2 against HA4, 4+ (4 is not more than double 2): a 6 hits; Beren has
    # parried once this phase: no parry; a 3 does not wound.
    faces = [4, 3, 5, 2, 6, 1, 3, 5, 5, 4, 2, 6, 3]
    result = fight(table, table.phone_b, faces, combat=melee, blows=blows)
    assert result["order"] == [c["b1"], c["b2"], c["beren"], c["a1"], c["lagduf"]]
    parry = blow(result, c["b1"])["result"]
    assert parry["parried"] and "parry.reroll" in [s["code"] for s in parry["steps"]]
    assert fighter(table, c["b1"])["status"] == "out_of_action"
    lagduf = blow(result, c["lagduf"])["result"]
    assert lagduf["hits"] == 1 and not lagduf["parried"]

    table.post(table.phone_a, "turn", payload={"turn": 2, "side": a})
    # Dior on the stunned Ugluk: out of action, no die rolled.
    result = fight(table, table.phone_a, [], combat=duel)
    assert fighter(table, c["ugluk"])["status"] == "out_of_action"
    # Two against two now. By Iniciativa: Beren (I4); the warrior, B2 and Lagduf tie at I3:
    # a roll-off in the order of their ids (6, 2, 4): the warrior, Lagduf, B2.
    blows = [
        {"attacker": c["a1"], "target": c["lagduf"]},
        {"attacker": c["lagduf"], "target": c["a1"]},
    ]
    # Beren on Lagduf: a 6 hits, 4 wounds, injury 6: out of action. The warrior's attack on
    # Lagduf goes to B2, the one enemy he may still strike: a 2 misses. Lagduf is out of action
    # before his turn. B2 on the warrior: a 5 hits, a 6 wounds: a critical, 3: exposed, 2
    # wounds, no save; injuries 2 and 1: knocked down.
    faces = [6, 2, 4, 6, 4, 6, 2, 5, 6, 3, 2, 1]
    result = fight(table, table.phone_a, faces, combat=melee, blows=blows)
    assert result["order"][0] == c["beren"]
    assert blow(result, c["a1"])["target"] == c["b2"]
    assert fighter(table, c["lagduf"])["status"] == "out_of_action"
    assert fighter(table, c["a1"])["status"] == "knocked_down"

    # Angmar's turn: four of five out of action: the rout test, the captain out of action, the
    # best L of those neither stunned nor out: B2's 7. 6+5 = 11: Angmar routs.
    table.post(table.phone_b, "turn", payload={"turn": 2, "side": b})
    test = table.post(table.phone_b, "check", payload={"check": "rout", "side": b}, faces=[6, 5])
    assert test["payload"]["result"]["outcome"] == "routed"
    battle = Battle.objects.get(pk=table.battle.pk)
    assert battle.status == Battle.Status.REPORTED
    assert battle.participants.get(warband=table.a).result == "win"
    out = set(battle.events.filter(kind="out_of_action").values_list("actor_id", "target_id"))
    assert out == {
        (c["barahir"], c["gorbag"]),
        (c["beren"], c["b1"]),
        (c["dior"], c["ugluk"]),
        (c["beren"], c["lagduf"]),
    }
    assert BattleLogEntry.objects.filter(battle=battle, kind="close-combat").count() == 8


def test_a_hero_scarred_in_one_battle_causes_fear_in_the_next(make_league, resolve):
    """Heridas graves › Cicatrices horribles: "causa miedo". Battle N: Angmar's captain is put
    out of action; after the battle his D66 is 64, horrible scars; Arnor's captain's 62,
    hardened. Battle N+1, set up from the rosters: Angmar's captain causes fear and Arnor's is
    immune to it — nobody ticks anything."""
    league = make_league(henchmen=2)
    a, b = league.warband(0), league.warband(1)
    battle = report(
        league, events=[out_of_action(leader(a), leader(b)), out_of_action(leader(b), leader(a))]
    )
    run = resolve(battle, faces={str(a.pk): [6, 2] + [1] * 12, str(b.pk): [6, 4] + [1] * 12})
    assert run.status == "applied", run.error
    assert "fear" in leader(b).special_rules and "immune-fear" in leader(a).special_rules
    services.round_close(round=battle.round, by=league.organiser)
    nxt = first_battle(league)  # round 2's
    table = Table(league, nxt)
    response = table.phone_a.post(
        f"{table.url}setup/", {"client_id": uid(), "first": a.pk}, format="json"
    )
    assert response.status_code == 201, response.json()
    table.post(table.phone_a, "turn", payload={"turn": 1, "side": a.pk})
    fears = [x for x in table.state()["checks_due"] if x["check"] == "fear"]
    assert [x["against"] for x in fears] == [leader(b).pk]
    assert leader(a).pk not in fears[0]["fighters"]  # hardened
    scarred = fighter(table, leader(b).pk)
    assert "fear" in scarred["rules"] and "fear" not in scarred["players_rules"]
    refused = table.post(
        table.phone_a,
        "charge",
        expect=400,
        payload={"charger": table.fighters(a)[1], "targets": [leader(b).pk]},
    )
    assert "chequeo de miedo" in refused["error"]["message"]
