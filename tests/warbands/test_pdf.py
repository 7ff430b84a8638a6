"""The PDF is rendered by a task (bounded in size and time), kept per
warband version, and a page shows its progress until the download is ready."""

import pytest
from django.core.cache import cache
from django.urls import reverse
from kombu.exceptions import OperationalError

from tests.warbands.fixtures import build_roster
from warbands import pdf, services, tasks

pytestmark = pytest.mark.django_db


@pytest.fixture(autouse=True)
def _empty_cache():
    cache.clear()
    yield
    cache.clear()


@pytest.fixture
def browser_client(client, user):
    client.force_login(user)
    return client


@pytest.fixture
def renders(monkeypatch):
    """Count WeasyPrint renders (the real renderer still runs)."""
    import weasyprint

    calls = []
    real = weasyprint.HTML

    def counting(*args, **kwargs):
        calls.append(kwargs.get("string", "")[:20])
        return real(*args, **kwargs)

    monkeypatch.setattr(weasyprint, "HTML", counting)
    return calls


@pytest.fixture
def queued(monkeypatch):
    """A broker with no worker yet: the tasks sent wait here (their arguments)."""
    sent = []

    def send(args=(), kwargs=None, **options):
        sent.append(tuple(args))

    monkeypatch.setattr(tasks.warband_pdf_render_task, "apply_async", send)
    return sent


def pdf_url(warband, status=False):
    return reverse("warband-pdf-status" if status else "warband-pdf", args=[warband.pk])


def test_in_process_the_pdf_is_served_at_once_and_rendered_once_per_version(
    browser_client, warband, renders
):
    build_roster(warband, henchmen=5)
    first = browser_client.get(pdf_url(warband))
    assert first.status_code == 200 and first.content.startswith(b"%PDF")
    again = browser_client.get(pdf_url(warband))
    assert again.content == first.content and len(renders) == 1
    services.warband_update(warband=warband, expected_version=None, notes="Nuevas notas")
    changed = browser_client.get(pdf_url(warband))
    assert changed.content.startswith(b"%PDF") and len(renders) == 2


def test_with_a_worker_the_page_shows_progress_then_the_download(browser_client, warband, queued):
    page = browser_client.get(pdf_url(warband))
    assert page.status_code == 202
    body = page.content.decode()
    assert 'data-state="queued"' in body and f'hx-get="{pdf_url(warband, status=True)}"' in body
    assert queued == [(warband.pk, warband.version, "en")]
    # Polling and reloading do not queue the same render twice.
    browser_client.get(pdf_url(warband, status=True))
    browser_client.get(pdf_url(warband))
    assert len(queued) == 1

    assert tasks.warband_pdf_render_task.run(*queued[0]) == pdf.DONE  # the worker's turn
    fragment = browser_client.get(pdf_url(warband, status=True)).content.decode()
    assert 'data-state="done"' in fragment and "hx-get" not in fragment
    assert f'href="{pdf_url(warband)}"' in fragment
    download = browser_client.get(pdf_url(warband))
    assert download.status_code == 200 and download.content.startswith(b"%PDF")
    assert download["Content-Disposition"] == 'attachment; filename="los-lobos.pdf"'


def test_a_lost_render_is_asked_for_again_once_its_state_expires(browser_client, warband, queued):
    browser_client.get(pdf_url(warband))
    cache.delete(f"warband-pdf:{warband.pk}:v{warband.version}:en:state")  # expired
    browser_client.get(pdf_url(warband, status=True))
    assert len(queued) == 2


def test_with_the_broker_down_the_page_says_so_and_the_next_visit_asks_again(
    browser_client, warband, monkeypatch
):
    def broker_down(*args, **kwargs):
        raise OperationalError("Error 111 connecting to redis:6379. Connection refused.")

    monkeypatch.setattr(tasks.warband_pdf_render_task, "apply_async", broker_down)
    page = browser_client.get(pdf_url(warband))
    assert page.status_code == 202
    assert 'data-state="failed"' in page.content.decode()
    assert "could not be made" in page.content.decode()
    sent = []  # the broker is back: the next request asks again
    monkeypatch.setattr(
        tasks.warband_pdf_render_task, "apply_async", lambda args=(), **k: sent.append(args)
    )
    fragment = browser_client.get(pdf_url(warband, status=True)).content.decode()
    assert 'data-state="queued"' in fragment and len(sent) == 1


def test_a_sheet_too_big_to_print_fails_cleanly(browser_client, warband, monkeypatch, renders):
    monkeypatch.setattr(pdf, "HTML_MAX_CHARS", 1000)
    page = browser_client.get(pdf_url(warband))
    assert page.status_code == 202
    assert "could not be made" in page.content.decode() and renders == []


def test_a_render_for_an_old_version_is_not_stored(warband, renders):
    old = warband.version
    services.warband_update(warband=warband, expected_version=None, notes="cambio")
    assert pdf.warband_pdf_render(warband_id=warband.pk, version=old, language="en") == pdf.STALE
    assert renders == []
    assert pdf.warband_pdf_state(warband_id=warband.pk, version=old, language="en") is None


def test_someone_elses_pdf_is_404(client, make_user, warband):
    client.force_login(make_user("intruso"))
    assert client.get(pdf_url(warband)).status_code == 404
    assert client.get(pdf_url(warband, status=True)).status_code == 404
