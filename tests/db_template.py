"""A migrated SQLite test database kept between runs, so a test process does not migrate again.

Migrating an empty in-memory database (Django's apps and ours, 63 migrations) costs a test
process ~6 s, most of it Django re-rendering model states, before its first test: a third of a
one-file run, and paid again by every pytest-xdist worker. The first process to migrate copies
the result into a file (in the user's own directory of the temporary directory, ``kept_dir``)
named after a digest of what it follows from: every app's migration files, the project's models,
the ``post_migrate`` receivers' files and Django's version. Later processes and runs copy that
file into their own in-memory database instead (SQLite's backup, ~0.1 s). A new or edited
migration names another file, so a stale schema is never used. PostgreSQL (``DATABASE_URL``)
migrates as before.

The copy is taken right after ``migrate``, so it holds what the migrations wrote, as a migrated
database does (``migrate`` on it afterwards finds nothing to apply); the ``post_migrate``
receivers (content types, permissions, the content editors' group) run again after each copy,
since what they write follows the code and not only the migrations.
"""

from __future__ import annotations

import getpass
import hashlib
import inspect
import os
import sqlite3
import tempfile
import weakref
from contextlib import closing
from pathlib import Path

import django
from django.apps import apps
from django.core.management.commands import migrate
from django.core.management.sql import emit_post_migrate_signal
from django.db import connections
from django.db.models.signals import post_migrate

ROOT = Path(__file__).resolve().parent.parent


def kept_dir() -> Path:
    """Where test runs keep what the next run reuses (this database, the generated API client):
    a directory of the user's own in the temporary directory, that no one else may write."""
    owner = os.getuid() if hasattr(os, "getuid") else getpass.getuser()
    folder = Path(tempfile.gettempdir()) / f"annuminas-tests-{owner}"
    folder.mkdir(mode=0o700, exist_ok=True)
    if hasattr(os, "getuid") and folder.stat().st_uid != os.getuid():
        raise RuntimeError(f"{folder} belongs to another user: remove it or set TMPDIR")
    return folder


def _receiver_sources() -> list[Path]:
    """The files of the ``post_migrate`` receivers (what they write is in the copy)."""
    files = []
    for entry in post_migrate.receivers:
        target = entry[1]() if isinstance(entry[1], weakref.ReferenceType) else entry[1]
        source = inspect.getsourcefile(target) if target is not None else None
        if source:
            files.append(Path(source))
    return files


def _fingerprint() -> str:
    """Django's version, every app's migrations, the ``post_migrate`` receivers' files and the
    project's own models (a catalogue model moved without a migration changes what the content
    editors' group is given)."""
    digest = hashlib.sha256(django.get_version().encode())
    files: list[Path] = []
    for config in apps.get_app_configs():
        folder = Path(config.path)
        files += sorted((folder / "migrations").glob("*.py"))
        if folder.is_relative_to(ROOT) and "site-packages" not in folder.parts:
            files += sorted(folder.glob("models.py")) + sorted(folder.glob("models/*.py"))
    for path in files + sorted(set(_receiver_sources())):
        # Named within the project (or by file name): two clones of one commit share the copy.
        name = path.relative_to(ROOT) if path.is_relative_to(ROOT) else Path(path.name)
        digest.update(name.as_posix().encode())
        digest.update(path.read_bytes())
    return digest.hexdigest()[:16]


def template_path() -> Path:
    return kept_dir() / f"test-db-{_fingerprint()}.sqlite3"


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
        try:
            with closing(sqlite3.connect(partial)) as kept:
                connection.connection.backup(kept)
            partial.replace(path)  # atomic: a concurrent process reads a whole file or none
        finally:
            partial.unlink(missing_ok=True)
        return result

    migrate.Command.handle = handle
