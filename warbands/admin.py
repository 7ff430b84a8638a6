"""The staff admin (``/admin/``): the catalogue (inlines, search, export as YAML/JSON;
`load_content` is the import path, also offered as an upload view) and rosters with their
read-only ledger.

The catalogue is shared by every league, so each page needs its model permission and the import
needs ``warbands.import_contentpack``: the "Content editors" group holds them (derived from
the catalogue models in ``warbands.content_editors``, kept after every migrate),
superusers have them; organising a campaign gives none (organisers use ``/organisers/``)."""

from __future__ import annotations

import json
import tempfile
from pathlib import Path

import yaml
from django import forms
from django.contrib import admin, messages
from django.core.exceptions import PermissionDenied, ValidationError
from django.http import HttpResponse
from django.shortcuts import redirect, render
from django.urls import path
from django.utils.translation import gettext_lazy as _

from . import services
from .content_loader import content_pack_load
from .models import (
    PROFILE_FIELDS,
    ContentPack,
    Equipment,
    EquipmentItem,
    EquipmentList,
    EquipmentListEntry,
    Fighter,
    FighterType,
    HenchmanGroup,
    HiredSword,
    LedgerEntry,
    Race,
    Skill,
    SkillList,
    SpecialRule,
    Warband,
    WarbandType,
)


def _profile_text(obj, prefix: str = "") -> str:
    values = [getattr(obj, f"{prefix}{field}") for field in PROFILE_FIELDS]
    return " ".join(str(int(v) if float(v).is_integer() else v) for v in values)


def _translations(obj) -> dict:
    """The row's ``en:`` (etc.) blocks, as the pack files write them."""
    return {language: dict(texts) for language, texts in (obj.translations or {}).items()}


def _equipment_rows(queryset) -> dict:
    return {
        "equipment": {
            item.slug: {
                "name": item.name,
                "kind": item.kind,
                "cost": item.cost,
                **({"cost_dice": item.cost_dice} if item.cost_dice else {}),
                **({"rarity": item.rarity} if item.rarity else {}),
                **({"two_handed": True} if item.two_handed else {}),
                **({"range_cm": item.range_cm} if item.range_cm else {}),
                **({"strength": item.strength} if item.strength else {}),
                **({"save": item.armour_save} if item.armour_save else {}),
                "description": item.description,
                "rules": item.rules,
                **_translations(item),
            }
            for item in queryset
        }
    }


def _race_rows(queryset) -> dict:
    return {
        "races": {
            race.slug: {
                "name": race.name,
                "max": _profile_text(race, "max_"),
                "description": race.description,
                **_translations(race),
            }
            for race in queryset
        }
    }


def _skill_list_rows(queryset) -> dict:
    return {
        "skill_lists": {
            skill_list.slug: {
                "name": skill_list.name,
                **_translations(skill_list),
                "skills": {
                    skill.slug: {
                        "name": skill.name,
                        "description": skill.description,
                        **_translations(skill),
                    }
                    for skill in skill_list.skills.all()
                },
            }
            for skill_list in queryset.prefetch_related("skills")
        }
    }


def _special_rule_rows(queryset) -> dict:
    return {
        "special_rules": {
            rule.slug: {
                "name": rule.name,
                "description": rule.description,
                **_translations(rule),
            }
            for rule in queryset
        }
    }


def _equipment_list_rows(queryset) -> dict:
    return {
        "equipment_lists": {
            equipment_list.slug: {
                "name": equipment_list.name,
                **_translations(equipment_list),
                "items": [
                    {e.equipment.slug: {"cost": e.cost, "common": e.common}}
                    if (e.cost is not None or e.common)
                    else e.equipment.slug
                    for e in equipment_list.entries.all()
                ],
            }
            for equipment_list in queryset.prefetch_related("entries__equipment")
        }
    }


