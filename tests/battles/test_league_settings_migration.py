"""A league setting added as a newcomer would add a house rule (``max_warriors``): its migration
keeps every existing campaign's values. A transactional test, apart from the settings' tests,
which share one league built for their module (see ``module_transaction``)."""

from __future__ import annotations

import pytest
from django.conf import settings as django_settings
from django.db import connection
from django.db.migrations.executor import MigrationExecutor


def _migration_adding(field: str, loader) -> tuple[str, str]:
    """The battles migration that adds ``field`` to the campaign (whatever its number)."""
    return next(
        key
        for key, migration in loader.disk_migrations.items()
        if key[0] == "battles"
        and any(
            getattr(operation, "model_name", "") == "campaign"
            and getattr(operation, "name", "") == field
            for operation in migration.operations
        )
    )


@pytest.mark.django_db(transaction=True)
def test_the_migration_keeps_every_existing_campaigns_values():
    executor = MigrationExecutor(connection)
    after = _migration_adding("max_warriors", executor.loader)
    (before,) = executor.loader.disk_migrations[after].dependencies
    executor.migrate([before])
    old = executor.loader.project_state([before]).apps
    user = old.get_model(*django_settings.AUTH_USER_MODEL.split(".")).objects.create(username="o")
    values = {
        "starting_treasury": 650, "rating_cap": 310, "max_fighter_type_copies": 4,
        "points_win": 5, "points_draw": 2, "points_loss": -1, "points_bye": 4,
        "points_per_out_of_action": 1, "points_per_objective": 2, "tie_breakers": ["wins"],
        "optional_rules": ["challenges"], "tables": {"exploration": []},
        "hired_swords_forbidden": "all", "table_size": "120 × 90 cm", "game_length": "2 h",
    }  # fmt: skip
    row = old.get_model("battles", "Campaign").objects.create(
        name="Liga", slug="liga", join_code="ABCDEFGH", created_by=user, **values
    )
    executor = MigrationExecutor(connection)
    executor.migrate([after])
    new = executor.loader.project_state([after]).apps
    migrated = new.get_model("battles", "Campaign").objects.get(pk=row.pk)
    assert {key: getattr(migrated, key) for key in values} == values
    assert migrated.max_warriors is None
    MigrationExecutor(connection).migrate(executor.loader.graph.leaf_nodes())
