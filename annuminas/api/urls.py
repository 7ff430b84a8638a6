"""``/api/v1/``: each app mounts its own router here."""

from django.urls import include, path
from drf_spectacular.views import SpectacularAPIView, SpectacularRedocView, SpectacularSwaggerView

from battles.urls import api_urlpatterns as battles_api

from .views import MeView, TokenView

urlpatterns = [
    path("auth/token/", TokenView.as_view(), name="api-token"),
    path("me/", MeView.as_view(), name="api-me"),
    path("schema/", SpectacularAPIView.as_view(), name="api-schema"),
    path("docs/", SpectacularSwaggerView.as_view(url_name="api-schema"), name="api-docs"),
    path("redoc/", SpectacularRedocView.as_view(url_name="api-schema"), name="api-redoc"),
    path("rules/", include("rules.api.urls")),
    path("", include("warbands.api.urls")),
    path("", include(battles_api)),
]
