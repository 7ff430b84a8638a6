from django.urls import path

from . import views

urlpatterns = [
    path("profile/", views.profile, name="profile"),
    path("profile/token/", views.token_rotate, name="profile-token"),
]
