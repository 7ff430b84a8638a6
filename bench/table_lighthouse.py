"""The table page Lighthouse measures (bench/README.md, "The table page on a phone"): a database
with the demo league, the demo player's battle of the second round set up at the table (both
warbands' warriors, first turn started), and a session of the demo player. Prints the page's
path and the session cookie for ``lighthouse --extra-headers``.

Run from the project root (PostgreSQL at 127.0.0.1; the database is created if missing):

    DATABASE_URL=postgres://postgres@127.0.0.1:5432/annuminas_lighthouse \\
        .venv/bin/python bench/table_lighthouse.py
"""

from __future__ import annotations

import os
import pathlib
import sys
import uuid
from importlib import import_module

ROOT = pathlib.Path(__file__).resolve().parents[1]
sys.path.insert(0, str(ROOT))
sys.path.insert(0, str(ROOT / "bench"))
os.environ.setdefault("DEBUG", "true")
os.environ.setdefault("DJANGO_SETTINGS_MODULE", "annuminas.settings")


def main() -> None:
    from bench_sheet import DEFAULT_DATABASE_URL, ensure_database

    os.environ.setdefault("DATABASE_URL", DEFAULT_DATABASE_URL)
    ensure_database(os.environ["DATABASE_URL"])
    import django

    django.setup()
    from django.conf import settings
    from django.contrib.auth import (
        BACKEND_SESSION_KEY,
        HASH_SESSION_KEY,
        SESSION_KEY,
        get_user_model,
    )
    from django.core.management import call_command

    from battles.battlelog import prebattle, services
    from battles.models import Battle, BattleSetup

    call_command("migrate", verbosity=0)
    call_command("bootstrap_demo", verbosity=0)
    user = get_user_model().objects.get(username="demo")
    battle = (
        Battle.objects.filter(participants__warband__owner=user, status=Battle.Status.SCHEDULED)
        .order_by("pk")
        .first()
    )
    if not BattleSetup.objects.filter(battle=battle).exists():
        first = battle.participants.order_by("pk").first().warband_id
        prebattle.battle_log_setup(
            battle=battle, by=user, client_id=uuid.uuid4(), scenario="Escaramuza", first=first
        )
        services.battle_log_append(
            battle=battle,
            by=user,
            kind="turn",
            payload={"turn": 1, "side": first},
            client_id=uuid.uuid4(),
        )
    session = import_module(settings.SESSION_ENGINE).SessionStore()
    session[SESSION_KEY] = str(user.pk)
    session[BACKEND_SESSION_KEY] = "django.contrib.auth.backends.ModelBackend"
    session[HASH_SESSION_KEY] = user.get_session_auth_hash()
    session.create()
    print(f"/battles/{battle.pk}/table/")
    print(f"{settings.SESSION_COOKIE_NAME}={session.session_key}")


if __name__ == "__main__":
    main()
