"""The phone page at the table: setup, entries posted by forms, the live part, the report."""

import re
import uuid

import pytest
from django.conf import settings
from django.test import Client
from django.utils import translation

from battles.battlelog.views import Names, describe
from battles.models import Battle, BattleLogEntry, BattleSetup
from tests.battles.factories import build_league, first_battle
from warbands import services as warband_services
from warbands.models import Equipment, Fighter

pytestmark = pytest.mark.django_db


def browser(user) -> Client:
    """A signed-in browser reading the pages in English (the assertions quote English text;
    Spanish, the default, is covered by the catalogue's tests)."""
    client = Client()
    client.force_login(user)
    client.cookies[settings.LANGUAGE_COOKIE_NAME] = "en"
    return client


@pytest.fixture(scope="module")
def _at_table(module_transaction):
    with module_transaction:
        league = build_league(prefix="t-", henchmen=3)
        battle = first_battle(league)
        return league, battle, f"/battles/{battle.pk}/table/"


@pytest.fixture
def at_table(_at_table, fresh):
    return fresh(_at_table)


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
    assert f"{killer.name} puts {victim.name} out of action with Sword" in text
    assert 'data-testid="check-rout"' in text  # 1 of 4 out: a quarter, the test is due
    last = BattleLogEntry.objects.filter(battle=battle).count()
    with django_assert_max_num_queries(8):
        unchanged = phone_b.get(f"{url}live/?seen={last}")
    assert unchanged.status_code == 204
    # Typed dice that fail the rout test end the battle: the page asks first, writes nothing.
    rout = {"client_id": str(uuid.uuid4()), "op": "check", "check": "rout", "side": a.pk}
    asking = phone_a.post(url, {**rout, "faces": "6 6"})
    assert asking.status_code == 200 and "fails its rout test" in asking.content.decode()
    assert BattleLogEntry.objects.filter(battle=battle).count() == last
    post(phone_a, url, **{**rout, "faces": "6 6", "confirmed": "1"})
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


def test_the_attack_form_offers_the_attackers_weapons_and_a_correction(at_table):
    """A log that knows the combats shoots with the attack form (its missile weapons only;
    close combat is a charge and a combat's phase); the opponent may strike an entry out."""
    league, battle, url = at_table
    a, b = league.warband(0), league.warband(1)
    captain = Fighter.objects.get(warband=a, is_leader=True)
    warband_services.equipment_buy(
        warband=a, equipment=Equipment.objects.get(slug="arco"), fighter=captain
    )
    phone_a, phone_b = browser(league.user(0)), browser(league.user(1))
    post(phone_a, url, op="setup", first=a.pk)
    post(phone_a, url, op="turn", turn=1, side=a.pk)
    page = phone_a.get(f"{url}cards/{captain.pk}/").content.decode()  # his card's forms
    card = page.split(f'data-testid="attack-form-{captain.pk}"')[1].split("</form>")[0]
    assert f'value="{captain.pk}:arco"' in card
    assert f'name="attacker" value="{captain.pk}"' in card  # he acts from his own card
    assert 'name="cover"' in card and 'name="charging"' not in card
    assert 'name="large_target"' not in card  # it comes from the target's rules
    assert f'data-testid="charge-form-{captain.pk}"' in page
    target = Fighter.objects.get(warband=b, is_leader=True)
    post(
        phone_a,
        url,
        op="attack",
        attacker=captain.pk,
        target=target.pk,
        mode="shooting",
        weapon=f"{captain.pk}:arco",
        cover="1",
    )
    attack = BattleLogEntry.objects.get(battle=battle, kind="attack")
    assert attack.payload["weapon"] == "arco"
    assert attack.payload["modifiers"] == {"cover": True}
    # The opponent strikes the attack out from the page: a correction entry, nothing deleted.
    page = phone_b.get(url).content.decode()
    assert 'data-testid="correction-form"' in page and f'value="{attack.seq}"' in page
    post(phone_b, url, op="correction", corrects=attack.seq)
    correction = BattleLogEntry.objects.get(battle=battle, kind="correction")
    assert correction.payload == {"corrects": attack.seq}
    assert BattleLogEntry.objects.filter(pk=attack.pk).exists()
    live = phone_a.get(f"{url}live/").content.decode()
    assert f'data-seq="{attack.seq}" data-author="{league.user(0).pk}"><s>' in live
    state = phone_a.get(f"/api/v1/battles/{battle.pk}/state/").json()
    mine = next(f for s in state["sides"] for f in s["fighters"] if f["id"] == target.pk)
    assert mine["status"] == "in_play" and mine["wounds"] == target.w


