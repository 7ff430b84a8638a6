"""The "Content editors" group: who may edit or import the global catalogue (prices and profiles
for every league). Its permissions are derived here, in one place, from the catalogue's models
(every model of ``warbands.models.catalogue``), and the group is brought up to date after every
``migrate``, so a catalogue model added later is covered without anyone remembering it.
Organising a campaign never grants any of them.
"""

from __future__ import annotations

from django.apps import apps as django_apps
from django.contrib.auth.models import Group, Permission
from django.db import DEFAULT_DB_ALIAS

GROUP = "Content editors"
CATALOGUE_MODULE = "warbands.models.catalogue"
MODEL_ACTIONS = ("add", "change", "delete", "view")


def catalogue_models() -> list[type]:
    """The catalogue's concrete models, in declaration order."""
    return [
        model
        for model in django_apps.get_app_config("warbands").get_models()
        if model.__module__ == CATALOGUE_MODULE
    ]


def content_editor_codenames() -> list[str]:
    """Every permission the group holds: the pack import and each catalogue model's four."""
    return [
        "import_contentpack",
        *(
            f"{action}_{model._meta.model_name}"
            for model in catalogue_models()
            for action in MODEL_ACTIONS
        ),
    ]


def content_editors_sync(*, using: str = DEFAULT_DB_ALIAS) -> Group:
    """Create the group if needed and give it every catalogue permission (it never loses one an
    administrator added by hand). Runs after each ``migrate`` (``WarbandsConfig.ready``)."""
    group, _created = Group.objects.using(using).get_or_create(name=GROUP)
    group.permissions.add(
        *Permission.objects.using(using).filter(
            content_type__app_label="warbands", codename__in=content_editor_codenames()
        )
    )
    return group


def sync_after_migrate(sender, using: str = DEFAULT_DB_ALIAS, **kwargs) -> None:
    """``post_migrate`` receiver: the permissions exist by now (auth's receiver runs first)."""
    content_editors_sync(using=using)
