from django.contrib import admin
from django.urls import include, path, register_converter
from django.utils.translation import gettext_lazy as _

from battles.admin import organisers_site

from . import views
from .converters import IdConverter

# Registered before the apps' URL modules are included (they use ``<id:…>``).
register_converter(IdConverter, "id")

admin.site.site_header = _("League administration")
admin.site.site_title = _("League administration")
admin.site.index_title = _("Campaigns, rosters and catalogue")

urlpatterns = [
    path("", include("annuminas.dashboard_urls")),
    path("healthz", views.healthz, name="healthz"),
    path("favicon.ico", views.favicon),
    path("i18n/", include("django.conf.urls.i18n")),
    # Before the admin's own URLs: sign-in goes through the login page and its failed-login limits.
    path("admin/login/", views.admin_login, name="admin-login"),
    path("admin/", admin.site.urls),
    path("organisers/", organisers_site.urls),
    path("", include("annuminas.exports.urls")),
    path("accounts/", include("annuminas.accounts.urls")),
    path("accounts/", include("allauth.urls")),
    path("api/v1/", include("annuminas.api.urls")),
    path("rules/", include("rules.urls")),
    path("", include("warbands.urls")),
    path("", include("warbands.packs.urls")),
    path("", include("battles.urls")),
]

handler400 = "annuminas.views.bad_request"
handler404 = "annuminas.views.page_not_found"
handler500 = "annuminas.views.server_error"
