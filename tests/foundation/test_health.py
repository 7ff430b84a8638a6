import pytest
import redis
from django.db import connection

pytestmark = pytest.mark.django_db


@pytest.fixture
def staff_client(client, make_user):
    client.force_login(make_user("warden", is_staff=True))
    return client


def test_healthz_reports_database_and_broker(staff_client, settings):
    response = staff_client.get("/healthz")
    body = response.json()
    assert response.status_code == 200
    assert body["status"] == "ok"
    assert body["database"] == {"ok": True, "vendor": connection.vendor}
    if settings.REDIS_URL:
        assert body["broker"]["mode"] == "redis"
    else:
        assert body["broker"]["mode"] == "in-process"
        assert "in-process" in body["broker"]["detail"] or "proceso" in body["broker"]["detail"]


def test_healthz_without_broker_says_tasks_run_in_process(staff_client, settings):
    settings.REDIS_URL = ""
    body = staff_client.get("/healthz", HTTP_ACCEPT_LANGUAGE="en").json()
    assert body["broker"] == {
        "ok": True,
        "mode": "in-process",
        "detail": body["broker"]["detail"],
    }
    assert body["status"] == "ok"


def test_healthz_with_broker_down_answers_503(staff_client, settings):
    settings.REDIS_URL = "redis://127.0.0.1:1/0"  # nothing listens on port 1
    response = staff_client.get("/healthz")
    assert response.status_code == 503
    body = response.json()
    assert body["status"] == "unavailable"
    assert body["broker"]["ok"] is False
    assert "127.0.0.1:1" in body["broker"]["error"]  # staff see the reason
    assert body["database"]["ok"] is True


def test_healthz_shows_anonymous_visitors_states_only(client, settings):
    settings.REDIS_URL = "redis://127.0.0.1:1/0"
    response = client.get("/healthz")
    assert response.status_code == 503
    assert response.json() == {
        "status": "unavailable",
        "database": {"ok": True},
        "broker": {"ok": False},
    }
    assert "127.0.0.1" not in response.content.decode()


def test_healthz_shows_plain_users_states_only(client, make_user):
    client.force_login(make_user("player"))
    assert client.get("/healthz").json() == {
        "status": "ok",
        "database": {"ok": True},
        "broker": {"ok": True},
    }


def test_healthz_rejects_writes(client):
    assert client.post("/healthz").status_code == 405


@pytest.fixture
def broker_up(settings, monkeypatch):
    """A broker that answers (tasks still run in-process, as the test settings have them)."""
    settings.REDIS_URL = "redis://broker.invalid:6379/0"
    monkeypatch.setattr(redis.Redis, "ping", lambda self: True)


def test_healthz_worker_round_trip_for_staff(staff_client, broker_up):
    body = staff_client.get("/healthz?worker=1").json()
    assert body["broker"]["worker"] == {"pong": True, "database": True}


@pytest.mark.parametrize("signed_in", [False, True])
def test_healthz_worker_round_trip_is_not_for_others(client, make_user, broker_up, signed_in):
    if signed_in:
        client.force_login(make_user("player"))
    response = client.get("/healthz?worker=1")
    assert response.status_code == 200
    assert response.json() == {"status": "ok", "database": {"ok": True}, "broker": {"ok": True}}
