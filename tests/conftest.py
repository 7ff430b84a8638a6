"""Shared fixtures: users, API clients, query-count helper, Redis and real Celery worker.

Tests that need Redis or a worker skip (with the reason) only when REDIS_URL is unset and we are
not in CI; in CI (``CI=true``) a missing service is a failure, never a skip.
"""

import os
import signal
import subprocess
import sys
import time
import uuid
from pathlib import Path

import pytest
from django.conf import settings
from django.db import connection
from rest_framework.test import APIClient

ROOT = Path(__file__).resolve().parent.parent
IN_CI = os.environ.get("CI", "").lower() in {"1", "true", "yes"}

# Under pytest-xdist (``-n 2``) each test process has its own database (pytest-django names it
# test_<name>_gw0, _gw1…) and here its own Celery queue and cache key prefix in the shared Redis:
# a real worker started by one process never takes another's tasks (they would run against the
# other database), and a purge empties only its own queue. The environment carries both to the
# worker subprocesses.
# Users made by the tests get a fast password hasher (PBKDF2's cost, paid by every user a test
# makes and every login, was a large share of the suite's time); production keeps Django's.
settings.PASSWORD_HASHERS = ["django.contrib.auth.hashers.MD5PasswordHasher"]


def _static_files_scanned_once() -> None:
    """WhiteNoise lists every static file (~190, a stat and headers each) whenever Django
    builds its middleware, and the test client builds the middleware for every client a test
    makes: ~50 ms a client, a tenth of the suite's time. A deployment builds it once per
    process; here the first scan is kept for the test process and handed to the next ones."""
    from whitenoise.middleware import WhiteNoiseMiddleware

    scan = WhiteNoiseMiddleware.add_files_from_finders
    found: dict = {}

    def once(self) -> None:
        if not found:
            scan(self)
            found.update(self.files)
        else:
            self.files.update(found)

    WhiteNoiseMiddleware.add_files_from_finders = once


_static_files_scanned_once()

XDIST_WORKER = os.environ.get("PYTEST_XDIST_WORKER", "")
if XDIST_WORKER:
    from annuminas.celery import app as _celery_app

    settings.CELERY_TASK_DEFAULT_QUEUE = f"{settings.CELERY_TASK_DEFAULT_QUEUE}-{XDIST_WORKER}"
    _celery_app.conf.task_default_queue = settings.CELERY_TASK_DEFAULT_QUEUE
    os.environ["CELERY_TASK_DEFAULT_QUEUE"] = settings.CELERY_TASK_DEFAULT_QUEUE
    _cache = settings.CACHES["default"]
    _cache["KEY_PREFIX"] = f"{_cache.get('KEY_PREFIX') or 'annuminas'}-{XDIST_WORKER}"
    os.environ["CACHE_KEY_PREFIX"] = _cache["KEY_PREFIX"]


@pytest.fixture(scope="session")
def django_db_modify_db_settings(django_db_modify_db_settings_parallel_suffix):
    """Right before the test database is made: an in-memory SQLite one is copied from the
    migrated one a previous process kept (tests/db_template.py) instead of migrated again."""
    from tests.db_template import migrate_from_template

    migrate_from_template()


def _require_redis() -> str:
    url = settings.REDIS_URL
    if not url:
        if IN_CI:
            pytest.fail("REDIS_URL must be set in CI: Redis tests may not be skipped there.")
        pytest.skip("REDIS_URL is unset: this test needs a real Redis (CI sets it).")
    return url


@pytest.fixture
def redis_url() -> str:
    return _require_redis()


@pytest.fixture
def password() -> str:
    return "Correct-Horse-42!"


@pytest.fixture
def make_user(db, password):
    from django.contrib.auth import get_user_model

    def make(username: str | None = None, **extra):
        username = username or f"user-{uuid.uuid4().hex[:8]}"
        return get_user_model().objects.create_user(
            username=username, email=f"{username}@example.com", password=password, **extra
        )

    return make


@pytest.fixture
def user(make_user):
    return make_user("mablung")


@pytest.fixture
def api_client() -> APIClient:
    return APIClient()


@pytest.fixture
def auth_client(user) -> APIClient:
    client = APIClient()
    client.force_authenticate(user)
    return client


@pytest.fixture
def assert_max_queries(django_assert_max_num_queries):
    """``with assert_max_queries(12):`` — fails listing every query when over the bound."""
    return django_assert_max_num_queries


