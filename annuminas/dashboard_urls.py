from django.urls import path

from . import dashboard_views

urlpatterns = [
    path("", dashboard_views.home, name="home"),
    path("dashboard/waiting/", dashboard_views.waiting_badge, name="dashboard-waiting"),
]
