"""Gunicorn's settings: the image's command, docker-compose, CI's smoke test and the load
benchmark all start the site with ``gunicorn -c gunicorn.conf.py annuminas.wsgi:application``.

Threaded workers (``gthread``): four processes of two threads on a two-core box. A request
here is mostly the CPU Django spends on it (~20 ms, ``bench/bench_load.py``) plus a few ms
waiting on PostgreSQL and Redis. Python runs one thread at a time in a process, and a thread
back from a query waits for the others' turn to end: with two processes of four threads
(the former default) a 28 ms league page delayed the three requests beside it. Four processes
leave that sharing to the operating system's scheduler, and the second thread of each keeps
a slow request (a password check, ~0.3 s by design) from holding its process — synchronous
workers queued everything behind it (fifty players logging in at once timed out on two).
Fifty players on two quiet cores (bench/README.md): p95 111 ms with 4 × 2, 252–269 ms with
2 × 4. Each process costs ~115 MB. Eight threads in all, as before: eight database connections
per container, and at most eight logins in flight (allauth counts a login against the
per-address failed-login limit until it succeeds, so more than ten at once from one address
were refused).
"""

import os
from pathlib import Path

from gunicorn.http import wsgi

bind = os.environ.get("WEB_BIND", "0.0.0.0:8000")
worker_class = "gthread"
workers = int(os.environ.get("WEB_WORKERS", "4"))
threads = int(os.environ.get("WEB_THREADS", "2"))
timeout = int(os.environ.get("WEB_TIMEOUT", "30"))
graceful_timeout = 30
keepalive = 5
# A worker is replaced after this many requests (with jitter, so they do not all restart at
# once): memory a long-lived process accumulates is given back.
max_requests = 5000
max_requests_jitter = 500
# The heartbeat file on a memory file system: a container's overlay disk can stall it.
if Path("/dev/shm").is_dir():  # noqa: S108 - gunicorn's documented choice for containers
    worker_tmp_dir = "/dev/shm"  # noqa: S108


def _without_server_header(default_headers):
    """Gunicorn names itself in a ``Server`` header on every answer and has no setting to stop
    it; the name and the version only help someone looking for a known hole."""

    def headers(self):
        return [line for line in default_headers(self) if not line.startswith("Server:")]

    return headers


wsgi.Response.default_headers = _without_server_header(wsgi.Response.default_headers)
