"""Requests per second of the Hoja de Control de Banda (page and ``/sheet/`` API) under
gunicorn on PostgreSQL, next to a bare Django JSON view in the same run.

Run from the project root (PostgreSQL at 127.0.0.1; the database is created if missing):

    .venv/bin/python bench/bench_sheet.py [--duration 10] [--concurrency 4] [--workers 2]

It migrates the database, loads the Annúminas pack, builds a warband of 15 warriors (leader,
two heroes, three henchman groups, equipment, a stash item), starts gunicorn with
``warbands.bench_settings`` (the project's settings plus a bare JSON view only the bench
mounts), then drives each URL with ``--concurrency`` client threads for ``--duration`` seconds
(a new connection per request, as gunicorn's sync workers close them) and prints a table.
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


def measure(port: int, path: str, cookie: str, duration: float, concurrency: int) -> dict:
    latencies: list[float] = []
    errors = 0
    lock = threading.Lock()
    deadline = time.perf_counter() + duration

    def worker():
        nonlocal errors
        mine, bad = [], 0
        while time.perf_counter() < deadline:
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
    elapsed = time.perf_counter() - started
    latencies.sort()
    return {
        "requests": len(latencies),
        "rps": len(latencies) / elapsed,
        "p50_ms": statistics.median(latencies) * 1000,
        "p95_ms": latencies[int(len(latencies) * 0.95) - 1] * 1000,
        "errors": errors,
    }


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    parser.add_argument("--duration", type=float, default=10.0)
    parser.add_argument("--concurrency", type=int, default=4)
    parser.add_argument("--workers", type=int, default=2)
    parser.add_argument("--port", type=int, default=8765)
    args = parser.parse_args()

    os.environ.setdefault("DATABASE_URL", DEFAULT_DATABASE_URL)
    os.environ["DJANGO_SETTINGS_MODULE"] = "warbands.bench_settings"
    os.environ["DEBUG"] = "false"
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
    urls = {
        "bare Django JSON view": "/bench/bare-json/",
        "sheet page (HTML)": f"/warbands/{warband_id}/",
        "/api/v1/warbands/{id}/sheet/": f"/api/v1/warbands/{warband_id}/sheet/",
    }
    try:
        deadline = time.monotonic() + 30
        while True:
            try:
                if get(args.port, urls["bare Django JSON view"], cookie) == 200:
                    break
            except OSError:
                pass
            if time.monotonic() > deadline or gunicorn.poll() is not None:
                sys.exit("gunicorn did not start")
            time.sleep(0.2)
        for path in urls.values():
            status = get(args.port, path, cookie)
            if status != 200:
                sys.exit(f"{path} answered {status}")
            for _ in range(30):  # warm up every worker's connection and caches
                get(args.port, path, cookie)
        results = {
            name: measure(args.port, path, cookie, args.duration, args.concurrency)
            for name, path in urls.items()
        }
    finally:
        if gunicorn.poll() is None:
            os.killpg(gunicorn.pid, signal.SIGTERM)
        gunicorn.wait(timeout=30)

    bare = results["bare Django JSON view"]["rps"]
    print(
        f"gunicorn {args.workers} sync workers · {args.concurrency} client threads · "
        f"{args.duration:g} s per URL · PostgreSQL · 15 warriors"
    )
    print(f"| {'endpoint':<32} | req/s | p50 ms | p95 ms | vs bare | errors |")
    print(f"|{'-' * 34}|------:|-------:|-------:|--------:|-------:|")
    for name, row in results.items():
        print(
            f"| {name:<32} | {row['rps']:5.0f} | {row['p50_ms']:6.1f} | {row['p95_ms']:6.1f} "
            f"| {row['rps'] / bare:7.2f} | {row['errors']:6d} |"
        )


if __name__ == "__main__":
    main()
