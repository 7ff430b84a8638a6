from django.urls import path

from . import views

urlpatterns = [
    path("odds/", views.odds, name="rules-odds"),
]
