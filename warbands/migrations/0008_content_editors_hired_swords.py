"""The "Content editors" group gets the hired swords' permissions: the group (migration 0003)
predates the HiredSword model, so content editors could not edit the hiring terms.

From now on the group's permissions are derived from the catalogue's models in one place
(``warbands.content_editors``) and synced after every ``migrate``; this migration brings
existing databases up to date at once.
"""

from django.contrib.auth.management import create_permissions
from django.db import migrations

GROUP = "Content editors"
CODENAMES = [f"{action}_hiredsword" for action in ("add", "change", "delete", "view")]


def _permissions(apps):
    # Permissions are normally created after migrating (post_migrate): create them now.
    app_config = apps.get_app_config("warbands")
    models_module = getattr(app_config, "models_module", None)
    app_config.models_module = models_module or True
    create_permissions(app_config, apps=apps, verbosity=0)
    app_config.models_module = models_module
    Permission = apps.get_model("auth", "Permission")
    return Permission.objects.filter(content_type__app_label="warbands", codename__in=CODENAMES)


def grant(apps, schema_editor):
    group, _created = apps.get_model("auth", "Group").objects.get_or_create(name=GROUP)
    group.permissions.add(*_permissions(apps))


def revoke(apps, schema_editor):
    for group in apps.get_model("auth", "Group").objects.filter(name=GROUP):
        group.permissions.remove(*_permissions(apps))


class Migration(migrations.Migration):
    dependencies = [
        ("auth", "0012_alter_user_first_name_max_length"),
        ("contenttypes", "0002_remove_content_type_name"),
        ("warbands", "0007_undo_point"),
    ]

    operations = [migrations.RunPython(grant, revoke)]
