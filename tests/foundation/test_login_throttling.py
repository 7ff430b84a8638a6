"""Failed logins are limited per login name and per address, on the API's token endpoint and on
the login page, before any password is hashed.

The limits are the settings' ``ACCOUNT_RATE_LIMITS["login_failed"]``: 10 a minute per address,
5 in 5 minutes per login name.
"""

import json
import time

import pytest
from django.contrib.auth.hashers import MD5PasswordHasher
from django.core.cache import cache
from rest_framework.test import APIClient

pytestmark = pytest.mark.django_db

TOKEN_URL = "/api/v1/auth/token/"
PER_NAME = 5
PER_ADDRESS = 10


@pytest.fixture(autouse=True)
def _fresh_limits(settings):
    # A fast hasher for the users made here; counted to prove a refused attempt hashes nothing.
    settings.PASSWORD_HASHERS = ["tests.foundation.test_login_throttling.CountingHasher"]
    CountingHasher.verified = 0
    cache.clear()
    yield
    cache.clear()


class CountingHasher(MD5PasswordHasher):
    verified = 0

    def verify(self, password, encoded):
        CountingHasher.verified += 1
        return super().verify(password, encoded)


def _token(client, username, password, address="10.0.0.1"):
    return client.post(
        TOKEN_URL,
        {"username": username, "password": password},
        format="json",
        REMOTE_ADDR=address,
        HTTP_ACCEPT_LANGUAGE="en",
    )


def _error(response, status):
    assert response.status_code == status, response.content
    body = json.loads(response.content)
    assert set(body["error"]) == {"code", "message", "fields"}
    return body["error"]


def _later(monkeypatch, seconds):
    """The clock moves on (the limits' windows and the local cache's expiry follow time.time)."""
    now = time.time()
    monkeypatch.setattr(time, "time", lambda: now + seconds)


def test_token_endpoint_refuses_after_failures_even_the_right_password(
    make_user, password, monkeypatch
):
    user = make_user("boromir")
    client = APIClient()
    for _attempt in range(PER_NAME):
        _error(_token(client, user.username, "wrong"), 400)

    hashed_before = CountingHasher.verified
    refused = _token(client, user.username, "wrong")
    error = _error(refused, 429)
    assert error["code"] == "throttled"
    assert error["message"] == "Too many failed logins. Try again in 5 minutes."
    assert 290 < int(refused["Retry-After"]) <= 300
    _error(_token(client, user.username, password), 429)  # the right password, still refused
    assert CountingHasher.verified == hashed_before  # refused before any hashing

    _later(monkeypatch, 5 * 60 + 1)
    response = _token(client, user.username, password)
    assert response.status_code == 200, response.content


def test_a_success_does_not_reset_the_failures(make_user, password):
    user = make_user("faramir")
    client = APIClient()
    for _attempt in range(PER_NAME - 1):
        _error(_token(client, user.username, "wrong"), 400)
    assert _token(client, user.username, password).status_code == 200
    _error(_token(client, user.username, "wrong"), 400)  # the fifth failure
    _error(_token(client, user.username, password), 429)


def test_the_per_address_limit_covers_other_names(make_user, password):
    victim = make_user("denethor")
    client = APIClient()
    for attempt in range(PER_ADDRESS):
        _error(_token(client, f"guess-{attempt}", "wrong"), 400)
    _error(_token(client, victim.username, password), 429)  # a name never tried, same address
    assert _token(client, victim.username, password, address="10.0.0.2").status_code == 200


def test_login_page_answers_429_after_failures(client, make_user, password, monkeypatch):
    user = make_user("ecthelion")
    for _attempt in range(PER_NAME):
        response = client.post("/accounts/login/", {"login": user.username, "password": "wrong"})
        assert response.status_code == 200
    hashed_before = CountingHasher.verified
    response = client.post("/accounts/login/", {"login": user.username, "password": password})
    assert response.status_code == 429
    assert CountingHasher.verified == hashed_before
    assert "_auth_user_id" not in client.session

    _later(monkeypatch, 5 * 60 + 1)
    response = client.post("/accounts/login/", {"login": user.username, "password": password})
    assert response.status_code == 302
    assert client.session["_auth_user_id"] == str(user.pk)


def test_page_and_api_share_the_failure_count(client, make_user, password):
    user = make_user("hurin")
    api = APIClient()
    for _attempt in range(PER_NAME):
        _error(_token(api, user.username, "wrong", address="127.0.0.1"), 400)
    response = client.post("/accounts/login/", {"login": user.username, "password": password})
    assert response.status_code == 429


def test_admin_login_goes_through_the_limited_login_page(client, make_user, password):
    staff = make_user("imrahil", is_staff=True)
    response = client.get("/admin/")
    assert response.status_code == 302
    assert response["Location"] == "/admin/login/?next=/admin/"
    response = client.get("/admin/login/?next=/admin/warbands/")
    assert response.status_code == 302
    assert response["Location"] == "/accounts/login/?next=/admin/warbands/"

    for _attempt in range(PER_NAME):
        response = client.post("/accounts/login/", {"login": staff.username, "password": "wrong"})
        assert response.status_code == 200
    hashed_before = CountingHasher.verified
    # The admin's own form used to check the password with ModelBackend, past the limit.
    response = client.post(
        "/admin/login/?next=/admin/", {"username": staff.username, "password": password}
    )
    assert response.status_code == 302
    assert response["Location"].startswith("/accounts/login/")
    assert CountingHasher.verified == hashed_before
    assert "_auth_user_id" not in client.session
    response = client.post("/accounts/login/", {"login": staff.username, "password": password})
    assert response.status_code == 429


def test_admin_login_for_someone_signed_in(client, make_user):
    client.force_login(make_user("beregond"))
    assert client.get("/admin/login/?next=/admin/").status_code == 403  # not staff: no loop
    client.force_login(make_user("hirgon", is_staff=True))
    response = client.get("/admin/login/?next=/admin/")
    assert response.status_code == 302
    assert response["Location"] == "/admin/"
