"""Campaign table overrides stored before the one check of a league's tables, brought to its
shape where the meaning is plain: an underdog table's last row is "and above" (its ``max``
becomes null; the old check wanted a number there), and the advance thresholds, which are the
warband's content pack's and were never applied for a campaign, are dropped."""

from django.db import migrations


def forwards(apps, schema_editor):
    Campaign = apps.get_model("battles", "Campaign")
    for campaign in Campaign.objects.exclude(tables={}).only("pk", "tables").iterator():
        tables = campaign.tables
        if not isinstance(tables, dict):
            continue
        changed = dict(tables)
        changed.pop("advance_thresholds", None)
        rows = changed.get("underdog_bonus")
        if isinstance(rows, list) and rows and isinstance(rows[-1], dict):
            last = rows[-1]
            if last.get("max") is not None:
                changed["underdog_bonus"] = [*rows[:-1], {**last, "max": None}]
        if changed != tables:
            campaign.tables = changed
            campaign.save(update_fields=["tables"])


class Migration(migrations.Migration):
    dependencies = [
        ("battles", "0018_notification_report_withdrawn"),
    ]

    operations = [migrations.RunPython(forwards, migrations.RunPython.noop)]
