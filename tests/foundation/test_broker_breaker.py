"""Redis down never makes a request wait: one attempt to queue, a short connect timeout, then a
circuit breaker that does not try the broker again for a while (bench/bench_redis_down.py
measures a roster write with the broker gone: bench/README.md).
"""

import shutil
import socket
import subprocess
import threading
import time

import pytest
from celery import Celery
from django.conf import settings

from annuminas.tasks import enqueue_safely
from tests.foundation.test_redis_down import _free_port


def _app(url: str) -> Celery:
    """A Celery app with the project's broker settings, pointed at ``url``."""
    app = Celery("breaker-test", broker=url, set_as_current=False)
    app.conf.broker_connection_timeout = settings.CELERY_BROKER_CONNECTION_TIMEOUT
    app.conf.broker_transport_options = settings.CELERY_BROKER_TRANSPORT_OPTIONS
    return app


def test_the_broker_settings_give_up_fast():
    assert settings.CELERY_BROKER_CONNECTION_TIMEOUT <= 1
    assert settings.CELERY_BROKER_TRANSPORT_OPTIONS["max_retries"] == 0
    assert settings.CELERY_BROKER_TRANSPORT_OPTIONS["socket_connect_timeout"] <= 1
    # Every command is bounded too, above the 1 s a worker's BRPOP waits for a message.
    assert 1 < settings.CELERY_BROKER_TRANSPORT_OPTIONS["socket_timeout"] <= 3
    assert settings.CELERY_REDIS_SOCKET_CONNECT_TIMEOUT <= 1
    assert settings.BROKER_RETRY_AFTER >= 5


class _HangUp:
    """A server that accepts connections and hangs up at once (or, ``silent``, keeps them open
    and never answers, as a frozen Redis does), counting them."""

    def __init__(self, *, silent: bool = False):
        self.listener = socket.create_server(("127.0.0.1", 0))
        self.port = self.listener.getsockname()[1]
        self.accepted = 0
        self.silent = silent
        self.held: list[socket.socket] = []
        threading.Thread(target=self._serve, daemon=True).start()

    def _serve(self):
        while True:
            try:
                client, _address = self.listener.accept()
            except OSError:
                return
            self.accepted += 1
            if self.silent:
                self.held.append(client)
            else:
                client.close()


def test_a_send_tries_the_broker_once_then_the_breaker_holds(settings, caplog):
    settings.BROKER_RETRY_AFTER = 60
    server = _HangUp()
    app = _app(f"redis://127.0.0.1:{server.port}/0")

    @app.task(name="breaker_test.noop")
    def noop(value):
        return value

    with caplog.at_level("INFO"):
        assert enqueue_safely(noop, 1) is False
        time.sleep(0.2)
        tried = server.accepted
        assert tried == 1  # no retrying loop (kombu's default tried for 6 s)
        for value in range(20):
            assert enqueue_safely(noop, value) is False
        time.sleep(0.2)
    assert server.accepted == tried  # the breaker: not one more connection
    assert caplog.text.count("the task broker (Redis) unreachable") == 1
    assert "not queued breaker_test.noop: the broker is unreachable" in caplog.text
    server.listener.close()


def test_a_redis_that_never_answers_does_not_hold_the_send(settings):
    """Accepted and never answered: the send gives up (the socket timeout), then the breaker
    skips the broker. Without a socket timeout it waited for good."""
    settings.BROKER_RETRY_AFTER = 60
    server = _HangUp(silent=True)
    app = _app(f"redis://127.0.0.1:{server.port}/0")

    @app.task(name="silent_test.noop")
    def noop(value):
        return value

    assert enqueue_safely(noop, 1) is False
    assert enqueue_safely(noop, 2) is False
    assert server.accepted == 1
    server.listener.close()


def test_the_breaker_closes_when_redis_answers_again(settings, caplog):
    """Redis down, then up: sends are skipped while the breaker is open (even with Redis
    back), then go through, and the log says so once each way."""
    if not shutil.which("redis-server"):
        pytest.skip("redis-server is not installed: the hang-up test covers the breaker")
    settings.BROKER_RETRY_AFTER = 1.0
    port = _free_port()
    app = _app(f"redis://127.0.0.1:{port}/0")

    @app.task(name="breaker_back_test.noop")
    def noop(value):
        return value

    with caplog.at_level("INFO"):
        assert enqueue_safely(noop, 1) is False  # nothing listens: refused, breaker open
        server = subprocess.Popen(  # noqa: S603 - fixed command line
            ["redis-server", "--port", str(port), "--save", "", "--appendonly", "no"],  # noqa: S607
            stdout=subprocess.DEVNULL,
        )
        try:
            for _ in range(50):
                try:
                    socket.create_connection(("127.0.0.1", port), timeout=0.2).close()
                    break
                except OSError:
                    time.sleep(0.05)
            assert enqueue_safely(noop, 2) is False  # Redis is up, but not tried yet
            time.sleep(settings.BROKER_RETRY_AFTER + 0.2)
            assert enqueue_safely(noop, 3) is True
            assert enqueue_safely(noop, 4) is True
        finally:
            server.terminate()
            server.wait(timeout=10)
    assert caplog.text.count("the task broker (Redis) answers again") == 1


class _Clock:
    def __init__(self):
        self.now = 1000.0

    def __call__(self) -> float:
        return self.now


def test_a_breaker_waits_longer_after_each_failed_retry_and_resets_on_success(monkeypatch):
    """5 s, then 10, 20, 40, and never more than a minute; an answer resets it."""
    from annuminas import breaker as module

    clock = _Clock()
    monkeypatch.setattr(module.time, "monotonic", clock)
    breaker = module.CircuitBreaker("Redis", retry_after=5, max_retry_after=60)
    error = ConnectionError("refused")
    breaker.failed(error)
    pauses = []
    for _ in range(6):
        opened = clock.now
        while breaker.skipping():
            clock.now += 1
        pauses.append(clock.now - opened)
        breaker.failed(error)  # the retry fails
    assert pauses == [5, 10, 20, 40, 60, 60]
    breaker.failed(ConnectionError("a second thread's failure, same moment"))
    assert breaker.skipping()  # does not double again
    clock.now += 61
    breaker.succeeded()
    breaker.failed(error)
    opened = clock.now
    while breaker.skipping():
        clock.now += 1
    assert clock.now - opened == 5
