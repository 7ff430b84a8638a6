"""Smoke test of the image as built: the Dockerfile's steps played without Docker, then served.

It reads the Dockerfile, keeps the environment its ENV lines set, runs its ``manage.py`` steps
(collectstatic with the manifest storage, into a temporary STATIC_ROOT) in that environment,
migrates its own database and seeds the demo account (a player with a warband and a league),
then starts the Dockerfile's CMD (gunicorn with gunicorn.conf.py) with DEBUG off and checks, as
a visitor would: the home page, the login page, signing in, the warband list and sheet, the
league's page and standings, and the API docs answer 2xx (after redirects); every stylesheet,
script and image those pages name answers 200 from a hashed (manifest) name; pages come gzipped
when asked; there is a Content-Security-Policy and no Server header; the server logged no
traceback. Where a Docker engine answers it also builds the image and runs the same checks
against a container; without one it says so and skips that part.

Needs PostgreSQL and Redis at 127.0.0.1 (as .ci/run) and `make install`. Run it alone with
`.venv/bin/python .ci/smoke.py` (SMOKE_PORT, SMOKE_DB, SMOKE_REDIS_DB choose what it uses).
"""

from __future__ import annotations

import gzip
import http.cookiejar
import json
import os
import re
import secrets
import shlex
import shutil
import subprocess
import sys
import tempfile
import time
import urllib.error
import urllib.parse
import urllib.request
from html.parser import HTMLParser
from pathlib import Path

ROOT = Path(__file__).resolve().parent.parent
PORT = int(os.environ.get("SMOKE_PORT", "8102"))
DOCKER_PORT = PORT + 1
DB_NAME = os.environ.get("SMOKE_DB", "annuminas_smoke")
REDIS_DB = os.environ.get("SMOKE_REDIS_DB", "2")
DATABASE_URL = f"postgres://postgres@127.0.0.1:5432/{DB_NAME}"
REDIS_URL = f"redis://127.0.0.1:6379/{REDIS_DB}"
DEMO_LOGIN = ("demo", "annuminas-demo")  # settings.DEMO_USERNAME / DEMO_PASSWORD
HASHED = re.compile(r"\.[0-9a-f]{12}\.[a-z0-9]+$")


def step(text: str) -> None:
    print(f"--- {text}", flush=True)


def fail(text: str) -> None:
    print(f"SMOKE FAILED: {text}", flush=True)
    sys.exit(1)


# --- The Dockerfile, played -------------------------------------------------------------------


def dockerfile_instructions() -> list[tuple[str, str]]:
    """(INSTRUCTION, arguments) in order, continuation lines joined, comments dropped."""
    text = (ROOT / "Dockerfile").read_text()
    lines = [line for line in text.splitlines() if not line.lstrip().startswith("#")]
    joined = re.sub(r"\\\n", " ", "\n".join(lines))
    instructions = []
    for line in joined.splitlines():
        if line.strip():
            keyword, _space, arguments = line.strip().partition(" ")
            instructions.append((keyword.upper(), arguments.strip()))
    return instructions


def env_pairs(arguments: str) -> dict[str, str]:
    pairs = {}
    for word in shlex.split(arguments):
        key, _equals, value = word.partition("=")
        pairs[key] = value
    return pairs


def play_dockerfile(static_root: str, base_env: dict[str, str]) -> tuple[dict, list[str]]:
    """Run the Dockerfile's manage.py steps with the ENV in force at each; answer the image's
    environment and its CMD."""
    image_env: dict[str, str] = {}
    command: list[str] = []
    ran = 0
    for keyword, arguments in dockerfile_instructions():
        if keyword == "ENV":
            image_env.update(env_pairs(arguments))
        elif keyword == "RUN" and "manage.py" in arguments:
            step(f"Dockerfile: RUN {arguments}")
            env = {**base_env, **image_env, "STATIC_ROOT": static_root}
            subprocess.run(["sh", "-c", arguments], cwd=ROOT, env=env, check=True)  # noqa: S603,S607
            ran += 1
        elif keyword == "CMD":
            command = json.loads(arguments)
    if not ran or not command:
        fail("the Dockerfile has no manage.py step or no CMD in exec form")
    return image_env, command


