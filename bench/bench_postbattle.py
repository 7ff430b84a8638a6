"""Batch post-battle resolution: a round of confirmed battles resolved by ONE real Celery worker
on PostgreSQL + Redis, and where the time of one battle goes.

Run from the project root (PostgreSQL at 127.0.0.1, user postgres, trust auth; Redis at
127.0.0.1:6379):

    .venv/bin/python bench/bench_postbattle.py [--battles 1000] [--profile-battles 30]

What it does, in order:

1. drops and creates its own database ``annuminas_bench_pb``, migrates it and loads the content
   pack; flushes Redis database 6 (its broker);
2. builds a running campaign with a round of ``--battles`` confirmed battles: two warbands per
   battle (each a leader and a henchman group of two, built once through the roster services and
   then cloned in bulk), both warbands members of the campaign (so the house-rule validator runs
   for real), the winner's leader putting the loser's leader out of action; plus a second round
   of ``--profile-battles`` battles for the in-process profile; then ``ANALYZE``;
3. profiles ``postbattle_run_apply`` in-process on the second round: SQL queries per battle and
   the time spent in SQL vs Python (``CaptureQueriesContext``), and a cProfile of one battle;
4. starts ONE worker (``celery -A annuminas worker --pool=solo -c 1``), calls
   ``round_resolve_start`` and measures the wall time until the job finishes; the time per
   battle comes from the worker's own "succeeded in" log lines; checks that every battle was
   resolved exactly once (one applied run, two results, the job succeeded);
5. stops the worker and drops the database (``--keep-db`` keeps it).
"""

from __future__ import annotations

import argparse
import cProfile
import io
import os
import pathlib
import pstats
import re
import signal
import statistics
import subprocess
import sys
import tempfile
import time

ROOT = pathlib.Path(__file__).resolve().parents[1]
sys.path.insert(0, str(ROOT))
DB_NAME = "annuminas_bench_pb"
DATABASE_URL = f"postgres://postgres@127.0.0.1:5432/{DB_NAME}"
ADMIN_URL = "postgresql://postgres@127.0.0.1:5432/postgres"
REDIS_URL = "redis://127.0.0.1:6379/6"
QUEUE = "bench-postbattle"


def _configure_environment() -> None:
    os.environ["DATABASE_URL"] = DATABASE_URL
    os.environ["REDIS_URL"] = REDIS_URL
    os.environ["CELERY_TASK_DEFAULT_QUEUE"] = QUEUE
    os.environ.setdefault("DJANGO_SETTINGS_MODULE", "annuminas.settings")


def database_recreate() -> None:
    import psycopg

    with psycopg.connect(ADMIN_URL, autocommit=True) as connection:
        connection.execute(f'DROP DATABASE IF EXISTS "{DB_NAME}" WITH (FORCE)')
        connection.execute(f'CREATE DATABASE "{DB_NAME}"')


def database_drop() -> None:
    import psycopg
    from django.db import connections

    connections.close_all()
    with psycopg.connect(ADMIN_URL, autocommit=True) as connection:
        connection.execute(f'DROP DATABASE IF EXISTS "{DB_NAME}" WITH (FORCE)')


def redis_flush() -> None:
    import redis

    redis.Redis.from_url(REDIS_URL).flushdb()


# --- building the round ----------------------------------------------------------------------


