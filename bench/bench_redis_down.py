"""A roster write with Redis gone: how long does the player wait?

Run from the project root after ``bench/bench_load.py`` has seeded its database (PostgreSQL and
Redis at 127.0.0.1):

    .venv/bin/python bench/bench_redis_down.py [--writes 60]

Every roster write queues the sheet's rendering ahead after its commit (and other writes queue
other follow-up work): with Redis unreachable, that send used to wait 6 s in the request, after
every write. Three runs of gunicorn as configured (gunicorn.conf.py, one process), each with
Redis as the cache and the broker: up; down (nothing listens at its address: connections are
refused); frozen (a server that accepts connections and never answers). In each, one player
signs in and makes ``--writes`` roster writes one after the other through the API (buying a
dagger for his leader, then selling it); printed: the first write's time, p50, p95 and max, and
errors. The first write meets the outage; the circuit breaker (``BROKER_RETRY_AFTER``) spares
the next ones.
"""

from __future__ import annotations

import argparse
import os
import socket
import statistics
import subprocess
import threading
import time

from bench_load import DATABASE_URL, ROOT, Player, database_exists_and_seeded, players

SCENARIOS = ("up", "down", "frozen")


def frozen_redis() -> int:
    """A TCP server that accepts and never answers; its port."""
    listener = socket.create_server(("127.0.0.1", 0))
    held = []

    def accept() -> None:
        while True:
            held.append(listener.accept()[0])

    threading.Thread(target=accept, daemon=True).start()
    return listener.getsockname()[1]


def serve(redis_url: str, port: int) -> subprocess.Popen:
    env = {
        **os.environ,
        "DATABASE_URL": DATABASE_URL,
        "REDIS_URL": redis_url,
        "DEBUG": "false",
        "SECRET_KEY": "bench-redis-down-" + "k" * 50,
        "WEB_BIND": f"127.0.0.1:{port}",
        "WEB_WORKERS": "1",
        "WEB_THREADS": "4",
        "ALLOWED_HOSTS": "127.0.0.1",
        "LOG_LEVEL": "ERROR",
    }
    server = subprocess.Popen(  # noqa: S603 - fixed command line
        [str(ROOT / ".venv" / "bin" / "gunicorn"), "-c", "gunicorn.conf.py",
         "annuminas.wsgi:application"],
        cwd=ROOT, env=env, stderr=subprocess.DEVNULL,
    )  # fmt: skip
    for _ in range(100):
        try:
            socket.create_connection(("127.0.0.1", port), timeout=0.2).close()
            return server
        except OSError:
            time.sleep(0.2)
    raise SystemExit("gunicorn did not start")


def run(scenario: str, args, ids: dict) -> str:
    url = {
        "up": f"redis://127.0.0.1:6379/{args.redis_db}",
        "down": "redis://127.0.0.1:1/0",
        "frozen": f"redis://127.0.0.1:{frozen_redis()}/0",
    }[scenario]
    server = serve(url, args.port)
    try:
        player = Player(args.port, ids)
        player.login()
        times, errors = [], 0
        for _ in range(args.writes):
            started = time.perf_counter()
            status = player.act("roster write")
            times.append((time.perf_counter() - started) * 1000)
            errors += status not in (200, 201)
    finally:
        server.terminate()
        server.wait(timeout=30)
    ordered = sorted(times)
    p95 = ordered[min(len(ordered) - 1, int(0.95 * len(ordered)))]
    return (
        f"| Redis {scenario} | {times[0]:.0f} | {statistics.median(times):.0f} | {p95:.0f} | "
        f"{max(times):.0f} | {errors} |"
    )


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--writes", type=int, default=60)
    parser.add_argument("--port", type=int, default=8767)
    parser.add_argument("--redis-db", type=int, default=6)
    args = parser.parse_args()
    os.environ.update(DATABASE_URL=DATABASE_URL, DJANGO_SETTINGS_MODULE="annuminas.settings",
                      DEBUG="true")  # fmt: skip
    os.environ.pop("REDIS_URL", None)
    if not database_exists_and_seeded():
        raise SystemExit("run bench/bench_load.py first (it seeds the database)")
    ids = players()[0]
    print(f"{args.writes} roster writes, one after the other (ms)\n")
    print("| Redis | first write | p50 | p95 | max | errors |")
    print("|---|---:|---:|---:|---:|---:|")
    for scenario in SCENARIOS:
        print(run(scenario, args, ids), flush=True)


if __name__ == "__main__":
    main()
