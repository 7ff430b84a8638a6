"""Campaigns, notifications, profile, post-battle: every action that destroys or
cannot be undone asks first. With JavaScript the button's form asks (``hx-confirm``) and sends
``confirmed``; without it the POST answers with a page that asks, and nothing changes until that
page's form (the same fields and ``confirmed``) is sent."""

from __future__ import annotations

import re

import pytest
from django.urls import reverse
from rest_framework.authtoken.models import Token

from battles.calendars import services as calendars
from battles.campaigns import services
from battles.models import Battle, Campaign, Membership, PendingDecision, PostBattleRun, Webhook
from battles.postbattle import battle_resolve_start
from tests.battles.factories import first_battle
from tests.battles.test_pages import client_for
from tests.battles.test_postbattle import fight, leader, out_of_action
from warbands.models import Equipment

pytestmark = pytest.mark.django_db


def asks(response, action: str) -> str:
    """The confirmation page: it asks, and its form posts again to ``action`` with ``confirmed``."""
    page = response.content.decode()
    assert response.status_code == 200, response.status_code
    assert 'data-testid="confirm-page"' in page
    assert f'action="{action}"' in page and 'name="confirmed" value="1"' in page
    return page


def reposted(page: str) -> dict[str, list[str]]:
    """The hidden fields the confirmation page sends again (its own CSRF token aside)."""
    fields: dict[str, list[str]] = {}
    for name, value in re.findall(r'<input type="hidden" name="([^"]+)" value="([^"]*)"', page):
        if name != "csrfmiddlewaretoken":
            fields.setdefault(name, []).append(value)
    return fields


def confirm_forms(html: str) -> list[str]:
    """The opening tags of the forms that ask with htmx before they post."""
    return [tag for tag in re.findall(r"<form\b[^>]*>", html) if "hx-confirm=" in tag]


@pytest.fixture
def round_open(league):
    battle = first_battle(league)
    return league, battle


def manage(league) -> str:
    return reverse("campaign-manage", args=[league.campaign.slug])


# --- the campaign page -----------------------------------------------------------------------
def test_leaving_asks_and_nothing_changes_until_confirmed(league):
    player = client_for(league.user(0))
    membership = Membership.objects.get(campaign=league.campaign, user=league.user(0))
    data = {"op": "withdraw", "membership": membership.pk}
    page = asks(player.post(manage(league), data), manage(league))
    assert "cannot join it again" in page
    membership.refresh_from_db()
    assert membership.active
    # The page's own form: the same fields, now confirmed.
    fields = reposted(page)
    assert fields == {"op": ["withdraw"], "membership": [str(membership.pk)], "confirmed": ["1"]}
    response = player.post(manage(league), {**data, "confirmed": "1"})
    assert response.status_code == 302
    membership.refresh_from_db()
    assert not membership.active


def test_the_organisers_destructive_buttons_ask(round_open):
    league, battle = round_open
    organiser = client_for(league.organiser)
    other = Membership.objects.get(campaign=league.campaign, user=league.user(1))
    code = league.campaign.join_code
    asked = [
        {"op": "withdraw", "membership": other.pk},
        {"op": "delete_pairing", "battle": battle.pk},
        {"op": "new_code"},
        {"op": "close_round", "round": 1},
        {"op": "transition", "state": Campaign.State.FINISHED},
    ]
    for data in asked:
        asks(organiser.post(manage(league), data), manage(league))
    other.refresh_from_db()
    league.campaign.refresh_from_db()
    assert other.active and Battle.objects.filter(pk=battle.pk).exists()
    assert league.campaign.join_code == code
    assert league.campaign.state == Campaign.State.RUNNING
    assert league.campaign.rounds.get().status == "open"

    organiser.post(manage(league), {"op": "delete_pairing", "battle": battle.pk, "confirmed": "1"})
    assert not Battle.objects.filter(pk=battle.pk).exists()
    organiser.post(manage(league), {"op": "new_code", "confirmed": "1"})
    league.campaign.refresh_from_db()
    assert league.campaign.join_code != code
    organiser.post(manage(league), {"op": "withdraw", "membership": other.pk, "confirmed": "1"})
    other.refresh_from_db()
    assert not other.active


def test_archiving_asks(make_league):
    league = make_league(state=Campaign.State.DRAFT)
    organiser = client_for(league.organiser)
    asks(organiser.post(manage(league), {"op": "archive"}), manage(league))
    league.campaign.refresh_from_db()
    assert not league.campaign.archived
    organiser.post(manage(league), {"op": "archive", "confirmed": "1"})
    league.campaign.refresh_from_db()
    assert league.campaign.archived


