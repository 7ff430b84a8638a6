"""The Hoja de Control de Banda as a PDF, rendered by a Celery task, never in a web request.

Rendering takes about two seconds of CPU (WeasyPrint), so a page asks for it
(``warband_pdf_request``) and shows a progress page until ``warband_pdf_stored`` has it. The
PDF is kept in the cache per warband *version* and language: every roster write bumps the
version, so a stored PDF is never stale. Without ``REDIS_URL`` the task runs in-process and the
PDF is ready when the request returns. Work is bounded: the printed HTML has a size limit (the
texts on it are bounded by ``warbands.limits``) and the task has a time limit.
"""

from __future__ import annotations

import logging
from pathlib import Path

from django.contrib.staticfiles import finders
from django.core.cache import cache
from django.template.loader import render_to_string
from django.utils import translation

from annuminas.tasks import enqueue_safely

from .presentation import decorate_sheet
from .selectors import warband_sheet

logger = logging.getLogger(__name__)

PDF_SECONDS = 3600  # how long a rendered PDF is kept
STATE_SECONDS = 120  # a render not finished by then (its worker died) is asked for again
HTML_MAX_CHARS = 500_000  # a full roster with 5,000 characters of notes prints ~60 kB

QUEUED, RENDERING, DONE, FAILED, STALE = "queued", "rendering", "done", "failed", "stale"
RENDER_TASK = "warbands.pdf_render"  # warbands.tasks.warband_pdf_render_task


def _key(warband_id: int, version: int, language: str) -> str:
    return f"warband-pdf:{warband_id}:v{version}:{language}"


def warband_pdf_stored(*, warband_id: int, version: int, language: str) -> bytes | None:
    return cache.get(_key(warband_id, version, language))


def warband_pdf_state(*, warband_id: int, version: int, language: str) -> str | None:
    """``queued``, ``rendering``, ``done``, ``failed``, or None (not asked for, or expired)."""
    if warband_pdf_stored(warband_id=warband_id, version=version, language=language):
        return DONE
    return cache.get(_key(warband_id, version, language) + ":state")


def warband_pdf_request(*, warband_id: int, version: int, language: str) -> str:
    """Ask for the PDF unless it is stored or already asked for; returns its state.

    The render task is queued by its name, so this module need not import the tasks module
    (which imports it). If the broker is down nothing is queued: the answer is ``failed`` (the
    page offers the print page) and nothing is remembered, so the next visit asks again.
    """
    state = warband_pdf_state(warband_id=warband_id, version=version, language=language)
    if state in (DONE, FAILED):
        return state
    state_key = _key(warband_id, version, language) + ":state"
    asked = cache.add(state_key, QUEUED, STATE_SECONDS)
    if asked and not enqueue_safely(RENDER_TASK, warband_id, version, language):
        cache.delete(state_key)
        return FAILED
    return warband_pdf_state(warband_id=warband_id, version=version, language=language) or QUEUED


def warband_pdf_render(*, warband_id: int, version: int, language: str) -> str:
    """Render and store the PDF of that version of the warband; returns the final state.

    Idempotent: a stored PDF is not rendered again. A warband changed since the request (its
    version moved on) is not rendered: the page asks again for the new version.
    """
    from weasyprint import HTML

    key = _key(warband_id, version, language)
    if cache.get(key) is not None:
        return DONE
    cache.set(key + ":state", RENDERING, STATE_SECONDS)
    try:
        with translation.override(language):
            sheet = decorate_sheet(warband_sheet(warband_id=warband_id))
            if sheet.version != version:
                cache.delete(key + ":state")
                return STALE
            html = render_to_string(
                "warbands/print.html",
                {"warband": sheet, "pdf": True, "print_css": _print_css()},
            )
        if len(html) > HTML_MAX_CHARS:
            logger.warning("warband %s: printed sheet of %d characters", warband_id, len(html))
            cache.set(key + ":state", FAILED, STATE_SECONDS)
            return FAILED
        pdf = HTML(string=html, url_fetcher=_deny_fetch).write_pdf()
    except Exception:
        logger.exception("warband %s: PDF rendering failed", warband_id)
        cache.set(key + ":state", FAILED, STATE_SECONDS)
        return FAILED
    cache.set(key, pdf, PDF_SECONDS)
    cache.set(key + ":state", DONE, STATE_SECONDS)
    return DONE


def _print_css() -> str:
    """The print page's stylesheet, inlined: the renderer fetches nothing (``_deny_fetch``)."""
    return Path(finders.find("css/print.css")).read_text(encoding="utf-8")


def _deny_fetch(url, *args, **kwargs):
    raise ValueError(f"external resources are not fetched: {url}")
