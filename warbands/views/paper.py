"""The sheet on paper: the print page, the PDF (rendered by a task, with a progress page) and
the read-only share link."""

from __future__ import annotations

from django.contrib.auth.decorators import login_required
from django.http import Http404, HttpResponse
from django.shortcuts import get_object_or_404, render
from django.urls import reverse
from django.utils.translation import get_language
from django.views.decorators.http import require_GET

# ``tasks`` is imported for its side effect: it registers the render task that ``pdf`` queues by
# name (pdf must not import tasks, which imports pdf).
from .. import pdf, tasks  # noqa: F401
from ..models import Warband
from ..presentation import decorate_sheet, download_filename
from ..selectors import warband_by_share_token
from ._common import owned_sheet


@login_required
def warband_print(request, pk):
    return render(request, "warbands/print.html", {"warband": owned_sheet(request, pk)})


def _pdf_head(request, pk) -> Warband:
    return get_object_or_404(
        Warband.objects.only("pk", "name", "version", "owner_id"), pk=pk, owner=request.user
    )


def _pdf_status_context(warband: Warband, state: str) -> dict:
    return {"warband": warband, "state": state, "working": state in (pdf.QUEUED, pdf.RENDERING)}


@login_required
@require_GET
def warband_pdf(request, pk):
    """The PDF when it is ready; else it is asked for and a page shows its progress (202)."""
    warband = _pdf_head(request, pk)
    ids = {"warband_id": warband.pk, "version": warband.version, "language": get_language()}
    state = pdf.warband_pdf_request(**ids)
    document = pdf.warband_pdf_stored(**ids) if state == pdf.DONE else None
    if document is None:
        return render(request, "warbands/pdf.html", _pdf_status_context(warband, state), status=202)
    response = HttpResponse(document, content_type="application/pdf")
    response["Content-Disposition"] = f'attachment; filename="{download_filename(warband, "pdf")}"'
    return response


@login_required
@require_GET
def warband_pdf_status(request, pk):
    """The progress fragment the PDF page polls (asks again if a lost render expired)."""
    warband = _pdf_head(request, pk)
    ids = {"warband_id": warband.pk, "version": warband.version, "language": get_language()}
    return render(
        request,
        "warbands/_pdf_status.html",
        _pdf_status_context(warband, pdf.warband_pdf_request(**ids)),
    )


def warband_share(request, token):
    try:
        warband = decorate_sheet(warband_by_share_token(token=token))
    except Warband.DoesNotExist as exc:
        raise Http404 from exc
    return render(
        request,
        "warbands/share.html",
        {
            "warband": warband,
            "editable": False,
            "share_url": reverse("warband-share", args=[token]),
        },
    )
