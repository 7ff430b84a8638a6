"""Nothing decisive by accident: while the opponent has not confirmed the report the battle log
wrote, either player strikes out the entry that finished the battle (through the same
``log/`` endpoint, kind ``correction``) and the battle goes on: scheduled again, its report
cleared, its version bumped, the opponent told."""

from __future__ import annotations

import pytest
from django.utils import translation

from battles.models import Battle, BattleLogEntry, Campaign
from battles.models.notifications import Event, Notification, NotificationEvent
from battles.notifications.messages import render
from battles.reports import services as reports
from tests.battles.factories import first_battle
from tests.battles.test_battlelog_api import Table, client_for, play_battle, uid

pytestmark = pytest.mark.django_db


def decisive(table: Table) -> int:
    """The seq of the failed rout test that ended ``play_battle``."""
    return BattleLogEntry.objects.filter(battle=table.battle, kind="check").order_by("-seq")[0].seq


@pytest.fixture
def finished(table_factory):
    table = table_factory()
    play_battle(table)
    return table


@pytest.fixture
def table_factory(make_league):
    def make() -> Table:
        league = make_league(henchmen=5, max_fighter_type_copies=None)
        table = Table(league, first_battle(league))
        table.league = league
        response = table.phone_a.post(
            f"{table.url}setup/",
            {"client_id": uid(), "first": table.a.pk, "scenario": "Escaramuza"},
            format="json",
        )
        assert response.status_code == 201, response.json()
        return table

    return make


def test_striking_out_the_failed_rout_test_reopens_the_battle(
    finished, django_capture_on_commit_callbacks
):
    table = finished
    battle = Battle.objects.get(pk=table.battle.pk)
    assert battle.status == Battle.Status.REPORTED and battle.events.exists()
    version = battle.version
    seq = decisive(table)
    with django_capture_on_commit_callbacks(execute=True):
        entry = table.post(table.phone_a, "correction", payload={"corrects": seq})
    assert entry["kind"] == "correction" and entry["seq"] == seq + 2  # after the finish
    battle.refresh_from_db()
    assert battle.status == Battle.Status.SCHEDULED
    assert battle.version == version + 1
    assert battle.reported_by is None and battle.reported_at is None and not battle.is_draw
    assert not battle.events.exists()
    assert [(p.result, p.routed, p.voluntary_rout) for p in battle.participants.all()] == [
        ("", False, False),
        ("", False, False),
    ]
    # Both entries are struck out: the rout test and the automatic finish after it.
    state = table.state()
    assert state["corrected"] == {str(seq): entry["seq"], str(seq + 1): entry["seq"]}
    assert not state["finished"] and state["winners"] == []
    assert {"check": "rout", "side": table.a.pk, "required": True} in state["checks_due"]
    # The opponent is told, in the reader's language (Spanish by default).
    told = Notification.objects.get(event=Event.REPORT_WITHDRAWN)
    assert told.recipient == table.league.user(1)
    with translation.override("es"):
        said = render(told.event, told.params)
    assert said == (
        f"{table.battle.campaign.name}: se tachó la entrada que terminó Banda 1 vs Banda 2; su "
        "informe se retira y la batalla continúa."
    )
    assert NotificationEvent.objects.filter(event=Event.REPORT_WITHDRAWN).count() == 1
    # The log goes on: the rout test again, passed this time.
    again = table.post(
        table.phone_a, "check", payload={"check": "rout", "side": table.a.pk}, faces=[1, 1]
    )
    assert again["payload"]["result"]["outcome"] != "routed"
    assert not table.state()["finished"]


def test_the_opponent_may_strike_it_out_while_the_report_is_disputed(finished):
    table = finished
    battle = Battle.objects.get(pk=table.battle.pk)
    reports.battle_dispute(battle=battle, by=table.league.user(1), reason="Dados mal tecleados")
    table.post(table.phone_b, "correction", payload={"corrects": decisive(table)})
    battle.refresh_from_db()
    assert battle.status == Battle.Status.SCHEDULED
    assert battle.disputed_by is None and battle.dispute_reason == ""


def test_a_confirmed_battle_refuses_with_its_own_code(finished):
    table = finished
    battle = Battle.objects.get(pk=table.battle.pk)
    reports.battle_confirm(battle=battle, by=table.league.user(1))
    count = BattleLogEntry.objects.filter(battle=battle).count()
    error = table.post(
        table.phone_a, "correction", expect=409, payload={"corrects": decisive(table)}
    )["error"]
    assert error["code"] == "battle_confirmed"
    battle.refresh_from_db()
    assert battle.status == Battle.Status.CONFIRMED
    assert BattleLogEntry.objects.filter(battle=battle).count() == count


def test_only_the_decisive_entry_is_struck_out(finished):
    table = finished
    turn = BattleLogEntry.objects.filter(battle=table.battle, kind="turn").order_by("seq")[0]
    error = table.post(table.phone_a, "correction", expect=400, payload={"corrects": turn.seq})
    assert "disputa" in error["error"]["message"], error  # Spanish by default
    # Other entries than corrections stay refused while reported.
    refused = table.post(table.phone_a, "turn", expect=409, payload={"turn": 3, "side": 1})
    assert refused["error"]["code"] == "battle_reported"
    assert Battle.objects.get(pk=table.battle.pk).status == Battle.Status.REPORTED


def test_only_the_battles_players_strike_it_out(finished, make_user):
    table = finished
    body = {"client_id": uid(), "kind": "correction", "payload": {"corrects": decisive(table)}}
    stranger = client_for(make_user("mirón"))
    assert stranger.post(f"{table.url}log/", body, format="json").status_code == 404
    Campaign.objects.filter(pk=table.battle.campaign_id).update(public=True)
    refused = stranger.post(f"{table.url}log/", body, format="json")
    assert refused.status_code == 403
    # An organiser who does not play in it settles the report instead.
    organiser = client_for(table.battle.campaign.memberships.get(role="organiser").user)
    assert organiser.post(f"{table.url}log/", body, format="json").status_code == 403
    assert Battle.objects.get(pk=table.battle.pk).status == Battle.Status.REPORTED


def test_replaying_the_correction_returns_the_same_entry(finished):
    table = finished
    body = {"client_id": uid(), "kind": "correction", "payload": {"corrects": decisive(table)}}
    first = table.phone_a.post(f"{table.url}log/", body, format="json")
    assert first.status_code == 201, first.json()
    version = Battle.objects.get(pk=table.battle.pk).version
    again = table.phone_a.post(f"{table.url}log/", body, format="json")
    assert again.status_code == 200 and again.json() == first.json()
    assert Battle.objects.get(pk=table.battle.pk).version == version
    assert NotificationEvent.objects.filter(event=Event.REPORT_WITHDRAWN).count() == 1


def test_finishing_again_sends_a_new_report(finished):
    table = finished
    table.post(table.phone_b, "correction", payload={"corrects": decisive(table)})
    table.post(table.phone_a, "check", payload={"check": "rout", "side": table.a.pk}, faces=[6, 5])
    battle = Battle.objects.get(pk=table.battle.pk)
    assert battle.status == Battle.Status.REPORTED and battle.reported_by == table.league.user(0)
    assert {p.warband_id: p.result for p in battle.participants.all()} == {
        table.a.pk: "loss",
        table.b.pk: "win",
    }
