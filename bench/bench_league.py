"""A league of 8, 64 and 512 warbands: the standings and campaign pages, the standings API, and
drawing a round's pairings, on PostgreSQL.

Run from the project root (PostgreSQL at 127.0.0.1; the database is created if missing):

    .venv/bin/python bench/bench_league.py [--sizes 8 64 512] [--rounds 4] [--fighters 6]

For each size it builds, in bulk (the bench measures reads and the draw, not the building), a
running campaign of that many warbands with ``--fighters`` fighters each, and plays
``--rounds`` Swiss rounds: each round is drawn by ``pairings_generate`` (the service, timed and
counted) and then its battles are confirmed in bulk with a winner, the fighters who took part
and two enemies put out of action. Then it asks each page as the organiser and as a player
through Django's test client (the whole stack in process: middleware, view, template), and
reports the median server time of ``--repeat`` requests, the bytes sent (uncompressed), the
statements run, and the time and statements of drawing one more round. "ms" is the wall time
(the database's share included, and whatever a busy machine adds); "CPU ms" the bench process's
own CPU time. It also times the pairing of 64 and 512 players whose bottom 14 have all met each
other, and prints the load average the run saw.
"""

from __future__ import annotations

import argparse
import os
import pathlib
import random
import statistics
import sys
import time
from itertools import combinations
from urllib.parse import urlparse

ROOT = pathlib.Path(__file__).resolve().parents[1]
sys.path.insert(0, str(ROOT))
DEFAULT_DATABASE_URL = "postgres://postgres@127.0.0.1:5432/annuminas_bench_league"


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


def build(size: int, fighters: int, tag: str):
    """A running campaign of ``size`` warbands (users, warbands, fighters, memberships)."""
    from django.contrib.auth import get_user_model
    from django.contrib.auth.hashers import UNUSABLE_PASSWORD_PREFIX

    from battles.campaigns import services
    from battles.models import Campaign, Membership
    from warbands.models import Fighter, Warband, WarbandType

    kind = WarbandType.objects.get(slug="mercenarios-de-rhovanion")
    soldier = kind.fighter_types.filter(role="henchman").order_by("cost", "pk").first()
    users = get_user_model().objects.bulk_create(
        get_user_model()(username=f"{tag}-{n}", password=UNUSABLE_PASSWORD_PREFIX)
        for n in range(size + 1)
    )
    organiser, players = users[0], users[1:]
    campaign = services.campaign_create(organiser=organiser, name=f"Liga {tag}", preset="legends")
    warbands = Warband.objects.bulk_create(
        Warband(owner=user, warband_type=kind, name=f"Banda {n:03d}", rating=100 + n % 97)
        for n, user in enumerate(players)
    )
    Fighter.objects.bulk_create(
        Fighter(warband=warband, fighter_type=soldier, name=f"Guerrero {i}")
        for warband in warbands
        for i in range(fighters)
    )
    Membership.objects.bulk_create(
        Membership(campaign=campaign, user=user, warband=warband)
        for user, warband in zip(players, warbands, strict=True)
    )
    Campaign.objects.filter(pk=campaign.pk).update(state=Campaign.State.RUNNING, public=True)
    campaign.refresh_from_db()
    return campaign, organiser, players[0]


def draw(campaign, organiser):
    """Open the next round and draw it: (round, seconds, statements)."""
    from django.db import connection
    from django.test.utils import CaptureQueriesContext

    from battles.campaigns import services
    from battles.models import Round

    round = services.round_open(campaign=campaign, by=organiser)
    with CaptureQueriesContext(connection) as captured:
        started = time.perf_counter()
        services.pairings_generate(round=round, by=organiser, method=Round.Method.SWISS)
        elapsed = time.perf_counter() - started
    return round, elapsed, len(captured)


def confirm(round, rnd: random.Random) -> None:
    """Every battle of ``round`` confirmed: a winner, the fighters, two enemies out of action."""
    from django.db.models import F

    from battles.models import Battle, BattleEvent, BattleParticipant
    from warbands.models import Fighter

    participants = list(
        BattleParticipant.objects.filter(battle__round=round, battle__is_bye=False).order_by(
            "battle_id", "id"
        )
    )
    by_battle: dict[int, list] = {}
    for participant in participants:
        by_battle.setdefault(participant.battle_id, []).append(participant)
    fighters: dict[int, list[int]] = {}
    for fighter_id, warband_id in Fighter.objects.filter(
        warband_id__in=[p.warband_id for p in participants]
    ).values_list("id", "warband_id"):
        fighters.setdefault(warband_id, []).append(fighter_id)
    events, through = [], BattleParticipant.fighters.through
    links = []
    for battle_id, (a, b) in by_battle.items():
        winner, loser = (a, b) if rnd.random() < 0.5 else (b, a)
        winner.result, loser.result = "win", "loss"
        for participant in (a, b):
            links += [
                through(battleparticipant_id=participant.pk, fighter_id=f)
                for f in fighters[participant.warband_id]
            ]
        events += [
            BattleEvent(
                battle_id=battle_id,
                turn=turn,
                kind=BattleEvent.Kind.OUT_OF_ACTION,
                actor_warband_id=winner.warband_id,
                target_warband_id=loser.warband_id,
            )
            for turn in (1, 2)
        ]
    BattleParticipant.objects.bulk_update(participants, ["result"])
    through.objects.bulk_create(links)
    BattleEvent.objects.bulk_create(events)
    Battle.objects.filter(round=round, is_bye=False).update(
        status=Battle.Status.CONFIRMED, version=F("version") + 1
    )


