from django.urls import include, path
from rest_framework.routers import SimpleRouter

from . import views
from .hired_swords import HiredSwordViewSet, WarbandHiredSwordsView

catalogue = SimpleRouter()
catalogue.register("warband-types", views.WarbandTypeViewSet, basename="api-warband-type")
catalogue.register("fighter-types", views.FighterTypeViewSet, basename="api-fighter-type")
catalogue.register("equipment", views.EquipmentViewSet, basename="api-equipment")
catalogue.register("equipment-lists", views.EquipmentListViewSet, basename="api-equipment-list")
catalogue.register("skills", views.SkillViewSet, basename="api-skill")
catalogue.register("skill-lists", views.SkillListViewSet, basename="api-skill-list")
catalogue.register("races", views.RaceViewSet, basename="api-race")
catalogue.register("special-rules", views.SpecialRuleViewSet, basename="api-special-rule")
catalogue.register("hired-swords", HiredSwordViewSet, basename="api-hired-sword")

rosters = SimpleRouter()
rosters.register("warbands", views.WarbandViewSet, basename="api-warband")

urlpatterns = [
    path("catalogue/", views.CatalogueRootView.as_view(), name="api-catalogue"),
    path("catalogue/", include(catalogue.urls)),
    *rosters.urls,
    path(
        "warbands/<id:warband_pk>/hired-swords/",
        WarbandHiredSwordsView.as_view(),
        name="api-warband-hired-swords",
    ),
    path(
        "warbands/<id:warband_pk>/fighters/<id:pk>/",
        views.FighterDetailView.as_view(),
        name="api-fighter-detail",
    ),
    path(
        "warbands/<id:warband_pk>/fighters/<id:pk>/retire/",
        views.FighterRetireView.as_view(),
        name="api-fighter-retire",
    ),
    path(
        "warbands/<id:warband_pk>/groups/<id:pk>/",
        views.GroupDetailView.as_view(),
        name="api-group-detail",
    ),
    path(
        "warbands/<id:holder_pk>/stash/<id:pk>/sell/",
        views.item_action_view("stash", "sell"),
        name="api-stash-sell",
    ),
    path(
        "warbands/<id:holder_pk>/stash/<id:pk>/assign/",
        views.item_action_view("stash", "assign"),
        name="api-stash-assign",
    ),
    path(
        "fighters/<id:pk>/equipment/",
        views.HolderEquipmentView.as_view(holder="fighter"),
        name="api-fighter-equipment",
    ),
    path(
        "fighters/<id:holder_pk>/equipment/<id:pk>/sell/",
        views.item_action_view("fighter", "sell"),
        name="api-fighter-equipment-sell",
    ),
    path(
        "fighters/<id:holder_pk>/equipment/<id:pk>/stash/",
        views.item_action_view("fighter", "stash"),
        name="api-fighter-equipment-stash",
    ),
    path(
        "groups/<id:pk>/equipment/",
        views.HolderEquipmentView.as_view(holder="group"),
        name="api-group-equipment",
    ),
    path(
        "groups/<id:holder_pk>/equipment/<id:pk>/sell/",
        views.item_action_view("group", "sell"),
        name="api-group-equipment-sell",
    ),
    path(
        "groups/<id:holder_pk>/equipment/<id:pk>/stash/",
        views.item_action_view("group", "stash"),
        name="api-group-equipment-stash",
    ),
]