def test_each_player_picks_his_own_lineup_on_the_setup_page(at_table):
    league, battle, url = at_table
    a, b = league.warband(0), league.warband(1)
    phone_a = browser(league.user(0))
    page = phone_a.get(url).content.decode()
    assert f'name="w{a.pk}"' in page and f'name="w{b.pk}"' not in page
    assert 'data-testid="scenario"' in page and "Defender el hallazgo" in page
    mine = list(Fighter.objects.filter(warband=a).order_by("pk").values_list("pk", flat=True))
    post(phone_a, url, op="lineup", **{f"pick{a.pk}": "1", f"w{a.pk}": mine[:2]})
    assert battle.lineups.get(warband=a).fighters == mine[:2]
    forged = phone_a.post(
        url,
        {"client_id": str(uuid.uuid4()), "op": "lineup", f"pick{b.pk}": "1", f"w{b.pk}": [1]},
        follow=True,
    )
    assert "own warband" in forged.content.decode()
    assert not battle.lineups.filter(warband=b).exists()
    post(phone_a, url, op="setup", scenario="Escaramuza", first=a.pk)
    setup = battle.log_setup
    sides = {s["warband"]: [f["id"] for f in s["fighters"]] for s in setup.data["sides"]}
    assert sides[a.pk] == mine[:2] and len(sides[b.pk]) == b.fighters.count()


def test_the_challenge_form_shows_where_the_campaign_uses_challenges(make_league):
    league = make_league(henchmen=1, optional_rules=["challenges"])
    battle = first_battle(league)
    url = f"/battles/{battle.pk}/table/"
    a, b = league.warband(0), league.warband(1)
    phone_a, phone_b = browser(league.user(0)), browser(league.user(1))
    post(phone_a, url, op="setup", first=a.pk)
    post(phone_a, url, op="turn", turn=1, side=a.pk)
    assert 'data-testid="challenge-form"' in phone_a.get(url).content.decode()
    captain = Fighter.objects.get(warband=a, is_leader=True)
    rival = Fighter.objects.get(warband=b, is_leader=True)
    post(phone_a, url, op="charge", charger=captain.pk, targets=[rival.pk])
    post(phone_a, url, op="challenge", step="issue", fighter=captain.pk)
    live = phone_b.get(f"{url}live/").content.decode()
    assert 'data-testid="accept-challenge"' in live
    issued = BattleLogEntry.objects.get(battle=battle, kind="challenge").seq
    post(phone_b, url, op="challenge", step="refuse", fighter=rival.pk, issued=issued)
    refusal = BattleLogEntry.objects.filter(battle=battle, kind="challenge").last()
    assert refusal.payload["step"] == "refuse"
    assert refusal.payload["result"]["outcome"] == "refused"
    assert "refuses the challenge" in phone_a.get(f"{url}live/").content.decode()


def test_a_fighter_is_named_as_himself_even_when_a_warband_has_his_id():
    """Fighters and warbands are numbered apart: the warband with the actor's id number must not
    lend him its name (found at the table: "Compañía del Baranduin ataca a Guerrero elfo 1")."""
    names = Names(fighters={7: "Arathorn", 8: "Guerrero elfo 1"}, sides={7: "Compañía", 9: "Elfos"})
    out = {"status": "out_of_action", "fighter": 8, "by": 7, "weapon": "espada"}
    with translation.override("en"):
        assert describe({"kind": "status", "payload": out}, names) == (
            "Arathorn puts Guerrero elfo 1 out of action with Sword."
        )
        attack = {"attacker": 7, "target": 8, "mode": "melee", "result": {}}
        assert describe({"kind": "attack", "payload": attack}, names).startswith(
            "Arathorn attacks Guerrero elfo 1"
        )
        assert describe({"kind": "turn", "payload": {"turn": 2, "side": 7}}, names) == (
            "Turn 2: Compañía moves."
        )
        assert describe({"kind": "rout", "payload": {"side": 9}}, names) == (
            "Elfos withdraws from the battle."
        )


