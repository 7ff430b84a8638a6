from django.urls import include, path
from rest_framework.routers import DefaultRouter

from . import postbattle
from .views import BattleViewSet, CampaignJoinView, CampaignViewSet

router = DefaultRouter(trailing_slash=True)
router.include_root_view = False
router.register("campaigns", CampaignViewSet, basename="api-campaign")
router.register("battles", BattleViewSet, basename="api-battle")

urlpatterns = [
    path("campaigns/join/", CampaignJoinView.as_view(), name="api-campaign-join"),
    path(
        "campaigns/<str:campaign>/rounds/<id:number>/resolve/",
        postbattle.RoundResolveView.as_view(),
        name="api-round-resolve",
    ),
    path(
        "battles/<id:pk>/resolve/",
        postbattle.BattleResolveView.as_view(),
        name="api-battle-resolve",
    ),
    path(
        "battles/<id:pk>/postbattle/",
        postbattle.BattlePostBattleView.as_view(),
        name="api-battle-postbattle",
    ),
    path(
        "battles/<id:pk>/revert/",
        postbattle.BattleRevertView.as_view(),
        name="api-battle-revert",
    ),
    path("jobs/<id:pk>/", postbattle.JobDetailView.as_view(), name="api-job-detail"),
    path("decisions/", postbattle.DecisionListView.as_view(), name="api-decision-list"),
    path(
        "decisions/<id:pk>/answer/",
        postbattle.DecisionAnswerView.as_view(),
        name="api-decision-answer",
    ),
    path("", include("battles.battlelog.api_urls")),
    path("", include("battles.notifications.api_urls")),
    path("", include(router.urls)),
]
