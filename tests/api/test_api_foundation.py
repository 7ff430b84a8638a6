"""Token issue, authentication, the one error shape, and the OpenAPI schema."""

import json

import pytest
from django.contrib.auth import get_user_model
from openapi_spec_validator import validate
from rest_framework.authtoken.models import Token

pytestmark = pytest.mark.django_db


def assert_error_shape(response, status: int, code: str | None = None) -> dict:
    assert response.status_code == status, response.content
    assert response["Content-Type"].startswith("application/json")
    body = json.loads(response.content)
    assert set(body) == {"error"}
    error = body["error"]
    assert set(error) == {"code", "message", "fields"}
    assert isinstance(error["message"], str) and error["message"]
    assert isinstance(error["fields"], dict)
    if code:
        assert error["code"] == code
    return error


def test_token_issued_for_good_credentials(api_client, user, password):
    response = api_client.post(
        "/api/v1/auth/token/", {"username": user.username, "password": password}, format="json"
    )
    assert response.status_code == 200
    token = response.json()["token"]
    assert Token.objects.get(user=user).key == token

    # the same token comes back on a second request
    again = api_client.post(
        "/api/v1/auth/token/", {"username": user.username, "password": password}, format="json"
    )
    assert again.json()["token"] == token


def test_token_accepts_the_email_as_login(api_client, user, password):
    response = api_client.post(
        "/api/v1/auth/token/", {"username": user.email, "password": password}, format="json"
    )
    assert response.status_code == 200


def test_token_refused_for_wrong_password_and_nothing_written(api_client, user):
    response = api_client.post(
        "/api/v1/auth/token/",
        {"username": user.username, "password": "wrong"},
        format="json",
        HTTP_ACCEPT_LANGUAGE="en",
    )
    error = assert_error_shape(response, 400, "invalid_credentials")
    assert error["message"] == "Wrong username or password."
    assert not Token.objects.exists()


def test_token_error_in_spanish_by_default(api_client, user):
    response = api_client.post(
        "/api/v1/auth/token/", {"username": user.username, "password": "wrong"}, format="json"
    )
    error = assert_error_shape(response, 400)
    assert error["message"] == "Usuario o contraseña incorrectos."


def test_token_missing_fields_are_named(api_client):
    response = api_client.post("/api/v1/auth/token/", {}, format="json")
    error = assert_error_shape(response, 400, "required")
    assert set(error["fields"]) == {"username", "password"}


def test_authenticated_request_with_token(api_client, user):
    token = Token.objects.create(user=user)
    api_client.credentials(HTTP_AUTHORIZATION=f"Token {token.key}")
    response = api_client.get("/api/v1/me/")
    assert response.status_code == 200
    assert response.json()["username"] == user.username


def test_anonymous_request_gets_401_in_the_error_shape(api_client):
    error = assert_error_shape(api_client.get("/api/v1/me/"), 401, "not_authenticated")
    assert error["fields"] == {}


def test_bad_token_gets_401(api_client):
    api_client.credentials(HTTP_AUTHORIZATION="Token not-a-real-token")
    assert_error_shape(api_client.get("/api/v1/me/"), 401, "authentication_failed")


def test_unknown_api_url_gets_404_in_the_error_shape(auth_client):
    assert_error_shape(auth_client.get("/api/v1/no-such-thing/"), 404, "not_found")


def test_malformed_json_gets_400_and_nothing_written(api_client):
    response = api_client.post(
        "/api/v1/auth/token/", data='{"username": "x", ', content_type="application/json"
    )
    assert_error_shape(response, 400, "parse_error")
    assert not Token.objects.exists()


def test_forbidden_gets_403_in_the_error_shape(rf, user):
    from rest_framework.permissions import BasePermission
    from rest_framework.views import APIView

    class Never(BasePermission):
        def has_permission(self, request, view):
            return False

    class Guarded(APIView):
        permission_classes = [Never]

        def get(self, request):  # pragma: no cover - never reached
            raise AssertionError

    from rest_framework.test import force_authenticate

    request = rf.get("/api/v1/guarded/")
    force_authenticate(request, user=user)
    response = Guarded.as_view()(request)
    response.render()
    assert_error_shape(response, 403, "permission_denied")


def test_method_not_allowed_uses_the_error_shape(api_client):
    assert_error_shape(api_client.get("/api/v1/auth/token/"), 405, "method_not_allowed")


def test_schema_is_valid_openapi_3(api_client):
    response = api_client.get("/api/v1/schema/?format=json")
    assert response.status_code == 200
    schema = response.json()
    assert schema["openapi"].startswith("3.")
    validate(schema)
    assert "/api/v1/auth/token/" in schema["paths"]


def test_docs_are_served_offline(client):
    response = client.get("/api/v1/docs/")
    assert response.status_code == 200
    html = response.content.decode()
    assert "swagger-ui" in html
    assert "cdn" not in html.lower()


def test_auth_endpoint_is_throttled(api_client, settings, user):
    from django.core.cache import cache

    cache.clear()
    from annuminas.api.throttling import AuthRateThrottle

    original = AuthRateThrottle.THROTTLE_RATES
    AuthRateThrottle.THROTTLE_RATES = {**original, "auth": "3/minute"}
    try:
        codes = [
            api_client.post(
                "/api/v1/auth/token/", {"username": user.username, "password": "x"}, format="json"
            ).status_code
            for _ in range(5)
        ]
    finally:
        AuthRateThrottle.THROTTLE_RATES = original
        cache.clear()
    assert codes[:3] == [400, 400, 400]
    assert codes[3] == 429
    assert get_user_model().objects.count() == 1
