"""Logins are limited by failures only: a game night on one Wi-Fi address (or every player
behind one proxy) signs in as often as it likes. allauth's own 429 page speaks the visitor's
language. The failed-login limits themselves are tested in test_login_throttling.py.
"""

import pytest
from django.core.cache import cache
from django.test import Client

pytestmark = pytest.mark.django_db

ADDRESS = "192.0.2.10"  # everyone at the club, one address


@pytest.fixture(autouse=True)
def _fresh_limits(settings):
    settings.PASSWORD_HASHERS = ["django.contrib.auth.hashers.MD5PasswordHasher"]
    cache.clear()
    yield
    cache.clear()


def test_forty_successful_logins_from_one_address_in_a_minute_all_get_in(make_user, password):
    """allauth counted every login (30 a minute per address): the 31st player was refused."""
    players = [make_user(f"jugador{number}") for number in range(40)]
    for player in players:
        client = Client(REMOTE_ADDR=ADDRESS)
        answer = client.post("/accounts/login/", {"login": player.username, "password": password})
        assert answer.status_code == 302, (player.username, answer.status_code)
        assert client.get("/accounts/profile/").status_code == 200


def test_failed_logins_are_still_limited_from_one_address(make_user, password):
    player = make_user("olvidadizo")
    codes = [
        Client(REMOTE_ADDR=ADDRESS)
        .post("/accounts/login/", {"login": player.username, "password": "wrong"})
        .status_code
        for _ in range(12)
    ]
    assert 429 in codes


@pytest.mark.parametrize(
    ("language", "title", "lang"),
    [(None, "Demasiados intentos", 'lang="es"'), ("en", "Too many attempts", 'lang="en"')],
)
def test_the_too_many_requests_page_speaks_the_visitors_language(language, title, lang):
    """Signing up is limited per address (20 a minute): the 21st attempt gets the 429 page."""
    client = Client(REMOTE_ADDR=ADDRESS)
    if language:
        client.cookies["annuminas_language"] = language
    answers = [
        client.post("/accounts/signup/", {"username": f"nuevo{n}", "password1": "x"})
        for n in range(21)
    ]
    refused = answers[-1]
    assert refused.status_code == 429
    page = refused.content.decode()
    assert title in page and lang in page
    assert "Too Many Requests" not in page  # allauth's bare English page
