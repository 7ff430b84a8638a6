"""URLs for the bench only (see ``warbands.bench_settings``): the project's plus two floors."""

from django.contrib.auth.decorators import login_required
from django.http import JsonResponse
from django.shortcuts import get_object_or_404
from django.urls import path

from annuminas.urls import handler400, handler404, handler500  # noqa: F401
from annuminas.urls import urlpatterns as project_urlpatterns

from .models import Warband
from .sheet_cache import KEY_FIELDS


def bare_json(request):
    """The floor of any view: a Django JSON view with no database query and no template."""
    return JsonResponse({"ok": True, "warriors": 15})


@login_required
def owner_version_json(request, pk):
    """The floor of a sheet checked on every request: who asks (session, user) and the current
    version of a warband of theirs — the three queries a warm sheet runs — and nothing else."""
    head = get_object_or_404(Warband.objects.only(*KEY_FIELDS), pk=pk, owner=request.user)
    return JsonResponse({"id": head.pk, "version": head.version})


urlpatterns = [
    path("bench/bare-json/", bare_json, name="bench-bare-json"),
    path("bench/owner-version/<int:pk>/", owner_version_json, name="bench-owner-version"),
    *project_urlpatterns,
]
