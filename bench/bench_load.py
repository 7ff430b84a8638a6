"""Fifty players at once: the site as deployed (gunicorn with gunicorn.conf.py, a Celery worker,
PostgreSQL and Redis) under a mix of sheet and campaign reads, roster writes and battle-log
appends, after all fifty log in at the same moment.

Run from the project root (PostgreSQL and Redis at 127.0.0.1, trust auth):

    .venv/bin/python bench/bench_load.py [--duration 300] [--clients 50]
        [--worker-class gthread --workers 4 --threads 2] [--fresh]

Set-up (skipped when its database is already seeded, unless ``--fresh``): the database
``annuminas_bench_load`` migrated, the content pack loaded, fifty players, each with a warband
(a leader and three henchmen), all in one running league whose first round is paired (25
battles), each battle's table set up through the API. Then it starts a Celery worker (prefork,
concurrency 2, as compose) and gunicorn — the configuration under test; the default is the
project's — on the bench's own Redis database, and:

1. **Logins**: every client loads the login page and signs in through the form, all at once
   (each password check is a deliberate ~0.3 s of CPU: fifty of them queue on two cores).
2. **The mix**, for ``--duration`` seconds. Each client repeats: a pause of 0.5–1.5 s (a player
   looks at the phone), then one of — its sheet page (30 %), its sheet from the API (10 %), the
   league's page (15 %), its standings (10 %), a roster write through the API (15 %: buying a
   dagger for the leader, then selling it), a note appended to its battle's log through the API
   (10 %, both players of a battle writing to the same log), or the table's live poll
   (10 %). Connections are kept alive, cookies and CSRF handled as a browser does.

An error is any answer other than the expected 2xx/3xx, a timeout (60 s) or a broken
connection; a player whose login failed signs in again before the mix (counted apart). Printed:
per kind and overall, count, errors, p50, p95, p99 and max; the logins apart; the load average
at the start and the end (the bench's own clients, the worker, PostgreSQL and Redis share the
cores with gunicorn — as on a one-box deployment).
"""

from __future__ import annotations

import argparse
import http.client
import json
import os
import pathlib
import random
import re
import statistics
import subprocess
import sys
import threading
import time
import uuid
from collections import Counter, defaultdict
from urllib.parse import urlencode

ROOT = pathlib.Path(__file__).resolve().parents[1]
sys.path.insert(0, str(ROOT))
DATABASE = "annuminas_bench_load"
DATABASE_URL = f"postgres://postgres@127.0.0.1:5432/{DATABASE}"
PASSWORD = "carga-bench-1234"  # noqa: S105 - a throw-away user of a throw-away database
LEAGUE = "liga-de-carga"
MIX = (
    ("sheet page", 30),
    ("sheet API", 10),
    ("league page", 15),
    ("standings", 10),
    ("roster write", 15),
    ("log append", 10),
    ("table poll", 10),
)


# --- set-up (in this process, through the services and the API) -------------------------------


def database_exists_and_seeded() -> bool:
    import psycopg

    with psycopg.connect("postgresql://postgres@127.0.0.1:5432/postgres", autocommit=True) as db:
        if not db.execute("SELECT 1 FROM pg_database WHERE datname = %s", (DATABASE,)).fetchone():
            return False
    with psycopg.connect(DATABASE_URL) as db:
        try:
            row = db.execute(
                "SELECT count(*) FROM auth_user WHERE username LIKE 'carga-%%'"
            ).fetchone()
        except psycopg.errors.UndefinedTable:
            return False
    return row[0] >= 50


def database_recreate() -> None:
    import psycopg

    with psycopg.connect("postgresql://postgres@127.0.0.1:5432/postgres", autocommit=True) as db:
        db.execute(f'DROP DATABASE IF EXISTS "{DATABASE}"')
        db.execute(f'CREATE DATABASE "{DATABASE}"')


