"""``/api/v1/battles/{id}/log/`` (and ``log/plan/``), ``state/``, ``setup/`` and ``lineup/``."""

from django.urls import path

from . import api

urlpatterns = [
    path("battles/<id:pk>/log/", api.BattleLogView.as_view(), name="api-battle-log"),
    path("battles/<id:pk>/log/plan/", api.BattleLogPlanView.as_view(), name="api-battle-log-plan"),
    path("battles/<id:pk>/state/", api.BattleStateView.as_view(), name="api-battle-state"),
    path("battles/<id:pk>/setup/", api.BattleSetupView.as_view(), name="api-battle-setup"),
    path("battles/<id:pk>/lineup/", api.BattleLineupView.as_view(), name="api-battle-lineup"),
]
