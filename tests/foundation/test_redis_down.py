"""Redis unreachable: the site degrades instead of answering 500.

The cache points at a port nothing listens on (or at a throw-away ``redis-server`` that is
stopped in the middle of the test): logins, anonymous API calls, API writes and the API sheet
still answer; throttles fail open; a task that cannot be queued is logged, not raised.
"""

import json
import shutil
import socket
import subprocess
import time

import pytest
from celery import Celery
from kombu.exceptions import OperationalError as KombuOperationalError
from redis.exceptions import ConnectionError as RedisConnectionError
from rest_framework.test import APIClient, APIRequestFactory
from rest_framework.views import APIView

from annuminas.tasks import enqueue_safely
from tests.battles.factories import *  # noqa: F403 - league fixtures

pytestmark = pytest.mark.django_db

CLOSED_PORT_URL = "redis://127.0.0.1:1/0"  # nothing listens on port 1


def _redis_cache(url: str) -> dict:
    return {
        "default": {
            "BACKEND": "annuminas.cache.ResilientRedisCache",
            "LOCATION": url,
            "KEY_PREFIX": "annuminas-test-redis-down",
            "OPTIONS": {"RETRY_AFTER": 0},
        }
    }


@pytest.fixture
def redis_down(settings):
    settings.CACHES = _redis_cache(CLOSED_PORT_URL)
    from django.core.cache import cache

    assert cache.get("anything", "miss") == "miss"  # the backend answers, Redis does not


def _free_port() -> int:
    with socket.socket() as sock:
        sock.bind(("127.0.0.1", 0))
        return sock.getsockname()[1]


@pytest.fixture
def throwaway_redis():
    """A private redis-server (never the shared one), stopped by the test or at teardown."""
    binary = shutil.which("redis-server")
    if not binary:
        pytest.skip("redis-server is not installed: the closed-port tests cover the same code")
    port = _free_port()
    process = subprocess.Popen(  # noqa: S603 - fixed command line
        [binary, "--port", str(port), "--save", "", "--appendonly", "no", "--bind", "127.0.0.1"],
        stdout=subprocess.DEVNULL,
        stderr=subprocess.DEVNULL,
    )
    deadline = time.monotonic() + 10
    while time.monotonic() < deadline:
        try:
            socket.create_connection(("127.0.0.1", port), timeout=0.2).close()
            break
        except OSError:
            time.sleep(0.05)
    try:
        yield port, process
    finally:
        if process.poll() is None:
            process.terminate()
            process.wait(timeout=10)


def test_login_page_works_with_redis_down(redis_down, client, make_user, password):
    user = make_user("arvedui")
    response = client.post("/accounts/login/", {"login": user.username, "password": password})
    assert response.status_code == 302
    assert client.get("/accounts/profile/").status_code == 200


def test_token_endpoint_works_with_redis_down(redis_down, make_user, password):
    user = make_user("araphant")
    client = APIClient()
    response = client.post(
        "/api/v1/auth/token/", {"username": user.username, "password": password}, format="json"
    )
    assert response.status_code == 200, response.content
    assert response.json()["token"]


def test_anonymous_api_calls_work_with_redis_down(redis_down, league):
    client = APIClient()
    assert client.post("/api/v1/rules/roll/", {"expression": "2d6"}, format="json").status_code == (
        200
    )
    assert client.get("/api/v1/catalogue/equipment/").status_code == 200
    response = client.get("/api/v1/warbands/")
    assert response.status_code == 401
    assert set(response.json()["error"]) == {"code", "message", "fields"}


def test_api_writes_and_the_sheet_work_with_redis_down(redis_down, league):
    warband = league.warband(0)
    client = APIClient()
    client.force_authenticate(league.user(0))
    response = client.patch(
        f"/api/v1/warbands/{warband.pk}/", {"name": "Los Osos", "version": warband.version}
    )
    assert response.status_code == 200, response.content
    warband.refresh_from_db()
    assert warband.name == "Los Osos"
    sheet = client.get(f"/api/v1/warbands/{warband.pk}/sheet/")
    assert sheet.status_code == 200, sheet.content
    assert sheet.json()["name"] == "Los Osos"


