"""Celery tasks: thin wrappers that take ids and call the warbands' services."""

import logging

from celery import shared_task
from django.utils import translation

from .pdf import warband_pdf_render
from .sheet_cache import sheet_warm

logger = logging.getLogger(__name__)


@shared_task(
    name="warbands.pdf_render",
    acks_late=True,
    reject_on_worker_lost=True,
    time_limit=60,
    soft_time_limit=45,
)
def warband_pdf_render_task(warband_id: int, version: int, language: str) -> str:
    """Render the Hoja de Control de Banda as a PDF into the cache (idempotent)."""
    return warband_pdf_render(warband_id=warband_id, version=version, language=language)


@shared_task(name="warbands.sheet_warm", ignore_result=True, time_limit=30, soft_time_limit=20)
def sheet_warm_task(warband_id: int, language: str) -> None:
    """Render the warband's sheet (page body and API sheet) ahead of its next view, in the
    writer's language. A failure leaves the next view cold, never a write failed."""
    try:
        with translation.override(language):
            sheet_warm(warband_id)
    except Exception:
        logger.exception("warband %s: the sheet could not be rendered ahead", warband_id)
