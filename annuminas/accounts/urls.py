from django.urls import path

from . import views

urlpatterns = [
    # Before allauth's own URLs (included after this module): the same page, 429 when throttled.
    path("login/", views.LoginView.as_view(), name="account_login"),
    path("profile/", views.profile, name="profile"),
    path("profile/token/", views.token_rotate, name="profile-token"),
]