# --- A visitor ---------------------------------------------------------------------------------


class Assets(HTMLParser):
    """The stylesheets, scripts, icons and images a page names, and its forms' CSRF token."""

    def __init__(self):
        super().__init__()
        self.urls: list[str] = []
        self.links: list[str] = []
        self.csrf = ""

    def handle_starttag(self, tag, attrs):
        attributes = dict(attrs)
        if tag == "link" and {"stylesheet", "icon"} & set((attributes.get("rel") or "").split()):
            self.urls.append(attributes.get("href") or "")
        elif tag in ("script", "img") and attributes.get("src"):
            self.urls.append(attributes["src"])
        elif tag == "a" and attributes.get("href"):
            self.links.append(attributes["href"])
        elif tag == "input" and attributes.get("name") == "csrfmiddlewaretoken":
            self.csrf = attributes.get("value") or ""


class Visitor:
    def __init__(self, base: str):
        self.base = base
        self.jar = http.cookiejar.CookieJar()
        self.opener = urllib.request.build_opener(urllib.request.HTTPCookieProcessor(self.jar))
        self.checked_assets: set[str] = set()

    def fetch(self, path: str, *, data: dict | None = None, headers: dict | None = None):
        url = urllib.parse.urljoin(self.base, path)
        body = urllib.parse.urlencode(data).encode() if data is not None else None
        request = urllib.request.Request(url, data=body, headers=headers or {})  # noqa: S310
        try:
            with self.opener.open(request, timeout=30) as response:
                return response.status, response.headers, response.read(), response.url
        except urllib.error.HTTPError as error:
            return error.code, error.headers, error.read(), url

    def page(self, path: str, *, data: dict | None = None) -> tuple[str, Assets]:
        status, headers, body, url = self.fetch(path, data=data)
        if not 200 <= status < 400:
            fail(f"{path} answered {status}: {body[:300]!r}")
        if "Server" in headers:
            fail(f"{path} names the server: Server: {headers['Server']}")
        policy = headers.get("Content-Security-Policy", "")
        if "script-src 'self'" not in policy or "unsafe-inline" in policy.split("style-src")[0]:
            fail(f"{path} has no strict Content-Security-Policy: {policy!r}")
        html = body.decode("utf-8")
        assets = Assets()
        assets.feed(html)
        if not assets.urls:
            fail(f"{path} names no stylesheet or script")
        for asset in assets.urls:
            self.asset(urllib.parse.urljoin(url, asset), path)
        print(f"ok  {status} {path} ({len(body)} bytes, {len(assets.urls)} assets)")
        return html, assets

    def asset(self, url: str, page: str) -> None:
        if url in self.checked_assets:
            return
        status, _headers, body, _url = self.fetch(url)
        if status != 200 or not body:
            fail(f"{page}: asset {url} answered {status} ({len(body)} bytes)")
        path = urllib.parse.urlparse(url).path
        if path.startswith("/static/") and not HASHED.search(path):
            fail(f"{page}: {path} is not a hashed name: the manifest storage is not in use")
        self.checked_assets.add(url)

    def static_in_brotli(self) -> None:
        """WhiteNoise serves the files collectstatic compressed ahead (brotli, gzip)."""
        css = next(url for url in sorted(self.checked_assets) if url.endswith(".css"))
        status, headers, _body, _url = self.fetch(css, headers={"Accept-Encoding": "br, gzip"})
        encoding = headers.get("Content-Encoding")
        if status != 200 or encoding != "br":
            fail(f"{css} is not served in brotli (status {status}, encoding {encoding})")
        print(f"ok  {urllib.parse.urlparse(css).path} in brotli")

    def compressed(self, path: str) -> None:
        status, headers, body, _url = self.fetch(path, headers={"Accept-Encoding": "gzip"})
        if status != 200 or headers.get("Content-Encoding") != "gzip":
            fail(f"{path} is not gzipped when asked (status {status})")
        gzip.decompress(body)
        print(f"ok  {path} gzipped ({len(body)} bytes on the wire)")


