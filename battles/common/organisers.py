"""The organisers' site at ``/organisers/`` and the base of every model admin on it: any active
user who organises at least one campaign (no ``is_staff`` needed) sees only his own campaigns
and what belongs to them; a superuser sees them all. Each feature registers its models in its
own admin module (``battles.admin``, ``battles.notifications.admin``)."""

from __future__ import annotations

from django.conf import settings
from django.contrib import admin, messages
from django.contrib.auth.views import redirect_to_login
from django.core.exceptions import PermissionDenied, ValidationError
from django.shortcuts import redirect
from django.urls import reverse
from django.utils.translation import gettext_lazy as _

from annuminas.errors import Conflict
from battles.common import access
from battles.models import Campaign


def organises_any(request) -> bool:
    """Active and organiser of at least one campaign (or superuser); one query per request."""
    if not hasattr(request, "_organises_any"):
        user = request.user
        request._organises_any = bool(
            user.is_active
            and user.is_authenticated
            and (user.is_superuser or access.organised_campaigns(user).exists())
        )
    return request._organises_any


class OrganisersAdminSite(admin.AdminSite):
    site_header = _("Organisers' administration")
    site_title = _("Organisers' administration")
    index_title = _("Your campaigns")

    def has_permission(self, request) -> bool:
        return organises_any(request)

    def login(self, request, extra_context=None):
        """The site's own login page (organisers are not staff); a signed-in user who
        organises nothing is refused instead of being asked to log in again."""
        if not request.user.is_authenticated:
            return redirect_to_login(
                request.GET.get("next") or reverse("organisers:index"), settings.LOGIN_URL
            )
        if self.has_permission(request):
            return redirect("organisers:index")
        raise PermissionDenied(_("Only organisers of a campaign may use this site."))


organisers_site = OrganisersAdminSite(name="organisers")


class OrganiserScopedAdmin(admin.ModelAdmin):
    """Querysets and permissions limited to the campaigns the user organises."""

    campaign_path = "campaign"

    def _campaign_of(self, obj) -> Campaign:
        return obj if not self.campaign_path else getattr(obj, self.campaign_path)

    def get_queryset(self, request):
        queryset = super().get_queryset(request)
        if request.user.is_superuser:
            return queryset
        lookup = f"{self.campaign_path}__in" if self.campaign_path else "pk__in"
        return queryset.filter(**{lookup: access.organised_campaigns(request.user)})

    def has_module_permission(self, request) -> bool:
        return organises_any(request)

    def has_view_permission(self, request, obj=None) -> bool:
        if obj is None:
            return organises_any(request)
        return request.user.is_active and access.is_organiser(request.user, self._campaign_of(obj))

    def has_change_permission(self, request, obj=None) -> bool:
        return False

    def has_add_permission(self, request) -> bool:
        return False

    def has_delete_permission(self, request, obj=None) -> bool:
        return False

    def _run_each(self, request, queryset, operation) -> None:
        """An action: ``operation`` (one service call) on each selected object, read with its
        campaign (every service checks who organises it); a refusal is told per object, then
        how many were done."""
        if self.campaign_path:
            queryset = queryset.select_related(self.campaign_path)
        done = 0
        for obj in queryset:
            try:
                operation(obj)
                done += 1
            except (ValidationError, Conflict, PermissionDenied) as error:
                text = (
                    " ".join(error.messages)
                    if isinstance(error, ValidationError)
                    else str(getattr(error, "detail", error) or _("not allowed"))
                )
                self.message_user(request, f"{obj}: {text}", messages.ERROR)
        if done:
            self.message_user(request, _("%(count)s done.") % {"count": done}, messages.SUCCESS)