class Template:
    """One warband built through the services (leader + a group of two), cloned in bulk."""

    def __init__(self, warband_type):
        from django.contrib.auth import get_user_model

        from warbands import services as roster
        from warbands.models import Fighter, HenchmanGroup, LedgerEntry, Warband

        captain = warband_type.fighter_types.get(role="leader")
        soldier = warband_type.fighter_types.filter(role="henchman").order_by("cost", "pk").first()
        owner = get_user_model().objects.create_user("bench-template")
        warband = roster.warband_create(
            owner=owner, warband_type=warband_type, name="Banda plantilla"
        )
        roster.fighter_hire(warband=warband, fighter_type=captain, name="Capitán")
        roster.fighter_hire(warband=warband, fighter_type=soldier, name="Guerreros", count=2)
        self.warband = Warband.objects.get(pk=warband.pk)
        self.groups = list(HenchmanGroup.objects.filter(warband=warband).order_by("pk"))
        self.fighters = list(Fighter.objects.filter(warband=warband).order_by("pk"))
        self.ledger = list(LedgerEntry.objects.filter(warband=warband).order_by("pk"))

    @staticmethod
    def _fields(model, skip: set[str]) -> list[str]:
        return [f.attname for f in model._meta.concrete_fields if f.attname not in skip]

    def clone(self, owners: list) -> list:
        """One copy of the template per owner; returns the new warbands (same order)."""
        from warbands.models import Fighter, HenchmanGroup, LedgerEntry, Warband

        skip = {"id", "owner_id", "name", "share_token", "created_at", "updated_at"}
        wb_fields = self._fields(Warband, skip)
        warbands = Warband.objects.bulk_create(
            [
                Warband(
                    owner=owner,
                    name=f"Banda {index}",
                    **{name: getattr(self.warband, name) for name in wb_fields},
                )
                for index, owner in enumerate(owners)
            ]
        )
        group_fields = self._fields(HenchmanGroup, {"id", "warband_id"})
        groups = HenchmanGroup.objects.bulk_create(
            [
                HenchmanGroup(
                    warband=warband, **{name: getattr(group, name) for name in group_fields}
                )
                for warband in warbands
                for group in self.groups
            ]
        )
        group_of = {
            (warband.pk, template.pk): clone
            for (warband, template), clone in zip(
                ((w, g) for w in warbands for g in self.groups), groups, strict=True
            )
        }
        fighter_fields = self._fields(Fighter, {"id", "warband_id", "group_id"})
        fighters = Fighter.objects.bulk_create(
            [
                Fighter(
                    warband=warband,
                    group=group_of[(warband.pk, f.group_id)] if f.group_id else None,
                    **{name: getattr(f, name) for name in fighter_fields},
                )
                for warband in warbands
                for f in self.fighters
            ]
        )
        fighter_of = {
            (warband.pk, template.pk): clone
            for (warband, template), clone in zip(
                ((w, f) for w in warbands for f in self.fighters), fighters, strict=True
            )
        }
        ledger_fields = self._fields(LedgerEntry, {"id", "warband_id", "source_id", "created_at"})
        rows = []
        for warband in warbands:
            for entry in self.ledger:
                source_id = entry.source_id
                if source_id == self.warband.pk and entry.reason == "starting_treasury":
                    source_id = warband.pk
                elif (warband.pk, source_id) in fighter_of and entry.reason == "hire":
                    source_id = fighter_of[(warband.pk, source_id)].pk
                elif (warband.pk, source_id) in group_of and entry.reason == "hire":
                    source_id = group_of[(warband.pk, source_id)].pk
                rows.append(
                    LedgerEntry(
                        warband=warband,
                        source_id=source_id,
                        **{name: getattr(entry, name) for name in ledger_fields},
                    )
                )
        LedgerEntry.objects.bulk_create(rows)
        return warbands


def build_round(campaign, template, number: int, count: int):
    """A round of ``count`` confirmed battles between fresh clones of the template."""
    from django.contrib.auth import get_user_model
    from django.contrib.auth.hashers import UNUSABLE_PASSWORD_PREFIX

    from battles.models import Battle, BattleEvent, BattleParticipant, Membership, Round
    from warbands.models import Fighter

    users = get_user_model()
    owners = users.objects.bulk_create(
        [
            users(username=f"r{number}-p{index}", password=UNUSABLE_PASSWORD_PREFIX)
            for index in range(2 * count)
        ]
    )
    warbands = template.clone(owners)
    Membership.objects.bulk_create(
        [
            Membership(campaign=campaign, user=owner, warband=warband)
            for owner, warband in zip(owners, warbands, strict=True)
        ]
    )
    round = Round.objects.create(campaign=campaign, number=number)
    battles = Battle.objects.bulk_create(
        [
            Battle(
                campaign=campaign,
                round=round,
                status=Battle.Status.CONFIRMED,
                scenario="Escaramuza",
            )
            for _index in range(count)
        ]
    )
    participants, events = [], []
    leaders = dict(
        Fighter.objects.filter(warband__in=warbands, is_leader=True).values_list("warband_id", "pk")
    )
    for index, battle in enumerate(battles):
        winner, loser = warbands[2 * index], warbands[2 * index + 1]
        for warband, result in ((winner, "win"), (loser, "loss")):
            participants.append(
                BattleParticipant(
                    battle=battle, warband=warband, result=result, rating_at_battle=warband.rating
                )
            )
        events.append(
            BattleEvent(
                battle=battle,
                turn=3,
                kind=BattleEvent.Kind.OUT_OF_ACTION,
                actor_warband=winner,
                actor_id=leaders[winner.pk],
                target_warband=loser,
                target_id=leaders[loser.pk],
            )
        )
    BattleParticipant.objects.bulk_create(participants)
    BattleEvent.objects.bulk_create(events)
    return round


