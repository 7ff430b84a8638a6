"""The battle log page: ``/battles/{id}/table/`` and its live part."""

from django.urls import path

from . import views

urlpatterns = [
    path("battles/<id:pk>/table/", views.battle_log_page, name="battle-log"),
    path("battles/<id:pk>/table/live/", views.battle_log_live, name="battle-log-live"),
]
