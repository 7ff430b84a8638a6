from django.urls import include, path

from . import battle_views, postbattle_views, views

urlpatterns = [
    path("campaigns/", views.campaign_list, name="campaign-list"),
    path("campaigns/new/", views.campaign_create, name="campaign-create"),
    path("campaigns/join/", views.campaign_join, name="campaign-join"),
    path("campaigns/<slug:slug>/", views.campaign_detail, name="campaign-detail"),
    path("campaigns/<slug:slug>/edit/", views.campaign_edit, name="campaign-edit"),
    path("campaigns/<slug:slug>/manage/", views.campaign_manage, name="campaign-manage"),
    path("campaigns/<slug:slug>/standings/", views.campaign_standings, name="campaign-standings"),
    path(
        "campaigns/<slug:slug>/standings.csv",
        views.campaign_standings_csv,
        name="campaign-standings-csv",
    ),
    path("battles/<id:pk>/", battle_views.battle_detail, name="battle-detail"),
    path("battles/<id:pk>/report/", battle_views.battle_report, name="battle-report"),
    path(
        "battles/<id:pk>/postbattle/",
        postbattle_views.battle_postbattle,
        name="battle-postbattle",
    ),
    path(
        "battles/<id:pk>/postbattle/resolve/",
        postbattle_views.battle_postbattle_resolve,
        name="battle-postbattle-resolve",
    ),
    path(
        "battles/<id:pk>/postbattle/revert/",
        postbattle_views.battle_postbattle_revert,
        name="battle-postbattle-revert",
    ),
    path(
        "campaigns/<slug:slug>/rounds/<id:number>/resolve/",
        postbattle_views.round_resolve,
        name="round-resolve",
    ),
    path("jobs/<id:pk>/", postbattle_views.job_detail, name="job-detail"),
    path(
        "decisions/<id:pk>/answer/",
        postbattle_views.decision_answer_page,
        name="decision-answer",
    ),
    path("", include("battles.battlelog.urls")),
]
