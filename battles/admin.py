"""The organisers' site at ``/organisers/``: any active user who organises at least one campaign
(no ``is_staff`` needed) sees and changes only his own campaigns and their rounds, battles and
members; a superuser sees them all. The global catalogue is not on this site: it lives in the
staff admin (``/admin/``) behind the content editors' permissions. Changes go through the
services; the history of campaigns and battles is shown (django-simple-history) but never
reverted from here."""

from __future__ import annotations

from django import forms
from django.contrib import admin, messages
from django.core.exceptions import ValidationError
from django.db import transaction
from django.http import HttpResponse
from django.utils.translation import gettext_lazy as _
from simple_history.admin import SimpleHistoryAdmin

from annuminas.errors import Conflict
from battles.campaigns import league_settings, selectors, services
from battles.campaigns.exports import csv_filename, standings_csv
from battles.campaigns.league_settings import Kind
from battles.common.organisers import OrganiserScopedAdmin, organisers_site, organises_any

# Django discovers this module only; the notifications register their models on the same site.
from battles.notifications import admin as notifications_admin  # noqa: F401
from battles.reports import services as reports

from .models import Battle, BattleEvent, BattleParticipant, Campaign, Membership, Round

OWN_FIELDS = ("name", "description", "public", "preset")


class _DryRun(Exception):
    pass


class CampaignAdminForm(forms.ModelForm):
    """The campaign's own fields and every declared setting (``league_settings``). A setting
    the form was not sent keeps its value; the service checks them all."""

    class Meta:
        model = Campaign
        fields = [*OWN_FIELDS, *(setting.key for setting in league_settings.SETTINGS)]
        # Checkboxes, not the admin's two-box filter: a dozen types fit on a phone, and the
        # filter's search icons carry aria-labels on elements without a role.
        widgets = {"allowed_warband_types": forms.CheckboxSelectMultiple}

    def __init__(self, *args, **kwargs):
        super().__init__(*args, **kwargs)
        for setting in league_settings.SETTINGS:
            self.fields[setting.key].required = False

    def clean(self):
        """Run the service on a savepoint that is rolled back: its checks (house rules that
        current members must meet) show here as form errors."""
        data = super().clean()
        for setting in league_settings.SETTINGS:
            # A checkbox left unchecked is not sent: for a yes-or-no, absent means no.
            absent = setting.key not in self.data and setting.kind != Kind.FLAG
            if absent and setting.kind != Kind.TYPES:
                data[setting.key] = getattr(self.instance, setting.key)
        if self.errors:
            return data
        try:
            with transaction.atomic():
                campaign_update_from(self.instance, self.user, data)
                raise _DryRun
        except _DryRun:
            pass
        except Conflict as error:
            raise ValidationError(str(error.detail)) from error
        return data


def campaign_update_from(campaign: Campaign, user, data: dict) -> Campaign:
    keys = (*OWN_FIELDS, *league_settings.house_rule_keys())
    return services.campaign_update(
        campaign=campaign,
        by=user,
        changes={key: data[key] for key in keys if key in data},
        allowed_warband_types=data.get("allowed_warband_types"),
    )


class ReadOnlyInline(admin.TabularInline):
    """Shown to whoever may see the parent (already scoped to his campaigns), never written."""

    extra = 0
    can_delete = False

    def has_view_permission(self, request, obj=None) -> bool:
        return organises_any(request)

    def has_add_permission(self, request, obj=None) -> bool:
        return False

    def has_change_permission(self, request, obj=None) -> bool:
        return False


class MembershipInline(ReadOnlyInline):
    model = Membership
    fields = ["user", "role", "warband", "active", "joined_at"]
    readonly_fields = fields
    show_change_link = True


class RoundInline(ReadOnlyInline):
    model = Round
    fields = ["number", "status", "pairing_method", "opened_at", "closed_at"]
    readonly_fields = fields
    show_change_link = True


