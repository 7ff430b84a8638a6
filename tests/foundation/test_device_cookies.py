"""The failed-login lockout holds unknown devices only: a browser that signed in before (a signed
device cookie) still signs in while someone else locks its name; the refusal says when to come
back; a correct login never uses up a slot, so correct logins at once are never refused."""

import pytest
from django.contrib.auth.hashers import MD5PasswordHasher
from django.core.cache import cache
from django.test import Client
from rest_framework.test import APIClient

from annuminas.accounts.lockout import DEVICE_COOKIE

pytestmark = pytest.mark.django_db

LOGIN = "/accounts/login/"
PER_NAME = 5


class NestingHasher(MD5PasswordHasher):
    """While a password is being checked, ``during`` runs (another login in flight)."""

    during = None

    def verify(self, password, encoded):
        during, NestingHasher.during = NestingHasher.during, None
        if during is not None:
            during()
        return super().verify(password, encoded)


@pytest.fixture(autouse=True)
def _fresh_limits(settings):
    settings.PASSWORD_HASHERS = ["tests.foundation.test_device_cookies.NestingHasher"]
    NestingHasher.during = None
    cache.clear()
    yield
    cache.clear()


def _login(client, login, password, address="10.0.0.1"):
    return client.post(LOGIN, {"login": login, "password": password}, REMOTE_ADDR=address)


def _device(user, password):
    """A browser that signed in as ``user`` before and signed out: only its device cookie."""
    browser = Client()
    signed_in = _login(browser, user.username, password)
    assert signed_in.status_code == 302 and DEVICE_COOKIE in signed_in.cookies
    device = Client()
    device.cookies[DEVICE_COOKIE] = signed_in.cookies[DEVICE_COOKIE].value
    return device


def _lock(login, address="10.6.6.6"):
    attacker = Client()
    for _attempt in range(PER_NAME):
        assert _login(attacker, login, "wrong", address).status_code == 200
    return attacker


def test_a_device_that_signed_in_before_signs_in_while_the_name_is_locked(make_user, password):
    user = make_user("eowyn")
    signed_in = _login(Client(), user.username, password)
    assert signed_in.cookies[DEVICE_COOKIE]["httponly"]
    phone, tablet = _device(user, password), _device(user, password)

    attacker = _lock(user.username)
    refused = _login(attacker, user.username, password, "10.6.6.6")
    assert refused.status_code == 429  # an unknown device: the right password waits too
    assert 290 < int(refused["Retry-After"]) <= 300
    page = refused.content.decode()
    assert "5 minutos" in page and "dispositivo" in page  # says when to come back, in Spanish

    other_place = Client()  # a new browser, elsewhere: still locked
    assert _login(other_place, user.username, password, "10.0.0.9").status_code == 429

    back = _login(phone, user.username, password)  # the phone with its cookie
    assert back.status_code == 302 and phone.session["_auth_user_id"] == str(user.pk)
    # typed as his e-mail address too
    assert _login(tablet, user.email, password).status_code == 302


def test_the_device_has_a_limit_of_its_own(make_user, password):
    user = make_user("theoden")
    phone = _device(user, password)
    for _attempt in range(PER_NAME):
        assert _login(phone, user.username, "wrong").status_code == 200
    assert _login(phone, user.username, password).status_code == 429
    # … which locks that cookie, not the name for other devices
    assert _login(Client(), user.username, password, "10.0.0.2").status_code == 302


def test_a_cookie_for_someone_else_or_an_old_password_is_no_key(make_user, password):
    user, other = make_user("gamling"), make_user("hama")
    phone = _device(other, password)
    _lock(user.username)
    assert _login(phone, user.username, password).status_code == 429  # his cookie is hama's

    cache.clear()
    mine = _device(user, password)
    user.set_password("Otra-clave-99!")
    user.save()
    _lock(user.username)
    assert _login(mine, user.username, "Otra-clave-99!").status_code == 429  # revoked

    forged = Client()
    forged.cookies[DEVICE_COOKIE] = "forged:value"
    assert _login(forged, user.username, "Otra-clave-99!").status_code == 429


def test_a_correct_login_in_flight_uses_no_slot(make_user, password):
    """Four failures on the name, one short of its limit; while a correct login is being
    checked, another correct one comes in (a second phone at the table): it is not refused,
    and neither is the first."""
    user = make_user("grimbold")
    for _attempt in range(PER_NAME - 1):
        _login(Client(), user.username, "wrong", "10.0.0.7")
    nested = []
    NestingHasher.during = lambda: nested.append(_login(Client(), user.username, password))
    first = _login(Client(), user.username, password, "10.0.0.8")
    assert first.status_code == 302
    assert [response.status_code for response in nested] == [302]
    # and many correct logins from one address (a game night on one Wi-Fi) stay welcome
    for _attempt in range(15):
        assert _login(Client(), user.username, password, "10.0.0.8").status_code == 302


def test_the_api_says_when_to_come_back(make_user, password):
    user = make_user("elfhelm")
    _lock(user.username)
    api = APIClient()
    refused = api.post(
        "/api/v1/auth/token/",
        {"username": user.username, "password": password},
        format="json",
        HTTP_ACCEPT_LANGUAGE="es",
    )
    assert refused.status_code == 429 and int(refused["Retry-After"]) > 0
    assert "5 minutos" in refused.json()["error"]["message"]
