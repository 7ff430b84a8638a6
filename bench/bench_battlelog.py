"""A league day at the table: 200 battles logged at once through the API (gunicorn, PostgreSQL).

Run from the project root (PostgreSQL at 127.0.0.1, user postgres, trust auth):

    .venv/bin/python bench/bench_battlelog.py [--battles 200] [--entries 50] [--clients 8]

What it does:

1. drops and creates its own database ``annuminas_bench_log``, migrates it, loads the content
   pack, and builds a running campaign with ``--battles`` scheduled battles (two warbands each,
   a leader and a henchman group of two, cloned in bulk as in ``bench_postbattle.py``) and a
   session for every player;
2. starts gunicorn (``--workers``, sync) with the write throttle lifted;
3. ``--clients`` threads share the battles; each posts, battle by battle in round-robin, a
   table's worth of entries as the battle's two players: ``setup``, then turns each with an
   attack rolled through the engine (faces typed at the table), a warrior knocked down and a
   note, until ``--entries`` per battle; after every fifth post it reads the log with
   ``?after=`` like a polling phone;
4. prints entries/s, p50/p95 of the writes and the reads, and checks the result: every battle
   has exactly ``--entries`` entries numbered 1…n, none duplicated (one replay per battle is
   posted again and must answer 200 with the same seq).
"""

from __future__ import annotations

import argparse
import http.client
import json
import os
import pathlib
import signal
import subprocess
import sys
import threading
import time
import uuid

ROOT = pathlib.Path(__file__).resolve().parents[1]
sys.path.insert(0, str(ROOT))
DB_NAME = "annuminas_bench_log"
DATABASE_URL = f"postgres://postgres@127.0.0.1:5432/{DB_NAME}"
ADMIN_URL = "postgresql://postgres@127.0.0.1:5432/postgres"
CSRF_SECRET = "benchbenchbenchbenchbenchbench01"  # noqa: S105 - not a secret


def database_recreate() -> None:
    import psycopg

    with psycopg.connect(ADMIN_URL, autocommit=True) as connection:
        connection.execute(f'DROP DATABASE IF EXISTS "{DB_NAME}" WITH (FORCE)')
        connection.execute(f'CREATE DATABASE "{DB_NAME}"')


def build(count: int) -> list[dict]:
    """``count`` scheduled battles; for each: id, the two warbands, fighters and sessions."""
    import django

    django.setup()
    from bench_postbattle import Template
    from django.contrib.auth import (
        BACKEND_SESSION_KEY,
        HASH_SESSION_KEY,
        SESSION_KEY,
        get_user_model,
    )
    from django.contrib.auth.hashers import UNUSABLE_PASSWORD_PREFIX
    from django.contrib.sessions.backends.db import SessionStore

    from battles.campaigns import services
    from battles.models import Battle, BattleParticipant, Campaign, Membership, Round
    from warbands.content_loader import content_pack_load
    from warbands.models import Fighter, WarbandType

    content_pack_load()
    organiser = get_user_model().objects.create_user("bench-organiser")
    campaign = services.campaign_create(organiser=organiser, name="Liga de la mesa")
    Campaign.objects.filter(pk=campaign.pk).update(state=Campaign.State.RUNNING)
    template = Template(WarbandType.objects.get(slug="mercenarios-de-rhovanion"))
    users = get_user_model()
    owners = users.objects.bulk_create(
        [users(username=f"mesa-{i}", password=UNUSABLE_PASSWORD_PREFIX) for i in range(2 * count)]
    )
    warbands = template.clone(owners)
    Membership.objects.bulk_create(
        [
            Membership(campaign=campaign, user=o, warband=w)
            for o, w in zip(owners, warbands, strict=True)
        ]
    )
    round = Round.objects.create(campaign=campaign, number=1)
    battles = Battle.objects.bulk_create(
        [Battle(campaign=campaign, round=round, scenario="Escaramuza") for _ in range(count)]
    )
    BattleParticipant.objects.bulk_create(
        [
            BattleParticipant(battle=battle, warband=warbands[2 * i + side])
            for i, battle in enumerate(battles)
            for side in (0, 1)
        ]
    )
    fighters: dict[int, list[int]] = {}
    for warband_id, fighter_id in (
        Fighter.objects.filter(warband__in=warbands)
        .order_by("-is_leader", "pk")
        .values_list("warband_id", "pk")
    ):
        fighters.setdefault(warband_id, []).append(fighter_id)
    sessions = {}
    for owner in owners:
        session = SessionStore()
        session[SESSION_KEY] = str(owner.pk)
        session[BACKEND_SESSION_KEY] = "django.contrib.auth.backends.ModelBackend"
        session[HASH_SESSION_KEY] = owner.get_session_auth_hash()
        session.create()
        sessions[owner.pk] = session.session_key
    return [
        {
            "id": battle.pk,
            "sides": [
                {
                    "warband": warbands[2 * i + side].pk,
                    "fighters": fighters[warbands[2 * i + side].pk],
                    "cookie": sessions[owners[2 * i + side].pk],
                }
                for side in (0, 1)
            ],
        }
        for i, battle in enumerate(battles)
    ]