def test_finishing_with_the_details_box_form_needs_no_second_page(league):
    """Without JavaScript the <details> box is the question: its form carries ``confirmed``."""
    html = client_for(league.organiser).get(league.campaign.get_absolute_url()).content.decode()
    finishing = re.search(r'<form[^>]*>(?:(?!</form>).)*data-testid="to-finished"', html, re.S)
    assert finishing and 'name="confirmed" value="1"' in finishing.group(0)
    client_for(league.organiser).post(
        manage(league), {"op": "transition", "state": "finished", "confirmed": "1"}
    )
    league.campaign.refresh_from_db()
    assert league.campaign.state == Campaign.State.FINISHED


def test_who_may_not_act_is_refused_not_asked(round_open):
    league, battle = round_open
    player = client_for(league.user(0))
    other = Membership.objects.get(campaign=league.campaign, user=league.user(1))
    for data in (
        {"op": "withdraw", "membership": other.pk},
        {"op": "delete_pairing", "battle": battle.pk},
        {"op": "new_code"},
        {"op": "close_round", "round": 1},
    ):
        assert player.post(manage(league), data).status_code == 403, data
    assert (
        client_for(league.organiser)
        .post(manage(league), {"op": "close_round", "round": 9})
        .status_code
        == 404
    )


def test_the_campaign_page_asks_with_htmx(round_open):
    league, battle = round_open
    organiser = client_for(league.organiser)
    url = league.campaign.get_absolute_url()
    html = organiser.get(url).content.decode()
    forms = confirm_forms(html)
    for testid_op in ("withdraw", "delete_pairing", "new_code", "close_round", "transition"):
        form = re.search(
            r'(<form\b[^>]*>)(?:(?!</form>).)*name="op" value="' + testid_op + '"', html, re.S
        )
        assert form and form.group(1) in forms, testid_op
    for tag in forms:
        assert 'hx-boost="true"' in tag and "confirmed" in tag
    assert "Remove battle" in html and "cannot join it again" in html
    # Nothing that only saves or adds asks: a pairing's own form (shown when the organiser
    # asks to change it), and adding a battle (shown while a warband has none in the round).
    editing = organiser.get(f"{url}?edit={battle.pk}").content.decode()
    services.pairing_delete(battle=battle, by=league.organiser)
    adding = organiser.get(url).content.decode()
    for op, page in (
        ("edit_pairing", editing),
        ("generate", html),
        ("add_pairing", adding),
        ("add_organiser", html),
        ("round_dates", html),
    ):
        form = re.search(
            r'(<form\b[^>]*>)(?:(?!</form>).)*name="op" value="' + op + '"', page, re.S
        )
        assert form and "hx-confirm" not in form.group(1), op


def test_saving_a_pairing_does_not_ask(round_open):
    league, battle = round_open
    warbands = [league.warband(0).pk, league.warband(1).pk]
    response = client_for(league.organiser).post(
        manage(league), {"op": "edit_pairing", "battle": battle.pk, "warbands": warbands}
    )
    assert response.status_code == 302


# --- webhooks, calendars, API token ------------------------------------------------------------
def test_deleting_a_webhook_asks(league):
    webhook = Webhook.objects.create(campaign=league.campaign, url="https://example.com/h")
    organiser = client_for(league.organiser)
    slug = league.campaign.slug
    html = organiser.get(reverse("campaign-webhooks", args=[slug])).content.decode()
    assert any("delete" in tag or "Delete the webhook" in tag for tag in confirm_forms(html))
    change = reverse("campaign-webhook-change", args=[slug, webhook.pk])
    page = asks(organiser.post(change, {"op": "delete"}), change)
    assert "https://example.com/h" in page
    assert Webhook.objects.filter(pk=webhook.pk).exists()
    # Disabling is undone with a click: it does not ask.
    assert organiser.post(change, {"op": "disable"}).status_code == 302
    organiser.post(change, {"op": "delete", "confirmed": "1"})
    assert not Webhook.objects.filter(pk=webhook.pk).exists()


def test_a_new_webhook_secret_asks(league):
    """The receiver refuses every signature until it has the new secret: the button asks."""
    webhook = Webhook.objects.create(campaign=league.campaign, url="https://example.com/h")
    old = webhook.secret
    organiser = client_for(league.organiser)
    slug = league.campaign.slug
    html = organiser.get(reverse("campaign-webhooks", args=[slug])).content.decode()
    assert len(confirm_forms(html)) == 2  # a new secret and the deletion ask
    change = reverse("campaign-webhook-change", args=[slug, webhook.pk])
    page = asks(organiser.post(change, {"op": "rotate"}), change)
    assert "https://example.com/h" in page
    assert "a new secret?" in page and "Yes, a new secret" in page
    webhook.refresh_from_db()
    assert webhook.secret == old
    assert organiser.post(change, {"op": "rotate", "confirmed": "1"}).status_code == 302
    webhook.refresh_from_db()
    assert webhook.secret != old