def test_saving_a_lineup_says_so_and_keeps_the_setup_chosen_so_far(at_table):
    """Found at the table: "Save my lineup" reloaded the page with the scenario, who moves first
    and the attacker back to their defaults, and said nothing."""
    league, battle, url = at_table
    a, b = league.warband(0), league.warband(1)
    phone_a = browser(league.user(0))
    mine = list(Fighter.objects.filter(warband=a).order_by("pk").values_list("pk", flat=True))
    response = phone_a.post(
        url,
        {
            "client_id": str(uuid.uuid4()),
            "op": "lineup",
            f"pick{a.pk}": "1",
            f"w{a.pk}": mine[:2],
            "scenario": "Escaramuza",
            "first": b.pk,
            "attacker": a.pk,
        },
        follow=True,
    )
    page = response.content.decode()
    assert "Lineup saved: 2 warriors." in page
    assert '<option value="Escaramuza" selected>' in page
    first = page.split('data-testid="first"')[1].split("</select>")[0]
    attacker = page.split('data-testid="attacker"')[1].split("</select>")[0]
    assert f'<option value="{b.pk}" selected>' in first
    assert f'<option value="{a.pk}" selected>' in attacker
    assert battle.lineups.get(warband=a).fighters == mine[:2]
    assert not BattleSetup.objects.filter(battle=battle).exists()  # a lineup does not start it


def test_finishing_the_battle_asks_first_then_shows_the_report_sent(at_table):
    """Found at the table: the finish button sent the report to the opponent at once, said
    nothing and left the player on the table's page."""
    league, battle, url = at_table
    a, b = league.warband(0), league.warband(1)
    phone_a = browser(league.user(0))
    post(phone_a, url, op="setup", scenario="Escaramuza", first=a.pk)
    post(phone_a, url, op="turn", turn=1, side=a.pk)
    fields = {"client_id": str(uuid.uuid4()), "op": "finish", "winner": str(b.pk)}
    asking = phone_a.post(url, fields)
    assert asking.status_code == 200
    assert "goes to your opponent to confirm" in asking.content.decode()
    battle.refresh_from_db()
    assert battle.status == Battle.Status.SCHEDULED  # nothing written before the answer
    done = phone_a.post(url, {**fields, "confirmed": "1"}, follow=True)
    assert done.redirect_chain[-1][0] == battle.get_absolute_url()
    assert "its report waits for your opponent to confirm" in done.content.decode()
    battle.refresh_from_db()
    assert battle.status == Battle.Status.REPORTED
    assert battle.participants.get(warband=b).result == "win"


def test_a_warriors_card_offers_only_enemies_in_play_and_nothing_when_he_is_out(at_table):
    """Found at the table: the attack form offered the same warrior as attacker and target, and
    pre-selected an out-of-action leader. Each card acts for its own warrior, against enemies
    still in play; an out-of-action warrior's card only changes his status."""
    league, battle, url = at_table
    a, b = league.warband(0), league.warband(1)
    phone_b = browser(league.user(1))
    post(phone_b, url, op="setup", scenario="Escaramuza", first=b.pk)
    post(phone_b, url, op="turn", turn=1, side=b.pk)
    leader = Fighter.objects.get(warband=a, is_leader=True)
    post(phone_b, url, op="status", fighter=leader.pk, status="out_of_action")
    theirs = Fighter.objects.filter(warband=b).first()
    form = phone_b.get(f"{url}cards/{theirs.pk}/").content.decode()
    form = form.split(f'data-testid="charge-form-{theirs.pk}"')[1].split("</form>")[0]
    targets = {int(v) for v in re.findall(r'name="targets" value="(\d+)"', form)}
    alive = set(
        Fighter.objects.filter(warband=a).exclude(pk=leader.pk).values_list("pk", flat=True)
    )
    assert targets == alive
    page = phone_b.get(f"{url}cards/{leader.pk}/").content.decode()
    assert f'data-testid="act-status-{leader.pk}"' in page
    assert f'data-testid="act-charge-{leader.pk}"' not in page
    assert f'data-testid="act-check-{leader.pk}"' not in page