def build(count: int, profile_count: int):
    from django.contrib.auth import get_user_model

    from battles.campaigns import services
    from battles.models import Campaign
    from warbands.content_loader import content_pack_load
    from warbands.models import WarbandType

    content_pack_load()
    organiser = get_user_model().objects.create_user("bench-organiser")
    campaign = services.campaign_create(organiser=organiser, name="Liga de la prueba")
    Campaign.objects.filter(pk=campaign.pk).update(state=Campaign.State.RUNNING)
    template = Template(WarbandType.objects.get(slug="mercenarios-de-rhovanion"))
    bench_round = build_round(campaign, template, 1, count)
    profile_round = build_round(campaign, template, 2, profile_count)
    return bench_round, profile_round


# --- in-process profile ---------------------------------------------------------------------


def profile(round, *, top: int) -> dict:
    """Apply the round's runs one by one in-process: queries and SQL/Python time per battle."""
    import secrets

    from django.db import connection
    from django.test.utils import CaptureQueriesContext

    from battles.models import Battle, Job, PostBattleRun
    from battles.postbattle import postbattle_run_apply

    battles = list(Battle.objects.filter(round=round).order_by("pk"))
    job = Job.objects.create(
        kind=Job.Kind.ROUND, campaign_id=round.campaign_id, round=round, total=len(battles)
    )
    runs = PostBattleRun.objects.bulk_create(
        [PostBattleRun(battle=b, seed=secrets.randbelow(2**31 - 1), job=job) for b in battles]
    )
    # The first one warms caches (content types, translations) like a worker's first task.
    # As in a round's task, the job's progress is left out (refreshed once per chunk of runs).
    postbattle_run_apply(run_id=runs[0].pk, refresh_job=False)
    queries, sql, wall = [], [], []
    for run in runs[1:-1]:
        with CaptureQueriesContext(connection) as captured:
            start = time.perf_counter()
            postbattle_run_apply(run_id=run.pk, refresh_job=False)
            wall.append(time.perf_counter() - start)
        queries.append(len(captured.captured_queries))
        last = captured.captured_queries
        sql.append(sum(float(q["time"]) for q in captured.captured_queries))
    profiler = cProfile.Profile()
    profiler.enable()
    postbattle_run_apply(run_id=runs[-1].pk, refresh_job=False)
    profiler.disable()
    out = io.StringIO()
    stats = pstats.Stats(profiler, stream=out)
    stats.sort_stats("cumulative").print_stats(top)
    out.write("\n--- by own time ---\n")
    stats.sort_stats("tottime").print_stats(top)
    assert PostBattleRun.objects.filter(job=job, status="applied").count() == len(runs), (
        "profiled runs did not all apply"
    )
    return {
        "battles": len(wall),
        "queries": statistics.mean(queries),
        "queries_max": max(queries),
        "wall_ms": 1000 * statistics.mean(wall),
        "sql_ms": 1000 * statistics.mean(sql),
        "cprofile": out.getvalue(),
        "last_queries": [(float(q["time"]), q["sql"]) for q in last],
    }


# --- the worker run ---------------------------------------------------------------------------