def test_new_calendar_addresses_ask(league):
    user = league.user(0)
    client = client_for(user)
    old = calendars.calendar_token_get(user=user).token
    html = client.get(reverse("notification-preferences")).content.decode()
    assert any(reverse("calendar-token-rotate") in tag for tag in confirm_forms(html))
    url = reverse("calendar-token-rotate")
    asks(client.post(url), url)
    assert calendars.calendar_token_get(user=user).token == old
    client.post(url, {"confirmed": "1"})
    assert calendars.calendar_token_get(user=user).token != old


def test_replacing_the_api_token_asks_creating_one_does_not(league):
    user = league.user(0)
    client = client_for(user)
    url = reverse("profile-token")
    assert client.post(url).status_code == 302  # the first token replaces nothing
    key = Token.objects.get(user=user).key
    html = client.get(reverse("profile")).content.decode()
    assert any(url in tag for tag in confirm_forms(html))
    asks(client.post(url), url)
    assert Token.objects.get(user=user).key == key
    client.post(url, {"confirmed": "1"})
    assert Token.objects.get(user=user).key != key


# --- after the battle --------------------------------------------------------------------------
@pytest.fixture
def resolved(league, django_capture_on_commit_callbacks):
    a, b = league.warband(0), league.warband(1)
    battle = fight(league, events=[out_of_action(leader(a), leader(b))])
    with django_capture_on_commit_callbacks(execute=True):
        battle_resolve_start(battle=battle, user=league.organiser)
    run = PostBattleRun.objects.get(battle=battle)
    assert run.status == "applied", run.error
    return battle, run


def test_reverting_a_sequence_asks(league, resolved):
    battle, _run = resolved
    organiser = client_for(league.organiser)
    url = reverse("battle-postbattle-revert", args=[battle.pk])
    html = organiser.get(reverse("battle-postbattle", args=[battle.pk])).content.decode()
    assert any(url in tag for tag in confirm_forms(html))
    asks(organiser.post(url), url)
    battle.refresh_from_db()
    assert battle.status == Battle.Status.RESOLVED
    organiser.post(url, {"confirmed": "1"})
    battle.refresh_from_db()
    assert battle.status == Battle.Status.CONFIRMED


def test_leaving_a_rare_item_asks_buying_it_does_not(league, resolved):
    battle, run = resolved
    warband = league.warband(0)
    result = run.results.get(warband=warband)
    bow = Equipment.objects.get(slug="arco-largo")
    decision = PendingDecision.objects.create(
        result=result,
        warband=warband,
        fighter=leader(warband),
        kind=PendingDecision.Kind.RARE_ITEM,
        options=[bow.slug],
        payload={"prices": {bow.slug: 0}},
    )
    player = client_for(league.user(0))
    url = reverse("decision-answer", args=[decision.pk])
    html = player.get(reverse("battle-postbattle", args=[battle.pk])).content.decode()
    declining = [tag for tag in confirm_forms(html) if url in tag]
    assert len(declining) == 1 and 'id="decline-' in declining[0]
    page = asks(player.post(url, {"decline": "1"}), url)
    assert reposted(page) == {"decline": ["1"], "confirmed": ["1"]}
    decision.refresh_from_db()
    assert decision.status == PendingDecision.Status.OPEN
    player.post(url, {"decline": "1", "confirmed": "1"})
    decision.refresh_from_db()
    assert decision.status != PendingDecision.Status.OPEN


def test_a_decision_that_spends_money_shows_the_treasury(league, resolved):
    """Found on a phone: a rare item to buy, with no word of how much the warband has."""
    battle, run = resolved
    warband = league.warband(0)
    decision = PendingDecision.objects.create(
        result=run.results.get(warband=warband),
        warband=warband,
        fighter=leader(warband),
        kind=PendingDecision.Kind.RARE_ITEM,
        options=["arco-largo"],
        payload={"prices": {"arco-largo": 0}},
    )
    html = client_for(league.user(0)).get(reverse("battle-postbattle", args=[battle.pk]))
    warband.refresh_from_db()
    shown = f"Treasury of {warband.name}: {warband.treasury} co."
    assert shown in html.content.decode() and decision.status == PendingDecision.Status.OPEN
