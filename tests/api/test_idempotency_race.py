"""Two requests with one Idempotency-Key at the same moment (PostgreSQL): the key's unique row
lets one run and tells the other. The same body: one warband, and the other answer is either
the first one replayed (it had finished) or a 409 ``idempotency_key_in_use`` (it was still
running; retried later, it is the replay). Another body: a 409 ``idempotency_key_reused``.
Never a second warband, never a 500."""

from __future__ import annotations

import threading

import pytest
from django.core.cache import cache
from rest_framework.test import APIClient

from annuminas.api.models import IdempotencyKey
from tests.api.test_tokens_and_retries import make_token, with_token
from tests.warbands.test_concurrency import postgres_only, race  # noqa: F401 - fixture
from warbands import services
from warbands.api.views import warbands as warband_views
from warbands.content_loader import content_pack_load
from warbands.models import Warband

pytestmark = pytest.mark.django_db(transaction=True)

BODY = {"name": "Los Osos", "warband_type": "mercenarios-de-rhovanion"}
URL = "/api/v1/warbands/"


@pytest.fixture
def owner(postgres_only, make_user, password):  # noqa: F811
    cache.clear()
    content_pack_load()
    user = make_user("ana")
    yield user, make_token(user, password)["token"]
    cache.clear()


def _post(token: str, body: dict, key: str):
    def post():
        answer = with_token(token).post(URL, body, format="json", HTTP_IDEMPOTENCY_KEY=key)
        return answer.status_code, answer.json(), answer.get("Idempotent-Replayed")

    return post


def _code(outcome) -> str | None:
    return outcome[1].get("error", {}).get("code")


def test_two_creates_with_one_key_at_once_create_one_warband(owner):
    user, token = owner
    for attempt in range(3):
        key = f"carrera-{attempt}"
        outcomes = race(_post(token, BODY, key), _post(token, BODY, key))
        assert all(isinstance(o, tuple) for o in outcomes), outcomes
        statuses = sorted(status for status, _body, _replayed in outcomes)
        assert statuses in ([201, 201], [201, 409]), outcomes
        first = next(o for o in outcomes if o[0] == 201 and o[2] is None)
        other = next(o for o in outcomes if o is not first)
        if other[0] == 201:
            assert other[1] == first[1] and other[2] == "true"
        else:
            assert _code(other) == "idempotency_key_in_use"
            retried = _post(token, BODY, key)()
            assert retried == (201, first[1], "true")
        assert Warband.objects.filter(owner=user).count() == attempt + 1
    assert IdempotencyKey.objects.filter(user=user).count() == 3


def test_a_key_still_running_is_a_409_in_use_then_the_replay(owner, monkeypatch):
    """The first request is held inside its write until the second has its answer."""
    user, token = owner
    second_answered = threading.Event()
    create = services.warband_create

    def slow_create(**kwargs):
        assert second_answered.wait(timeout=30)
        return create(**kwargs)

    monkeypatch.setattr(warband_views.services, "warband_create", slow_create)
    first_outcome: list = []
    first = threading.Thread(target=lambda: first_outcome.append(_post(token, BODY, "k")()))
    first.start()
    try:
        for _ in range(300):  # until the first request holds the key
            if IdempotencyKey.objects.filter(user=user, key="k").exists():
                break
            threading.Event().wait(0.02)
        second = _post(token, BODY, "k")()
    finally:
        second_answered.set()
        first.join(timeout=60)
    assert second[0] == 409 and _code(second) == "idempotency_key_in_use"
    (done,) = first_outcome
    assert done[0] == 201 and done[2] is None
    assert _post(token, BODY, "k")() == (201, done[1], "true")
    assert Warband.objects.filter(owner=user).count() == 1


def test_one_key_with_two_bodies_at_once_is_one_warband_and_a_409_reused(owner):
    user, token = owner
    outcomes = race(_post(token, BODY, "otra"), _post(token, {**BODY, "name": "Los Lobos"}, "otra"))
    assert all(isinstance(o, tuple) for o in outcomes), outcomes
    assert sorted(o[0] for o in outcomes) == [201, 409], outcomes
    refused = next(o for o in outcomes if o[0] == 409)
    assert _code(refused) == "idempotency_key_reused"
    assert Warband.objects.filter(owner=user).count() == 1
    made = next(o for o in outcomes if o[0] == 201)[1]
    assert Warband.objects.get(owner=user).name == made["name"]


def test_an_anonymous_client_is_not_keyed(transactional_db):
    """Anonymous writes are not keyed (the key belongs to a user): a 401 as without one."""
    answer = APIClient().post(URL, BODY, format="json", HTTP_IDEMPOTENCY_KEY="k")
    assert answer.status_code == 401
    assert not IdempotencyKey.objects.exists()


class _Killed(BaseException):  # noqa: N818 - what a killed process looks like to the request
    """Not an ``Exception``: Django does not turn it into a 500, it unwinds the whole request."""


def test_a_key_whose_first_request_died_is_taken_over_by_the_retry(owner, monkeypatch):
    """The first request dies in the middle of its write: nothing is written, the key's row is
    left empty. A retry at once is told the key is in use; once the row is older than the moment
    between its insert and its lock, the retry runs the write — one warband, then replays."""
    from datetime import timedelta

    from annuminas.api import idempotency

    user, token = owner
    create = services.warband_create

    def dying_create(**kwargs):
        create(**kwargs)
        raise _Killed

    monkeypatch.setattr(warband_views.services, "warband_create", dying_create)
    with pytest.raises(_Killed):
        _post(token, BODY, "muerta")()
    monkeypatch.setattr(warband_views.services, "warband_create", create)
    assert not Warband.objects.filter(owner=user).exists()  # rolled back with the request
    row = IdempotencyKey.objects.get(user=user, key="muerta")
    assert row.status is None

    early = _post(token, BODY, "muerta")()
    assert early[0] == 409 and _code(early) == "idempotency_key_in_use"
    IdempotencyKey.objects.filter(pk=row.pk).update(
        expires_at=row.expires_at - idempotency.TAKE_OVER_AFTER - timedelta(seconds=1)
    )
    retried = _post(token, BODY, "muerta")()
    assert retried[0] == 201 and retried[2] is None
    assert _post(token, BODY, "muerta")() == (201, retried[1], "true")
    assert Warband.objects.filter(owner=user).count() == 1