def worker_start(
    log_path: pathlib.Path, profile_path: str | None = None, concurrency: int = 1
) -> subprocess.Popen:
    env = dict(os.environ)
    env.update(
        DATABASE_URL=DATABASE_URL,
        REDIS_URL=REDIS_URL,
        CELERY_TASK_DEFAULT_QUEUE=QUEUE,
        PYTHONPATH=str(ROOT),
    )
    log = open(log_path, "wb")  # noqa: SIM115 - the worker owns it; closed with the process
    process = subprocess.Popen(  # noqa: S603 - fixed command line
        [
            sys.executable,
            *(["-m", "cProfile", "-o", profile_path] if profile_path else []),
            "-m",
            "celery",
            "-A",
            "annuminas",
            "worker",
            *(["--pool=solo"] if concurrency == 1 else ["--pool=prefork"]),
            "-c",
            str(concurrency),
            "-Q",
            QUEUE,
            "--loglevel=INFO",
            "--without-gossip",
            "--without-mingle",
            "--without-heartbeat",
            "-n",
            "bench-postbattle@%h",
        ],
        cwd=ROOT,
        env=env,
        stdout=log,
        stderr=subprocess.STDOUT,
        start_new_session=True,
    )
    log.close()
    deadline = time.monotonic() + 60
    while time.monotonic() < deadline:
        if process.poll() is not None:
            raise RuntimeError(f"the worker exited early; see {log_path}")
        if b"ready." in log_path.read_bytes():
            return process
        time.sleep(0.2)
    raise RuntimeError(f"the worker did not start within 60 s; see {log_path}")


def worker_stop(process: subprocess.Popen | None) -> None:
    if process is None or process.poll() is not None:
        return
    os.killpg(process.pid, signal.SIGTERM)
    try:
        process.wait(timeout=30)
    except subprocess.TimeoutExpired:
        os.killpg(process.pid, signal.SIGKILL)
        process.wait(timeout=30)


TASK_TIME = re.compile(rb"Task battles\.postbattle_runs?\[[^\]]+\] succeeded in ([0-9.]+)s")


def run_round(round, log_path: pathlib.Path, *, timeout: float) -> dict:
    from battles.models import Job, PostBattleRun
    from battles.postbattle import round_resolve_start

    start = time.perf_counter()
    job = round_resolve_start(round=round, user=None)
    queued = time.perf_counter()
    deadline = start + timeout
    while time.perf_counter() < deadline:
        job.refresh_from_db()
        if job.status not in Job.ACTIVE:
            break
        time.sleep(0.05)
    else:
        raise RuntimeError(f"the job did not finish within {timeout:.0f} s ({job.done} done)")
    elapsed = time.perf_counter() - start
    task_times = [float(t) for t in TASK_TIME.findall(log_path.read_bytes())]
    # One worker applies the runs one after another: the gap between two runs' commit times
    # is the time that battle took (its task's share of the messaging included).
    applied = list(
        PostBattleRun.objects.filter(job=job)
        .order_by("applied_at")
        .values_list("applied_at", flat=True)
    )
    gaps = [(b - a).total_seconds() for a, b in zip(applied, applied[1:], strict=False)]
    return {
        "job": job,
        "elapsed": elapsed,
        "enqueue": queued - start,
        "tasks": task_times,
        "per_battle": gaps,
    }


def verify(round, job, count: int) -> None:
    from django.db.models import Count

    from battles.models import Battle, PostBattleResult, PostBattleRun
    from warbands.models import LedgerEntry, Warband

    assert (job.status, job.done, job.failed, job.total) == ("succeeded", count, 0, count), (
        job.status,
        job.done,
        job.failed,
        job.errors,
    )
    assert Battle.objects.filter(round=round, status="resolved").count() == count
    assert PostBattleRun.objects.filter(job=job, status="applied").count() == count
    assert (
        PostBattleRun.objects.filter(battle__round=round)
        .values("battle")
        .annotate(n=Count("pk"))
        .filter(n__gt=1)
        .count()
        == 0
    )
    per_battle = set(
        PostBattleResult.objects.filter(run__job=job)
        .values("run__battle")
        .annotate(n=Count("pk"))
        .values_list("n", flat=True)
    )
    assert per_battle == {2}, per_battle
    # The ledger still adds up to every treasury (nothing applied twice, nothing lost).
    from django.db.models import Sum

    sums = dict(
        LedgerEntry.objects.values("warband").annotate(t=Sum("amount")).values_list("warband", "t")
    )
    mismatched = [
        pk for pk, treasury in Warband.objects.values_list("pk", "treasury") if sums[pk] != treasury
    ]
    assert not mismatched, f"ledger and treasury disagree for {len(mismatched)} warbands"


