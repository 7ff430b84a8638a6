"""The campaign pages: the list, creating and joining one, its page, settings, management and
standings (``/campaigns/…``)."""

from django.urls import path

from . import standings_views, views

urlpatterns = [
    path("campaigns/", views.campaign_list, name="campaign-list"),
    path("campaigns/new/", views.campaign_create, name="campaign-create"),
    path("campaigns/join/", views.campaign_join, name="campaign-join"),
    path("campaigns/<slug:slug>/", views.campaign_detail, name="campaign-detail"),
    path("campaigns/<slug:slug>/edit/", views.campaign_edit, name="campaign-edit"),
    path("campaigns/<slug:slug>/manage/", views.campaign_manage, name="campaign-manage"),
    path(
        "campaigns/<slug:slug>/standings/",
        standings_views.campaign_standings,
        name="campaign-standings",
    ),
    path(
        "campaigns/<slug:slug>/standings.csv",
        standings_views.campaign_standings_csv,
        name="campaign-standings-csv",
    ),
]
