"""Data built once per module (``module_transaction`` and ``fresh``, tests/conftest.py): each
test finds it as built, whatever the test before it wrote, changed in memory or cached. The two
tests run in file order in one process (the Makefile's ``--dist loadfile`` keeps a module's tests
together)."""

from __future__ import annotations

import pytest
from django.core.cache import cache

from battles.models import Campaign
from tests.battles.factories import build_league

pytestmark = pytest.mark.django_db
NAME = "Liga de Fornost"
FIRST_RAN: list[bool] = []


@pytest.fixture(scope="module")
def _built(module_transaction):
    with module_transaction:
        return build_league(prefix="md-")


@pytest.fixture
def built(_built, fresh):
    return fresh(_built)


def test_a_test_writes_changes_and_caches(built, _built):
    assert built is not _built and built.campaign is not _built.campaign
    built.campaign.name = "Liga cambiada"
    built.campaign.save(update_fields=["name"])
    built.players.clear()
    cache.set("module-data-probe", "de la primera prueba")
    FIRST_RAN.append(True)
    assert Campaign.objects.get(pk=built.campaign.pk).name == "Liga cambiada"


def test_the_next_test_finds_it_as_built(built):
    assert FIRST_RAN, "the first test ran in another process (run with --dist loadfile)"
    assert built.campaign.name == NAME and len(built.players) == 2
    assert Campaign.objects.get(pk=built.campaign.pk).name == NAME
    assert cache.get("module-data-probe") is None
