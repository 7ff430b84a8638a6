"""A real Celery worker against Redis and the test database (PostgreSQL)."""

import pytest

from annuminas.tasks import ping

pytestmark = [pytest.mark.worker, pytest.mark.redis]


def test_ping_round_trip_through_a_real_worker(celery_worker):
    result = ping.delay()
    assert result.get(timeout=30) == {"pong": True, "database": True}


def test_healthz_can_ask_the_worker(celery_worker, client, make_user):
    response = client.get("/healthz?worker=1")  # not staff: the plain answer, no round trip
    assert response.status_code == 200
    assert response.json()["broker"] == {"ok": True}
    client.force_login(make_user("warden", is_staff=True))
    response = client.get("/healthz?worker=1")
    assert response.status_code == 200
    assert response.json()["broker"]["worker"] == {"pong": True, "database": True}


def test_healthz_worker_check_fails_without_a_worker(
    transactional_db, client, redis_url, make_user
):
    from annuminas.celery import app

    app.control.purge()
    client.force_login(make_user("warden", is_staff=True))
    response = client.get("/healthz?worker=1")
    assert response.status_code == 503
    assert response.json()["broker"]["worker"]["pong"] is False  # staff see the detail