def _worker_env(queue: str) -> dict[str, str]:
    env = dict(os.environ)
    db = settings.DATABASES["default"]
    env["DATABASE_URL"] = (
        f"postgres://{db.get('USER') or 'postgres'}@{db.get('HOST') or '127.0.0.1'}:"
        f"{db.get('PORT') or 5432}/{connection.settings_dict['NAME']}"
    )
    env["REDIS_URL"] = settings.REDIS_URL
    env["CELERY_TASK_DEFAULT_QUEUE"] = queue
    env.pop("DJANGO_ALLOW_ASYNC_UNSAFE", None)
    env["CONN_MAX_AGE"] = "0"
    env["PYTHONPATH"] = str(ROOT)
    return env


class WorkerProcess:
    """A real ``celery worker`` subprocess on its own queue, against the test database;
    ``environment`` overrides what it gets (``CONN_MAX_AGE=60`` keeps connections, as in
    production)."""

    def __init__(self, queue: str, environment: dict[str, str] | None = None):
        self.queue = queue
        self.environment = environment or {}
        self.name = f"test-{uuid.uuid4().hex[:8]}"
        self.process: subprocess.Popen | None = None
        suffix = f"-{XDIST_WORKER}" if XDIST_WORKER else ""
        self.log_path = ROOT / f".pytest-worker{suffix}.log"

    def start(self) -> None:
        from annuminas.celery import app

        self.log = open(self.log_path, "ab")  # noqa: SIM115 - closed in stop()
        self.process = subprocess.Popen(
            [
                sys.executable,
                "-m",
                "celery",
                "-A",
                "annuminas",
                "worker",
                "--pool=solo",
                "--concurrency=1",
                "-Q",
                self.queue,
                "--loglevel=INFO",
                "--without-gossip",
                "--without-mingle",
                "--without-heartbeat",
                "-n",
                f"{self.name}@%h",
            ],
            cwd=ROOT,
            env={**_worker_env(self.queue), **self.environment},
            stdout=self.log,
            stderr=subprocess.STDOUT,
            start_new_session=True,
        )
        deadline = time.monotonic() + 60
        while time.monotonic() < deadline:
            if self.process.poll() is not None:
                raise RuntimeError(f"worker exited early; see {self.log_path}")
            try:
                replies = app.control.inspect(timeout=0.5).ping() or {}
            except Exception:  # broker not ready yet; keep polling
                replies = {}
            if any(name.startswith(f"{self.name}@") for name in replies):
                return
            time.sleep(0.3)
        raise RuntimeError(f"worker did not answer within 60 s; see {self.log_path}")

    def kill(self) -> None:
        """SIGKILL: the worker dies mid-task, as in a crash."""
        if self.process and self.process.poll() is None:
            os.killpg(self.process.pid, signal.SIGKILL)
            self.process.wait(timeout=30)

    def stop(self) -> None:
        if self.process and self.process.poll() is None:
            os.killpg(self.process.pid, signal.SIGTERM)
            try:
                self.process.wait(timeout=30)
            except subprocess.TimeoutExpired:
                self.kill()
        if getattr(self, "log", None):
            self.log.close()


@pytest.fixture
def celery_worker(transactional_db):
    """A real worker on the default queue, against the test database (PostgreSQL + Redis)."""
    _require_redis()
    if connection.vendor != "postgresql":
        if IN_CI:
            pytest.fail("worker tests need PostgreSQL in CI")
        pytest.skip("a real worker needs a shared database server (set DATABASE_URL)")
    from annuminas.celery import app

    app.control.purge()
    worker = WorkerProcess(settings.CELERY_TASK_DEFAULT_QUEUE)
    worker.start()
    try:
        yield worker
    finally:
        worker.stop()


@pytest.fixture(autouse=True)
def _no_sheet_rendering_ahead(request, settings):
    """Roster writes do not render the sheet ahead in tests (every write would pay a render);
    the tests of it ask for ``sheet_warm_on_write``."""
    settings.SHEET_WARM_ON_WRITE = "sheet_warm_on_write" in request.fixturenames


@pytest.fixture
def sheet_warm_on_write():
    """Roster writes render the sheet ahead, as in production."""


@pytest.fixture(autouse=True)
def _celery_in_process(request):
    """Tasks run in-process in tests, even when REDIS_URL is set (CI), except in the tests that
    talk to Redis or start a real worker: those send to the broker."""
    from annuminas.celery import app

    real_broker = {"celery_worker", "redis_url"} & set(request.fixturenames)
    previous = app.conf.task_always_eager
    app.conf.task_always_eager = not real_broker
    yield
    app.conf.task_always_eager = previous


