"""Celery tasks: thin wrappers that take ids and call the warbands' services."""

from celery import shared_task

from .pdf import warband_pdf_render


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