def percentile(values: list[float], fraction: float) -> float:
    ordered = sorted(values)
    return ordered[min(len(ordered) - 1, int(fraction * len(ordered)))]


def main() -> int:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--battles", type=int, default=1000)
    parser.add_argument("--profile-battles", type=int, default=30)
    parser.add_argument("--top", type=int, default=25, help="cProfile lines to print")
    parser.add_argument("--timeout", type=float, default=900)
    parser.add_argument("--keep-db", action="store_true", help="do not drop the database")
    parser.add_argument(
        "--concurrency",
        type=int,
        default=1,
        help="processes of the one worker (1: solo pool; more: prefork pool)",
    )
    parser.add_argument(
        "--worker-profile", metavar="PATH", help="run the worker under cProfile, stats to PATH"
    )
    parser.add_argument(
        "--show-queries", action="store_true", help="print the SQL of one profiled battle"
    )
    args = parser.parse_args()

    _configure_environment()
    database_recreate()
    redis_flush()
    import django

    django.setup()
    from django.core.management import call_command

    worker = None
    log_path = pathlib.Path(tempfile.gettempdir()) / "bench-postbattle-worker.log"
    try:
        t0 = time.perf_counter()
        call_command("migrate", verbosity=0)
        bench_round, profile_round = build(args.battles, max(3, args.profile_battles + 2))
        # Fresh statistics, as a live database has (bulk-loaded tables have none yet).
        from django.db import connection

        with connection.cursor() as cursor:
            cursor.execute("ANALYZE")
        print(f"setup: migrate + {args.battles} battles in {time.perf_counter() - t0:.1f} s")

        prof = profile(profile_round, top=args.top)
        print(f"\n== one battle in-process ({prof['battles']} battles averaged) ==")
        print(
            f"queries per battle: {prof['queries']:.1f} (max {prof['queries_max']}); "
            f"{prof['wall_ms']:.1f} ms per battle = {prof['sql_ms']:.1f} ms in SQL + "
            f"{prof['wall_ms'] - prof['sql_ms']:.1f} ms in Python"
        )
        print(prof["cprofile"])
        if args.show_queries:
            for seconds, sql in prof["last_queries"]:
                print(f"{1000 * seconds:6.2f} ms  {sql[:150]}")

        worker = worker_start(log_path, args.worker_profile, args.concurrency)
        outcome = run_round(bench_round, log_path, timeout=args.timeout)
        worker_stop(worker)
        worker = None
        verify(bench_round, outcome["job"], args.battles)
        tasks = outcome["tasks"]
        elapsed = outcome["elapsed"]
        pool = (
            "solo pool" if args.concurrency == 1 else f"prefork pool, {args.concurrency} processes"
        )
        print(f"== {args.battles} battles, one worker ({pool}) ==")
        print(f"wall time: {elapsed:.1f} s (enqueueing {outcome['enqueue']:.2f} s)")
        print(f"battles/s: {args.battles / elapsed:.1f}")
        print(f"wall time per battle: {1000 * elapsed / args.battles:.1f} ms")
        gaps = outcome["per_battle"]
        if gaps:
            print(
                f"time per battle (gaps between runs' applied_at): mean "
                f"{1000 * statistics.mean(gaps):.1f} ms, p50 {1000 * percentile(gaps, 0.5):.1f}"
                f" ms, p90 {1000 * percentile(gaps, 0.9):.1f} ms, max {1000 * max(gaps):.1f} ms"
            )
        if tasks:
            print(
                f"tasks (worker log): {len(tasks)}, mean {1000 * statistics.mean(tasks):.1f} ms, "
                f"sum {sum(tasks):.1f} s"
            )
        print("verified: every battle resolved exactly once (1 applied run, 2 results each)")
        projected = elapsed * 1000 / args.battles
        print(
            f"target (< 60 s for 1,000 battles, projected {projected:.0f} s): "
            f"{'met' if projected < 60 else 'NOT met'}"
        )
        return 0
    finally:
        worker_stop(worker)
        if not args.keep_db:
            database_drop()
        redis_flush()


if __name__ == "__main__":
    sys.exit(main())
