"""``/notifications/…``, ``/campaigns/<slug>/webhooks/`` and the private calendar feeds."""

from django.urls import include, path

from . import views

urlpatterns = [
    path("notifications/", views.notification_inbox, name="notification-inbox"),
    path("notifications/<id:pk>/read/", views.notification_read, name="notification-read"),
    path("notifications/read-all/", views.notification_read_all, name="notification-read-all"),
    path(
        "notifications/preferences/",
        views.notification_preferences,
        name="notification-preferences",
    ),
    path(
        "notifications/calendar/rotate/",
        views.calendar_token_rotate,
        name="calendar-token-rotate",
    ),
    path("campaigns/<slug:slug>/webhooks/", views.campaign_webhooks, name="campaign-webhooks"),
    path(
        "campaigns/<slug:slug>/webhooks/<id:pk>/",
        views.campaign_webhook_change,
        name="campaign-webhook-change",
    ),
    path("", include("battles.calendars.urls")),
]