def seed(players: int) -> None:
    import django

    django.setup()
    from django.contrib.auth import get_user_model
    from django.contrib.auth.hashers import make_password
    from django.core.management import call_command
    from django.test import Client

    from battles.campaigns import services
    from battles.models import Campaign, Round
    from warbands import services as roster
    from warbands.content_loader import content_pack_load
    from warbands.models import WarbandType

    call_command("migrate", "--noinput", verbosity=0)
    content_pack_load()
    users = get_user_model()
    password = make_password(PASSWORD)  # one hash for all: set-up need not pay fifty
    organiser = users.objects.create(username="carga-organiser", password=password)
    campaign = services.campaign_create(
        organiser=organiser, name="Liga de carga", house_rules={"max_fighter_type_copies": None}
    )
    services.campaign_transition(campaign=campaign, by=organiser, state=Campaign.State.OPEN)
    kind = WarbandType.objects.get(slug="mercenarios-de-rhovanion")
    leader = kind.fighter_types.get(role="leader")
    soldier = kind.fighter_types.filter(role="henchman").order_by("cost", "pk").first()
    for number in range(players):
        player = users.objects.create(username=f"carga-{number:02d}", password=password)
        warband = roster.warband_create(owner=player, warband_type=kind, name=f"Banda {number}")
        roster.fighter_hire(warband=warband, fighter_type=leader, name=f"Capitán {number}")
        roster.fighter_hire(warband=warband, fighter_type=soldier, name="Guerreros", count=3)
        services.campaign_join(
            campaign=campaign, user=player, warband=warband, join_code=campaign.join_code
        )
    services.campaign_transition(campaign=campaign, by=organiser, state=Campaign.State.RUNNING)
    round = services.round_open(campaign=campaign, by=organiser)
    services.pairings_generate(round=round, by=organiser, method=Round.Method.SWISS)
    for battle in round.battles.filter(is_bye=False).select_related():
        first = battle.participants.order_by("pk").first()
        client = Client()
        client.force_login(first.warband.owner)
        answer = client.post(
            f"/api/v1/battles/{battle.pk}/setup/",
            {"client_id": str(uuid.uuid4()), "first": first.warband_id, "scenario": "Escaramuza"},
            content_type="application/json",
        )
        assert answer.status_code == 201, answer.content[:300]


def players() -> list[dict]:
    """Each player's ids: warband, leader, battle."""
    import django

    django.setup()
    from battles.models import BattleParticipant
    from warbands.models import Equipment, Fighter

    dagger = Equipment.objects.get(slug="daga").pk
    rows = []
    leaders = Fighter.objects.filter(is_leader=True, warband__owner__username__startswith="carga-")
    for fighter in leaders.select_related("warband__owner").order_by("warband__owner__username"):
        battle = (
            BattleParticipant.objects.filter(warband=fighter.warband, battle__is_bye=False)
            .values_list("battle_id", flat=True)
            .first()
        )
        rows.append(
            {
                "username": fighter.warband.owner.username,
                "warband": fighter.warband_id,
                "leader": fighter.pk,
                "battle": battle,
                "dagger": dagger,
            }
        )
    return rows


# --- the site under test -----------------------------------------------------------------------


def start_site(args) -> tuple[subprocess.Popen, subprocess.Popen]:
    env = {
        **os.environ,
        "DATABASE_URL": DATABASE_URL,
        "REDIS_URL": f"redis://127.0.0.1:6379/{args.redis_db}",
        "DEBUG": "false",
        "SECRET_KEY": "bench-load-" + "k" * 50,
        "WEB_BIND": f"127.0.0.1:{args.port}",
        "WEB_WORKERS": str(args.workers),
        "WEB_THREADS": str(args.threads),
        "ALLOWED_HOSTS": "127.0.0.1",
        "LOG_LEVEL": "WARNING",
        "CELERY_TASK_DEFAULT_QUEUE": "bench-load",
        "SHEET_WARM_ON_WRITE": "true",  # as deployed (the set-up turned it off for itself)
    }
    subprocess.run(["redis-cli", "-n", str(args.redis_db), "flushdb"], check=True,  # noqa: S607
                   stdout=subprocess.DEVNULL)  # fmt: skip
    bin_dir = ROOT / ".venv" / "bin"
    worker = subprocess.Popen(
        [str(bin_dir / "celery"), "-A", "annuminas", "worker", "--concurrency=2",
         "--loglevel=WARNING", "-Q", "bench-load"],
        cwd=ROOT, env=env,
    )  # fmt: skip
    web = subprocess.Popen(
        [str(bin_dir / "gunicorn"), "-c", "gunicorn.conf.py",
         "--worker-class", args.worker_class, "annuminas.wsgi:application"],
        cwd=ROOT, env=env,
    )  # fmt: skip
    for _ in range(100):
        try:
            connection = http.client.HTTPConnection("127.0.0.1", args.port, timeout=2)
            connection.request("GET", "/healthz")
            if connection.getresponse().status == 200:
                return web, worker
        except OSError:
            pass
        time.sleep(0.3)
    raise SystemExit("the site did not start")


