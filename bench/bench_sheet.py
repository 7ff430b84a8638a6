"""Requests per second of the Hoja de Control de Banda (page and ``/sheet/`` API), warm and cold,
under gunicorn on PostgreSQL, next to a bare Django JSON view, all in one interleaved run.

Run from the project root (PostgreSQL at 127.0.0.1; the database is created if missing):

    .venv/bin/python bench/bench_sheet.py [--duration 20] [--slice 1] [--concurrency 4]

It migrates the database, loads the Annúminas pack, builds a warband of 15 warriors (leader,
two heroes, three henchman groups, equipment, a stash item), starts gunicorn with
``warbands.bench_settings`` (the project's settings plus two floors only the bench mounts: a
bare JSON view, and a JSON view that checks who asks and reads the warband's version — the
three queries a warm sheet runs — and nothing else), then drives each measure with
``--concurrency`` client threads (a new connection per request, as gunicorn's sync workers
close them). The measures take turns in slices of
``--slice`` seconds until each has had ``--duration`` seconds, so a neighbour's load on shared
cores falls on all of them alike; the ratios are the result, the absolute numbers are not.

"Cold" renders from the database: before each of its requests the client bumps the warband's
``version`` in SQL (as every roster write does, but without the services' rendering ahead).
"After a write" (one client, one view at a time, so the write's own work does not compete with
the view) is what a player gets: before each view the client writes through the roster
service (``warband_update`` of the notes, in the bench's own process), whose commit queues the
sheet's rendering ahead (``warbands.sheet_warm``, run in-process here: the bench sets
``CELERY_TASK_ALWAYS_EAGER``) into the shared cache (Redis db 7), so the view that follows finds
it ready. The write's own time is not in the view's figures.
"""

from __future__ import annotations

import argparse
import http.client
import os
import pathlib
import signal
import statistics
import subprocess
import sys
import threading
import time
from urllib.parse import urlparse

ROOT = pathlib.Path(__file__).resolve().parents[1]
sys.path.insert(0, str(ROOT))
DEFAULT_DATABASE_URL = "postgres://postgres@127.0.0.1:5432/annuminas_bench"


def ensure_database(url: str) -> None:
    import psycopg

    parsed = urlparse(url)
    name = parsed.path.lstrip("/")
    admin = parsed._replace(path="/postgres").geturl()
    with psycopg.connect(admin, autocommit=True) as connection:
        exists = connection.execute(
            "SELECT 1 FROM pg_database WHERE datname = %s", (name,)
        ).fetchone()
        if not exists:
            connection.execute(f'CREATE DATABASE "{name}"')


def seed() -> tuple[int, str]:
    """A 15-warrior warband for a bench user; returns (warband id, session cookie value)."""
    import django

    django.setup()
    from django.contrib.auth import (
        BACKEND_SESSION_KEY,
        HASH_SESSION_KEY,
        SESSION_KEY,
        get_user_model,
    )
    from django.contrib.sessions.backends.db import SessionStore

    from warbands import constraints, services
    from warbands.content_loader import content_pack_load
    from warbands.models import Equipment, FighterType, WarbandType

    content_pack_load()
    # The bench measures reads; house rules of other apps play no part in building its roster.
    constraints._validators.clear()
    user, _created = get_user_model().objects.get_or_create(username="bench-player")
    user.warbands.all().delete()
    warband = services.warband_create(
        owner=user,
        warband_type=WarbandType.objects.get(slug="mercenarios-de-rhovanion"),
        name="Banda de prueba de carga",
    )
    services.ledger_record(warband=warband, amount=5000, reason="adjustment", description="bench")
    types = {ft.slug: ft for ft in FighterType.objects.filter(warband_type=warband.warband_type)}
    items = {item.slug: item for item in Equipment.objects.all()}
    for slug, name in (
        ("capitan-mercenario", "Capitán"),
        ("campeon-mercenario", "Campeón"),
        ("joven-mercenario", "Joven"),
    ):
        hero = services.fighter_hire(warband=warband, fighter_type=types[slug], name=name)
        for item in ("daga", "espada", "armadura-ligera"):
            services.equipment_buy(warband=warband, equipment=items[item], fighter=hero)
    for number, (slug, count) in enumerate(
        (("guerrero-mercenario", 5), ("tirador-mercenario", 5), ("espadachin", 2)), start=1
    ):
        group = services.fighter_hire(
            warband=warband, fighter_type=types[slug], name=f"Grupo {number}", count=count
        )
        for item in ("daga", "lanza" if slug != "tirador-mercenario" else "arco"):
            services.equipment_buy(warband=warband, equipment=items[item], group=group)
    services.equipment_buy(warband=warband, equipment=items["escudo"])
    session = SessionStore()
    session[SESSION_KEY] = str(user.pk)
    session[BACKEND_SESSION_KEY] = "django.contrib.auth.backends.ModelBackend"
    session[HASH_SESSION_KEY] = user.get_session_auth_hash()
    session.create()
    return warband.pk, session.session_key


