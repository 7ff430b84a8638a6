"""Warband pages: the ledger reflows on a phone, the buy dialog's facts leave
no stray dot, and the print leaves out an empty "Hired swords" heading."""

import re

import pytest
from django.urls import reverse

from tests.markup import mislabelled_cells, reflow_tables
from tests.warbands.fixtures import fighter_type
from warbands import services

pytestmark = pytest.mark.django_db


@pytest.fixture
def owner_client(client, user, english):
    client.force_login(user)
    return client


def test_the_ledger_reflows_with_labelled_cells(owner_client, warband):
    services.fighter_hire(
        warband=warband, fighter_type=fighter_type("capitan-mercenario"), name="Bardo"
    )
    html = owner_client.get(reverse("warband-ledger", args=[warband.pk])).content.decode()
    (table,) = reflow_tables(html)
    assert table.testid == "ledger" and len(table.rows) == 2
    assert mislabelled_cells(table) == []
    # The wrapper is keyboard reachable when it has to scroll (axe: scrollable-region-focusable).
    assert re.search(
        r'<div class="table-scroll" role="region" aria-label="[^"]+" tabindex="0">', html
    )


def test_the_buy_dialogs_facts_have_no_stray_dot(owner_client, warband):
    captain = services.fighter_hire(
        warband=warband, fighter_type=fighter_type("capitan-mercenario"), name="Bardo"
    )
    html = owner_client.get(
        reverse("warband-buy", args=[warband.pk]), {"fighter": captain.pk}
    ).content.decode()
    facts = re.findall(r'<small class="item-facts">(.*?)</small>', html, re.S)
    assert facts
    for line in facts:
        # The dots come from CSS between the facts that are there (``span + span::before``).
        assert "·" not in line
        assert "<span></span>" not in line
    assert any("save" in line for line in facts) and any("range" in line for line in facts)


def test_the_print_has_no_empty_hired_swords_heading(owner_client, warband):
    services.fighter_hire(
        warband=warband, fighter_type=fighter_type("capitan-mercenario"), name="Bardo"
    )
    html = owner_client.get(reverse("warband-print", args=[warband.pk])).content.decode()
    assert "Hired swords" not in html
    assert 'data-testid="print-hero"' in html


def test_the_warband_list_reflows_with_labelled_cells(owner_client, warband):
    html = owner_client.get(reverse("warband-list")).content.decode()
    (table,) = reflow_tables(html)
    assert table.testid == "warband-table" and len(table.rows) == 1
    assert mislabelled_cells(table) == []
