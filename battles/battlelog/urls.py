"""The battle log page: ``/battles/{id}/table/`` and its live part; the campaign's scenario
list its organisers edit (``/campaigns/{slug}/scenarios/``)."""

from django.urls import path

from . import scenario_views, views

urlpatterns = [
    path("battles/<id:pk>/table/", views.battle_log_page, name="battle-log"),
    path("battles/<id:pk>/table/live/", views.battle_log_live, name="battle-log-live"),
    path("battles/<id:pk>/table/plan/", views.battle_log_plan, name="battle-log-plan"),
    path("battles/<id:pk>/table/cards/", views.battle_log_cards, name="battle-log-cards"),
    path(
        "battles/<id:pk>/table/cards/<id:fighter>/",
        views.battle_log_card,
        name="battle-log-card",
    ),
    path("table-sw.js", views.service_worker, name="service-worker"),
    path(
        "campaigns/<slug:slug>/scenarios/",
        scenario_views.campaign_scenarios_page,
        name="campaign-scenarios",
    ),
]
