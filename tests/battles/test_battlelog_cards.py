"""The table page's cards: their forms come when a card is opened (one card's, or every card's
at once for the page to keep), only to those who may write in the log; without JavaScript a
card's link opens the page with its forms, and a refused entry comes back as it was typed."""

import re
import uuid

import pytest
from django.conf import settings
from django.test import Client

from battles.battlelog.rebind import bind_form
from battles.models import Battle, BattleLogEntry
from tests.battles.factories import build_league, first_battle
from warbands import services as warband_services
from warbands.models import Equipment, Fighter

pytestmark = pytest.mark.django_db


def browser(user=None) -> Client:
    client = Client()
    if user is not None:
        client.force_login(user)
    client.cookies[settings.LANGUAGE_COOKIE_NAME] = "en"
    return client


def post(client, url, **data):
    response = client.post(url, {"client_id": str(uuid.uuid4()), **data})
    assert response.status_code == 302, response.content.decode()[:500]
    return response


@pytest.fixture(scope="module")
def _at_table(module_transaction):
    """A battle of a league of three (the third player sits this round out), set up and its
    first turn begun; the first warband's captain carries a bow (built once per module)."""
    with module_transaction:
        league = build_league(prefix="c-", henchmen=3, players=3)
        battle = first_battle(league)
        a = battle.participants.order_by("pk").first().warband
        captain = Fighter.objects.get(warband=a, is_leader=True)
        warband_services.equipment_buy(
            warband=a, equipment=Equipment.objects.get(slug="arco"), fighter=captain
        )
        players = {p.warband.owner_id for p in battle.participants.select_related("warband")}
        user_a = a.owner
        user_b = next(u for u, _ in league.players if u.pk in players and u.pk != user_a.pk)
        benched = next(u for u, _ in league.players if u.pk not in players)
        url = f"/battles/{battle.pk}/table/"
        post(browser(user_a), url, op="setup", first=a.pk)
        post(browser(user_a), url, op="turn", turn=1, side=a.pk)
        b = battle.participants.exclude(warband=a).get().warband
        return {
            "league": league,
            "battle": battle,
            "url": url,
            "a": a,
            "b": b,
            "user_a": user_a,
            "user_b": user_b,
            "benched": benched,
            "captain": captain,
        }


@pytest.fixture
def at_table(_at_table, fresh):
    return fresh(_at_table)


def forms_in(html: str) -> int:
    return html.count('class="entry-form"')


def test_the_page_has_no_card_forms_but_links_each_card_to_them(at_table):
    t = at_table
    page = browser(t["user_a"]).get(t["url"]).content.decode()
    fighters = Fighter.objects.filter(warband__in=[t["a"], t["b"]])
    for fighter in fighters:
        assert f'data-testid="card-{fighter.pk}"' in page
        assert f'href="?fighter={fighter.pk}#fighter-{fighter.pk}"' in page
        assert f'data-actions="{t["url"]}cards/{fighter.pk}/"' in page
    assert 'data-testid="attack-form-' not in page and 'data-testid="status-form-' not in page


def test_without_javascript_the_cards_link_opens_the_page_with_its_forms(at_table):
    t = at_table
    captain = t["captain"]
    page = browser(t["user_a"]).get(f"{t['url']}?fighter={captain.pk}").content.decode()
    card = page.split(f'id="fighter-{captain.pk}"')[0].rsplit("<details", 1)[1]
    assert " open" in card  # his card, unfolded
    assert f'data-testid="attack-form-{captain.pk}"' in page
    assert f'data-testid="status-form-{captain.pk}"' in page
    other = Fighter.objects.filter(warband=t["b"]).first()
    assert f'data-testid="status-form-{other.pk}"' not in page  # the others stay formless
    # A form posted from it comes back to his card, open.
    back = post(
        browser(t["user_a"]),
        t["url"],
        op="note",
        text="ok",
        anchor=f"fighter-{captain.pk}",
    )
    assert back["Location"].endswith(f"?fighter={captain.pk}#fighter-{captain.pk}")