# A browser keeps its CSRF cookie between pages: so does the bench (32 letters, Django's format).
CSRF_SECRET = "benchbenchbenchbenchbenchbench01"  # noqa: S105 - not a secret


def get(port: int, path: str, cookie: str) -> int:
    connection = http.client.HTTPConnection("127.0.0.1", port, timeout=30)
    connection.request(
        "GET", path, headers={"Cookie": f"sessionid={cookie}; csrftoken={CSRF_SECRET}"}
    )
    response = connection.getresponse()
    response.read()
    connection.close()
    return response.status


def version_bumper(warband_id: int):
    """A function that writes a new version of the warband, as a roster write does (one
    connection per client thread)."""
    import psycopg

    local = threading.local()

    def bump() -> None:
        if not hasattr(local, "connection"):
            local.connection = psycopg.connect(os.environ["DATABASE_URL"], autocommit=True)
        local.connection.execute(
            "UPDATE warbands_warband SET version = version + 1 WHERE id = %s", (warband_id,)
        )

    return bump


def service_writer(warband_id: int):
    """A function that writes the warband through its roster service, as a player's edit does
    (the services render the sheet ahead once the write commits)."""
    from django.db import close_old_connections

    from warbands import services
    from warbands.models import Warband

    counter = iter(range(10**9))

    def write() -> None:
        close_old_connections()
        warband = Warband.objects.get(pk=warband_id)
        services.warband_update(
            warband=warband, expected_version=None, notes=f"bench {next(counter)}"
        )

    return write


def measure_slice(port, path, cookie, duration, concurrency, before=None) -> tuple:
    """``duration`` seconds of requests: (latencies, errors, elapsed)."""
    latencies: list[float] = []
    errors = 0
    lock = threading.Lock()
    deadline = time.perf_counter() + duration

    def worker():
        nonlocal errors
        mine, bad = [], 0
        while time.perf_counter() < deadline:
            if before is not None:
                before()
            start = time.perf_counter()
            status = get(port, path, cookie)
            mine.append(time.perf_counter() - start)
            bad += status != 200
        with lock:
            latencies.extend(mine)
            errors += bad

    started = time.perf_counter()
    threads = [threading.Thread(target=worker) for _ in range(concurrency)]
    for thread in threads:
        thread.start()
    for thread in threads:
        thread.join()
    return latencies, errors, time.perf_counter() - started


