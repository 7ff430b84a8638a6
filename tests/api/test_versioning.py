"""The one version rule (``annuminas.api.versioning``): header only, body only, both agreeing,
both disagreeing, malformed; and the warbands and battles APIs both follow it."""

import pytest
from django.utils import translation
from django.utils.translation import gettext_lazy
from rest_framework.exceptions import ValidationError
from rest_framework.parsers import JSONParser
from rest_framework.request import Request
from rest_framework.test import APIClient, APIRequestFactory

from annuminas.api.versioning import VersionedKind
from tests.battles.factories import *  # noqa: F403 - the campaign fixtures
from tests.battles.factories import first_battle
from tests.warbands.fixtures import english  # noqa: F401 - messages in English

pytestmark = pytest.mark.usefixtures("english")

WARBAND = VersionedKind("warband", gettext_lazy("If-Match is not a warband ETag."))


def request(body=None, if_match=None):
    headers = {"HTTP_IF_MATCH": if_match} if if_match is not None else {}
    raw = APIRequestFactory().post("/", body or {}, format="json", **headers)
    return Request(raw, parsers=[JSONParser()])


def version_error(**kwargs) -> str:
    required = kwargs.pop("required", False)
    with pytest.raises(ValidationError) as refused:
        WARBAND.expected_version(request(**kwargs), required=required)
    return str(refused.value.detail["version"][0])


@pytest.mark.parametrize(
    "if_match",
    ['"warband-7-v3"', 'W/"warband-7-v3"', "3", '"3"', '"warband-7-v3", "warband-7-v4"'],
)
def test_the_header_alone_gives_the_version(if_match):
    assert WARBAND.expected_version(request(if_match=if_match)) == 3


@pytest.mark.parametrize("version", [3, "3"])
def test_the_body_alone_gives_the_version(version):
    assert WARBAND.expected_version(request({"version": version})) == 3


def test_header_and_body_that_agree_give_that_version():
    assert WARBAND.expected_version(request({"version": 3}, '"warband-7-v3"')) == 3


def test_header_and_body_that_disagree_are_refused_whichever_is_newer():
    assert "disagree" in version_error(body={"version": 4}, if_match='"warband-7-v3"')
    assert "disagree" in version_error(body={"version": 2}, if_match='"warband-7-v3"')


def test_neither_means_no_check_unless_required():
    assert WARBAND.expected_version(request()) is None
    assert WARBAND.expected_version(request({"version": ""}, "*")) is None
    assert "Send the version" in version_error(required=True)
    assert "Send the version" in version_error(if_match="*", required=True)


def test_if_match_star_leaves_the_body_version():
    assert WARBAND.expected_version(request({"version": 5}, "*")) == 5


@pytest.mark.parametrize(
    "if_match", ["x", '"battle-7-v3"', '"warband-7-vx"', "-1", '"warband-7"', "v3"]
)
def test_a_header_that_is_not_our_etag_is_refused(if_match):
    assert version_error(if_match=if_match) == "If-Match is not a warband ETag."


@pytest.mark.parametrize("version", ["tres", -1, 2**31, 1.5e40, True, [3], {"v": 3}])
def test_a_body_version_that_is_not_a_whole_number_is_refused(version):
    assert version_error(body={"version": version}) == "The version must be a whole number."


def test_a_header_version_beyond_the_limit_is_refused():
    assert version_error(if_match=f'"warband-7-v{2**31}"') == "The version must be a whole number."


def test_the_etag_is_what_the_header_reads_back():
    etag = WARBAND.etag(7, 3)
    assert etag == '"warband-7-v3"'
    assert WARBAND.expected_version(request(if_match=etag)) == 3


def test_a_read_etag_carries_its_language_and_still_gives_the_version():
    with translation.override("en"):
        etag = WARBAND.read_etag(7, 3)
    assert etag == '"warband-7-v3-en"'
    assert WARBAND.expected_version(request(if_match=etag)) == 3
    assert WARBAND.expected_version(request(if_match='W/"warband-7-v3-es"')) == 3


@pytest.mark.django_db
def test_a_304_only_for_the_language_it_was_read_in(league):
    """A client that switches language gets the sheet in its new language, not a 304 for the
    body it holds in the other; the read's ETag is a good If-Match for the next write."""
    warband = league.warband(0)
    api = APIClient()
    api.force_authenticate(warband.owner)
    for url in (f"/api/v1/warbands/{warband.pk}/", f"/api/v1/warbands/{warband.pk}/sheet/"):
        spanish = api.get(url, HTTP_ACCEPT_LANGUAGE="es")
        assert spanish.status_code == 200
        same = api.get(url, HTTP_ACCEPT_LANGUAGE="es", HTTP_IF_NONE_MATCH=spanish["ETag"])
        assert same.status_code == 304
        in_english = api.get(url, HTTP_ACCEPT_LANGUAGE="en", HTTP_IF_NONE_MATCH=spanish["ETag"])
        assert in_english.status_code == 200 and in_english["ETag"] != spanish["ETag"]
    write = api.patch(
        f"/api/v1/warbands/{warband.pk}/", {"notes": "Z"}, HTTP_IF_MATCH=in_english["ETag"]
    )
    assert write.status_code == 200, write.content


# --- both APIs follow the rule ---------------------------------------------------------------


@pytest.mark.django_db
def test_the_warbands_api_refuses_a_body_and_header_that_disagree(league):
    warband = league.warband(0)
    api = APIClient(HTTP_ACCEPT_LANGUAGE="en")
    api.force_authenticate(warband.owner)
    url = f"/api/v1/warbands/{warband.pk}/"
    stale = f'"warband-{warband.pk}-v{warband.version - 1}"'
    response = api.patch(url, {"notes": "X", "version": warband.version}, HTTP_IF_MATCH=stale)
    assert response.status_code == 400, response.content
    assert "version" in response.json()["error"]["fields"]
    ok = api.patch(url, {"notes": "Y", "version": warband.version}, HTTP_IF_MATCH=warband.etag)
    assert ok.status_code == 200, ok.content


@pytest.mark.django_db
def test_the_battles_api_refuses_a_body_and_header_that_disagree(league):
    battle = first_battle(league)
    api = APIClient(HTTP_ACCEPT_LANGUAGE="en")
    api.force_authenticate(league.organiser)
    url = f"/api/v1/battles/{battle.pk}/pairing/"
    body = {"warbands": [league.warband(0).pk, league.warband(1).pk], "version": battle.version}
    etag = f'"battle-{battle.pk}-v{battle.version + 1}"'
    response = api.put(url, body, format="json", HTTP_IF_MATCH=etag)
    assert response.status_code == 400, response.content
    assert "version" in response.json()["error"]["fields"]
    battle.refresh_from_db()
    assert battle.version == body["version"]
