"""Special-rule keys spelled once (the engine's vocabulary): the injuries Horrible scars and
Hardened wrote ``causes_fear`` and ``immune_to_fear`` on a warrior's sheet, keys the battle
tracker never read; they are ``fear`` and ``immune-fear``, as the fighter types spell them."""

from django.db import migrations

RENAMED = {"causes_fear": "fear", "immune_to_fear": "immune-fear"}


def _rename(apps, mapping):
    for model in ("Fighter", "HenchmanGroup"):
        rows = apps.get_model("warbands", model).objects.exclude(special_rules=[])
        for row in rows.only("pk", "special_rules").iterator():
            rules = [mapping.get(key, key) for key in row.special_rules or []]
            rules = list(dict.fromkeys(rules))
            if rules != row.special_rules:
                row.special_rules = rules
                row.save(update_fields=["special_rules"])


def forwards(apps, schema_editor):
    _rename(apps, RENAMED)


def backwards(apps, schema_editor):
    _rename(apps, {new: old for old, new in RENAMED.items()})


class Migration(migrations.Migration):
    dependencies = [("warbands", "0009_catalogue_translations")]

    operations = [migrations.RunPython(forwards, backwards)]
