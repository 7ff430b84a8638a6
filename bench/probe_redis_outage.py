"""Redis stopped for a moment under a running site: what do players and apps get?

Run from the project root (PostgreSQL at 127.0.0.1, trust auth; ``redis-server`` on the PATH):

    .venv/bin/python bench/probe_redis_outage.py [--seconds 20]

It starts a throw-away ``redis-server`` on port 6391 (nothing kept on disk), makes its own
database ``annuminas_probe_redis`` (migrated, content pack loaded, a player with a warband and an
API token), serves the app with gunicorn (2 workers) against both, and sends the same mix of
requests in three phases — Redis up, Redis stopped (SIGKILL), Redis started again — counting the
answers by status. The mix is what broke before: the login page and a
failed login, the token endpoint, anonymous and authenticated API reads, an API write (a
rename), the API sheet and the sheet page. A 5xx other than a 503 in the error shape is a
failure; the last phase also reports how long the site took to answer everything as usual.
"""

from __future__ import annotations

import argparse
import collections
import http.client
import json
import os
import pathlib
import signal
import subprocess
import sys
import tempfile
import time

ROOT = pathlib.Path(__file__).resolve().parents[1]
sys.path.insert(0, str(ROOT))
DB_NAME = "annuminas_probe_redis"
DATABASE_URL = f"postgres://postgres@127.0.0.1:5432/{DB_NAME}"
REDIS_PORT = 6391
REDIS_URL = f"redis://127.0.0.1:{REDIS_PORT}/0"
PORT = 8766
PASSWORD = "sondeo-pass-1234"  # noqa: S105 - a throw-away user of a throw-away database


def database_recreate() -> None:
    import psycopg

    with psycopg.connect("postgresql://postgres@127.0.0.1:5432/postgres", autocommit=True) as db:
        db.execute(f'DROP DATABASE IF EXISTS "{DB_NAME}"')
        db.execute(f'CREATE DATABASE "{DB_NAME}"')


def redis_start(workdir: str) -> subprocess.Popen:
    server = subprocess.Popen(
        ["redis-server", "--port", str(REDIS_PORT), "--bind", "127.0.0.1", "--save", "",
         "--appendonly", "no", "--dir", workdir],
        stdout=subprocess.DEVNULL,
    )  # fmt: skip
    for _ in range(50):
        try:
            http.client.HTTPConnection("127.0.0.1", REDIS_PORT, timeout=0.2).connect()
            return server
        except OSError:
            time.sleep(0.1)
    sys.exit("redis-server did not start")


def seed() -> dict:
    """A player, his warband and token (written with Redis up, tasks queued and never run)."""
    import django

    django.setup()
    from django.contrib.auth import get_user_model
    from rest_framework.authtoken.models import Token

    from warbands import services
    from warbands.content_loader import content_pack_load
    from warbands.models import WarbandType

    content_pack_load()
    user = get_user_model().objects.create_user("sondeo", password=PASSWORD)
    warband = services.warband_create(
        owner=user,
        warband_type=WarbandType.objects.get(slug="mercenarios-de-rhovanion"),
        name="Banda de sondeo",
    )
    token = Token.objects.create(user=user).key
    return {"warband": warband.pk, "token": token}


def request(method: str, path: str, *, token: str = "", body: dict | None = None) -> int:
    connection = http.client.HTTPConnection("127.0.0.1", PORT, timeout=30)
    headers = {"Content-Type": "application/json"}
    if token:
        headers["Authorization"] = f"Token {token}"
    connection.request(method, path, body=json.dumps(body) if body else None, headers=headers)
    response = connection.getresponse()
    content = response.read()
    connection.close()
    if response.status >= 500 and response.status != 503:
        print(f"  {response.status} {method} {path}: {content[:200]!r}")
    if response.status == 503 and path.startswith("/api/"):
        assert "error" in json.loads(content), content[:200]  # the error shape
    return response.status


