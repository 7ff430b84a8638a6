"""Two purchases at the same moment never overspend: the warband row is locked (PostgreSQL)."""

import threading

import pytest
from django.core.exceptions import ValidationError
from django.db import connection, connections
from django.utils import translation

from annuminas.errors import Conflict
from tests.conftest import IN_CI
from tests.warbands.fixtures import equipment
from warbands import services
from warbands.models import EquipmentItem, Warband

pytestmark = pytest.mark.django_db(transaction=True)


@pytest.fixture
def postgres_only():
    if connection.vendor != "postgresql":
        if IN_CI:
            pytest.fail("the concurrency tests must run on PostgreSQL in CI")
        pytest.skip("row locks need PostgreSQL (SQLite serialises whole transactions)")


def race(*actions):
    """Run the actions in threads released together; return what each returned or raised."""
    barrier = threading.Barrier(len(actions))
    outcomes: list = [None] * len(actions)

    def run(index, action):
        translation.activate("en")
        try:
            barrier.wait()
            outcomes[index] = action()
        except Exception as exc:  # collected and asserted by the test
            outcomes[index] = exc
        finally:
            connections.close_all()

    threads = [threading.Thread(target=run, args=(i, a)) for i, a in enumerate(actions)]
    for thread in threads:
        thread.start()
    for thread in threads:
        thread.join(timeout=60)
    return outcomes


def test_two_purchases_with_money_for_one(postgres_only, content_tx, make_warband):
    warband = make_warband()
    services.ledger_record(warband=warband, amount=-475, reason="adjustment", description="-")
    crossbow = equipment("ballesta")  # 25 co: exactly what is left

    def purchase():
        return services.equipment_buy(warband=Warband(pk=warband.pk), equipment=crossbow)

    for _round in range(3):
        outcomes = race(purchase, purchase)
        bought = [o for o in outcomes if isinstance(o, EquipmentItem)]
        refused = [o for o in outcomes if isinstance(o, ValidationError)]
        assert len(bought) == 1 and len(refused) == 1, outcomes
        assert "Not enough coronas" in refused[0].messages[0]
        warband.refresh_from_db()
        assert warband.treasury == 0
        services.equipment_sell(item=bought[0])
        services.ledger_record(warband=warband, amount=13, reason="adjustment", description="+")
    assert EquipmentItem.objects.filter(warband=warband).count() == 0
    call_ledger = sum(warband.ledger.values_list("amount", flat=True))
    assert Warband.objects.get(pk=warband.pk).treasury == call_ledger == 25


def test_two_writes_with_the_same_version(postgres_only, content_tx, make_warband):
    warband = make_warband()
    version = warband.version

    def rename(name):
        return lambda: services.warband_update(
            warband=Warband(pk=warband.pk), expected_version=version, name=name
        )

    outcomes = race(rename("Los Osos"), rename("Los Lobos Grises"))
    conflicts = [o for o in outcomes if isinstance(o, Conflict)]
    done = [o for o in outcomes if isinstance(o, Warband)]
    assert len(conflicts) == 1 and len(done) == 1, outcomes
    assert Warband.objects.get(pk=warband.pk).name == done[0].name
    assert Warband.objects.get(pk=warband.pk).version == version + 1
