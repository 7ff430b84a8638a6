"""Warband fixtures, shared by tests/warbands, tests/api and tests/e2e (import them by name).

The Annúminas pack is loaded once per session into the test database; ``content`` reloads it
when a transactional test flushed the tables (loading is a no-op when it is already there).
"""

from __future__ import annotations

import pytest

from warbands import constraints, services

# The fixtures (star-imported by conftest.py and by the api/e2e warband test modules).
__all__ = [
    "_content_preloaded",
    "content",
    "content_tx",
    "english",
    "make_warband",
    "own_constraints",
    "warband",
]
from warbands.content_loader import content_pack_load
from warbands.models import Equipment, FighterType, WarbandType


@pytest.fixture
def english(client):
    """Messages in English (the msgids the tests match), whatever catalogue is compiled."""
    from django.conf import settings
    from django.utils import translation

    client.cookies[settings.LANGUAGE_COOKIE_NAME] = "en"
    with translation.override("en"):
        yield


@pytest.fixture
def own_constraints(monkeypatch):
    """Only the house-rule validators a test registers itself run (the battles app's campaign
    validators are tested with the battles app)."""
    monkeypatch.setattr(constraints, "_validators", [])


@pytest.fixture(scope="session")
def _content_preloaded(django_db_setup, django_db_blocker):
    with django_db_blocker.unblock():
        content_pack_load()


@pytest.fixture
def content(_content_preloaded, db, own_constraints):
    content_pack_load()


@pytest.fixture
def content_tx(transactional_db, own_constraints):
    content_pack_load()


def fighter_type(slug: str) -> FighterType:
    return FighterType.objects.get(slug=slug)


def equipment(slug: str) -> Equipment:
    return Equipment.objects.get(slug=slug)


MERCENARIES = "mercenarios-de-rhovanion"


@pytest.fixture
def make_warband(user):
    """``make_warband(owner=None, type_slug=MERCENARIES, name="…", leader=True)``."""

    def make(*, owner=None, type_slug: str = MERCENARIES, name: str = "Los Lobos", leader=False):
        warband = services.warband_create(
            owner=owner or user,
            warband_type=WarbandType.objects.get(slug=type_slug),
            name=name,
        )
        if leader:
            leader_type = warband.warband_type.fighter_types.get(role="leader")
            services.fighter_hire(warband=warband, fighter_type=leader_type, name="Jefe")
        return warband

    return make


@pytest.fixture
def warband(content, make_warband):
    """A Mercenarios de Rhovanion warband with 500 co and no one yet."""
    return make_warband()


def build_roster(warband, *, henchmen: int) -> None:
    """Leader, two heroes and ``henchmen`` warriors in groups of up to 5 (treasury topped up)."""
    services.ledger_record(
        warband=warband, amount=5000, reason="adjustment", description="test funds"
    )
    services.fighter_hire(
        warband=warband, fighter_type=fighter_type("capitan-mercenario"), name="Capitán"
    )
    services.fighter_hire(
        warband=warband, fighter_type=fighter_type("campeon-mercenario"), name="Campeón"
    )
    services.fighter_hire(
        warband=warband, fighter_type=fighter_type("joven-mercenario"), name="Joven"
    )
    remaining, number = henchmen, 1
    while remaining > 0:
        count = min(5, remaining)
        group = services.fighter_hire(
            warband=warband,
            fighter_type=fighter_type("guerrero-mercenario"),
            name=f"Grupo {number}",
            count=count,
        )
        services.equipment_buy(warband=warband, equipment=equipment("lanza"), group=group)
        remaining -= count
        number += 1
    for fighter in warband.fighters.filter(group__isnull=True):
        services.equipment_buy(warband=warband, equipment=equipment("espada"), fighter=fighter)
        services.equipment_buy(warband=warband, equipment=equipment("daga"), fighter=fighter)
    services.equipment_buy(warband=warband, equipment=equipment("escudo"))
