"""The database out of reach: 503 with Retry-After, the error shape under /api/, a translated
page elsewhere, one log line per outage (not a traceback per request), and the site back by
itself when the database is.

The site runs as deployed (gunicorn with gunicorn.conf.py, DEBUG off) against a database that is
not there, or behind a relay the test cuts and restores (PostgreSQL restarting, as the site
sees it: every open connection dropped, new ones refused).
"""

from __future__ import annotations

import contextlib
import json
import os
import selectors
import socket
import subprocess
import threading
import time
import urllib.error
import urllib.request
from pathlib import Path

import pytest
from django.conf import settings
from django.db import connection

from tests.conftest import IN_CI, ROOT

pytestmark = pytest.mark.django_db(transaction=True)


def _free_port() -> int:
    with socket.socket() as sock:
        sock.bind(("127.0.0.1", 0))
        return sock.getsockname()[1]


class Site:
    """gunicorn serving the project with ``database_url``; its log in ``log_path``."""

    def __init__(self, database_url: str, log_path: Path):
        self.port = _free_port()
        self.log_path = log_path
        environment = {
            **os.environ,
            "DEBUG": "false",
            "SECRET_KEY": "outage-test-" + "k" * 50,
            "DATABASE_URL": database_url,
            "WEB_BIND": f"127.0.0.1:{self.port}",
            "WEB_WORKERS": "1",
            "WEB_THREADS": "4",
            "DB_CONNECT_TIMEOUT": "2",
        }
        environment.pop("REDIS_URL", None)
        gunicorn = ROOT / ".venv" / "bin" / "gunicorn"
        self.output = log_path.open("wb")
        # gunicorn's log and the site's (Django logs to the console) in one file.
        self.process = subprocess.Popen(  # noqa: S603 - fixed command line
            [
                str(gunicorn) if gunicorn.exists() else "gunicorn",
                "-c",
                "gunicorn.conf.py",
                "annuminas.wsgi:application",
            ],
            cwd=ROOT,
            env=environment,
            stdout=self.output,
            stderr=subprocess.STDOUT,
        )
        for _ in range(150):
            try:
                socket.create_connection(("127.0.0.1", self.port), timeout=0.2).close()
                return
            except OSError:
                time.sleep(0.1)
        self.stop()
        pytest.fail("gunicorn did not start")

    def get(self, path: str, *, language: str | None = None, headers: dict | None = None):
        request = urllib.request.Request(  # noqa: S310 - the test's own server
            f"http://127.0.0.1:{self.port}{path}", headers=headers or {}
        )
        if language:
            request.add_header("Cookie", f"annuminas_language={language}")
        try:
            with urllib.request.urlopen(request, timeout=30) as response:  # noqa: S310
                return response.status, response.headers, response.read().decode()
        except urllib.error.HTTPError as error:
            return error.code, error.headers, error.read().decode()

    def log(self) -> str:
        return self.log_path.read_text(errors="replace")

    def stop(self) -> None:
        self.process.terminate()
        self.process.wait(timeout=30)
        self.output.close()


def test_no_database_answers_503_once_logged(tmp_path):
    """Nothing listens where the database should be: every request that needs it gets 503."""
    site = Site("postgres://postgres@127.0.0.1:1/annuminas_missing", tmp_path / "site.log")
    try:
        status, headers, page = site.get("/campaigns/")
        assert status == 503
        assert headers["Retry-After"] == "30"
        assert headers["Cache-Control"] == "no-store"
        assert 'lang="es"' in page and "Volvemos enseguida" in page
        assert "script-src 'self'" in headers["Content-Security-Policy"]

        _status, _headers, english = site.get("/campaigns/", language="en")
        assert 'lang="en"' in english and "Back in a moment" in english

        status, headers, body = site.get("/api/v1/campaigns/")
        assert status == 503
        assert headers["Retry-After"] == "30"
        error = json.loads(body)["error"]
        assert error["code"] == "service_unavailable"
        assert set(error) == {"code", "message", "fields"}

        for _ in range(20):
            assert site.get("/campaigns/")[0] == 503
            assert site.get("/api/v1/catalogue/equipment/")[0] == 503
    finally:
        site.stop()
    log = site.log()
    assert log.count("database unreachable") == 1, log
    assert "Traceback" not in log, log


class Relay:
    """A TCP relay to PostgreSQL that the test can cut (every connection dropped, new ones
    refused) and restore, as a database restart looks from the site."""

    def __init__(self, host: str, port: int):
        self.target = (host, port)
        self.listener = socket.create_server(("127.0.0.1", 0))
        self.port = self.listener.getsockname()[1]
        self.up = True
        self.pairs: list[tuple[socket.socket, socket.socket]] = []
        self.lock = threading.Lock()
        self.running = True
        threading.Thread(target=self._accept, daemon=True).start()

    def _accept(self) -> None:
        while self.running:
            try:
                client, _address = self.listener.accept()
            except OSError:
                return
            if not self.up:
                client.close()
                continue
            server = socket.create_connection(self.target)
            with self.lock:
                self.pairs.append((client, server))
            threading.Thread(target=self._pump, args=(client, server), daemon=True).start()

    @staticmethod
    def _pump(client: socket.socket, server: socket.socket) -> None:
        selector = selectors.DefaultSelector()
        selector.register(client, selectors.EVENT_READ, server)
        selector.register(server, selectors.EVENT_READ, client)
        try:
            while True:
                for key, _events in selector.select():
                    data = key.fileobj.recv(65536)
                    if not data:
                        return
                    key.data.sendall(data)
        except OSError:
            return
        finally:
            client.close()
            server.close()

    def cut(self) -> None:
        self.up = False
        with self.lock:
            for client, server in self.pairs:
                for sock in (client, server):
                    with contextlib.suppress(OSError):
                        sock.shutdown(socket.SHUT_RDWR)
            self.pairs.clear()

    def restore(self) -> None:
        self.up = True

    def close(self) -> None:
        self.running = False
        self.cut()
        self.listener.close()


@pytest.fixture
def postgres():
    if connection.vendor != "postgresql":
        if IN_CI:
            pytest.fail("CI runs the suite on PostgreSQL")
        pytest.skip("needs PostgreSQL (DATABASE_URL)")
    return settings.DATABASES["default"]


def test_a_database_restart_is_one_outage_and_the_site_comes_back_by_itself(tmp_path, postgres):
    relay = Relay(postgres.get("HOST") or "127.0.0.1", int(postgres.get("PORT") or 5432))
    user = postgres.get("USER") or "postgres"
    url = f"postgres://{user}@127.0.0.1:{relay.port}/{connection.settings_dict['NAME']}"
    site = Site(url, tmp_path / "site.log")
    try:
        assert site.get("/api/v1/catalogue/equipment/")[0] == 200  # connections opened, kept
        relay.cut()
        answers = [site.get("/api/v1/catalogue/equipment/")[0] for _ in range(15)]
        assert set(answers) == {503}, answers
        relay.restore()
        assert site.get("/api/v1/catalogue/equipment/")[0] == 200
        assert site.get("/campaigns/")[0] == 200
    finally:
        site.stop()
        relay.close()
    log = site.log()
    assert log.count("database unreachable") == 1, log
    assert log.count("database reachable again") == 1, log
    assert "Traceback" not in log, log
