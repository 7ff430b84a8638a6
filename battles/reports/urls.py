"""A battle's page and its report form (``/battles/{id}/``)."""

from django.urls import path

from . import views

urlpatterns = [
    path("battles/<id:pk>/", views.battle_detail, name="battle-detail"),
    path("battles/<id:pk>/report/", views.battle_report, name="battle-report"),
]
