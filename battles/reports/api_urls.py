"""``/api/v1/battles/…``: battles, their events, and the report's writes."""

from django.urls import include, path
from rest_framework.routers import DefaultRouter

from .api import BattleViewSet

router = DefaultRouter(trailing_slash=True)
router.include_root_view = False
router.register("battles", BattleViewSet, basename="api-battle")

urlpatterns = [path("", include(router.urls))]