def visit(base: str) -> None:
    visitor = Visitor(base)
    visitor.page("/")
    _html, login_page = visitor.page("/accounts/login/")
    username, password = DEMO_LOGIN
    visitor.page(
        "/accounts/login/",
        data={"login": username, "password": password, "csrfmiddlewaretoken": login_page.csrf},
    )
    if not any(cookie.name == "sessionid" for cookie in visitor.jar):
        fail("signing in as the demo player set no session")
    home, _assets = visitor.page("/")
    if "nav-logout" not in home:
        fail("the home page after signing in does not show the signed-in menu")
    _html, warbands = visitor.page("/warbands/")
    sheets = sorted({link for link in warbands.links if re.fullmatch(r"/warbands/\d+/", link)})
    if not sheets:
        fail("the warband list links to no sheet")
    sheet, _assets = visitor.page(sheets[0])
    if "Hoja de Control de Banda" not in sheet and "tesoro" not in sheet.lower():
        fail(f"{sheets[0]} does not look like a warband sheet")
    _html, campaigns = visitor.page("/campaigns/")
    leagues = sorted(
        {link for link in campaigns.links if re.fullmatch(r"/campaigns/[-\w]+/", link)}
    )
    leagues = [link for link in leagues if not link.endswith(("/new/", "/join/"))]
    if not leagues:
        fail("the campaign list links to no campaign")
    visitor.page(leagues[0])
    visitor.page(leagues[0] + "standings/")
    visitor.page("/api/v1/docs/")
    visitor.compressed(sheets[0])
    visitor.static_in_brotli()
    visitor.compressed("/api/v1/catalogue/warband-types/")


# --- Serving ------------------------------------------------------------------------------------


def wait_until_up(base: str, process: subprocess.Popen | None) -> None:
    deadline = time.monotonic() + 90
    while time.monotonic() < deadline:
        if process is not None and process.poll() is not None:
            fail(f"the server exited with {process.returncode} before answering")
        try:
            with urllib.request.urlopen(base + "/healthz", timeout=5) as response:  # noqa: S310
                if response.status == 200:
                    return
        except (urllib.error.URLError, OSError):
            pass
        time.sleep(1)
    fail("the server did not answer /healthz within 90 s")


def database_recreate() -> None:
    for sql in (f"DROP DATABASE IF EXISTS {DB_NAME}", f"CREATE DATABASE {DB_NAME}"):
        subprocess.run(  # noqa: S603
            ["psql", "-h", "127.0.0.1", "-U", "postgres", "-d", "postgres", "-q", "-c", sql],  # noqa: S607
            check=True,
        )


def redis_flush() -> None:
    subprocess.run(  # noqa: S603
        ["redis-cli", "-h", "127.0.0.1", "-n", REDIS_DB, "flushdb"],  # noqa: S607
        check=False,
        stdout=subprocess.DEVNULL,
    )


def runtime_env(image_env: dict[str, str]) -> dict[str, str]:
    """What docker-compose gives the container, on 127.0.0.1 without TLS."""
    return {
        **image_env,
        "DEBUG": "false",
        "SECRET_KEY": "smoke-" + secrets.token_urlsafe(40),
        "DATABASE_URL": DATABASE_URL,
        "REDIS_URL": REDIS_URL,
        "ALLOWED_HOSTS": "127.0.0.1,localhost",
    }