def test_a_cards_forms_are_the_ones_the_page_used_to_carry(at_table):
    t = at_table
    captain, url = t["captain"], t["url"]
    fragment = browser(t["user_a"]).get(f"{url}cards/{captain.pk}/")
    assert fragment.status_code == 200
    html = fragment.content.decode()
    assert html.lstrip().startswith('<div class="card-actions" data-loaded')
    assert f'value="{captain.pk}:arco"' in html
    assert f'action="{url}#fighter-{captain.pk}"' in html
    assert 'name="csrfmiddlewaretoken"' in html
    assert forms_in(html) >= 3  # shoot, charge, tests, status
    theirs = set(Fighter.objects.filter(warband=t["b"]).values_list("pk", flat=True))
    targets = {int(v) for v in re.findall(r'name="targets" value="(\d+)"', html)}
    assert targets == theirs
    # The same forms as the page without JavaScript shows for him.
    page = browser(t["user_a"]).get(f"{url}?fighter={captain.pk}").content.decode()
    assert forms_in(page) - forms_in(browser(t["user_a"]).get(url).content.decode()) == forms_in(
        html
    )


def test_every_cards_forms_at_once_by_warrior(at_table, django_assert_num_queries):
    t = at_table
    client = browser(t["user_b"])
    with django_assert_num_queries(CARDS_QUERIES):
        response = client.get(f"{t['url']}cards/")
    assert response.status_code == 200
    cards = response.json()["cards"]
    fighters = Fighter.objects.filter(warband__in=[t["a"], t["b"]])
    assert set(cards) == {str(f.pk) for f in fighters}
    for fighter in fighters:
        assert f'data-testid="status-form-{fighter.pk}"' in cards[str(fighter.pk)]


# The session, its user, the battle, its participants and their warbands (to know who
# may write), the state's snapshot: the same whatever the number of warriors.
CARD_QUERIES = 6
CARDS_QUERIES = CARD_QUERIES


def test_a_cards_forms_cost_a_fixed_number_of_queries(at_table, django_assert_num_queries):
    t = at_table
    client = browser(t["user_a"])
    client.get(t["url"])  # the session's first read out of the way
    for fighter in Fighter.objects.filter(warband__in=[t["a"], t["b"]])[:3]:
        with django_assert_num_queries(CARD_QUERIES):
            assert client.get(f"{t['url']}cards/{fighter.pk}/").status_code == 200


def test_only_the_players_and_the_organisers_get_a_cards_forms(at_table, make_user):
    t = at_table
    url, captain = t["url"], t["captain"]
    card = f"{url}cards/{captain.pk}/"
    assert browser(t["user_a"]).get(card).status_code == 200
    assert browser(t["user_b"]).get(card).status_code == 200  # his opponent logs too
    assert browser(t["league"].organiser).get(card).status_code == 200
    # A member of the campaign who does not play this battle sees it, writes nothing in it.
    assert browser(t["benched"]).get(t["url"]).status_code == 200
    assert browser(t["benched"]).get(card).status_code == 403
    assert browser(t["benched"]).get(f"{url}cards/").status_code == 403
    # Who does not see the battle is not told it exists.
    assert browser(make_user("curioso")).get(card).status_code == 404
    assert browser().get(card).status_code == 404  # a visitor: the campaign is not public
    # A warrior not in the battle; a battle no longer played.
    assert browser(t["user_a"]).get(f"{url}cards/999999/").status_code == 404
    Battle.objects.filter(pk=t["battle"].pk).update(status=Battle.Status.REPORTED)
    assert browser(t["user_a"]).get(card).status_code == 403


