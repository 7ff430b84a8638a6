"""The PDF's progress page in a real browser: it polls until the worker is done, then offers
the download."""

import pytest
from playwright.sync_api import expect

from tests.warbands.fixtures import *  # noqa: F403 - the warband fixtures
from warbands import services, tasks
from warbands.models import WarbandType

pytestmark = [pytest.mark.e2e, pytest.mark.django_db(transaction=True)]


def test_pdf_progress_page_turns_into_a_download(page, login, make_user, content_tx, monkeypatch):
    sent = []
    monkeypatch.setattr(
        tasks.warband_pdf_render_task,
        "apply_async",
        lambda args=(), kwargs=None, **options: sent.append(tuple(args)),
    )
    player = make_user("impresor")
    warband = services.warband_create(
        owner=player,
        warband_type=WarbandType.objects.get(slug="mercenarios-de-rhovanion"),
        name="Lobos",
    )
    login(player)
    page.goto(f"/warbands/{warband.pk}/")
    page.get_by_test_id("pdf-link").click()
    status = page.get_by_test_id("pdf-status")
    expect(status).to_have_attribute("data-state", "queued")
    assert len(sent) == 1
    tasks.warband_pdf_render_task.run(*sent[0])  # the worker's turn
    expect(status).to_have_attribute("data-state", "done")
    with page.expect_download() as download:
        page.get_by_test_id("pdf-download").click()
    assert download.value.suggested_filename.endswith(".pdf")
    assert not download.value.suggested_filename.startswith(f"banda-{warband.pk}")
    assert len(sent) == 1