def serve_and_visit(base_env: dict[str, str], image_env: dict, command: list[str]) -> None:
    env = {**base_env, **runtime_env(image_env), "WEB_BIND": f"127.0.0.1:{PORT}"}
    manage = [sys.executable, "manage.py"]
    step("migrate and seed a player, his warband and a league (bootstrap_demo)")
    subprocess.run([*manage, "migrate", "--noinput", "-v0"], cwd=ROOT, env=env, check=True)  # noqa: S603
    # The demo league's round is applied in-process: no worker is needed for the data.
    seed_env = {key: value for key, value in env.items() if key != "REDIS_URL"}
    subprocess.run([*manage, "bootstrap_demo", "-v0"], cwd=ROOT, env=seed_env, check=True)  # noqa: S603
    step(f"Dockerfile: CMD {' '.join(command)} (127.0.0.1:{PORT})")
    log = tempfile.NamedTemporaryFile(prefix="annuminas-smoke-", suffix=".log", delete=False)  # noqa: SIM115
    server = subprocess.Popen(command, cwd=ROOT, env=env, stdout=log, stderr=subprocess.STDOUT)  # noqa: S603
    try:
        base = f"http://127.0.0.1:{PORT}"
        wait_until_up(base, server)
        visit(base)
    finally:
        server.terminate()
        server.wait(timeout=30)
        log.close()
    errors = Path(log.name).read_text(errors="replace")
    if "Traceback" in errors:
        print(errors[-6000:])
        fail(f"the server logged a traceback (see {log.name})")
    Path(log.name).unlink()


def docker_engine() -> bool:
    if not shutil.which("docker"):
        return False
    probe = subprocess.run(["docker", "info"], capture_output=True, check=False)  # noqa: S607
    return probe.returncode == 0


def image_build_and_visit(image_env: dict) -> None:
    if not docker_engine():
        step("no Docker engine answers here: the image build is skipped (the steps above ran)")
        return
    step("docker build")
    subprocess.run(["docker", "build", "-t", "annuminas:smoke", "."], cwd=ROOT, check=True)  # noqa: S607
    env = {**runtime_env({}), "WEB_BIND": f"127.0.0.1:{DOCKER_PORT}"}
    arguments = [item for key, value in env.items() for item in ("-e", f"{key}={value}")]
    container = subprocess.run(  # noqa: S603
        ["docker", "run", "-d", "--network", "host", *arguments, "annuminas:smoke"],  # noqa: S607
        check=True,
        capture_output=True,
        text=True,
    ).stdout.strip()
    try:
        base = f"http://127.0.0.1:{DOCKER_PORT}"
        wait_until_up(base, None)
        visit(base)
    finally:
        logs = subprocess.run(["docker", "logs", container], capture_output=True, text=True)  # noqa: S603,S607
        subprocess.run(["docker", "rm", "-f", container], capture_output=True, check=False)  # noqa: S603,S607
    if "Traceback" in logs.stdout + logs.stderr:
        print((logs.stdout + logs.stderr)[-6000:])
        fail("the container logged a traceback")


def main() -> None:
    base_env = dict(os.environ)
    base_env["PATH"] = f"{ROOT / '.venv' / 'bin'}{os.pathsep}{base_env.get('PATH', '')}"
    for name in ("DATABASE_URL", "REDIS_URL", "STATIC_MANIFEST", "WHITENOISE_USE_FINDERS"):
        base_env.pop(name, None)
    base_env.update({"DATABASE_URL": DATABASE_URL, "REDIS_URL": REDIS_URL})
    database_recreate()
    redis_flush()
    static_root = tempfile.mkdtemp(prefix="annuminas-smoke-static-")
    try:
        image_env, command = play_dockerfile(static_root, base_env)
        if image_env.get("STATIC_MANIFEST") != "true":
            fail("the Dockerfile does not turn the manifest storage on")
        if not (Path(static_root) / "staticfiles.json").is_file():
            fail("collectstatic wrote no manifest (staticfiles.json): every page would be a 500")
        serve_and_visit(base_env, {**image_env, "STATIC_ROOT": static_root}, command)
        image_build_and_visit(image_env)
    finally:
        shutil.rmtree(static_root, ignore_errors=True)
        redis_flush()
    print("smoke test passed")


if __name__ == "__main__":
    main()
