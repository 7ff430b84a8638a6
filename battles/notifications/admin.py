"""Notifications in the two admin sites.

* ``/admin/``: every notification model, read-only and for superusers only (to look into what
  was sent, to whom, and why a webhook was switched off). Secrets and calendar tokens are not
  shown.
* ``/organisers/``: each organiser's campaign webhooks — listed, added, changed and deleted
  through the services (organiser check, URL guard, at most ten per campaign), with their
  recent deliveries.
"""

from __future__ import annotations

from django import forms
from django.contrib import admin, messages
from django.core.exceptions import PermissionDenied, ValidationError
from django.db import transaction
from django.utils.html import format_html, format_html_join
from django.utils.translation import gettext_lazy as _

from battles.common import access
from battles.common.organisers import OrganiserScopedAdmin, organisers_site, organises_any
from battles.models.notifications import (
    CalendarToken,
    Notification,
    NotificationEvent,
    NotificationPreference,
    Webhook,
    WebhookDelivery,
)

from . import services

RECENT_DELIVERIES = 10


# --- /admin/: read-only, superusers --------------------------------------------------------------
class SuperuserReadOnlyAdmin(admin.ModelAdmin):
    def has_module_permission(self, request) -> bool:
        return request.user.is_active and request.user.is_superuser

    def has_view_permission(self, request, obj=None) -> bool:
        return request.user.is_active and request.user.is_superuser

    def has_add_permission(self, request) -> bool:
        return False

    def has_change_permission(self, request, obj=None) -> bool:
        return False

    def has_delete_permission(self, request, obj=None) -> bool:
        return False


@admin.register(NotificationEvent)
class NotificationEventAdmin(SuperuserReadOnlyAdmin):
    list_display = ["id", "event", "campaign", "round", "battle", "created_at", "dispatched_at"]
    list_filter = ["event", ("dispatched_at", admin.EmptyFieldListFilter)]
    list_select_related = ["campaign", "round__campaign", "battle"]
    search_fields = ["key", "campaign__name"]
    date_hierarchy = "created_at"


@admin.register(Notification)
class NotificationAdmin(SuperuserReadOnlyAdmin):
    list_display = ["id", "recipient", "event", "campaign", "read", "emailed_at", "created_at"]
    list_filter = ["event", "read"]
    list_select_related = ["recipient", "campaign"]
    search_fields = ["recipient__username", "key", "campaign__name"]
    date_hierarchy = "created_at"


@admin.register(NotificationPreference)
class NotificationPreferenceAdmin(SuperuserReadOnlyAdmin):
    list_display = ["user", "email_mode", "language", "last_digest_at"]
    list_filter = ["email_mode", "language"]
    list_select_related = ["user"]
    search_fields = ["user__username"]


@admin.register(Webhook)
class WebhookSuperuserAdmin(SuperuserReadOnlyAdmin):
    list_display = ["id", "campaign", "url", "format", "active", "consecutive_failures"]
    list_filter = ["active", "format"]
    list_select_related = ["campaign"]
    search_fields = ["url", "campaign__name"]
    exclude = ["secret"]


@admin.register(WebhookDelivery)
class WebhookDeliveryAdmin(SuperuserReadOnlyAdmin):
    list_display = ["id", "webhook", "event", "status", "attempts", "response_code", "created_at"]
    list_filter = ["status", "event"]
    list_select_related = ["webhook__campaign"]
    search_fields = ["key", "webhook__url"]
    date_hierarchy = "created_at"


@admin.register(CalendarToken)
class CalendarTokenAdmin(SuperuserReadOnlyAdmin):
    list_display = ["user", "created_at"]
    list_select_related = ["user"]
    search_fields = ["user__username"]
    exclude = ["token"]


# --- /organisers/: the organisers' campaign webhooks -------------------------------------------
class _DryRun(Exception):
    pass