def _fighter_type_row(ft: FighterType) -> dict:
    return {
        "name": ft.name,
        **_translations(ft),
        "role": ft.role,
        "cost": ft.cost,
        "profile": _profile_text(ft),
        "race": ft.race.slug,
        "xp": ft.starting_experience,
        **({"max": ft.max_count} if ft.max_count else {}),
        "group": ft.group_max_size,
        "large": ft.is_large,
        "experience": ft.can_gain_experience,
        "equipment": ft.equipment_list.slug if ft.equipment_list else None,
        "skills": [s.slug for s in ft.skill_lists.all()],
        "rules": ft.special_rules,
    }


def _warband_type_rows(queryset) -> dict:
    return {
        "warband_types": {
            wt.slug: {
                "name": wt.name,
                "race": wt.race.slug,
                "description": wt.description,
                **_translations(wt),
                "starting_treasury": wt.starting_treasury,
                "min_size": wt.min_size,
                "max_size": wt.max_size,
                "max_heroes": wt.max_heroes,
                "fighter_types": {ft.slug: _fighter_type_row(ft) for ft in wt.fighter_types.all()},
            }
            for wt in queryset.select_related("race").prefetch_related(
                "fighter_types__race",
                "fighter_types__equipment_list",
                "fighter_types__skill_lists",
            )
        }
    }


# The pack file's section of each exportable catalogue model.
EXPORTERS = {
    Equipment: _equipment_rows,
    Race: _race_rows,
    SkillList: _skill_list_rows,
    SpecialRule: _special_rule_rows,
    EquipmentList: _equipment_list_rows,
    WarbandType: _warband_type_rows,
}


def export_rows(queryset) -> dict:
    """The selected catalogue rows in the pack file format (sections keyed by slug)."""
    exporter = EXPORTERS.get(queryset.model)
    if exporter is None:
        raise ValueError(queryset.model)
    return exporter(queryset)


def _export(queryset, fmt: str) -> HttpResponse:
    data = export_rows(queryset)
    name = queryset.model._meta.model_name
    if fmt == "yaml":
        body = yaml.safe_dump(data, allow_unicode=True, sort_keys=False)
        response = HttpResponse(body, content_type="application/yaml; charset=utf-8")
        response["Content-Disposition"] = f'attachment; filename="{name}.yaml"'
    else:
        body = json.dumps(data, ensure_ascii=False, indent=2)
        response = HttpResponse(body, content_type="application/json; charset=utf-8")
        response["Content-Disposition"] = f'attachment; filename="{name}.json"'
    return response


@admin.action(description=_("Export selected as YAML (pack file format)"))
def export_yaml(modeladmin, request, queryset):
    return _export(queryset, "yaml")


@admin.action(description=_("Export selected as JSON"))
def export_json(modeladmin, request, queryset):
    return _export(queryset, "json")


class DefaultCatalogueOnly:
    """The admin edits the default catalogue only: a published version of an organiser's pack
    never changes (``warbands.packs``), so its rows are not listed here."""

    default_filter = {"pack_version": None}

    def get_queryset(self, request):
        return super().get_queryset(request).filter(**self.default_filter)


class CatalogueAdmin(DefaultCatalogueOnly, admin.ModelAdmin):
    search_fields = ["slug", "name", "description"]
    list_display = ["name", "slug"]
    actions = [export_yaml, export_json]
    readonly_fields = ["pack"]


class MultipleFileInput(forms.ClearableFileInput):
    allow_multiple_selected = True


class MultipleFileField(forms.FileField):
    def clean(self, data, initial=None):
        if isinstance(data, list | tuple):
            return [super(MultipleFileField, self).clean(item, initial) for item in data]
        return super().clean(data, initial)


class PackUploadForm(forms.Form):
    files = MultipleFileField(
        label=_("Pack files (.yaml)"),
        widget=MultipleFileInput(),
        help_text=_("All the pack's YAML files; the same as `manage.py load_content --path`."),
    )


