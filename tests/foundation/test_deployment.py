"""The deployment as shipped: the Dockerfile's order, gunicorn's settings, docker-compose secure
by default and its local override without TLS.

CI also plays the Dockerfile's steps and serves the result (.ci/smoke.py); these tests keep the
files honest on every run of the suite.
"""

import os
import re
import shlex
import socket
import subprocess
import sys
import time
import urllib.request

import pytest
import yaml

from tests.conftest import ROOT

SECURE = {
    "SECURE_SSL_REDIRECT": "true",
    "SESSION_COOKIE_SECURE": "true",
    "CSRF_COOKIE_SECURE": "true",
    "SECURE_HSTS_INCLUDE_SUBDOMAINS": "true",
}


def dockerfile() -> list[tuple[str, str]]:
    text = re.sub(r"\\\n", " ", (ROOT / "Dockerfile").read_text())
    lines = [line.strip() for line in text.splitlines()]
    return [
        (line.split(None, 1)[0].upper(), line.split(None, 1)[1])
        for line in lines
        if line and not line.startswith("#")
    ]


def test_the_image_chooses_the_manifest_storage_before_collectstatic():
    """collectstatic writes the manifest only with the manifest storage on: in the other order
    every page of the image answered 500 (no manifest entry for any {% static %})."""
    instructions = dockerfile()
    collect = next(
        i
        for i, (word, args) in enumerate(instructions)
        if word == "RUN" and "collectstatic" in args
    )
    env_before = {}
    for word, args in instructions[:collect]:
        if word == "ENV":
            env_before.update(dict(pair.split("=", 1) for pair in shlex.split(args)))
    assert env_before.get("STATIC_MANIFEST") == "true"
    assert env_before.get("WHITENOISE_USE_FINDERS") == "false"
    command = next(args for word, args in instructions if word == "CMD")
    assert "gunicorn.conf.py" in command


def _compose(*files: str) -> dict:
    """The merged services of the compose files (later files win key by key, as compose does),
    with ${VAR:-default} resolved to its default."""
    services: dict = {}
    for name in files:
        text = (ROOT / name).read_text()
        text = re.sub(r"\$\{(\w+):-([^}]*)\}", lambda m: m.group(2), text)
        text = re.sub(r"\$\{(\w+):\?[^}]*\}", "from-dot-env", text)
        for service, config in (yaml.safe_load(text)["services"] or {}).items():
            merged = services.setdefault(service, {})
            for key, value in config.items():
                if isinstance(value, dict) and isinstance(merged.get(key), dict):
                    merged[key] = {**merged[key], **value}
                else:
                    merged[key] = value
    return services


def test_compose_is_secure_by_default_and_passes_check_deploy():
    services = _compose("docker-compose.yml")
    for name in ("web", "worker", "beat", "migrate"):
        environment = services[name]["environment"]
        assert {key: environment[key] for key in SECURE} == SECURE, name
        assert int(environment["SECURE_HSTS_SECONDS"]) >= 31536000
        assert environment["SITE_URL"].startswith("https://")
    assert services["proxy"]["image"].startswith("caddy")
    assert "ports" not in services["web"]  # reached through the TLS proxy only
    environment = {key: str(value) for key, value in services["web"]["environment"].items()}
    environment.update(
        SECRET_KEY="compose-test-" + "k" * 50,
        DATABASE_URL="sqlite:////tmp/annuminas-compose-check.sqlite3",
        PATH=os.environ["PATH"],
    )
    environment.pop("REDIS_URL")
    check = subprocess.run(
        [sys.executable, "manage.py", "check", "--deploy"],
        cwd=ROOT,
        env=environment,
        capture_output=True,
        text=True,
        check=False,
    )
    output = check.stdout + check.stderr
    warnings = set(re.findall(r"\((security\.\w+)\)", output))
    assert check.returncode == 0, output
    assert warnings <= {"security.W021"}, output  # HSTS preload: the operator's decision


def test_the_local_override_runs_without_tls():
    services = _compose("docker-compose.yml", "docker-compose.local.yml")
    for name in ("web", "worker", "beat"):
        environment = services[name]["environment"]
        assert environment["SECURE_SSL_REDIRECT"] == "false"
        assert environment["SESSION_COOKIE_SECURE"] == "false"
        assert environment["SECURE_HSTS_SECONDS"] == "0"
        assert environment["SITE_URL"] == "http://localhost:8000"
    assert services["web"]["ports"] == ["127.0.0.1:8000:8000"]
    assert services["proxy"]["profiles"] == ["tls"]  # not started without --profile tls


def test_the_worker_health_check_reaches_the_database_and_the_proxy_hides_its_name():
    services = _compose("docker-compose.yml")
    assert "annuminas.worker_health" in " ".join(services["worker"]["healthcheck"]["test"])
    caddyfile = (ROOT / "Caddyfile").read_text()
    assert "reverse_proxy web:8000" in caddyfile
    assert "header -Server" in caddyfile
    assert "encode" not in caddyfile  # compression is the app's (it knows what not to compress)


def _free_port() -> int:
    with socket.socket() as sock:
        sock.bind(("127.0.0.1", 0))
        return sock.getsockname()[1]


def test_gunicorn_as_configured_answers_without_a_server_header(tmp_path):
    """gunicorn.conf.py: threaded workers, and no ``Server: gunicorn`` on the answers."""
    port = _free_port()
    environment = {
        **os.environ,
        "DEBUG": "false",
        "SECRET_KEY": "gunicorn-test-" + "k" * 50,
        "DATABASE_URL": f"sqlite:///{tmp_path / 'db.sqlite3'}",
        "WEB_BIND": f"127.0.0.1:{port}",
        "WEB_WORKERS": "1",
        "WEB_THREADS": "2",
    }
    environment.pop("REDIS_URL", None)
    gunicorn = ROOT / ".venv" / "bin" / "gunicorn"
    command = [str(gunicorn) if gunicorn.exists() else "gunicorn", "-c", "gunicorn.conf.py"]
    server = subprocess.Popen(  # noqa: S603 - fixed command line
        [*command, "--error-logfile", str(tmp_path / "errors.log"), "annuminas.wsgi:application"],
        cwd=ROOT,
        env=environment,
    )
    try:
        for _ in range(100):
            try:
                with urllib.request.urlopen(f"http://127.0.0.1:{port}/healthz", timeout=2) as r:
                    headers = r.headers
                    break
            except OSError:
                time.sleep(0.2)
        else:
            pytest.fail("gunicorn did not answer")
    finally:
        server.terminate()
        server.wait(timeout=30)
    assert "Server" not in headers
    assert "script-src 'self'" in headers["Content-Security-Policy"]
    log = (tmp_path / "errors.log").read_text()
    assert "Using worker: gthread" in log, log
