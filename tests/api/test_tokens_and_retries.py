"""Tokens per device, revoked with the password or the account; safe retries
(Idempotency-Key, the battle log's client_id); rate-limit headers and the client's real address."""

from __future__ import annotations

import uuid

import pytest
from django.core.cache import cache
from rest_framework.test import APIClient

from annuminas.api.models import ApiToken, IdempotencyKey
from tests.battles.factories import *  # noqa: F403 - the campaign fixtures
from tests.battles.factories import first_battle
from warbands.content_loader import content_pack_load
from warbands.models import Warband

pytestmark = pytest.mark.django_db


@pytest.fixture(autouse=True)
def _fresh_throttles():
    cache.clear()
    yield
    cache.clear()


def make_token(user, password, name="phone", **extra) -> dict:
    response = APIClient().post(
        "/api/v1/auth/tokens/",
        {"username": user.username, "password": password, "name": name, **extra},
        format="json",
    )
    assert response.status_code == 201, response.content
    return response.json()


def with_token(key: str) -> APIClient:
    return APIClient(HTTP_AUTHORIZATION=f"Token {key}")


# --- tokens per device ---------------------------------------------------------------------------


def test_tokens_per_device_are_made_listed_and_revoked_one_by_one(make_user, password):
    user = make_user("ana")
    phone = make_token(user, password, "Ana's phone")
    tablet = make_token(user, password, "Ana's tablet")
    assert phone["token"] != tablet["token"] and phone["prefix"] == phone["token"][:8]
    listed = with_token(phone["token"]).get("/api/v1/auth/tokens/").json()
    assert {t["name"] for t in listed["results"]} == {"Ana's phone", "Ana's tablet"}
    assert all("token" not in t for t in listed["results"])  # the key is shown once
    assert ApiToken.objects.filter(digest=phone["token"]).count() == 0  # only its hash is kept

    revoked = with_token(phone["token"]).delete(f"/api/v1/auth/tokens/{tablet['id']}/")
    assert revoked.status_code == 204
    assert with_token(tablet["token"]).get("/api/v1/me/").status_code == 401
    assert with_token(phone["token"]).get("/api/v1/me/").json()["username"] == "ana"


def test_another_users_token_is_not_found(make_user, password):
    ana, bob = make_user("ana"), make_user("bob")
    ana_token = make_token(ana, password)
    bob_token = make_token(bob, password)
    response = with_token(ana_token["token"]).delete(f"/api/v1/auth/tokens/{bob_token['id']}/")
    assert response.status_code == 404
    assert with_token(bob_token["token"]).get("/api/v1/me/").status_code == 200


def test_an_expired_token_stops_working(make_user, password):
    from datetime import timedelta

    from django.utils import timezone

    user = make_user("ana")
    soon = make_token(user, password, expires_at=(timezone.now() + timedelta(hours=1)).isoformat())
    assert with_token(soon["token"]).get("/api/v1/me/").status_code == 200
    ApiToken.objects.filter(pk=soon["id"]).update(expires_at=timezone.now() - timedelta(seconds=1))
    refused = with_token(soon["token"]).get("/api/v1/me/")
    assert refused.status_code == 401
    assert refused.json()["error"]["code"] == "authentication_failed"
    past = APIClient().post(
        "/api/v1/auth/tokens/",
        {"username": "ana", "password": password, "name": "x", "expires_at": "2000-01-01T00:00Z"},
        format="json",
    )
    assert past.status_code == 400 and "expires_at" in past.json()["error"]["fields"]


@pytest.mark.parametrize("how", ["change", "reset", "deactivate"])
def test_every_token_dies_with_the_password_or_the_account(make_user, password, how):
    user = make_user("ana")
    device = make_token(user, password)
    legacy = APIClient().post(
        "/api/v1/auth/token/", {"username": "ana", "password": password}, format="json"
    )
    assert legacy.status_code == 200
    if how == "change":  # the account page
        from django.test import Client

        browser = Client()
        browser.force_login(user)
        page = browser.post(
            "/accounts/password/change/",
            {
                "oldpassword": password,
                "password1": "Other-Horse-43!",
                "password2": "Other-Horse-43!",
            },
        )
        assert page.status_code in (200, 302)
        user.refresh_from_db()
        assert user.check_password("Other-Horse-43!")
    elif how == "reset":  # a reset sets a new password on the user, whichever way
        user.set_password("Reset-Horse-44!")
        user.save()
    else:
        user.is_active = False
        user.save()
    for key in (device["token"], legacy.json()["token"]):
        assert with_token(key).get("/api/v1/me/").status_code == 401


def test_a_login_does_not_touch_the_tokens(make_user, password):
    user = make_user("ana")
    device = make_token(user, password)
    browser = APIClient()
    browser.login(username="ana", password=password)  # saves last_login only
    assert with_token(device["token"]).get("/api/v1/me/").status_code == 200


def test_the_failed_login_429_says_when_to_retry(make_user, settings):
    make_user("ana")
    settings.ACCOUNT_RATE_LIMITS = {**settings.ACCOUNT_RATE_LIMITS, "login_failed": "2/5m/key"}
    answers = [
        APIClient().post(
            "/api/v1/auth/tokens/",
            {"username": "ana", "password": "wrong", "name": "x"},
            format="json",
        )
        for _ in range(4)
    ]
    assert answers[0].status_code == 400
    assert answers[0].json()["error"]["code"] == "invalid_credentials"
    throttled = answers[-1]
    assert throttled.status_code == 429 and int(throttled["Retry-After"]) > 0
    assert throttled.json()["error"]["code"] == "throttled"


# --- rate limits ---------------------------------------------------------------------------------


