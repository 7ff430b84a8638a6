"""Organising a campaign no longer makes a user staff, and dice typed by someone who plays are
recorded as such.

Users made staff only because they organise (not superusers, no group, no permission of their
own, organiser of at least one campaign) lose ``is_staff``: they reach their campaigns at
``/organisers/``. A staff user with any group or permission keeps it (an administrator gave it
on purpose). Reverting this migration does not make them staff again.
"""

import django.db.models.deletion
from django.conf import settings
from django.db import migrations, models


def demote_organisers(apps, schema_editor):
    app_label, model_name = settings.AUTH_USER_MODEL.split(".")
    User = apps.get_model(app_label, model_name)
    Membership = apps.get_model("battles", "Membership")
    organisers = Membership.objects.filter(role="organiser").values("user_id")
    only_staff_by_organising = User.objects.filter(
        is_staff=True,
        is_superuser=False,
        pk__in=organisers,
        groups__isnull=True,
        user_permissions__isnull=True,
    ).values_list("pk", flat=True)
    User.objects.filter(pk__in=list(only_staff_by_organising)).update(is_staff=False)


class Migration(migrations.Migration):
    dependencies = [
        migrations.swappable_dependency(settings.AUTH_USER_MODEL),
        ("auth", "0012_alter_user_first_name_max_length"),
        ("battles", "0003_postbattle_run_heartbeat"),
    ]

    operations = [
        migrations.AddField(
            model_name="postbattlerun",
            name="faces_typed_by",
            field=models.ForeignKey(
                blank=True,
                null=True,
                on_delete=django.db.models.deletion.SET_NULL,
                related_name="+",
                to=settings.AUTH_USER_MODEL,
                verbose_name="dice typed by",
            ),
        ),
        migrations.AddField(
            model_name="postbattlerun",
            name="faces_typed_by_player",
            field=models.BooleanField(
                default=False,
                help_text="An organiser typed the dice of a battle he plays in: shown on the results.",
                verbose_name="dice typed by a player of this battle",
            ),
        ),
        migrations.RunPython(demote_organisers, migrations.RunPython.noop),
    ]