class CampaignAdmin(OrganiserScopedAdmin, SimpleHistoryAdmin):
    campaign_path = ""
    form = CampaignAdminForm
    list_display = ["name", "state", "archived", "public", "rating_cap", "created_at"]
    list_filter = ["state", "archived"]
    search_fields = ["name", "slug"]
    readonly_fields = ["slug", "state", "archived", "join_code", "created_by", "created_at"]
    inlines = [MembershipInline, RoundInline]
    actions = ["export_standings", "open_next_round"]
    history_list_display = ["state", "rating_cap"]

    def has_change_permission(self, request, obj=None) -> bool:
        if obj is None:
            return organises_any(request)
        return self.has_view_permission(request, obj) and not obj.archived

    def revert_disabled(self, request, obj=None) -> bool:
        return True

    def get_form(self, request, obj=None, change=False, **kwargs):
        form = super().get_form(request, obj, change=change, **kwargs)
        form.user = request.user
        return form

    def save_model(self, request, obj, form, change):
        campaign_update_from(obj, request.user, form.cleaned_data)

    def save_related(self, request, form, formsets, change):
        """The allowed types were saved by the service. The inlines are read-only: saving them
        writes nothing, and gives the change message its (empty) list of inline changes."""
        for formset in formsets:
            self.save_formset(request, form, formset, change=change)

    @admin.action(description=_("Export standings (CSV)"))
    def export_standings(self, request, queryset):
        campaigns = list(queryset.prefetch_related("memberships__user"))
        if len(campaigns) != 1:
            self.message_user(request, _("Choose one campaign to export."), messages.WARNING)
            return None
        campaign = campaigns[0]
        rows = services.standings_compute(campaign=campaign)
        players = selectors.players_by_warband(campaign)
        response = HttpResponse(
            standings_csv(rows, players=players), content_type="text/csv; charset=utf-8"
        )
        response["Content-Disposition"] = f'attachment; filename="{csv_filename(campaign)}"'
        return response

    @admin.action(description=_("Open the next round"))
    def open_next_round(self, request, queryset):
        self._run_each(
            request, queryset, lambda c: services.round_open(campaign=c, by=request.user)
        )


class MembershipAdmin(OrganiserScopedAdmin):
    list_display = ["user", "campaign", "role", "warband", "active", "joined_at"]
    list_filter = ["role", "active"]
    list_select_related = ["user", "campaign", "warband"]
    search_fields = ["user__username", "warband__name", "campaign__name"]
    readonly_fields = ["campaign", "user", "role", "warband", "active", "joined_at"]
    actions = ["withdraw"]

    @admin.action(description=_("Withdraw the selected members"))
    def withdraw(self, request, queryset):
        self._run_each(
            request, queryset, lambda m: services.membership_withdraw(membership=m, by=request.user)
        )


class BattleInline(ReadOnlyInline):
    model = Battle
    fields = ["scenario", "status", "is_bye", "version"]
    readonly_fields = fields
    show_change_link = True


class RoundAdmin(OrganiserScopedAdmin):
    list_display = ["__str__", "number", "status", "pairing_method", "opened_at"]
    list_filter = ["status"]
    list_select_related = ["campaign"]
    readonly_fields = ["campaign", "number", "status", "pairing_method", "opened_at", "closed_at"]
    inlines = [BattleInline]
    actions = ["generate_swiss", "generate_rating", "close"]

    def _generate(self, request, queryset, method):
        self._run_each(
            request,
            queryset,
            lambda r: services.pairings_generate(round=r, by=request.user, method=method),
        )

    @admin.action(description=_("Generate pairings: Swiss"))
    def generate_swiss(self, request, queryset):
        self._generate(request, queryset, Round.Method.SWISS)

    @admin.action(description=_("Generate pairings: nearest rating"))
    def generate_rating(self, request, queryset):
        self._generate(request, queryset, Round.Method.RATING)

    @admin.action(description=_("Close the selected rounds"))
    def close(self, request, queryset):
        self._run_each(request, queryset, lambda r: services.round_close(round=r, by=request.user))


class ParticipantInline(ReadOnlyInline):
    model = BattleParticipant
    fields = ["warband", "result", "routed", "voluntary_rout", "rating_at_battle"]
    readonly_fields = fields


class EventInline(ReadOnlyInline):
    model = BattleEvent
    fields = ["turn", "kind", "actor", "actor_warband", "target", "target_warband", "weapon"]
    readonly_fields = fields


class BattleAdmin(OrganiserScopedAdmin, SimpleHistoryAdmin):
    list_display = ["__str__", "campaign", "round", "status", "is_bye", "version"]
    list_filter = ["status", "is_bye"]
    list_select_related = ["campaign", "round"]
    readonly_fields = [
        "campaign", "round", "scenario", "status", "is_bye", "is_draw", "notes", "reported_by",
        "reported_at", "confirmed_by", "confirmed_at", "disputed_by", "dispute_reason", "version",
    ]  # fmt: skip
    inlines = [ParticipantInline, EventInline]
    actions = ["confirm"]
    history_list_display = ["status", "version"]

    def revert_disabled(self, request, obj=None) -> bool:
        return True

    @admin.action(description=_("Confirm the selected reported battles"))
    def confirm(self, request, queryset):
        self._run_each(
            request, queryset, lambda b: reports.battle_confirm(battle=b, by=request.user)
        )


organisers_site.register(Campaign, CampaignAdmin)
organisers_site.register(Membership, MembershipAdmin)
organisers_site.register(Round, RoundAdmin)
organisers_site.register(Battle, BattleAdmin)
