"""A migrated SQLite test database kept between runs, so a test process does not migrate again.

Migrating an empty in-memory database (Django's apps and ours, 63 migrations) costs a test
process ~6 s, most of it Django re-rendering model states, before its first test: a third of a
one-file run, and paid again by every pytest-xdist worker. The first process to migrate copies
the result into a file named after every migration the project holds (each app's migration
files, their contents and Django's version); later processes and runs copy that file into their
own in-memory database instead (SQLite's backup, ~0.1 s). A new or edited migration names another
file, so a stale schema is never used. PostgreSQL (``DATABASE_URL``) migrates as before.

The copy is taken right after ``migrate``, so it holds what the migrations wrote, as a migrated
database does (``migrate`` on it afterwards finds nothing to apply); the ``post_migrate``
receivers (content types, permissions, the content editors' group) run again after each copy,
since what they write follows the code and not only the migrations.
"""

from __future__ import annotations

import hashlib
import os
import sqlite3
import tempfile
from contextlib import closing
from pathlib import Path

import django
from django.apps import apps
from django.core.management.commands import migrate
from django.core.management.sql import emit_post_migrate_signal
from django.db import connections


def _fingerprint() -> str:
    digest = hashlib.sha256(django.get_version().encode())
    for config in apps.get_app_configs():
        folder = Path(config.path) / "migrations"
        if not folder.is_dir():
            continue
        for path in sorted(folder.glob("*.py")):
            digest.update(f"{config.label}/{path.name}".encode())
            digest.update(path.read_bytes())
    return digest.hexdigest()[:16]


def template_path() -> Path:
    return Path(tempfile.gettempdir()) / f"annuminas-test-db-{_fingerprint()}.sqlite3"


def migrate_from_template() -> None:
    """Make the next ``migrate`` of an in-memory SQLite test database copy the kept one, or keep
    its result for the next process (see above). Once: the patch is gone after that call."""
    original = migrate.Command.handle

    def handle(self, *args, **options):
        migrate.Command.handle = original
        connection = connections[options.get("database") or "default"]
        if connection.vendor != "sqlite" or not connection.is_in_memory_db():
            return original(self, *args, **options)
        path = template_path()
        connection.ensure_connection()
        if path.exists():
            with closing(sqlite3.connect(path)) as kept:
                kept.backup(connection.connection)
            # What the receivers write follows the code too (content types, permissions, the
            # content editors' group): they run again, as after ``migrate`` or a flush.
            emit_post_migrate_signal(0, False, connection.alias)
            return None
        result = original(self, *args, **options)
        partial = path.with_suffix(f".{os.getpid()}.part")
        with closing(sqlite3.connect(partial)) as kept:
            connection.connection.backup(kept)
        partial.replace(path)  # atomic: a concurrent process reads a whole file or none
        return result

    migrate.Command.handle = handle
