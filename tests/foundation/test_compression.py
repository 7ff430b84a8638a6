"""Compressed answers for pages and the API, and what stays uncompressed against BREACH.

Pages and API answers are gzipped when the client accepts gzip. A browser that carries a
session cookie and asks with a query string (which every page reflects, in the language
switcher) gets its answer uncompressed: the secrets that stay the same from one answer to the
next (the API token, join codes) are never compressed beside input an attacker chose. The CSRF
token is masked anew in every answer, so it changes even when nothing else does.
"""

import gzip
import re

import pytest
from django.test import Client
from rest_framework.authtoken.models import Token

from tests.battles.factories import *  # noqa: F403 - league fixtures

pytestmark = pytest.mark.django_db

GZIP = {"HTTP_ACCEPT_ENCODING": "gzip, deflate, br"}


def _body(response) -> str:
    raw = response.content
    if response.get("Content-Encoding") == "gzip":
        raw = gzip.decompress(raw)
    return raw.decode()


def test_a_page_is_gzipped_when_the_browser_accepts_it(client, league):
    client.force_login(league.user(0))
    page = client.get(f"/campaigns/{league.campaign.slug}/", **GZIP)
    assert page.status_code == 200
    assert page["Content-Encoding"] == "gzip"
    assert "Accept-Encoding" in page["Vary"]
    html = _body(page)
    assert league.campaign.name in html
    assert len(page.content) < len(html.encode()) / 2

    plain = client.get(f"/campaigns/{league.campaign.slug}/")
    assert not plain.has_header("Content-Encoding")
    assert league.campaign.name in plain.content.decode()


def test_an_app_calling_the_api_with_a_token_gets_gzip_even_with_a_query_string(league):
    token = Token.objects.create(user=league.user(0))
    client = Client(HTTP_AUTHORIZATION=f"Token {token.key}")
    answer = client.get("/api/v1/catalogue/equipment/?page=1", **GZIP)
    assert answer.status_code == 200
    assert answer["Content-Encoding"] == "gzip"
    assert _body(answer).startswith("{")


def test_anonymous_pages_are_gzipped_with_a_query_string_too(client, league):
    page = client.get("/accounts/login/?next=/warbands/", **GZIP)
    assert page.status_code == 200
    assert page["Content-Encoding"] == "gzip"


def test_a_signed_in_page_asked_with_a_query_string_is_not_compressed(client, league):
    """The profile shows the API token, and its language switcher reflects the query string:
    the BREACH pair. Without the query string the same page is compressed."""
    user = league.user(0)
    token = Token.objects.create(user=user)
    client.force_login(user)
    guessed = client.get("/accounts/profile/?guess=" + token.key[:6], **GZIP)
    assert guessed.status_code == 200
    assert not guessed.has_header("Content-Encoding")
    html = guessed.content.decode()
    assert token.key in html and "guess=" + token.key[:6] in html  # secret and reflection

    plain = client.get("/accounts/profile/", **GZIP)
    assert plain["Content-Encoding"] == "gzip"
    assert token.key in _body(plain)


def test_the_csrf_token_is_masked_anew_in_every_answer(league):
    """Django masks the CSRF secret with a fresh random pad in every page: the same visitor's
    pages carry different tokens, each of them valid (BREACH cannot converge on it)."""
    client = Client(enforce_csrf_checks=True)
    client.force_login(league.user(0))
    tokens = []
    for _ in range(3):
        html = _body(client.get("/accounts/profile/", **GZIP))
        in_this_answer = set(re.findall(r'name="csrfmiddlewaretoken" value="([^"]+)"', html))
        assert len(in_this_answer) == 1  # every form of one answer: the same masked token
        tokens.extend(in_this_answer)
    assert len(set(tokens)) == 3  # and another one in each answer
    for token in tokens[:2]:
        answer = client.post(
            "/i18n/setlang/", {"language": "en", "next": "/", "csrfmiddlewaretoken": token}
        )
        assert answer.status_code == 302


def test_the_api_sheet_keeps_its_etag_when_compressed_and_answers_304(league):
    """An ETag names a version of the warband; compressed or not it is the same, and it goes
    back in If-None-Match (304) and If-Match (the write is accepted)."""
    warband = league.warband(0)
    token = Token.objects.create(user=league.user(0))
    client = Client(HTTP_AUTHORIZATION=f"Token {token.key}")
    sheet = client.get(f"/api/v1/warbands/{warband.pk}/sheet/", **GZIP)
    assert sheet.status_code == 200
    assert sheet["Content-Encoding"] == "gzip"
    etag = sheet["ETag"]
    assert etag.startswith('"warband-')
    again = client.get(f"/api/v1/warbands/{warband.pk}/sheet/", HTTP_IF_NONE_MATCH=etag, **GZIP)
    assert again.status_code == 304

    detail = client.get(f"/api/v1/warbands/{warband.pk}/", **GZIP)
    assert not detail["ETag"].startswith("W/")
    renamed = client.patch(
        f"/api/v1/warbands/{warband.pk}/",
        {"name": "Los de Bree"},
        content_type="application/json",
        HTTP_IF_MATCH=detail["ETag"],
    )
    assert renamed.status_code == 200, renamed.content


def test_binary_answers_are_not_compressed_again(client, league):
    """The PDF is compressed already: gzip would only cost CPU."""
    warband = league.warband(0)
    client.force_login(league.user(0))
    pdf = client.get(f"/warbands/{warband.pk}/pdf/", **GZIP)  # rendered in-process in tests
    assert pdf["Content-Type"] == "application/pdf"
    assert pdf.content.startswith(b"%PDF")
    assert not pdf.has_header("Content-Encoding")
