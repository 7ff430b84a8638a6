"""``/api/v1/``: each app mounts its own router here."""

from django.urls import include, path
from django.views.generic import RedirectView
from drf_spectacular.views import SpectacularSwaggerSplitView

from battles.urls import api_urlpatterns as battles_api
from warbands.packs.urls import api_urlpatterns as packs_api

from .schema import EnglishSchemaView
from .signup import SignupView
from .tokens import TokenDetailView, TokensView
from .views import MeView, TokenView

urlpatterns = [
    path("auth/token/", TokenView.as_view(), name="api-token"),
    path("auth/signup/", SignupView.as_view(), name="api-signup"),
    path("auth/tokens/", TokensView.as_view(), name="api-tokens"),
    path("auth/tokens/<id:pk>/", TokenDetailView.as_view(), name="api-token-detail"),
    path("me/", MeView.as_view(), name="api-me"),
    path("schema/", EnglishSchemaView.as_view(), name="api-schema"),
    # The split view serves its start-up script as a file (?script): no inline script.
    path("docs/", SpectacularSwaggerSplitView.as_view(url_name="api-schema"), name="api-docs"),
    # ReDoc styled itself inline and fetched its logo from a CDN, against the site's
    # Content-Security-Policy: the one documentation page is Swagger UI's.
    path("redoc/", RedirectView.as_view(pattern_name="api-docs", permanent=True)),
    path("", include("annuminas.exports.api_urls")),
    path("rules/", include("rules.api.urls")),
    path("", include("warbands.api.urls")),
    path("", include(packs_api)),
    path("", include(battles_api)),
]