class OrganiserWebhookForm(forms.ModelForm):
    url = forms.URLField(label=_("URL"), max_length=500, assume_scheme="https")

    class Meta:
        model = Webhook
        fields = ["campaign", "url", "format", "active"]

    def _write(self, data) -> Webhook:
        if self.instance.pk is None:
            webhook = services.webhook_create(
                campaign=data["campaign"], by=self.user, url=data["url"], format=data["format"]
            )
            if not data["active"]:
                webhook = services.webhook_update(webhook=webhook, by=self.user, active=False)
            return webhook
        return services.webhook_update(
            webhook=self.instance,
            by=self.user,
            url=data["url"],
            format=data["format"],
            active=data["active"],
        )

    def clean(self):
        """Run the service on a savepoint that is rolled back: its checks (organiser, the URL
        guard, the number of webhooks) show here as form errors."""
        data = super().clean()
        if self.errors:
            return data
        try:
            with transaction.atomic():
                self._write(data)
                raise _DryRun
        except _DryRun:
            pass
        except PermissionDenied as error:
            raise ValidationError(str(error)) from error
        return data


class OrganiserWebhookAdmin(OrganiserScopedAdmin):
    form = OrganiserWebhookForm
    list_display = ["url", "campaign", "format", "active", "consecutive_failures", "created_at"]
    list_filter = ["active", "format"]
    list_select_related = ["campaign"]
    search_fields = ["url", "campaign__name"]
    actions = ["enable", "disable", "rotate_secret"]

    def get_readonly_fields(self, request, obj=None):
        shown = ["secret", "consecutive_failures", "disabled_note", "created_by", "created_at"]
        if obj is None:
            return []
        return ["campaign", *shown, "recent_deliveries"]

    def get_form(self, request, obj=None, change=False, **kwargs):
        form = super().get_form(request, obj, change=change, **kwargs)
        form.user = request.user
        return form

    def formfield_for_foreignkey(self, db_field, request, **kwargs):
        if db_field.name == "campaign":
            kwargs["queryset"] = access.organised_campaigns(request.user).filter(archived=False)
        return super().formfield_for_foreignkey(db_field, request, **kwargs)

    def has_add_permission(self, request) -> bool:
        return organises_any(request)

    def has_change_permission(self, request, obj=None) -> bool:
        if obj is None:
            return organises_any(request)
        return self.has_view_permission(request, obj)

    def has_delete_permission(self, request, obj=None) -> bool:
        return self.has_change_permission(request, obj)

    def save_model(self, request, obj, form, change):
        saved = form._write(form.cleaned_data)
        for field in ("id", "secret", "created_by_id", "created_at", "active"):
            setattr(obj, field, getattr(saved, field))

    def delete_model(self, request, obj):
        services.webhook_delete(webhook=obj, by=request.user)

    def delete_queryset(self, request, queryset):
        for webhook in queryset.select_related("campaign"):
            services.webhook_delete(webhook=webhook, by=request.user)

    @admin.display(description=_("Recent deliveries"))
    def recent_deliveries(self, obj: Webhook) -> str:
        rows = obj.deliveries.order_by("-created_at", "-id")[:RECENT_DELIVERIES]
        if not rows:
            return "—"
        return format_html(
            "<ul>{}</ul>",
            format_html_join(
                "",
                "<li>{} · {} · {} · {}</li>",
                (
                    (d.created_at, d.get_event_display(), d.get_status_display(), d.error or "")
                    for d in rows
                ),
            ),
        )

    def _update_each(self, request, queryset, **changes) -> None:
        done = 0
        for webhook in queryset.select_related("campaign"):
            try:
                services.webhook_update(webhook=webhook, by=request.user, **changes)
                done += 1
            except (ValidationError, PermissionDenied) as error:
                self.message_user(request, f"{webhook}: {error}", messages.ERROR)
        if done:
            self.message_user(request, _("%(count)s done.") % {"count": done}, messages.SUCCESS)

    @admin.action(description=_("Switch the selected webhooks on"))
    def enable(self, request, queryset):
        self._update_each(request, queryset, active=True)

    @admin.action(description=_("Switch the selected webhooks off"))
    def disable(self, request, queryset):
        self._update_each(request, queryset, active=False)

    @admin.action(description=_("New signing secrets for the selected webhooks"))
    def rotate_secret(self, request, queryset):
        self._update_each(request, queryset, rotate_secret=True)


organisers_site.register(Webhook, OrganiserWebhookAdmin)
