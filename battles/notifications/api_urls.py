"""``/api/v1/notifications/``, ``/api/v1/campaigns/{slug}/webhooks/``, ``/api/v1/calendar/``."""

from django.urls import path

from . import api

urlpatterns = [
    path("notifications/", api.NotificationListView.as_view(), name="api-notification-list"),
    path("notifications/read/", api.NotificationReadView.as_view(), name="api-notification-read"),
    path(
        "campaigns/<str:slug>/webhooks/",
        api.WebhookListView.as_view(),
        name="api-webhook-list",
    ),
    path(
        "campaigns/<str:slug>/webhooks/<id:pk>/",
        api.WebhookDetailView.as_view(),
        name="api-webhook-detail",
    ),
    path("calendar/", api.CalendarTokenView.as_view(), name="api-calendar"),
]
