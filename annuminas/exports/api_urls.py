from django.urls import path

from . import views

urlpatterns = [
    path(
        "campaigns/<slug:slug>/export/",
        views.CampaignExportView.as_view(),
        name="api-campaign-export",
    ),
    path("me/export/", views.AccountExportView.as_view(), name="api-account-export"),
]