# --- data built once per module ---------------------------------------------------------------
# Building a league through the services (users, warbands hired and joined, a round paired) costs
# a tenth of a second or more, and a module whose fifty tests each build the same league spent
# most of its time there. As Django's ``TestCase.setUpTestData`` does, such a module builds it once
# inside a transaction held open for the module and rolled back after its last test; each test
# still runs inside its own savepoint (pytest-django's ``db``), so what it writes is gone before
# the next test, and gets its own deep copy of the objects:
#
#     @pytest.fixture(scope="module")
#     def _world(module_transaction):
#         with module_transaction:  # the database is reachable while building, not after
#             return build_league(prefix="w-")
#
#     @pytest.fixture
#     def world(_world, fresh):
#         return fresh(_world)
#
# The builder runs before the module's function fixtures, under what every test gets (tasks
# in-process, no sheet rendered ahead) and in the site's default language. Its rows live beside
# what the module's tests build themselves: the names it gives (usernames, campaign names) must
# not clash with theirs.

TRANSACTIONAL_FIXTURES = {
    "transactional_db",
    "live_server",
    "django_db_serialized_rollback",
    "django_db_reset_sequences",
}


def _transactional(item: pytest.Item) -> bool:
    """Whether pytest-django runs ``item`` as a transactional test (it commits or flushes)."""
    marker = item.get_closest_marker("django_db")
    if marker:
        # django_db(transaction=False, reset_sequences=False, databases=None,
        #           serialized_rollback=False, …): positionally or by name.
        named = dict(zip(("transaction", "reset_sequences"), marker.args, strict=False))
        named.update(marker.kwargs)
        if any(named.get(key) for key in ("transaction", "reset_sequences", "serialized_rollback")):
            return True
    return bool(TRANSACTIONAL_FIXTURES & set(getattr(item, "fixturenames", ())))


class ModuleBuilding:
    """``with module_transaction:`` — what a module's builder runs inside: the database
    reachable, tasks in-process, no sheet rendered ahead, the site's default language."""

    def __init__(self, blocker) -> None:
        self.blocker = blocker
        self.restore: list = []

    def __enter__(self) -> "ModuleBuilding":
        from django.test.utils import override_settings
        from django.utils import translation

        from annuminas.celery import app

        self.blocker.unblock()
        eager = app.conf.task_always_eager
        app.conf.task_always_eager = True
        language = translation.override(settings.LANGUAGE_CODE)
        language.__enter__()
        no_warming = override_settings(SHEET_WARM_ON_WRITE=False)
        no_warming.enable()
        self.restore = [
            no_warming.disable,
            lambda: language.__exit__(None, None, None),
            lambda: setattr(app.conf, "task_always_eager", eager),
            self.blocker.restore,
        ]
        return self

    def __exit__(self, *exc) -> None:
        for undo in self.restore:
            undo()
        self.restore = []


@pytest.fixture(scope="module")
def module_transaction(request, django_db_setup, django_db_blocker):
    """A transaction open for the module (rolled back after its last test); ``with`` it, the
    module's builders reach the database. A transactional test (one that commits, flushes or
    migrates) cannot share the module with it: it is refused here, by name."""
    from django.db import transaction

    from warbands.content_loader import content_pack_load

    transactional = [
        item.name
        for item in request.session.items
        if item.module is request.module and _transactional(item)
    ]
    if transactional:
        pytest.fail(
            f"{request.module.__name__} builds data once per module (module_transaction) "
            f"and cannot hold transactional tests; move them to a module of their own: "
            + ", ".join(transactional)
        )
    building = ModuleBuilding(django_db_blocker)
    outer = transaction.atomic()
    outer._from_testcase = True  # as TestCase's own: the services' durable blocks nest in it
    with building:
        # Committed, as tests/warbands/fixtures.py's session fixture does (a no-op after it):
        # loaded inside the transaction, it would be gone for the modules that follow.
        content_pack_load()
        outer.__enter__()
    try:
        yield building
    finally:
        with django_db_blocker.unblock():
            transaction.set_rollback(True)
            outer.__exit__(None, None, None)


@pytest.fixture
def fresh(db, monkeypatch):
    """``fresh(data)``: a deep copy of module-built data for this test, and a cache of its own
    (a cached page names a warband by id, version and creation time, which the module's tests
    share: a page cached by one test would be served to the next that reached the same version
    another way)."""
    import copy

    from annuminas import cache as cache_module

    epoch = f"test-{uuid.uuid4().hex}"
    monkeypatch.setattr(cache_module, "database_epoch", lambda: epoch)
    return copy.deepcopy
