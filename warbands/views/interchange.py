"""A warband as a JSON file: export, and import as a new warband of the visitor."""

from __future__ import annotations

from django.contrib import messages
from django.contrib.auth.decorators import login_required
from django.core.exceptions import ValidationError
from django.http import JsonResponse
from django.shortcuts import redirect
from django.utils.translation import gettext as _
from django.views.decorators.http import require_POST

from .. import services
from ..forms import ImportForm
from ..import_format import IMPORT_MAX_BYTES, import_file_read
from ..presentation import download_filename
from ._common import error_text, owned_warband


@login_required
def warband_export(request, pk):
    warband = owned_warband(request, pk)
    response = JsonResponse(
        services.warband_export(warband=warband),
        json_dumps_params={"ensure_ascii": False, "indent": 2},
    )
    response["Content-Disposition"] = f'attachment; filename="{download_filename(warband, "json")}"'
    return response


@login_required
@require_POST
def warband_import(request):
    form = ImportForm(request.POST, request.FILES)
    if not form.is_valid():
        messages.error(request, _("Choose a file to import."))
        return redirect("warband-list")
    upload = form.cleaned_data["file"]
    try:
        # Read one byte past the limit: enough to tell a file that is too big.
        data = import_file_read(upload.read(IMPORT_MAX_BYTES + 1))
        warband = services.warband_import(owner=request.user, data=data)
    except ValidationError as exc:
        messages.error(request, error_text(exc))
        return redirect("warband-list")
    messages.success(request, _("Warband imported."))
    return redirect("warband-sheet", pk=warband.pk)