def test_redis_stopped_mid_test(settings, throwaway_redis, league):
    port, process = throwaway_redis
    settings.CACHES = _redis_cache(f"redis://127.0.0.1:{port}/0")
    from django.core.cache import cache

    warband = league.warband(0)
    client = APIClient()
    client.force_authenticate(league.user(0))
    url = f"/api/v1/warbands/{warband.pk}/sheet/"
    assert client.get(url).status_code == 200
    cache.set("probe", 1)
    assert cache.get("probe") == 1  # Redis is really in use

    process.terminate()
    process.wait(timeout=10)

    assert cache.get("probe") is None
    assert client.get(url).status_code == 200
    response = client.patch(
        f"/api/v1/warbands/{warband.pk}/", {"name": "Sin Redis", "version": warband.version}
    )
    assert response.status_code == 200, response.content
    anonymous = APIClient()
    assert anonymous.get("/api/v1/catalogue/equipment/").status_code == 200


def test_a_task_that_cannot_be_queued_is_logged_not_raised(caplog):
    app = Celery("redis-down-test", broker=CLOSED_PORT_URL, set_as_current=False)
    app.conf.broker_connection_timeout = 1

    @app.task(name="redis_down_test.noop")
    def noop(value):
        return value

    with caplog.at_level("WARNING", logger="annuminas.tasks"):
        assert enqueue_safely(noop, 1) is False
    assert "could not queue redis_down_test.noop" in caplog.text


def test_a_task_is_queued_when_the_broker_answers():
    app = Celery("eager-test", set_as_current=False)
    app.conf.task_always_eager = True
    ran = []

    @app.task(name="eager_test.record")
    def record(value):
        ran.append(value)

    assert enqueue_safely(record, 7) is True
    assert ran == [7]


class _NeedsRedis(APIView):
    permission_classes: list = []

    def post(self, request):
        raise KombuOperationalError("Error 111 connecting to 127.0.0.1:6379. Connection refused.")


def test_an_api_request_that_cannot_reach_redis_answers_503_in_the_error_shape(rf):
    response = _NeedsRedis.as_view()(APIRequestFactory().post("/api/v1/x/", {}, format="json"))
    assert response.status_code == 503
    response.render()
    error = json.loads(response.content)["error"]
    assert error["code"] == "service_unavailable"
    assert set(error) == {"code", "message", "fields"}
    assert response["Retry-After"] == "60"


def test_a_page_that_cannot_reach_redis_answers_503(rf):
    from annuminas.middleware import BackendUnavailableMiddleware

    middleware = BackendUnavailableMiddleware(lambda request: None)
    request = rf.post("/battles/1/resolve/")
    response = middleware.process_exception(request, RedisConnectionError("refused"))
    assert response.status_code == 503
    assert response["Retry-After"] == "60"
    assert middleware.process_exception(request, ValueError("a bug")) is None  # still a 500


def test_a_task_sent_while_redis_is_down_with_a_result_backend_is_logged_not_raised(
    throwaway_redis, caplog
):
    """Follow-up work is fire and forget: with Redis stopped, a send through an app that has a
    Redis result backend is logged and refused at once (the review saw the project's app retry a
    result subscription for ~20 s and raise RuntimeError, so a committed resolve answered 500;
    ``enqueue_safely`` now sends with ``ignore_result``)."""
    port, process = throwaway_redis
    url = f"redis://127.0.0.1:{port}/0"
    app = Celery("redis-down-backend-test", broker=url, backend=url, set_as_current=False)
    app.conf.broker_connection_timeout = 1

    @app.task(name="redis_down_backend_test.noop")
    def noop(value):
        return value

    assert enqueue_safely(noop, 1) is True
    process.terminate()
    process.wait(timeout=10)
    started = time.monotonic()
    with caplog.at_level("WARNING", logger="annuminas.tasks"):
        assert enqueue_safely(noop, 2) is False
    assert time.monotonic() - started < 1  # no retrying a result subscription
    assert "could not queue redis_down_backend_test.noop" in caplog.text
