"""Where each feature of the campaigns mounts its pages (``urlpatterns``, under ``/``) and its
endpoints (``api_urlpatterns``, under ``/api/v1/``, see ``annuminas.api.urls``)."""

from django.urls import include, path

urlpatterns = [
    path("", include("battles.campaigns.urls")),
    path("", include("battles.reports.urls")),
    path("", include("battles.postbattle.urls")),
    path("", include("battles.battlelog.urls")),
    path("", include("battles.notifications.urls")),
]

api_urlpatterns = [
    path("", include("battles.postbattle.api_urls")),
    path("", include("battles.battlelog.api_urls")),
    path("", include("battles.notifications.api_urls")),
    path("", include("battles.campaigns.api_urls")),
    path("", include("battles.reports.api_urls")),
]
