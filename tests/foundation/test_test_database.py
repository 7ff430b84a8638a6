"""The test database a process starts from: copied from a kept migrated one on SQLite
(tests/db_template.py), it is the migrated database, and a changed migration is never served
from an older copy."""

from __future__ import annotations

from types import SimpleNamespace

import pytest
from django.db import connection
from django.db.migrations.executor import MigrationExecutor

from tests import db_template


@pytest.mark.django_db
def test_the_test_database_has_every_migration_and_nothing_left_to_apply():
    executor = MigrationExecutor(connection)
    targets = executor.loader.graph.leaf_nodes()
    assert executor.migration_plan(targets) == []
    applied = executor.loader.applied_migrations
    assert ("battles", "0001_initial") in applied and ("warbands", "0001_initial") in applied


def test_a_changed_or_added_migration_names_another_copy(tmp_path, monkeypatch):
    folder = tmp_path / "migrations"
    folder.mkdir()
    (folder / "0001_initial.py").write_text("operations = []\n")
    app = SimpleNamespace(label="demo", path=str(tmp_path))
    monkeypatch.setattr(db_template.apps, "get_app_configs", lambda: [app])
    first = db_template.template_path()
    assert db_template.template_path() == first
    (folder / "0001_initial.py").write_text("operations = ['changed']\n")
    edited = db_template.template_path()
    (folder / "0002_more.py").write_text("operations = []\n")
    added = db_template.template_path()
    assert len({first, edited, added}) == 3
