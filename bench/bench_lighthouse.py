"""Lighthouse (mobile preset) on one page of the site as deployed, signed in as a given user.

Run from the project root, with Lighthouse 11 installed outside the project (it is a Node
tool; version 12 dropped the installability audit) and Debian's Chromium:

    npm install --prefix /tmp/lh lighthouse@11
    .venv/bin/python bench/bench_lighthouse.py --database-url postgres://…/annuminas_bench_league \\
        --user <username> --path /campaigns/<slug>/standings/ [--runs 5] [--port 8790]

It collects the static files as the image does (hashed names, compressed, the manifest), starts
gunicorn with ``gunicorn.conf.py`` and ``DEBUG=false`` on the given database, signs the user in
by making a session for him in that database (no password needed), then runs Lighthouse
``--runs`` times with the session cookie and prints, per run, the performance score, whether
the app is installable, FCP, LCP, TBT, CLS, speed index and the DOM size, then the median, and
the load average the runs saw (the machine's neighbours move TBT more than the page does).
"""

from __future__ import annotations

import argparse
import http.client
import json
import os
import pathlib
import statistics
import subprocess
import sys
import tempfile
import time

ROOT = pathlib.Path(__file__).resolve().parents[1]
SECRET_KEY = "bench-lighthouse-" + "k" * 50
CHROME_FLAGS = "--headless --no-sandbox --disable-gpu --disable-background-networking"


def site_env(args, static_root: str) -> dict[str, str]:
    return {
        **os.environ,
        "DATABASE_URL": args.database_url,
        "DEBUG": "false",
        "SECRET_KEY": SECRET_KEY,
        "ALLOWED_HOSTS": "127.0.0.1,localhost",
        "STATIC_MANIFEST": "true",
        "WHITENOISE_USE_FINDERS": "false",
        "STATIC_ROOT": static_root,
        "WEB_BIND": f"127.0.0.1:{args.port}",
        "LOG_LEVEL": "WARNING",
        "CELERY_TASK_ALWAYS_EAGER": "true",
    }


def session_cookie(env: dict[str, str], username: str) -> str:
    """A session for ``username`` in the site's database: the cookie's value."""
    code = (
        "import django, sys; django.setup()\n"
        "from django.contrib.auth import get_user_model, HASH_SESSION_KEY, SESSION_KEY, "
        "BACKEND_SESSION_KEY\n"
        "from django.contrib.sessions.backends.db import SessionStore\n"
        f"user = get_user_model().objects.get(username={username!r})\n"
        "s = SessionStore()\n"
        "s[SESSION_KEY] = str(user.pk)\n"
        "s[BACKEND_SESSION_KEY] = 'django.contrib.auth.backends.ModelBackend'\n"
        "s[HASH_SESSION_KEY] = user.get_session_auth_hash()\n"
        "s.create()\n"
        "print(s.session_key)\n"
    )
    out = subprocess.run(
        [str(ROOT / ".venv/bin/python"), "-c", code],
        cwd=ROOT,
        env={**env, "DJANGO_SETTINGS_MODULE": "annuminas.settings"},
        check=True,
        capture_output=True,
        text=True,
    )
    return out.stdout.strip().splitlines()[-1]


def wait_until_up(port: int) -> None:
    for _ in range(100):
        try:
            connection = http.client.HTTPConnection("127.0.0.1", port, timeout=2)
            connection.request("GET", "/healthz")
            if connection.getresponse().status == 200:
                return
        except OSError:
            pass
        time.sleep(0.3)
    raise SystemExit("the site did not start")


def lighthouse(args, url: str, cookie: str, out: pathlib.Path) -> dict:
    headers = json.dumps({"Cookie": f"sessionid={cookie}", "Accept-Language": args.language})
    subprocess.run(
        [
            args.lighthouse,
            url,
            "--quiet",
            "--output=json",
            f"--output-path={out}",
            "--only-categories=performance,pwa",
            "--form-factor=mobile",
            f"--chrome-flags={CHROME_FLAGS}",
            f"--extra-headers={headers}",
        ],
        check=True,
        env={**os.environ, "CHROME_PATH": args.chromium},
    )
    report = json.loads(out.read_text())
    audits = report["audits"]

    def ms(key: str) -> float:
        return audits[key]["numericValue"]

    installable = audits.get("installable-manifest", {}).get("score") == 1
    return {
        "performance": report["categories"]["performance"]["score"],
        "installable": installable,
        "fcp": ms("first-contentful-paint"),
        "lcp": ms("largest-contentful-paint"),
        "tbt": ms("total-blocking-time"),
        "cls": audits["cumulative-layout-shift"]["numericValue"],
        "si": ms("speed-index"),
        "dom": audits["dom-size"]["numericValue"],
        "bytes": audits["total-byte-weight"]["numericValue"],
    }


def main() -> None:
    parser = argparse.ArgumentParser()
    parser.add_argument("--database-url", required=True)
    parser.add_argument("--user", required=True)
    parser.add_argument("--path", required=True)
    parser.add_argument("--runs", type=int, default=5)
    parser.add_argument("--port", type=int, default=8790)
    parser.add_argument("--language", default="es")
    parser.add_argument(
        "--lighthouse",
        default="/tmp/lh/node_modules/.bin/lighthouse",  # noqa: S108 - where the README installs it
    )
    parser.add_argument("--chromium", default="/usr/bin/chromium")
    args = parser.parse_args()
    with tempfile.TemporaryDirectory(prefix="annuminas-lh-") as tmp:
        env = site_env(args, f"{tmp}/static")
        subprocess.run(
            [str(ROOT / ".venv/bin/python"), "manage.py", "collectstatic", "--noinput", "-v0"],
            cwd=ROOT,
            env=env,
            check=True,
        )
        cookie = session_cookie(env, args.user)
        web = subprocess.Popen(
            [str(ROOT / ".venv/bin/gunicorn"), "-c", "gunicorn.conf.py", "annuminas.wsgi"],
            cwd=ROOT,
            env=env,
        )
        try:
            wait_until_up(args.port)
            url = f"http://127.0.0.1:{args.port}{args.path}"
            runs = []
            print(f"{'run':>3} {'perf':>5} {'inst':>5} {'FCP':>6} {'LCP':>6} {'TBT':>6} "
                  f"{'CLS':>5} {'SI':>6} {'DOM':>6} {'KiB':>6} load")  # fmt: skip
            for n in range(1, args.runs + 1):
                result = lighthouse(args, url, cookie, pathlib.Path(tmp) / f"run{n}.json")
                runs.append(result)
                print(
                    f"{n:>3} {result['performance']:>5.2f} {str(result['installable']):>5} "
                    f"{result['fcp'] / 1000:>5.1f}s {result['lcp'] / 1000:>5.1f}s "
                    f"{result['tbt']:>5.0f}ms {result['cls']:>5.2f} {result['si'] / 1000:>5.1f}s "
                    f"{result['dom']:>6.0f} {result['bytes'] / 1024:>6.0f} "
                    f"{os.getloadavg()[0]:.1f}",
                    flush=True,
                )
            scores = [r["performance"] for r in runs]
            print(f"median performance {statistics.median(scores):.2f} "
                  f"(min {min(scores):.2f}, max {max(scores):.2f})")  # fmt: skip
        finally:
            web.terminate()
            web.wait(timeout=30)


if __name__ == "__main__":
    sys.exit(main())