def script(battle: dict, entries: int) -> list[tuple[str, dict]]:
    """The entries of one battle, in order: (session cookie, body)."""
    a, b = battle["sides"]
    out = [(a["cookie"], {"kind": "setup", "payload": {"first": a["warband"]}})]
    turn = 1
    while len(out) < entries:
        for me, enemy in ((a, b), (b, a)):
            out += [
                (me["cookie"], {"kind": "turn", "payload": {"turn": turn, "side": me["warband"]}}),
                (
                    me["cookie"],
                    {
                        "kind": "attack",
                        "payload": {
                            "attacker": me["fighters"][0],
                            "target": enemy["fighters"][0],
                            "mode": "melee",
                        },
                        "faces": [1] * 8,  # misses: the fighters stay for the next turns
                    },
                ),
                (
                    me["cookie"],
                    {
                        "kind": "status",
                        "payload": {
                            "fighter": enemy["fighters"][1],
                            "status": "knocked_down",
                            "by": me["fighters"][0],
                        },
                    },
                ),
                (me["cookie"], {"kind": "note", "payload": {"text": f"turno {turn}"}}),
            ]
        turn += 1
    return [(cookie, {**body, "client_id": str(uuid.uuid4())}) for cookie, body in out[:entries]]


def request(port: int, method: str, path: str, cookie: str, body: dict | None = None):
    connection = http.client.HTTPConnection("127.0.0.1", port, timeout=60)
    headers = {"Cookie": f"sessionid={cookie}; csrftoken={CSRF_SECRET}"}
    data = None
    if body is not None:
        data = json.dumps(body)
        headers |= {"Content-Type": "application/json", "X-CSRFToken": CSRF_SECRET}
    connection.request(method, path, body=data, headers=headers)
    response = connection.getresponse()
    payload = response.read()
    connection.close()
    return response.status, payload


