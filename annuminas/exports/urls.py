from django.urls import path

from . import views

urlpatterns = [
    path(
        "campaigns/<slug:slug>/export.json",
        views.campaign_export_download,
        name="campaign-export",
    ),
    path("accounts/profile/export.json", views.account_export_download, name="account-export"),
]
