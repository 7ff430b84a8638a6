from django.urls import include, path
from rest_framework.routers import SimpleRouter

from . import views

catalogue = SimpleRouter()
catalogue.register("warband-types", views.WarbandTypeViewSet, basename="api-warband-type")
catalogue.register("fighter-types", views.FighterTypeViewSet, basename="api-fighter-type")
catalogue.register("equipment", views.EquipmentViewSet, basename="api-equipment")
catalogue.register("equipment-lists", views.EquipmentListViewSet, basename="api-equipment-list")
catalogue.register("skills", views.SkillViewSet, basename="api-skill")
catalogue.register("skill-lists", views.SkillListViewSet, basename="api-skill-list")
catalogue.register("races", views.RaceViewSet, basename="api-race")
catalogue.register("special-rules", views.SpecialRuleViewSet, basename="api-special-rule")

rosters = SimpleRouter()
rosters.register("warbands", views.WarbandViewSet, basename="api-warband")

urlpatterns = [
    path("catalogue/", views.CatalogueRootView.as_view(), name="api-catalogue"),
    path("catalogue/", include(catalogue.urls)),
    *rosters.urls,
    path(
        "warbands/<int:warband_pk>/fighters/<int:pk>/",
        views.FighterDetailView.as_view(),
        name="api-fighter-detail",
    ),
    path(
        "warbands/<int:warband_pk>/fighters/<int:pk>/retire/",
        views.FighterRetireView.as_view(),
        name="api-fighter-retire",
    ),
    path(
        "warbands/<int:warband_pk>/groups/<int:pk>/",
        views.GroupDetailView.as_view(),
        name="api-group-detail",
    ),
    path(
        "warbands/<int:holder_pk>/stash/<int:pk>/sell/",
        views.item_action_view("stash", "sell"),
        name="api-stash-sell",
    ),
    path(
        "warbands/<int:holder_pk>/stash/<int:pk>/assign/",
        views.item_action_view("stash", "assign"),
        name="api-stash-assign",
    ),
    path(
        "fighters/<int:pk>/equipment/",
        views.HolderEquipmentView.as_view(holder="fighter"),
        name="api-fighter-equipment",
    ),
    path(
        "fighters/<int:holder_pk>/equipment/<int:pk>/sell/",
        views.item_action_view("fighter", "sell"),
        name="api-fighter-equipment-sell",
    ),
    path(
        "fighters/<int:holder_pk>/equipment/<int:pk>/stash/",
        views.item_action_view("fighter", "stash"),
        name="api-fighter-equipment-stash",
    ),
    path(
        "groups/<int:pk>/equipment/",
        views.HolderEquipmentView.as_view(holder="group"),
        name="api-group-equipment",
    ),
    path(
        "groups/<int:holder_pk>/equipment/<int:pk>/sell/",
        views.item_action_view("group", "sell"),
        name="api-group-equipment-sell",
    ),
    path(
        "groups/<int:holder_pk>/equipment/<int:pk>/stash/",
        views.item_action_view("group", "stash"),
        name="api-group-equipment-stash",
    ),
]
