"""URLs for the bench only (see ``warbands.bench_settings``): the project's plus a bare view."""

from django.http import JsonResponse
from django.urls import path

from annuminas.urls import handler400, handler404, handler500  # noqa: F401
from annuminas.urls import urlpatterns as project_urlpatterns


def bare_json(request):
    """The floor: a Django JSON view with no database query and no template."""
    return JsonResponse({"ok": True, "warriors": 15})


urlpatterns = [path("bench/bare-json/", bare_json, name="bench-bare-json"), *project_urlpatterns]
