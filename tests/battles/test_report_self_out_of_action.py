"""A fighter cannot be reported as putting himself out of action."""

import pytest
from django.utils import translation

from battles.reports.forms import EventForm


@pytest.fixture(autouse=True)
def _english():
    with translation.override("en"):
        yield


CHOICES = [("", "—"), ("Lobos", [("w1", "Lobos"), ("f11", "Bardo"), ("f12", "Brand")])]


def event(**data):
    return EventForm({"turn": "2", "kind": "out_of_action", **data}, side_choices=CHOICES)


def test_a_fighter_taking_himself_out_of_action_is_refused():
    form = event(actor="f11", target="f11")
    assert not form.is_valid()
    assert "cannot put himself out of action" in str(form.errors["target"])


def test_one_fighter_taking_another_out_of_action_is_accepted():
    form = event(actor="f11", target="f12")
    assert form.is_valid(), form.errors
    report = form.to_event()
    assert (report.actor_id, report.target_id) == (11, 12)


def test_the_same_fighter_in_another_kind_of_event_is_accepted():
    form = EventForm(
        {"turn": "3", "kind": "other", "actor": "f11", "target": "f11"}, side_choices=CHOICES
    )
    assert form.is_valid(), form.errors