# --- a player ----------------------------------------------------------------------------------


class Player:
    def __init__(self, port: int, ids: dict):
        self.port = port
        self.ids = ids
        self.cookies: dict[str, str] = {}
        self.connection: http.client.HTTPConnection | None = None
        self.item: int | None = None
        self.seen = 0

    def request(self, method: str, path: str, body=None, headers=None) -> tuple[int, bytes]:
        headers = dict(headers or {})
        if self.cookies:
            headers["Cookie"] = "; ".join(f"{k}={v}" for k, v in self.cookies.items())
        for attempt in range(2):
            if self.connection is None:
                # A login's password check is slow by design: fifty at once wait their turn.
                self.connection = http.client.HTTPConnection("127.0.0.1", self.port, timeout=60)
            try:
                self.connection.request(method, path, body=body, headers=headers)
                response = self.connection.getresponse()
                data = response.read()
                break
            except (http.client.HTTPException, ConnectionError):
                self.connection.close()
                self.connection = None
                if attempt:
                    raise
        for header in response.headers.get_all("Set-Cookie") or []:
            name, _, rest = header.partition("=")
            self.cookies[name.strip()] = rest.split(";", 1)[0]
        if response.headers.get("Connection", "").lower() == "close":
            self.connection.close()
            self.connection = None
        return response.status, data

    def json_write(self, path: str, payload: dict) -> tuple[int, bytes]:
        headers = {
            "Content-Type": "application/json",
            "X-CSRFToken": self.cookies.get("csrftoken", ""),
            "Referer": f"http://127.0.0.1:{self.port}/",
        }
        return self.request("POST", path, json.dumps(payload).encode(), headers)

    def login(self) -> int:
        status, page = self.request("GET", "/accounts/login/")
        token = re.search(rb'name="csrfmiddlewaretoken" value="([^"]+)"', page).group(1).decode()
        form = urlencode(
            {"login": self.ids["username"], "password": PASSWORD, "csrfmiddlewaretoken": token}
        )
        status, _body = self.request(
            "POST", "/accounts/login/", form.encode(),
            {"Content-Type": "application/x-www-form-urlencoded",
             "Referer": f"http://127.0.0.1:{self.port}/accounts/login/"},
        )  # fmt: skip
        return status

    def sell_daggers(self) -> None:
        """A run left daggers on the leader (stopped between a purchase and its sale): sell
        them, so the purchases of this run stay within what a warrior may carry."""
        leader = self.ids["leader"]
        _status, body = self.request("GET", f"/api/v1/fighters/{leader}/equipment/")
        for item in json.loads(body):
            if item.get("item") == "daga":
                self.json_write(f"/api/v1/fighters/{leader}/equipment/{item['id']}/sell/", {})

    def act(self, kind: str) -> int:
        ids = self.ids
        if kind == "sheet page":
            return self.request("GET", f"/warbands/{ids['warband']}/")[0]
        if kind == "sheet API":
            return self.request("GET", f"/api/v1/warbands/{ids['warband']}/sheet/")[0]
        if kind == "league page":
            return self.request("GET", f"/campaigns/{LEAGUE}/")[0]
        if kind == "standings":
            return self.request("GET", f"/campaigns/{LEAGUE}/standings/")[0]
        if kind == "roster write":
            return self._buy_or_sell()
        if kind == "log append":
            status, body = self.json_write(
                f"/api/v1/battles/{ids['battle']}/log/",
                {"client_id": str(uuid.uuid4()), "kind": "note", "payload": {"text": "carga"}},
            )
            if status == 201:
                self.seen = max(self.seen, json.loads(body).get("seq", 0))
            return status
        return self.request("GET", f"/battles/{ids['battle']}/table/live/?seen={self.seen}")[0]

    def _buy_or_sell(self) -> int:
        leader = self.ids["leader"]
        if self.item is None:
            status, body = self.json_write(
                f"/api/v1/fighters/{leader}/equipment/", {"item": "daga"}
            )
            if status == 201:
                self.item = json.loads(body)["item"]["id"]
            return status
        status, _body = self.json_write(
            f"/api/v1/fighters/{leader}/equipment/{self.item}/sell/", {}
        )
        self.item = None
        return status


