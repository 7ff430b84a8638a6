"""Backups, as docs/operations.md tells an operator to take and restore them (PostgreSQL only).

- A dump (``pg_dump -Fc``) restored into an empty database: migrations all applied, every
  warband's treasury equal to its ledger (``check_ledger``), and the site serves the restored
  campaign as it was.
- A database restored to an older state while the cache still holds pages of the newer one: the
  sheet shows the restored roster, and after a new change the new roster — never a page cached
  for the same version number in the lost timeline (the cache keys carry the database's epoch).
"""

from __future__ import annotations

import json
import os
import shutil
import subprocess
import sys
from itertools import count

import pytest
from django.conf import settings
from django.core.exceptions import ValidationError
from django.db import connection, connections
from rest_framework.authtoken.models import Token
from rest_framework.test import APIClient

from battles.demo.seeding import play_round
from battles.models import Round
from tests.battles.factories import *  # noqa: F403 - league fixtures
from tests.conftest import IN_CI, ROOT
from tests.foundation.test_database_outage import Site
from warbands import services as warband_services
from warbands.models import Equipment, Warband
from warbands.services import equipment_price

pytestmark = pytest.mark.django_db(transaction=True)


@pytest.fixture
def postgres() -> dict:
    if connection.vendor != "postgresql":
        if IN_CI:
            pytest.fail("CI runs the suite on PostgreSQL")
        pytest.skip("backups are PostgreSQL dumps: set DATABASE_URL to a PostgreSQL database")
    for tool in ("pg_dump", "pg_restore", "psql"):
        if not shutil.which(tool):
            pytest.fail(f"{tool} is missing (apt-get install postgresql-client)")
    return settings.DATABASES["default"]


def _libpq_env(database: dict) -> dict[str, str]:
    return {
        **os.environ,
        "PGHOST": database.get("HOST") or "127.0.0.1",
        "PGPORT": str(database.get("PORT") or 5432),
        "PGUSER": database.get("USER") or "postgres",
        "PGPASSWORD": database.get("PASSWORD") or "",
    }


def _run(command: list[str], env: dict[str, str]) -> subprocess.CompletedProcess:
    return subprocess.run(command, env=env, cwd=ROOT, capture_output=True, text=True, check=True)  # noqa: S603


def _dump(database: dict, path) -> None:
    connections.close_all()  # what was committed is in the dump; nothing holds a transaction
    _run(["pg_dump", "-Fc", "--no-owner", "-f", str(path), connection.settings_dict["NAME"]],
         _libpq_env(database))  # fmt: skip


def test_a_dump_restored_into_an_empty_database_serves_the_campaign(
    tmp_path, postgres, make_league
):
    league = make_league(players=4)
    play_round(league.campaign, league.organiser, Round.Method.SWISS, count(7))
    token = Token.objects.create(user=league.organiser)
    standings_before = (
        APIClient(HTTP_AUTHORIZATION=f"Token {token.key}")
        .get(f"/api/v1/campaigns/{league.campaign.slug}/standings/")
        .json()
    )
    dump = tmp_path / "annuminas.dump"
    _dump(postgres, dump)

    env = _libpq_env(postgres)
    restored = f"{connection.settings_dict['NAME']}_restored"
    _run(["psql", "-d", "postgres", "-q", "-c", f'DROP DATABASE IF EXISTS "{restored}"'], env)
    _run(["psql", "-d", "postgres", "-q", "-c", f'CREATE DATABASE "{restored}"'], env)
    try:
        _run(["pg_restore", "--no-owner", "--exit-on-error", "-d", restored, str(dump)], env)
        url = f"postgres://{env['PGUSER']}@{env['PGHOST']}:{env['PGPORT']}/{restored}"
        app_env = {**env, "DATABASE_URL": url, "DEBUG": "false",
                   "SECRET_KEY": "restore-test-" + "k" * 50}  # fmt: skip
        app_env.pop("REDIS_URL", None)
        manage = [sys.executable, "manage.py"]
        assert "No migrations to apply" in _run([*manage, "migrate", "--noinput"], app_env).stdout
        ledger = _run([*manage, "check_ledger"], app_env)
        assert "match its ledger" in ledger.stdout
        site = Site(url, tmp_path / "site.log")
        try:
            status, _headers, body = site.get(
                f"/api/v1/campaigns/{league.campaign.slug}/standings/",
                headers={"Authorization": f"Token {token.key}"},
            )
        finally:
            site.stop()
        assert status == 200, body
        assert json.loads(body) == standings_before
    finally:
        connections.close_all()
        _run(["psql", "-d", "postgres", "-q", "-c", f'DROP DATABASE IF EXISTS "{restored}"'], env)


def _stash_items(warband: Warband) -> list[tuple[int, Equipment]]:
    """Two items the warband may buy for its stash, at two different prices, dearer first."""
    found: dict[int, Equipment] = {}
    for item in Equipment.objects.order_by("cost", "pk"):
        try:
            unit, _total, entry = equipment_price(warband=warband, equipment=item)
        except ValidationError:
            continue
        if not entry.is_rare and 0 < unit <= 40:
            found.setdefault(unit, item)
        if len(found) == 2:
            return sorted(found.items(), reverse=True)
    pytest.fail("the content pack offers no two stash items at different prices")


def test_a_restored_database_is_never_served_from_the_lost_timelines_cache(
    tmp_path, postgres, make_league
):
    league = make_league()
    warband, owner = league.warband(0), league.user(0)
    client = APIClient()
    client.force_authenticate(owner)

    def sheet() -> tuple[int, int]:
        data = client.get(f"/api/v1/warbands/{warband.pk}/sheet/").json()
        return data["version"], data["treasury"]

    (_dearer_price, dearer), (cheaper_price, cheaper) = _stash_items(warband)
    version, treasury = sheet()
    dump = tmp_path / "before.dump"
    _dump(postgres, dump)

    warband_services.equipment_buy(warband=warband, equipment=dearer)
    lost_version, lost_treasury = sheet()  # cached: the lost timeline's next version
    assert lost_version == version + 1 and lost_treasury < treasury

    connections.close_all()
    _run(["pg_restore", "--clean", "--if-exists", "--no-owner", "--exit-on-error",
          "-d", connection.settings_dict["NAME"], str(dump)], _libpq_env(postgres))  # fmt: skip

    assert sheet() == (version, treasury)  # the restored roster
    warband_services.equipment_buy(warband=Warband.objects.get(pk=warband.pk), equipment=cheaper)
    new_version, new_treasury = sheet()
    assert new_version == lost_version  # the same number again…
    assert new_treasury == treasury - cheaper_price != lost_treasury  # …not the lost page
