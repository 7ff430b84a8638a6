"""The catalogue's own permission and the "Content editors" group.

Importing a pack or editing catalogue rows changes prices and profiles for every league, so it
needs an explicit grant: membership of this group (plus ``is_staff`` to reach ``/admin/``) or
superuser. Organising a campaign never grants it.
"""

from django.contrib.auth.management import create_permissions
from django.db import migrations

GROUP = "Content editors"
CATALOGUE_MODELS = (
    "contentpack",
    "race",
    "specialrule",
    "skilllist",
    "skill",
    "equipment",
    "equipmentlist",
    "equipmentlistentry",
    "warbandtype",
    "fightertype",
)


def _permission_codenames() -> list[str]:
    return [
        "import_contentpack",
        *(
            f"{action}_{model}"
            for model in CATALOGUE_MODELS
            for action in ("add", "change", "delete", "view")
        ),
    ]


def create_group(apps, schema_editor):
    # Permissions are normally created after migrating (post_migrate); create them now so the
    # group can hold them on a fresh database too.
    app_config = apps.get_app_config("warbands")
    models_module = getattr(app_config, "models_module", None)
    app_config.models_module = models_module or True
    create_permissions(app_config, apps=apps, verbosity=0)
    app_config.models_module = models_module

    Group = apps.get_model("auth", "Group")
    Permission = apps.get_model("auth", "Permission")
    group, _created = Group.objects.get_or_create(name=GROUP)
    group.permissions.add(
        *Permission.objects.filter(
            content_type__app_label="warbands", codename__in=_permission_codenames()
        )
    )


def delete_group(apps, schema_editor):
    apps.get_model("auth", "Group").objects.filter(name=GROUP).delete()


class Migration(migrations.Migration):
    dependencies = [
        ("auth", "0012_alter_user_first_name_max_length"),
        ("contenttypes", "0002_remove_content_type_name"),
        ("warbands", "0002_warband_imported"),
    ]

    operations = [
        migrations.AlterModelOptions(
            name="contentpack",
            options={
                "ordering": ["slug"],
                "permissions": [("import_contentpack", "Can import a content pack")],
                "verbose_name": "content pack",
                "verbose_name_plural": "content packs",
            },
        ),
        migrations.RunPython(create_group, delete_group),
    ]
