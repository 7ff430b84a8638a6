"""``/api/v1/``: each app mounts its own router here."""

from django.urls import include, path
from drf_spectacular.views import (
    SpectacularAPIView,
    SpectacularRedocView,
    SpectacularSwaggerSplitView,
)

from annuminas.middleware import csp_relaxed

from .views import MeView, TokenView

# ReDoc styles itself at run time (inline styles) and searches in a worker it builds from a blob.
redoc = csp_relaxed(
    SpectacularRedocView.as_view(url_name="api-schema"),
    style_src=["'self'", "'unsafe-inline'"],
    worker_src=["'self'", "blob:"],
)

urlpatterns = [
    path("auth/token/", TokenView.as_view(), name="api-token"),
    path("me/", MeView.as_view(), name="api-me"),
    path("schema/", SpectacularAPIView.as_view(), name="api-schema"),
    # The split view serves its start-up script as a file (?script): no inline script.
    path("docs/", SpectacularSwaggerSplitView.as_view(url_name="api-schema"), name="api-docs"),
    path("redoc/", redoc, name="api-redoc"),
    path("", include("annuminas.exports.api_urls")),
    path("rules/", include("rules.api.urls")),
    path("", include("warbands.api.urls")),
    path("", include("battles.api.urls")),
]
