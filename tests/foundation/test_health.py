import pytest
from django.db import connection

pytestmark = pytest.mark.django_db


def test_healthz_reports_database_and_broker(client, settings):
    response = client.get("/healthz")
    body = response.json()
    assert response.status_code == 200
    assert body["status"] == "ok"
    assert body["database"] == {"ok": True, "vendor": connection.vendor}
    if settings.REDIS_URL:
        assert body["broker"]["mode"] == "redis"
    else:
        assert body["broker"]["mode"] == "in-process"
        assert "in-process" in body["broker"]["detail"] or "proceso" in body["broker"]["detail"]


def test_healthz_without_broker_says_tasks_run_in_process(client, settings):
    settings.REDIS_URL = ""
    body = client.get("/healthz", HTTP_ACCEPT_LANGUAGE="en").json()
    assert body["broker"] == {
        "ok": True,
        "mode": "in-process",
        "detail": body["broker"]["detail"],
    }
    assert body["status"] == "ok"


def test_healthz_with_broker_down_answers_503(client, settings):
    settings.REDIS_URL = "redis://127.0.0.1:1/0"  # nothing listens on port 1
    response = client.get("/healthz")
    assert response.status_code == 503
    body = response.json()
    assert body["status"] == "unavailable"
    assert body["broker"]["ok"] is False
    assert body["database"]["ok"] is True


def test_healthz_rejects_writes(client):
    assert client.post("/healthz").status_code == 405
