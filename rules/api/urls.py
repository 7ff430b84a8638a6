from django.urls import path

from . import views

urlpatterns = [
    path("roll/", views.RollView.as_view(), name="rules-roll"),
    path("checks/", views.CheckListView.as_view(), name="rules-checks"),
    path("checks/<slug:kind>/", views.CheckView.as_view(), name="rules-check"),
    path("attack/", views.AttackView.as_view(), name="rules-attack"),
    path("odds/", views.OddsView.as_view(), name="rules-odds-api"),
    path("tables/", views.TablesView.as_view(), name="rules-tables"),
    path("vocabulary/", views.VocabularyView.as_view(), name="rules-vocabulary"),
]