@admin.register(ContentPack)
class ContentPackAdmin(admin.ModelAdmin):
    list_display = ["name", "slug", "declared_version", "version", "loaded_at"]
    readonly_fields = ["version", "content_hash", "loaded_at", "source"]
    search_fields = ["slug", "name"]

    def get_urls(self):
        return [
            path(
                "import/",
                self.admin_site.admin_view(self.import_view),
                name="warbands_contentpack_import",
            ),
            *super().get_urls(),
        ]

    def has_import_permission(self, request) -> bool:
        return request.user.has_perm("warbands.import_contentpack")

    def changelist_view(self, request, extra_context=None):
        extra_context = {
            **(extra_context or {}),
            "has_import_permission": self.has_import_permission(request),
        }
        return super().changelist_view(request, extra_context)

    def import_view(self, request):
        if not self.has_import_permission(request):
            raise PermissionDenied
        form = PackUploadForm(request.POST or None, request.FILES or None)
        if request.method == "POST" and form.is_valid():
            with tempfile.TemporaryDirectory() as folder:
                for upload in request.FILES.getlist("files"):
                    name = Path(upload.name).name
                    if not name.endswith(".yaml"):
                        continue
                    (Path(folder) / name).write_bytes(upload.read())
                try:
                    result = content_pack_load(path=Path(folder))
                except ValidationError as exc:
                    form.add_error(None, exc.messages)
                except yaml.YAMLError as exc:
                    form.add_error(None, str(exc))
                except (KeyError, TypeError, AttributeError, ValueError) as exc:
                    # A row missing a required key or of the wrong shape: the loader reads the
                    # files as trusted data, so the upload reports the mistake instead of a 500.
                    form.add_error(
                        None,
                        _("The pack's files do not have the expected shape (%(problem)s).")
                        % {"problem": f"{type(exc).__name__}: {exc}"},
                    )
                else:
                    messages.success(
                        request,
                        _("%(pack)s loaded (revision %(version)d).")
                        % {"pack": result.pack.name, "version": result.pack.version}
                        if result.changed
                        else _("Nothing changed."),
                    )
                    return redirect("admin:warbands_contentpack_changelist")
        return render(
            request,
            "admin/warbands/contentpack/import.html",
            {**self.admin_site.each_context(request), "form": form, "title": _("Import a pack")},
        )


@admin.register(Race)
class RaceAdmin(CatalogueAdmin):
    list_display = ["name", "slug", "max_m", "max_ws", "max_s", "max_t", "max_ld"]


@admin.register(SpecialRule)
class SpecialRuleAdmin(CatalogueAdmin):
    pass


class SkillInline(admin.TabularInline):
    model = Skill
    fields = ["slug", "name", "description"]
    extra = 0


@admin.register(SkillList)
class SkillListAdmin(CatalogueAdmin):
    inlines = [SkillInline]


@admin.register(Skill)
class SkillAdmin(CatalogueAdmin):
    list_display = ["name", "slug", "skill_list"]
    list_filter = ["skill_list"]


@admin.register(Equipment)
class EquipmentAdmin(CatalogueAdmin):
    list_display = ["name", "slug", "kind", "cost", "rarity", "two_handed", "range_cm"]
    list_filter = ["kind", "two_handed"]


class EquipmentListEntryInline(admin.TabularInline):
    model = EquipmentListEntry
    autocomplete_fields = ["equipment"]
    extra = 0


@admin.register(EquipmentList)
class EquipmentListAdmin(CatalogueAdmin):
    inlines = [EquipmentListEntryInline]


class FighterTypeInline(admin.StackedInline):
    model = FighterType
    extra = 0
    fk_name = "warband_type"
    fields = [
        ("slug", "name", "role", "order"),
        ("race", "cost", "max_count", "group_max_size", "starting_experience"),
        ("m", "ws", "bs", "s", "t", "w", "i", "a", "ld"),
        ("is_large", "can_gain_experience"),
        ("equipment_list", "skill_lists"),
        "special_rules",
    ]
    show_change_link = True


