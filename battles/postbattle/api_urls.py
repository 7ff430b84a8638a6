"""``/api/v1/``: resolving a battle or a round (202 and a job), the results, reverting, a job's
progress, the pending decisions and their answers."""

from django.urls import path

from . import api

urlpatterns = [
    path(
        "campaigns/<str:campaign>/rounds/<id:number>/resolve/",
        api.RoundResolveView.as_view(),
        name="api-round-resolve",
    ),
    path("battles/<id:pk>/resolve/", api.BattleResolveView.as_view(), name="api-battle-resolve"),
    path(
        "battles/<id:pk>/postbattle/",
        api.BattlePostBattleView.as_view(),
        name="api-battle-postbattle",
    ),
    path("battles/<id:pk>/revert/", api.BattleRevertView.as_view(), name="api-battle-revert"),
    path("jobs/<id:pk>/", api.JobDetailView.as_view(), name="api-job-detail"),
    path("decisions/", api.DecisionListView.as_view(), name="api-decision-list"),
    path("decisions/<id:pk>/answer/", api.DecisionAnswerView.as_view(), name="api-decision-answer"),
]
