"""``/api/v1/campaigns/…``: campaigns, members, rounds, pairings, standings; joining by code."""

from django.urls import include, path
from rest_framework.routers import DefaultRouter

from .api import CampaignJoinView, CampaignViewSet

router = DefaultRouter(trailing_slash=True)
router.include_root_view = False
router.register("campaigns", CampaignViewSet, basename="api-campaign")

urlpatterns = [
    # Before the router: its detail route would read "join" as a campaign's slug.
    path("campaigns/join/", CampaignJoinView.as_view(), name="api-campaign-join"),
    path("", include(router.urls)),
]