def test_a_refused_entry_without_javascript_keeps_what_was_typed(at_table):
    """The shot refused (too few dice typed: one for the roll to hit, none to wound) comes back
    on the table page, status 400: the target, the weapon, the ticked modifier, the dice typed;
    the reason under the dice field, which has the focus; the card and its folds open; nothing
    written."""
    t = at_table
    captain, url = t["captain"], t["url"]
    target = Fighter.objects.filter(warband=t["b"]).order_by("pk").last()
    count = BattleLogEntry.objects.filter(battle=t["battle"]).count()
    response = browser(t["user_a"]).post(
        url,
        {
            "client_id": str(uuid.uuid4()),
            "op": "attack",
            "anchor": f"fighter-{captain.pk}",
            "attacker": captain.pk,
            "mode": "shooting",
            "target": target.pk,
            "weapon": f"{captain.pk}:arco",
            "cover": "1",
            "shots": "1",
            "faces": "4",
        },
    )
    assert response.status_code == 400
    assert BattleLogEntry.objects.filter(battle=t["battle"]).count() == count
    page = response.content.decode()
    form = page.split(f'data-testid="attack-form-{captain.pk}"')[1].split("</form>")[0]
    assert re.search(rf'<option value="{target.pk}" selected>', form)
    assert re.search(rf'<option value="{captain.pk}:arco" selected>', form)
    assert re.search(r'<input type="checkbox" name="cover" value="1" checked>', form)
    faces = re.search(r"<input [^>]*name=\"faces\"[^>]*>", form).group(0)
    assert 'value="4"' in faces and "autofocus" in faces and 'aria-invalid="true"' in faces
    note = form.split(faces)[1].split("</label>", 1)[1].lstrip()
    assert note.startswith('<p class="field-error" data-error="faces" role="alert">')
    # The card, its shot fold and the modifiers around the ticked box are open.
    assert re.search(rf'<details class="fighter-card[^"]*" open id="fighter-{captain.pk}"', page)
    assert re.search(rf'<details class="act"[^>]* id="act-attack-{captain.pk}" open>', page)
    # Only the form sent is bound: the status form next to it is as rendered.
    status = page.split(f'data-testid="status-form-{captain.pk}"')[1].split("</form>")[0]
    assert "field-error" not in status and "autofocus" not in status


def test_a_refused_entry_whose_form_is_gone_says_why_at_the_top(at_table):
    t = at_table
    response = browser(t["user_a"]).post(
        t["url"], {"client_id": str(uuid.uuid4()), "op": "turn", "turn": 4, "side": t["a"].pk}
    )
    assert response.status_code == 400
    page = response.content.decode()
    assert "Out of order" in page.split('id="table"')[0]  # the messages, above the table


def test_binding_finds_the_form_by_its_hidden_fields():
    from django.http import QueryDict

    page = (
        '<form data-key="one"><input type="hidden" name="op" value="note">'
        '<input type="hidden" name="anchor" value="more"><label>Text<input name="text"></label>'
        '<button type="submit">Add</button></form>'
        '<form data-key="two"><input type="hidden" name="op" value="status">'
        '<input type="hidden" name="anchor" value="more"><select name="status">'
        '<option value="a">A</option><option value="b" selected>B</option></select></form>'
    )
    sent = QueryDict("op=note&anchor=more&text=%3Cb%3Ehola%3C%2Fb%3E")
    bound = bind_form(page, sent, {"__all__": ["Too late."]})
    assert 'value="&lt;b&gt;hola&lt;/b&gt;"' in bound and "autofocus" in bound
    assert '<p class="field-error" data-error="__all__" role="alert">Too late.</p><button' in bound
    assert bound.endswith(page.split("</form>", 1)[1] + "")  # the other form untouched
    assert bind_form(page, QueryDict("op=note&anchor=log"), {}) is None
    chosen = bind_form(page, QueryDict("op=status&anchor=more&status=a"), {})
    assert '<option value="a" selected>' in chosen and '<option value="b">' in chosen