def test_the_table_logs_a_charge_and_its_combats_phase_from_the_page(at_table):
    """A charge from its form opens a combat; the combat's own form says how the attacks of a
    warrior fighting two are split, and logs its close-combat phase; a warrior who flees it is
    struck by each enemy (a form of the checks due); one whose enemies are all down leaves."""
    league, battle, url = at_table
    a, b = league.warband(0), league.warband(1)
    mine = list(Fighter.objects.filter(warband=a).order_by("-is_leader", "pk"))
    theirs = list(Fighter.objects.filter(warband=b).order_by("-is_leader", "pk"))
    phone_a, phone_b = browser(league.user(0)), browser(league.user(1))
    post(phone_a, url, op="setup", first=a.pk)
    post(phone_a, url, op="turn", turn=1, side=a.pk)
    page = phone_a.get(f"{url}cards/{mine[0].pk}/").content.decode()
    assert f'data-testid="charge-{mine[0].pk}-target-{theirs[0].pk}"' in page
    post(phone_a, url, op="charge", charger=mine[0].pk, targets=[theirs[0].pk, theirs[1].pk])
    live = phone_b.get(f"{url}live/").content.decode()
    assert 'data-testid="combat-1"' in live and 'data-testid="combat-due-1"' in live
    assert f'name="blows-{mine[0].pk}-{theirs[0].pk}"' in live  # he fights two: he splits
    assert "charged" in live and "first round" in live
    # The captain (charged, first) puts his one attack on their captain: a 1 misses. Their
    # two (I3 each, their captain I4 first): 1 and 1 miss.
    post(
        phone_a,
        url,
        op="close-combat",
        combat=1,
        faces="1 1 1",
        **{f"blows-{mine[0].pk}-{theirs[0].pk}": "1"},
    )
    fight = BattleLogEntry.objects.get(battle=battle, kind="close-combat")
    assert fight.payload["blows"] == [
        {"attacker": mine[0].pk, "target": theirs[0].pk, "attacks": 1}
    ]
    live = phone_b.get(f"{url}live/").content.decode()
    assert "Close combat:" in live and "fought this turn" in live
    # The captain turns and flees (logged by hand): each enemy in contact strikes him.
    post(phone_a, url, op="status", fighter=mine[0].pk, status="fleeing")
    live = phone_b.get(f"{url}live/").content.decode()
    assert 'data-testid="roll-hits"' in live
    post(phone_b, url, op="hits", target=mine[0].pk, faces="1 1")
    hits = BattleLogEntry.objects.get(battle=battle, kind="hits")
    assert hits.payload["result"]["outcome"] == "unharmed"
    assert "automatic hits as he flees" in phone_b.get(f"{url}live/").content.decode()


def test_a_warrior_whose_enemies_are_all_down_leaves_his_combat_from_the_page(at_table):
    league, battle, url = at_table
    a, b = league.warband(0), league.warband(1)
    mine = Fighter.objects.filter(warband=a).order_by("-is_leader", "pk").first()
    theirs = Fighter.objects.filter(warband=b).order_by("-is_leader", "pk").first()
    phone_a = browser(league.user(0))
    post(phone_a, url, op="setup", first=a.pk)
    post(phone_a, url, op="turn", turn=1, side=a.pk)
    post(phone_a, url, op="charge", charger=mine.pk, targets=[theirs.pk])
    # Hit 4 (HA4 v HA4), wound 4, injury 1: knocked down; he does not strike back.
    post(phone_a, url, op="close-combat", combat=1, faces="4 4 1")
    page = phone_a.get(f"{url}cards/{mine.pk}/").content.decode()
    assert f'data-testid="disengage-form-{mine.pk}"' in page
    again = {"op": "charge", "charger": mine.pk, "targets": [theirs.pk]}
    refused = phone_a.post(url, {"client_id": str(uuid.uuid4()), **again}, follow=True)
    assert "Charges are declared at the start of the movement phase" in refused.content.decode()
    post(phone_a, url, op="disengage", fighter=mine.pk)
    assert "leaves the combat" in phone_a.get(f"{url}live/").content.decode()
    post(phone_a, url, op="turn", turn=1, side=b.pk)  # no combat left: no phase due
    assert BattleLogEntry.objects.filter(battle=battle, kind="turn").count() == 2


def test_a_form_returns_to_its_place_and_the_script_gets_the_live_part_or_the_field_at_fault(
    at_table,
):
    """Without JavaScript an entry returns to the card it came from, open; posted by the
    page's script it answers the live part, or a refusal naming the field, with nothing
    written."""
    league, battle, url = at_table
    a, b = league.warband(0), league.warband(1)
    phone = browser(league.user(0))
    post(phone, url, op="setup", first=a.pk)
    post(phone, url, op="turn", turn=1, side=a.pk)
    mine = Fighter.objects.filter(warband=a).order_by("pk").first()
    theirs = Fighter.objects.filter(warband=b).order_by("pk").first()
    back = post(
        phone, url, op="status", fighter=mine.pk, status="knocked_down", anchor=f"fighter-{mine.pk}"
    )
    assert back["Location"].endswith(f"{url}?fighter={mine.pk}#fighter-{mine.pk}")
    odd = post(phone, url, op="note", text="x", anchor="javascript:alert(1)")
    assert "#" not in odd["Location"]  # only a plain fragment goes back
    fetched = phone.post(
        url,
        {"client_id": str(uuid.uuid4()), "op": "note", "text": "hola"},
        headers={"X-Table": "1"},
    )
    assert fetched.status_code == 200 and 'id="battle-live"' in fetched.content.decode()
    count = BattleLogEntry.objects.filter(battle=battle).count()
    refused = phone.post(
        url,
        {
            "client_id": str(uuid.uuid4()),
            "op": "attack",
            "attacker": mine.pk,
            "target": theirs.pk,
            "mode": "shooting",
            "faces": "4",
        },
        headers={"X-Table": "1"},
    )
    assert refused.status_code == 400
    errors = refused.json()["errors"]
    assert set(errors) <= {"faces", "weapon", "attacker", "target", "__all__"} and errors
    assert BattleLogEntry.objects.filter(battle=battle).count() == count


