from django.urls import path

from . import views

urlpatterns = [
    path("calendar/<str:token>/battles.ics", views.user_battles_feed, name="calendar-battles"),
    path(
        "calendar/<str:token>/campaigns/<slug:slug>.ics",
        views.campaign_rounds_feed,
        name="calendar-campaign",
    ),
]
