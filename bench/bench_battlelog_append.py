"""An append to a battle log costs the same whatever the log's length (in-process, PostgreSQL).

Run from the project root (PostgreSQL at 127.0.0.1, user postgres, trust auth):

    .venv/bin/python bench/bench_battlelog_append.py [--entries 2000] [--repeat 200]

It drops and creates its own database ``annuminas_bench_append``, migrates it, loads the content
pack and builds a league of two warbands (a captain and two warriors each). Two battles are set
up at the table: one whose log is written to 10 entries, one to ``--entries``, both through the
service and with the same kinds of entries (turns, the captains' close-combat phase rolled
through the engine, a warrior knocked down, notes). Then, on each log, ``--repeat`` times: one
append (a note; then a rolled close-combat phase) inside a savepoint rolled back after it, so
each measurement is an append at exactly that length. It prints the median and p95 of each,
the ratio long / short, and the SQL statements of one append at each length.
"""

from __future__ import annotations

import argparse
import os
import pathlib
import statistics
import sys
import time
import uuid

ROOT = pathlib.Path(__file__).resolve().parents[1]
sys.path.insert(0, str(ROOT))
DB_NAME = "annuminas_bench_append"
ADMIN_URL = "postgresql://postgres@127.0.0.1:5432/postgres"


def database_recreate() -> None:
    import psycopg

    with psycopg.connect(ADMIN_URL, autocommit=True) as connection:
        connection.execute(f'DROP DATABASE IF EXISTS "{DB_NAME}" WITH (FORCE)')
        connection.execute(f'CREATE DATABASE "{DB_NAME}"')


NOTES = 10
"""Notes a side writes each turn (a battle lasts at most 99 turns: a long log is a chatty one)."""


class Rollback(Exception):
    """Undo the measured append (the log keeps its length)."""


def fill(battle, league, entries: int) -> list[int]:
    """Set the battle up and write its log to ``entries`` entries; return the captains."""
    from battles.battlelog import prebattle, services
    from warbands.models import Fighter

    a, b = league.warband(0), league.warband(1)
    users = {a.pk: league.user(0), b.pk: league.user(1)}
    prebattle.battle_log_setup(battle=battle, by=users[a.pk], client_id=uuid.uuid4(), first=a.pk)
    captains = {w.pk: Fighter.objects.get(warband=w, is_leader=True).pk for w in (a, b)}
    others = {w.pk: Fighter.objects.filter(warband=w, is_leader=False).first().pk for w in (a, b)}

    def post(player: int, kind: str, faces=None, **payload) -> None:
        services.battle_log_append(
            battle=battle.pk,
            by=users[player],
            kind=kind,
            payload=payload,
            client_id=uuid.uuid4(),
            faces=faces,
        )

    written, turn = 1, 1
    while True:
        for me, enemy in ((a.pk, b.pk), (b.pk, a.pk)):
            post(me, "turn", turn=turn, side=me)
            written += 1
            if written >= entries:  # ends just after a turn starts: its combat not yet fought
                return [captains[a.pk], captains[b.pk]]
            if turn == 1 and me == a.pk:
                post(a.pk, "charge", charger=captains[a.pk], targets=[captains[b.pk]])
                written += 1
            faces = [1, 1] if turn == 1 and me == a.pk else [2, 1, 1, 1]
            post(me, "close-combat", faces=faces, fighter=captains[me])
            post(me, "status", fighter=others[enemy], status="knocked_down", by=others[me])
            for number in range(NOTES):
                post(me, "note", text=f"turno {turn}, nota {number}")
            written += 2 + NOTES
        turn += 1


def measure(battle, league, repeat: int, kind: str) -> tuple[list[float], int]:
    """``repeat`` appends of ``kind``, each rolled back; the times and the statements of one."""
    from django.db import connection, transaction
    from django.test.utils import CaptureQueriesContext

    from battles.battlelog import services

    state = services.log_state(battle)
    user = league.user(0) if state.side == league.warband(0).pk else league.user(1)
    captain = next(f for f in state.fighters.values() if f.side == state.side and f.leader)
    times, statements = [], 0
    for number in range(repeat):
        payload = {"text": "medida"} if kind == "note" else {"fighter": captain.id}
        with CaptureQueriesContext(connection) as queries:
            try:
                with transaction.atomic():
                    start = time.perf_counter()
                    services.battle_log_append(
                        battle=battle.pk,
                        by=user,
                        kind=kind,
                        payload=payload,
                        client_id=uuid.uuid4(),
                        seed=number,
                    )
                    times.append(time.perf_counter() - start)
                    raise Rollback
            except Rollback:
                pass
        statements = len(queries) - 2  # the savepoint and its rollback
    return times, statements


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    parser.add_argument("--entries", type=int, default=2000)
    parser.add_argument("--repeat", type=int, default=200)
    args = parser.parse_args()
    os.environ["DATABASE_URL"] = f"postgres://postgres@127.0.0.1:5432/{DB_NAME}"
    os.environ["DJANGO_SETTINGS_MODULE"] = "annuminas.settings"
    os.environ.setdefault("SECRET_KEY", "bench-" + "x" * 50)
    database_recreate()
    import django

    django.setup()
    from django.core.management import call_command

    call_command("migrate", verbosity=0)
    from tests.battles.factories import build_league, first_battle
    from warbands.content_loader import content_pack_load

    content_pack_load()
    league = build_league(henchmen=2, max_fighter_type_copies=None, rating_cap=None)
    short_battle = first_battle(league)
    from battles.models import Battle

    long_battle = Battle.objects.create(
        campaign=short_battle.campaign, round=short_battle.round, scenario="Escaramuza"
    )
    for participant in short_battle.participants.all():
        long_battle.participants.create(warband=participant.warband)
    started = time.perf_counter()
    fill(short_battle, league, 10)
    fill(long_battle, league, args.entries)
    print(f"wrote {10 + args.entries} entries in {time.perf_counter() - started:.1f} s")
    for kind in ("note", "close-combat"):
        rows = []
        for battle, label in ((short_battle, "10"), (long_battle, str(args.entries))):
            times, statements = measure(battle, league, args.repeat, kind)
            rows.append(
                (label, statistics.median(times), sorted(times)[int(len(times) * 0.95)], statements)
            )
        for label, median, p95, statements in rows:
            print(
                f"{kind:13} at {label:>5} entries: median {median * 1000:6.2f} ms, "
                f"p95 {p95 * 1000:6.2f} ms, {statements} statements"
            )
        print(f"{kind:13} ratio long/short (median): {rows[1][1] / rows[0][1]:.2f}")


if __name__ == "__main__":
    main()