def p(values: list[float], q: float) -> float:
    ordered = sorted(values)
    return ordered[max(0, int(len(ordered) * q) - 1)] * 1000


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    parser.add_argument("--battles", type=int, default=200)
    parser.add_argument("--entries", type=int, default=50)
    parser.add_argument("--clients", type=int, default=8)
    parser.add_argument("--workers", type=int, default=2)
    parser.add_argument("--port", type=int, default=8771)
    args = parser.parse_args()

    os.environ["DATABASE_URL"] = DATABASE_URL
    os.environ["DJANGO_SETTINGS_MODULE"] = "annuminas.settings"
    os.environ.setdefault("SECRET_KEY", "bench-" + "x" * 50)
    os.environ["DEBUG"] = "false"
    os.environ["THROTTLE_WRITES"] = "1000000/minute"
    os.environ["ALLOWED_HOSTS"] = "127.0.0.1,localhost"
    database_recreate()
    subprocess.run(
        [sys.executable, "manage.py", "migrate", "--noinput", "-v0"], cwd=ROOT, check=True
    )
    battles = build(args.battles)
    scripts = {battle["id"]: script(battle, args.entries) for battle in battles}
    gunicorn = subprocess.Popen(
        [
            sys.executable, "-m", "gunicorn", "annuminas.wsgi", "--workers", str(args.workers),
            "--bind", f"127.0.0.1:{args.port}", "--log-level", "warning",
        ],
        cwd=ROOT,
        env={**os.environ, "LOG_LEVEL": "WARNING"},
        start_new_session=True,
    )  # fmt: skip
    writes: list[float] = []
    reads: list[float] = []
    failures: list[str] = []
    lock = threading.Lock()

    def client(mine: list[dict]) -> None:
        my_writes, my_reads, bad = [], [], []
        cursors = {battle["id"]: 0 for battle in mine}
        posted = 0
        while cursors:
            for battle_id in list(cursors):
                cookie, body = scripts[battle_id][cursors[battle_id]]
                start = time.perf_counter()
                status, payload = request(
                    args.port, "POST", f"/api/v1/battles/{battle_id}/log/", cookie, body
                )
                my_writes.append(time.perf_counter() - start)
                if status != 201:
                    bad.append(f"{battle_id} {body['kind']} {status} {payload[:200]!r}")
                posted += 1
                if posted % 5 == 0:
                    start = time.perf_counter()
                    after = max(0, cursors[battle_id] - 5)
                    status, _payload = request(
                        args.port, "GET", f"/api/v1/battles/{battle_id}/log/?after={after}", cookie
                    )
                    my_reads.append(time.perf_counter() - start)
                    if status != 200:
                        bad.append(f"read {battle_id} {status}")
                cursors[battle_id] += 1
                if cursors[battle_id] == len(scripts[battle_id]):
                    del cursors[battle_id]
        with lock:
            writes.extend(my_writes)
            reads.extend(my_reads)
            failures.extend(bad)

    try:
        deadline = time.monotonic() + 30
        probe = battles[0]["sides"][0]["cookie"]
        while True:
            try:
                if request(args.port, "GET", "/api/v1/rules/tables/", probe)[0] == 200:
                    break
            except OSError:
                pass
            if time.monotonic() > deadline or gunicorn.poll() is not None:
                sys.exit("gunicorn did not start")
            time.sleep(0.2)
        shares = [battles[i :: args.clients] for i in range(args.clients)]
        started = time.perf_counter()
        threads = [threading.Thread(target=client, args=(share,)) for share in shares]
        for thread in threads:
            thread.start()
        for thread in threads:
            thread.join()
        elapsed = time.perf_counter() - started
        replays = 0
        for battle in battles:  # a phone replays its last entry: the same entry, never a copy
            cookie, body = scripts[battle["id"]][-1]
            status, payload = request(
                args.port, "POST", f"/api/v1/battles/{battle['id']}/log/", cookie, body
            )
            replays += status == 200 and json.loads(payload)["seq"] == args.entries
    finally:
        if gunicorn.poll() is None:
            os.killpg(gunicorn.pid, signal.SIGTERM)
        gunicorn.wait(timeout=30)

    from django.db.models import Count, Max

    from battles.models import BattleLogEntry

    rows = BattleLogEntry.objects.values("battle").annotate(n=Count("id"), top=Max("seq"))
    whole = sum(1 for row in rows if row["n"] == row["top"] == args.entries)
    print(
        f"{args.battles} battles × {args.entries} entries = {len(writes)} posts · "
        f"{args.clients} client threads · gunicorn {args.workers} sync workers · PostgreSQL"
    )
    print(
        f"| writes | {len(writes) / elapsed:6.0f} entries/s | p50 {p(writes, 0.5):6.1f} ms | "
        f"p95 {p(writes, 0.95):6.1f} ms | max {max(writes) * 1000:6.0f} ms |"
    )
    print(
        f"| reads (?after=) | {len(reads)} | p50 {p(reads, 0.5):6.1f} ms | "
        f"p95 {p(reads, 0.95):6.1f} ms |"
    )
    print(
        f"total {elapsed:.1f} s · battles complete and numbered 1..n: {whole}/{args.battles}"
        f" · replays answered with the same entry: {replays}/{args.battles}"
        f" · failures: {len(failures)}"
    )
    for line in failures[:10]:
        print("  ", line)
    if failures or whole != args.battles or replays != args.battles:
        sys.exit(1)


if __name__ == "__main__":
    main()
