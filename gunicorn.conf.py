"""Gunicorn's settings: the image's command, docker-compose, CI's smoke test and the load
benchmark all start the site with ``gunicorn -c gunicorn.conf.py annuminas.wsgi:application``.

Threaded workers (``gthread``): two processes for two cores (Python runs one thread at a time
in a process), four threads each. A request here is mostly the CPU Django spends on it (~30 ms,
``bench/bench_load.py``) plus a few ms waiting on PostgreSQL and Redis: the threads fill those
waits and keep a slow request (a password check, ~0.3 s by design) from holding its process,
where synchronous workers queued everything behind it (fifty players logging in at once timed
out on two of them). More threads would not add CPU; they would add queueing inside a process,
database connections (one per thread: WEB_WORKERS × WEB_THREADS per container), and logins in
flight: allauth counts a login against the per-address failed-login limit until it succeeds, so
more than ten at once from one address were refused (see bench/README.md).
"""

import os
from pathlib import Path

from gunicorn.http import wsgi

bind = os.environ.get("WEB_BIND", "0.0.0.0:8000")
worker_class = "gthread"
workers = int(os.environ.get("WEB_WORKERS", "2"))
threads = int(os.environ.get("WEB_THREADS", "4"))
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