def test_answers_carry_rate_limit_headers(make_user, password):
    user = make_user("ana")
    api = with_token(make_token(user, password)["token"])
    read = api.get("/api/v1/me/")
    assert int(read["X-RateLimit-Limit"]) > 0
    before = int(read["X-RateLimit-Remaining"])
    api.post("/api/v1/warbands/", {}, format="json")  # a write (400) spends one
    after = api.get("/api/v1/me/")
    assert int(after["X-RateLimit-Remaining"]) == before - 1
    assert "X-RateLimit-Reset" in after
    anonymous = APIClient().get("/api/v1/catalogue/")
    assert int(anonymous["X-RateLimit-Limit"]) > 0


def test_throttles_ignore_a_forwarded_for_the_client_wrote(monkeypatch):
    from rest_framework.throttling import SimpleRateThrottle

    rates = {**SimpleRateThrottle.THROTTLE_RATES, "anon": "3/minute"}
    monkeypatch.setattr(SimpleRateThrottle, "THROTTLE_RATES", rates)
    statuses = [
        APIClient().get("/api/v1/catalogue/", HTTP_X_FORWARDED_FOR=f"10.0.0.{i}").status_code
        for i in range(5)
    ]
    assert statuses == [200, 200, 200, 429, 429]


# --- Idempotency-Key -----------------------------------------------------------------------------


@pytest.fixture
def owner(make_user, password):
    content_pack_load()
    user = make_user("ana")
    return user, with_token(make_token(user, password)["token"])


def test_a_retried_create_with_the_same_key_creates_once(owner):
    user, api = owner
    body = {"name": "Los Osos", "warband_type": "mercenarios-de-rhovanion"}
    first = api.post("/api/v1/warbands/", body, format="json", HTTP_IDEMPOTENCY_KEY="k-1")
    again = api.post("/api/v1/warbands/", body, format="json", HTTP_IDEMPOTENCY_KEY="k-1")
    assert first.status_code == again.status_code == 201, first.content
    assert again.json() == first.json() and again["Location"] == first["Location"]
    assert again["Idempotent-Replayed"] == "true"
    assert Warband.objects.filter(owner=user).count() == 1

    other = api.post(
        "/api/v1/warbands/", {**body, "name": "Otros"}, format="json", HTTP_IDEMPOTENCY_KEY="k-1"
    )
    assert other.status_code == 409
    assert other.json()["error"]["code"] == "idempotency_key_reused"
    fresh = api.post("/api/v1/warbands/", body, format="json", HTTP_IDEMPOTENCY_KEY="k-2")
    assert fresh.status_code == 201 and fresh.json()["id"] != first.json()["id"]
    assert Warband.objects.filter(owner=user).count() == 2


def test_keys_are_per_user_and_failures_are_not_kept(owner, make_user, password):
    user, api = owner
    refused = api.post("/api/v1/warbands/", {"name": "x"}, format="json", HTTP_IDEMPOTENCY_KEY="k")
    assert refused.status_code == 400
    assert not IdempotencyKey.objects.exists()  # a retry runs again
    body = {"name": "Los Osos", "warband_type": "mercenarios-de-rhovanion"}
    assert (
        api.post("/api/v1/warbands/", body, format="json", HTTP_IDEMPOTENCY_KEY="k").status_code
        == 201
    )
    bob = with_token(make_token(make_user("bob"), password)["token"])
    assert (
        bob.post("/api/v1/warbands/", body, format="json", HTTP_IDEMPOTENCY_KEY="k").status_code
        == 201
    )
    assert Warband.objects.count() == 2


# --- the battle log's client_id ------------------------------------------------------------------


def test_a_reused_client_id_with_another_entry_is_409(make_league):
    league = make_league(henchmen=2)
    battle = first_battle(league)
    phone = APIClient()
    phone.force_authenticate(league.user(0))
    url = f"/api/v1/battles/{battle.pk}/"
    set_up = phone.post(f"{url}setup/", {"client_id": str(uuid.uuid4())}, format="json")
    assert set_up.status_code == 201, set_up.content
    client_id = str(uuid.uuid4())
    note = {"client_id": client_id, "kind": "note", "payload": {"text": "uno"}}
    first = phone.post(f"{url}log/", note, format="json")
    replay = phone.post(f"{url}log/", note, format="json")
    assert first.status_code == 201 and replay.status_code == 200
    assert replay.json() == first.json()
    other = phone.post(f"{url}log/", {**note, "payload": {"text": "dos"}}, format="json")
    assert other.status_code == 409
    assert other.json()["error"]["code"] == "client_id_reused"
    reused_for_setup = phone.post(f"{url}setup/", {"client_id": client_id}, format="json")
    assert reused_for_setup.status_code == 409


# --- sign-up -------------------------------------------------------------------------------------


def test_sign_up_through_the_api_checks_like_the_page_and_sends_the_confirmation(
    mailoutbox, make_user
):
    make_user("taken")
    weak = APIClient().post(
        "/api/v1/auth/signup/",
        {"username": "taken", "email": "taken@example.com", "password": "123"},
        format="json",
    )
    assert weak.status_code == 400
    fields = weak.json()["error"]["fields"]
    assert {"username", "email", "password"} <= set(fields)
    assert not mailoutbox

    made = APIClient().post(
        "/api/v1/auth/signup/",
        {"username": "nueva", "email": "nueva@example.com", "password": "Correct-Horse-42!"},
        format="json",
    )
    assert made.status_code == 201, made.content
    assert made.json()["username"] == "nueva" and made.json()["email_verified"] is False
    assert len(mailoutbox) == 1 and mailoutbox[0].to == ["nueva@example.com"]
    from django.contrib.auth import get_user_model

    token = make_token(get_user_model().objects.get(username="nueva"), "Correct-Horse-42!")
    assert with_token(token["token"]).get("/api/v1/me/").json()["username"] == "nueva"