def measure(client, path: str, repeat: int) -> dict:
    from django.db import connection
    from django.test.utils import CaptureQueriesContext

    times, cpu, size, statements = [], [], 0, 0
    client.get(path, HTTP_ACCEPT_LANGUAGE="es")  # warm: templates compiled, connection open
    for _ in range(repeat):
        with CaptureQueriesContext(connection) as captured:
            started, started_cpu = time.perf_counter(), time.process_time()
            response = client.get(path, HTTP_ACCEPT_LANGUAGE="es")
            times.append(time.perf_counter() - started)
            cpu.append(time.process_time() - started_cpu)
        assert response.status_code == 200, (path, response.status_code)
        size, statements = len(response.content), len(captured)
    return {
        "ms": statistics.median(times) * 1000,
        "cpu": statistics.median(cpu) * 1000,
        "kb": size / 1024,
        "queries": statements,
    }


def bottom_group(count: int, group: int) -> float:
    """Seconds to pair ``count`` players whose bottom ``group`` have all met each other."""
    from battles.campaigns.pairing import swiss_pairings

    players = list(range(count))
    played = {frozenset(pair) for pair in combinations(players[-group:], 2)}
    started = time.perf_counter()
    result = swiss_pairings(players, played=played, points={p: count - p for p in players})
    assert result.rematches == 0
    return time.perf_counter() - started


def main() -> None:
    parser = argparse.ArgumentParser()
    parser.add_argument("--sizes", type=int, nargs="+", default=[8, 64, 512])
    parser.add_argument("--rounds", type=int, default=4)
    parser.add_argument("--fighters", type=int, default=6)
    parser.add_argument("--repeat", type=int, default=5)
    args = parser.parse_args()
    os.environ.setdefault("DATABASE_URL", DEFAULT_DATABASE_URL)
    os.environ.setdefault("DJANGO_SETTINGS_MODULE", "annuminas.settings")
    os.environ.setdefault("DEBUG", "false")
    os.environ.setdefault("SECRET_KEY", "bench-" + "x" * 60)
    os.environ.setdefault("ALLOWED_HOSTS", "testserver")
    if os.environ["DATABASE_URL"].startswith("postgres"):
        ensure_database(os.environ["DATABASE_URL"])

    import django

    django.setup()
    from django.core.management import call_command
    from django.db import connection
    from django.test import Client
    from django.test.utils import setup_test_environment

    from warbands import constraints
    from warbands.content_loader import content_pack_load

    setup_test_environment()
    call_command("migrate", verbosity=0)
    content_pack_load()
    constraints._validators.clear()  # the bench builds rosters in bulk, not through services
    rnd = random.Random(1)
    stamp = int(time.time())
    print(f"{'warbands':>8} {'page':<28} {'ms':>8} {'CPU ms':>8} {'KB':>8} {'queries':>8}")
    for size in args.sizes:
        campaign, organiser, player = build(size, args.fighters, f"b{stamp}-{size}")
        for _ in range(args.rounds):
            round, _elapsed, _statements = draw(campaign, organiser)
            confirm(round, rnd)
            round.status = round.Status.CLOSED
            round.save(update_fields=["status"])
        with connection.cursor() as cursor:  # as autovacuum would after so many rows
            cursor.execute("ANALYZE")  # (SQLite too: its planner reads the same statistics)
        _round, elapsed, statements = draw(campaign, organiser)
        label = "draw a round (pairings)"
        print(f"{size:>8} {label:<28} {elapsed * 1000:>8.0f} {'':>8} {'':>8} {statements:>8}")
        pages = {
            "standings": f"/campaigns/{campaign.slug}/standings/",
            "campaign": f"/campaigns/{campaign.slug}/",
            "standings API": f"/api/v1/campaigns/{campaign.slug}/standings/",
        }
        for who, user in (("organiser", organiser), ("player", player)):
            client = Client()
            client.force_login(user)
            for name, path in pages.items():
                result = measure(client, path, args.repeat)
                label = f"{name} ({who})"
                print(
                    f"{size:>8} {label:<28} {result['ms']:>8.0f} {result['cpu']:>8.0f} "
                    f"{result['kb']:>8.1f} {result['queries']:>8}"
                )
    for count in (64, 512):
        print(f"pairing {count} players, bottom 14 all met: {bottom_group(count, 14):.2f} s")
    print("load average (1, 5, 15 min):", " ".join(f"{n:.1f}" for n in os.getloadavg()))


if __name__ == "__main__":
    main()