EXPECTED = {"log append": {201}, "roster write": {200, 201}, "table poll": {200, 204}}


def run_player(player: Player, deadline: float, results, lock, seed: int) -> None:
    randomness = random.Random(seed)  # noqa: S311 - a load pattern, not a secret
    kinds = [kind for kind, _weight in MIX]
    weights = [weight for _kind, weight in MIX]
    mine = defaultdict(list)
    while True:
        time.sleep(randomness.uniform(0.5, 1.5))
        if time.monotonic() >= deadline:
            break
        kind = randomness.choices(kinds, weights)[0]
        started = time.perf_counter()
        try:
            status = player.act(kind)
        except (OSError, http.client.HTTPException):
            status = 0
        ok = status in EXPECTED.get(kind, {200})
        mine[kind].append((time.perf_counter() - started, ok, status))
    with lock:
        for kind, rows in mine.items():
            results[kind].extend(rows)


# --- CPU: what the site spent, whatever the neighbours spent ------------------------------------

TICKS = os.sysconf("SC_CLK_TCK")


def _processes() -> dict[int, tuple[int, str]]:
    """Every process: pid → (parent pid, command line)."""
    found = {}
    for entry in pathlib.Path("/proc").iterdir():
        if not entry.name.isdigit():
            continue
        try:
            stat = (entry / "stat").read_text()
            command = (entry / "cmdline").read_bytes().replace(b"\0", b" ").decode(errors="ignore")
        except OSError:
            continue
        found[int(entry.name)] = (int(stat.rsplit(")", 1)[1].split()[1]), command)
    return found


def site_cpu(roots: list[int]) -> dict[str, float]:
    """CPU seconds used so far by gunicorn, the Celery worker (each with its children, the
    exited ones included) and the PostgreSQL backends serving the bench's database (a backend
    that closed during the mix is not counted: connections persist, so that is rare)."""
    processes = _processes()
    groups = {"web": {roots[0]}, "worker": {roots[1]}, "postgres": set()}
    for pid, (_parent, command) in processes.items():
        if command.startswith("postgres:") and DATABASE in command:
            groups["postgres"].add(pid)
    for name in ("web", "worker"):
        grew = True
        while grew:
            children = {pid for pid, (parent, _c) in processes.items() if parent in groups[name]}
            grew = not children <= groups[name]
            groups[name] |= children
    seconds = {}
    for name, pids in groups.items():
        total = 0
        for pid in pids:
            try:
                fields = pathlib.Path(f"/proc/{pid}/stat").read_text().rsplit(")", 1)[1].split()
            except OSError:
                continue
            # utime + stime, and cutime + cstime: the CPU of its children that have exited
            # and been reaped (a gunicorn worker replaced after max_requests, a Celery child).
            total += sum(int(field) for field in fields[11:15])
        seconds[name] = total / TICKS
    return seconds


def percentile(values: list[float], share: float) -> float:
    ordered = sorted(values)
    return ordered[min(len(ordered) - 1, int(share * len(ordered)))]