@admin.register(WarbandType)
class WarbandTypeAdmin(CatalogueAdmin):
    list_display = ["name", "slug", "race", "starting_treasury", "max_size", "max_heroes"]
    list_filter = ["race", "playable"]
    inlines = [FighterTypeInline]


@admin.register(FighterType)
class FighterTypeAdmin(DefaultCatalogueOnly, admin.ModelAdmin):
    list_display = ["name", "slug", "warband_type", "role", "cost", "max_count"]
    list_filter = ["warband_type", "role", "race"]
    search_fields = ["slug", "name"]
    filter_horizontal = ["skill_lists"]
    readonly_fields = ["pack"]


@admin.register(HiredSword)
class HiredSwordAdmin(DefaultCatalogueOnly, admin.ModelAdmin):
    """The hiring terms; the sword's profile, fee (cost) and maximum per warband are on its
    fighter type (under the pack's "espadas de alquiler")."""

    default_filter = {"fighter_type__pack_version": None}

    list_display = ["__str__", "hire_fee", "upkeep", "rating_value"]
    list_select_related = ["fighter_type"]
    search_fields = ["fighter_type__slug", "fighter_type__name"]
    filter_horizontal = ["allowed_warband_types", "excluded_warband_types", "equipment"]

    @admin.display(description=_("hire fee (co)"), ordering="fighter_type__cost")
    def hire_fee(self, obj) -> int:
        return obj.fighter_type.cost


# --- rosters ---------------------------------------------------------------------------------


class ReadOnlyInline(admin.TabularInline):
    extra = 0
    can_delete = False
    show_change_link = False

    def has_add_permission(self, request, obj=None):
        return False

    def has_change_permission(self, request, obj=None):
        return False


class LedgerInline(ReadOnlyInline):
    model = LedgerEntry
    fields = ["created_at", "reason", "amount", "finds_delta", "treasury_after", "entry_text"]
    readonly_fields = fields
    ordering = ["-pk"]

    @admin.display(description=_("description"))
    def entry_text(self, obj: LedgerEntry) -> str:
        """The line in the reader's language (``description`` holds the writer's words)."""
        return obj.text


class FighterInline(ReadOnlyInline):
    model = Fighter
    fields = ["name", "fighter_type", "group", "status", "experience", "advances_due"]
    readonly_fields = fields


class GroupInline(ReadOnlyInline):
    model = HenchmanGroup
    fields = ["name", "fighter_type", "experience", "advances_due"]
    readonly_fields = fields


class ItemInline(ReadOnlyInline):
    model = EquipmentItem
    fields = ["equipment", "fighter", "group", "unit_price"]
    readonly_fields = fields


@admin.register(Warband)
class WarbandAdmin(admin.ModelAdmin):
    """Rosters change through the services (players' pages and the API); here they are read."""

    list_display = ["name", "owner", "warband_type", "treasury", "finds", "rating", "updated_at"]
    list_filter = ["warband_type"]
    search_fields = ["name", "owner__username"]
    readonly_fields = [
        "owner",
        "warband_type",
        "treasury",
        "finds",
        "rating",
        "version",
        "share_token",
        "created_at",
        "updated_at",
    ]
    fields = ["name", "notes", *readonly_fields]
    inlines = [FighterInline, GroupInline, ItemInline, LedgerInline]

    def has_add_permission(self, request):
        return False

    def save_model(self, request, obj, form, change):
        services.warband_update(
            warband=obj,
            expected_version=None,
            name=form.cleaned_data["name"],
            notes=form.cleaned_data["notes"],
        )


@admin.register(LedgerEntry)
class LedgerEntryAdmin(admin.ModelAdmin):
    list_display = ["created_at", "warband", "reason", "amount", "finds_delta", "treasury_after"]
    list_filter = ["reason"]
    search_fields = ["warband__name", "description"]
    readonly_fields = [field.name for field in LedgerEntry._meta.fields]

    def has_add_permission(self, request):
        return False

    def has_change_permission(self, request, obj=None):
        return False

    def has_delete_permission(self, request, obj=None):
        return False