def one_round(data: dict, counter: collections.Counter, number: int) -> bool:
    """The mix once; True when every answer was the usual one (200, and 400 for the bad
    login). A 503 of the site's own pages counts as a failure too: only /healthz may say it."""
    token, warband = data["token"], data["warband"]
    answers = [
        request("GET", "/accounts/login/"),
        request("POST", "/api/v1/auth/token/", body={"username": "sondeo", "password": "x"}),
        request("POST", "/api/v1/auth/token/",
                body={"username": "sondeo", "password": PASSWORD}),
        request("GET", "/api/v1/catalogue/warband-types/"),
        request("GET", "/api/v1/warbands/", token=token),
        request("PATCH", f"/api/v1/warbands/{warband}/", token=token,
                body={"notes": f"ronda {number}", "version": version(warband, token)}),
        request("GET", f"/api/v1/warbands/{warband}/sheet/", token=token),
    ]  # fmt: skip
    health = request("GET", "/healthz")  # 503 while Redis is down: it says so, rightly
    counter.update([*answers, f"healthz {health}"])
    return answers == [200, 400, 200, 200, 200, 200, 200]


def version(warband: int, token: str) -> int:
    connection = http.client.HTTPConnection("127.0.0.1", PORT, timeout=30)
    connection.request(
        "GET", f"/api/v1/warbands/{warband}/", headers={"Authorization": f"Token {token}"}
    )
    response = connection.getresponse()
    body = json.loads(response.read())
    connection.close()
    return body["version"]


def phase(name: str, data: dict, seconds: float, number: list[int]) -> tuple:
    counter: collections.Counter = collections.Counter()
    started = time.monotonic()
    first_usual = None
    rounds = 0
    while time.monotonic() - started < seconds:
        number[0] += 1
        rounds += 1
        if one_round(data, counter, number[0]) and first_usual is None:
            first_usual = time.monotonic() - started
    return name, rounds, counter, first_usual


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    parser.add_argument("--seconds", type=float, default=20.0, help="seconds per phase")
    args = parser.parse_args()
    os.environ.update(
        DATABASE_URL=DATABASE_URL,
        REDIS_URL=REDIS_URL,
        DJANGO_SETTINGS_MODULE="annuminas.settings",
        DEBUG="false",
        SECRET_KEY="probe-only-" + "r" * 50,
        SHEET_WARM_ON_WRITE="false",  # no worker here: nothing would run the queued renders
        LOGIN_FAILED_RATE_LIMIT="1000/m/ip,1000/m/key",
        # The probe is not about rate limits (with Redis down they fail open anyway).
        THROTTLE_AUTH="100000/minute",
        THROTTLE_WRITES="100000/minute",
        THROTTLE_ANON="100000/minute",
    )
    workdir = tempfile.mkdtemp(prefix="annuminas-probe-redis-")
    redis = redis_start(workdir)
    database_recreate()
    subprocess.run([sys.executable, "manage.py", "migrate", "--noinput", "-v0"], cwd=ROOT,
                   check=True)  # fmt: skip
    data = seed()
    gunicorn = subprocess.Popen(
        [sys.executable, "-m", "gunicorn", "annuminas.wsgi", "--workers", "2", "--bind",
         f"127.0.0.1:{PORT}", "--timeout", "60", "--log-level", "warning"],
        cwd=ROOT, start_new_session=True,
    )  # fmt: skip
    number = [0]
    results = []
    try:
        for _ in range(100):
            try:
                if request("GET", "/healthz") in (200, 503):
                    break
            except OSError:
                time.sleep(0.2)
        results.append(phase("Redis up", data, args.seconds, number))
        redis.send_signal(signal.SIGKILL)
        redis.wait()
        results.append(phase("Redis stopped", data, args.seconds, number))
        redis = redis_start(workdir)
        results.append(phase("Redis started again", data, args.seconds, number))
    finally:
        os.killpg(gunicorn.pid, signal.SIGTERM)
        gunicorn.wait(timeout=30)
        redis.terminate()
        redis.wait()

    failures = 0
    print("| phase | rounds | requests | answers by status | first usual round after |")
    print("|---|---:|---:|---|---:|")
    for name, rounds, counter, first_usual in results:
        failures += sum(
            n for status, n in counter.items() if isinstance(status, int) and status >= 500
        )
        statuses = ", ".join(f"{status}: {n}" for status, n in sorted(counter.items(), key=str))
        after = f"{first_usual:.1f} s" if first_usual is not None else "never"
        print(f"| {name} | {rounds} | {sum(counter.values())} | {statuses} | {after} |")
    print(f"5xx answers of the site's pages and API (healthz apart): {failures}")
    sys.exit(1 if failures else 0)


if __name__ == "__main__":
    main()