def report(title: str, rows: list[tuple[float, bool, int]]) -> str:
    times = [seconds * 1000 for seconds, _ok, _status in rows]
    failed = Counter(status for _seconds, ok, status in rows if not ok)
    errors = sum(failed.values())
    if failed:
        statuses = ", ".join(f"{n}× {s or 'no answer'}" for s, n in failed.items())
        errors = f"{errors} ({statuses})"
    return (
        f"| {title} | {len(rows)} | {errors} | {statistics.median(times):.0f} | "
        f"{percentile(times, 0.95):.0f} | {percentile(times, 0.99):.0f} | {max(times):.0f} |"
    )


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--duration", type=float, default=300)
    parser.add_argument("--clients", type=int, default=50)
    parser.add_argument("--worker-class", default="gthread")
    parser.add_argument("--workers", type=int, default=4)
    parser.add_argument("--threads", type=int, default=2)
    parser.add_argument("--port", type=int, default=8766)
    parser.add_argument("--redis-db", type=int, default=6)
    parser.add_argument("--fresh", action="store_true")
    args = parser.parse_args()

    os.environ.update(DATABASE_URL=DATABASE_URL, DJANGO_SETTINGS_MODULE="annuminas.settings",
                      DEBUG="true", SHEET_WARM_ON_WRITE="false",
                      ALLOWED_HOSTS="testserver,127.0.0.1")  # fmt: skip
    os.environ.pop("REDIS_URL", None)  # set-up runs its tasks in this process
    if args.fresh or not database_exists_and_seeded():
        print("setting up the database (a few minutes)…", flush=True)
        database_recreate()
        seed(args.clients)
    ids = players()[: args.clients]
    web, worker = start_site(args)
    try:
        clients = [Player(args.port, row) for row in ids]
        load_before = os.getloadavg()
        logins: list[tuple[float, bool]] = []
        lock = threading.Lock()

        def sign_in(player: Player) -> None:
            started = time.perf_counter()
            try:
                status = player.login()
            except (OSError, http.client.HTTPException):
                status = 0
            with lock:
                logins.append((time.perf_counter() - started, status == 302, status))

        threads = [threading.Thread(target=sign_in, args=(c,)) for c in clients]
        for thread in threads:
            thread.start()
        for thread in threads:
            thread.join()
        # A player whose login failed tries again before playing (not counted in the burst).
        retried = 0
        for player in clients:
            while "sessionid" not in player.cookies:
                retried += 1
                player.login()
            player.sell_daggers()

        results: dict[str, list] = defaultdict(list)
        cpu_before = site_cpu([web.pid, worker.pid])
        deadline = time.monotonic() + args.duration
        threads = [
            threading.Thread(target=run_player, args=(c, deadline, results, lock, n))
            for n, c in enumerate(clients)
        ]
        for thread in threads:
            thread.start()
        for thread in threads:
            thread.join()
        load_after = os.getloadavg()
        cpu_after = site_cpu([web.pid, worker.pid])
    finally:
        web.terminate()
        worker.terminate()
        web.wait(timeout=60)
        worker.wait(timeout=60)

    every = [row for rows in results.values() for row in rows]
    print(f"\n{args.clients} clients, {args.duration:.0f} s, gunicorn {args.worker_class} "
          f"{args.workers}×{args.threads}; load average before {load_before[0]:.2f}, "
          f"after {load_after[0]:.2f} (1 min)\n")  # fmt: skip
    print("| requests | count | errors | p50 ms | p95 ms | p99 ms | max ms |")
    print("|---|---:|---:|---:|---:|---:|---:|")
    print(report("logins, all at once", logins))
    if retried:
        print(f"| (logins tried again after the burst) | {retried} | | | | | |")
    for kind, _weight in MIX:
        print(report(kind, results[kind]))
    print(report(f"**the mix ({len(every) / args.duration:.0f} req/s)**", every))
    spent = {name: cpu_after[name] - cpu_before[name] for name in cpu_after}
    print(
        "\nCPU spent by the site during the mix, per request: "
        + ", ".join(f"{name} {1000 * value / len(every):.1f} ms" for name, value in spent.items())
        + f"; {sum(spent.values()) / args.duration:.2f} cores on average "
        f"({sum(spent.values()) / len(every) * 1000:.0f} ms a request in all)"
    )


if __name__ == "__main__":
    main()