def measure_views(port, cookie, page_path, api_path, bump, write, count) -> dict:
    """One client, one view at a time (nothing else running): the view's latency when warm,
    right after a write through the service (rendered ahead), and right after a bare version
    bump (rendered from the database), in turns of ten."""
    kinds = {"warm": None, "after a write": write, "from the database": bump}
    latencies = {(path, kind): [] for path in (page_path, api_path) for kind in kinds}
    for _turn in range(max(1, count // 10)):
        for path, kind in latencies:
            for _ in range(10):
                if kinds[kind] is not None:
                    kinds[kind]()
                start = time.perf_counter()
                status = get(port, path, cookie)
                latencies[(path, kind)].append(time.perf_counter() - start)
                if status != 200:
                    sys.exit(f"{path} answered {status}")
    return {
        ("page" if path == page_path else "API", kind): statistics.median(values) * 1000
        for (path, kind), values in latencies.items()
    }


def measure_interleaved(port, measures, cookie, duration, slice_seconds, concurrency) -> dict:
    """Every measure in turn, ``slice_seconds`` at a time, until each had ``duration``."""
    totals = {name: ([], 0, 0.0) for name in measures}
    for _round in range(max(1, round(duration / slice_seconds))):
        for name, (path, before) in measures.items():
            latencies, errors, elapsed = measure_slice(
                port, path, cookie, slice_seconds, concurrency, before
            )
            seen, bad, spent = totals[name]
            totals[name] = (seen + latencies, bad + errors, spent + elapsed)
    results = {}
    for name, (latencies, errors, elapsed) in totals.items():
        latencies.sort()
        results[name] = {
            "requests": len(latencies),
            "rps": len(latencies) / elapsed,
            "p50_ms": statistics.median(latencies) * 1000,
            "p95_ms": latencies[int(len(latencies) * 0.95) - 1] * 1000,
            "errors": errors,
        }
    return results


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    parser.add_argument("--duration", type=float, default=20.0, help="seconds per measure")
    parser.add_argument("--slice", type=float, default=1.0, help="seconds per turn")
    parser.add_argument("--concurrency", type=int, default=4)
    parser.add_argument("--workers", type=int, default=2)
    parser.add_argument("--port", type=int, default=8765)
    parser.add_argument("--views", type=int, default=150, help="single views per kind")
    args = parser.parse_args()

    os.environ.setdefault("DATABASE_URL", DEFAULT_DATABASE_URL)
    os.environ["DJANGO_SETTINGS_MODULE"] = "warbands.bench_settings"
    os.environ["DEBUG"] = "false"  # production behaviour (templates cached, no query log)
    os.environ.setdefault("SECRET_KEY", "bench-only-" + "x" * 50)  # a local, throwaway server
    # A cache the workers share (the sheet rendered ahead by a write is seen by both), tasks run
    # in the process that queued them (no worker to start).
    os.environ.setdefault("REDIS_URL", "redis://127.0.0.1:6379/7")
    os.environ["CELERY_TASK_ALWAYS_EAGER"] = "true"
    if not os.environ["DATABASE_URL"].startswith("postgres"):
        sys.exit("bench_sheet measures PostgreSQL: set DATABASE_URL=postgres://…")
    ensure_database(os.environ["DATABASE_URL"])
    subprocess.run(
        [sys.executable, "manage.py", "migrate", "--noinput", "-v0"], cwd=ROOT, check=True
    )
    warband_id, cookie = seed()

    gunicorn = subprocess.Popen(
        [
            sys.executable,
            "-m",
            "gunicorn",
            "annuminas.wsgi",
            "--workers",
            str(args.workers),
            "--bind",
            f"127.0.0.1:{args.port}",
            "--log-level",
            "warning",
        ],
        cwd=ROOT,
        env={**os.environ, "LOG_LEVEL": "WARNING"},
        start_new_session=True,
    )
    bare_path = "/bench/bare-json/"
    floor_path = f"/bench/owner-version/{warband_id}/"
    page_path = f"/warbands/{warband_id}/"
    api_path = f"/api/v1/warbands/{warband_id}/sheet/"
    bump = version_bumper(warband_id)
    write = service_writer(warband_id)
    measures = {
        "bare Django JSON view": (bare_path, None),
        "owner + version floor": (floor_path, None),
        "sheet page, warm": (page_path, None),
        "sheet page, cold": (page_path, bump),
        "API /sheet/, warm": (api_path, None),
        "API /sheet/, cold": (api_path, bump),
    }
    try:
        deadline = time.monotonic() + 30
        while True:
            try:
                if get(args.port, bare_path, cookie) == 200:
                    break
            except OSError:
                pass
            if time.monotonic() > deadline or gunicorn.poll() is not None:
                sys.exit("gunicorn did not start")
            time.sleep(0.2)
        for path in (bare_path, floor_path, page_path, api_path):
            status = get(args.port, path, cookie)
            if status != 200:
                sys.exit(f"{path} answered {status}")
            for _ in range(30):  # warm up every worker's connection and caches
                get(args.port, path, cookie)
        results = measure_interleaved(
            args.port, measures, cookie, args.duration, args.slice, args.concurrency
        )
        views = measure_views(args.port, cookie, page_path, api_path, bump, write, args.views)
    finally:
        if gunicorn.poll() is None:
            os.killpg(gunicorn.pid, signal.SIGTERM)
        gunicorn.wait(timeout=30)

    print(
        f"gunicorn {args.workers} sync workers · {args.concurrency} client threads · "
        f"{args.duration:g} s per measure in {args.slice:g} s turns · PostgreSQL · 15 warriors"
    )
    print(f"| {'measure':<26} | req/s | p50 ms | p95 ms | vs bare | errors |")
    print(f"|{'-' * 28}|------:|-------:|-------:|--------:|-------:|")
    bare = results["bare Django JSON view"]["rps"]
    for name, row in results.items():
        print(
            f"| {name:<26} | {row['rps']:5.0f} | {row['p50_ms']:6.1f} | {row['p95_ms']:6.1f} "
            f"| {row['rps'] / bare:7.3f} | {row['errors']:6d} |"
        )
    floor = results["owner + version floor"]["rps"]
    for kind, name in (("page", "sheet page"), ("API", "API /sheet/")):
        warm_rps = results[f"{name}, warm"]["rps"]
        cold_rps = results[f"{name}, cold"]["rps"]
        print(
            f"{kind}: warm / bare {warm_rps / bare:.3f} (target ≥ 0.5) · "
            f"warm / owner + version floor {warm_rps / floor:.3f} · "
            f"rendered from the database / warm {cold_rps / warm_rps:.3f}"
        )
    print()
    print("One client, one view at a time: median latency of the view (ms)")
    print("| view | warm | after a write | from the database | warm / after a write |")
    print("|---|---:|---:|---:|---:|")
    for kind in ("page", "API"):
        warm, after, cold = (
            views[(kind, name)] for name in ("warm", "after a write", "from the database")
        )
        print(f"| {kind} | {warm:.1f} | {after:.1f} | {cold:.1f} | {warm / after:.2f} |")
    print("(target: the first view after a write ≥ 0.25 of a warm one, i.e. ratio ≥ 0.25)")


if __name__ == "__main__":
    main()