def test_a_voluntary_rout_asks_first_with_and_without_javascript(at_table):
    league, battle, url = at_table
    a = league.warband(0)
    phone = browser(league.user(0))
    post(phone, url, op="setup", first=a.pk)
    post(phone, url, op="turn", turn=1, side=a.pk)
    for down in Fighter.objects.filter(warband=a, is_leader=False)[:2]:
        post(phone, url, op="status", fighter=down.pk, status="out_of_action")
    post(phone, url, op="turn", turn=1, side=league.warband(1).pk)
    post(phone, url, op="turn", turn=2, side=a.pk)  # two out, his turn begins: he may withdraw
    page = phone.get(url).content.decode()
    decisive = page.split('data-testid="decisive"')[1]
    assert 'data-testid="voluntary-rout"' in decisive  # apart, after everything routine
    count = BattleLogEntry.objects.filter(battle=battle).count()
    fields = {"client_id": str(uuid.uuid4()), "op": "rout", "side": a.pk}
    asking = phone.post(url, fields)
    assert asking.status_code == 200 and "voluntary rout" in asking.content.decode()
    scripted = phone.post(url, fields, headers={"X-Table": "1"}).json()
    assert "voluntary rout" in scripted["confirm"]
    assert BattleLogEntry.objects.filter(battle=battle).count() == count
    post(phone, url, **fields, confirmed="1")
    battle.refresh_from_db()
    assert battle.participants.get(warband=a).routed


def test_the_page_shows_each_rolled_die_folded_and_the_dice_a_form_still_needs(at_table):
    league, battle, url = at_table
    a, b = league.warband(0), league.warband(1)
    phone = browser(league.user(0))
    post(phone, url, op="setup", first=a.pk)
    post(phone, url, op="turn", turn=1, side=a.pk)
    mine = Fighter.objects.filter(warband=a).order_by("-is_leader", "pk").first()
    theirs = Fighter.objects.filter(warband=b).order_by("-is_leader", "pk").first()
    post(phone, url, op="charge", charger=mine.pk, targets=[theirs.pk])
    planned = phone.post(
        f"{url}plan/", {"op": "close-combat", "combat": "1", "faces": "4"}
    ).content.decode()
    assert "to hit: <b>4</b>" in planned and "more di" in planned  # next: the wound roll
    post(phone, url, op="close-combat", combat=1, faces="4 4 1")
    page = phone.get(url).content.decode()
    fight = BattleLogEntry.objects.get(battle=battle, kind="close-combat")
    folded = page.split(f'data-testid="dice-{fight.seq}"')[1].split("</details>")[0]
    assert "to hit" in folded and "<b>4</b>" in folded and "injury" in folded


def test_the_service_worker_and_the_manifest_are_served(at_table):
    league, battle, url = at_table
    phone = browser(league.user(0))
    worker = phone.get("/table-sw.js")
    assert worker.status_code == 200 and worker["Content-Type"].startswith("text/javascript")
    assert "manifest.webmanifest" in worker.content.decode()
    post(phone, url, op="setup")
    page = phone.get(url).content.decode()
    assert "manifest.webmanifest" in page and "js/table.js" in page


def test_home_leads_to_the_table_while_a_battle_is_set_up(at_table):
    league, battle, url = at_table
    phone = browser(league.user(0))
    assert 'data-testid="go-to-table"' not in phone.get("/").content.decode()
    post(phone, url, op="setup")
    home = phone.get("/").content.decode()
    assert f'href="{url}"' in home.split('data-testid="go-to-table"')[0].rsplit("<a", 1)[1]
    opponent = browser(league.user(1)).get("/").content.decode()
    assert 'data-testid="go-to-table"' in opponent
