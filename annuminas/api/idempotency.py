"""``Idempotency-Key`` on the API's writes: a retry after a timeout does not create twice.

A client sends ``Idempotency-Key: <its own unique string>`` with a POST. The first request runs
and its answer, if a success (2xx), is kept for a day, per user and key; the same key with the
same method, path and body then gets that answer again (``Idempotent-Replayed: true``), without
running the write again. The same key with another body is a 409 ``idempotency_key_reused``;
while the first request still runs, a 409 ``idempotency_key_in_use`` (retry a moment later). An
answer that is not a success is not kept: nothing was written, and the retry runs again.

The write and the kept answer commit together: the request runs in one transaction that holds
the key's row locked, so a process killed in the middle (a timeout, a redeploy) leaves no write
and no answer, only the key's empty row. A retry then finds that row unlocked: once it is older
than ``TAKE_OVER_AFTER`` (the moment between the key's insert and its lock), the retry takes
the key over and runs the write itself, instead of answering ``idempotency_key_in_use`` until
the key expires. Without row locks (SQLite, for development) a key is never taken over.

Anonymous requests (sign-up, tokens) are not keyed: the key belongs to a user.
"""

from __future__ import annotations

import hashlib
from datetime import timedelta

from django.db import IntegrityError, OperationalError, connection, transaction
from django.http import HttpResponse
from django.utils import timezone
from django.utils.translation import gettext as _
from rest_framework.request import Request
from rest_framework.settings import api_settings

from .errors import json_error_response
from .models import IdempotencyKey

HEADER = "Idempotency-Key"
KEPT_FOR = timedelta(hours=24)
TAKE_OVER_AFTER = timedelta(seconds=10)
MAX_LENGTH = 255
REPLAYED_HEADERS = ("Location", "ETag", "Content-Type", "Content-Language")


def _user(request):
    """The caller as the API authenticates him (token or session), or None."""
    drf = Request(
        request, authenticators=[a() for a in api_settings.DEFAULT_AUTHENTICATION_CLASSES]
    )
    try:
        user = drf.user
    except Exception:  # noqa: BLE001 - a bad token or a CSRF refusal: the view answers it
        return None
    return user if user is not None and user.is_authenticated else None


def _fingerprint(request) -> str:
    digest = hashlib.sha256()
    for part in (request.method, request.get_full_path(), request.content_type or ""):
        digest.update(part.encode() + b"\0")
    digest.update(request.body)
    return digest.hexdigest()


class IdempotencyMiddleware:
    def __init__(self, get_response):
        self.get_response = get_response

    def __call__(self, request):
        key = request.headers.get(HEADER)
        if request.method != "POST" or key is None or not request.path.startswith("/api/"):
            return self.get_response(request)
        key = key.strip()
        if not key or len(key) > MAX_LENGTH or not key.isprintable():
            return json_error_response(
                400, "invalid", _("Idempotency-Key is 1 to 255 printable characters.")
            )
        user = _user(request)
        if user is None:
            return self.get_response(request)
        fingerprint = _fingerprint(request)
        now = timezone.now()
        IdempotencyKey.objects.filter(user=user, expires_at__lte=now).delete()
        try:
            with transaction.atomic():
                record = IdempotencyKey.objects.create(
                    user=user, key=key, fingerprint=fingerprint, expires_at=now + KEPT_FOR
                )
        except IntegrityError:
            return self._again(request, user, key, fingerprint)
        with transaction.atomic():
            list(IdempotencyKey.objects.select_for_update().filter(pk=record.pk).values("pk"))
            return self._run(request, record)

    def _run(self, request, record: IdempotencyKey):
        """Run the write and keep its answer, in the caller's transaction (the key locked)."""
        response = self.get_response(request)
        if transaction.get_connection().needs_rollback:
            return response  # a database error the view did not contain: all rolls back
        if 200 <= response.status_code < 300 and not getattr(response, "streaming", False):
            record.status = response.status_code
            record.body = bytes(response.content)
            record.headers = {h: response[h] for h in REPLAYED_HEADERS if response.has_header(h)}
            record.save(update_fields=["status", "body", "headers"])
        else:
            record.delete()
        return response

    def _take_over(self, request, record: IdempotencyKey):
        """Run the write of a key whose first request died (its row empty, unlocked and older
        than ``TAKE_OVER_AFTER``); None while that request still holds it."""
        if not connection.features.has_select_for_update_nowait:
            return None
        if record.expires_at - KEPT_FOR > timezone.now() - TAKE_OVER_AFTER:
            return None
        with transaction.atomic():
            try:
                with transaction.atomic():
                    mine = (
                        IdempotencyKey.objects.select_for_update(nowait=True)
                        .filter(pk=record.pk, status__isnull=True)
                        .first()
                    )
            except OperationalError:  # locked: the first request is still running
                return None
            if mine is None:
                return None
            return self._run(request, mine)

    def _again(self, request, user, key: str, fingerprint: str):
        record = IdempotencyKey.objects.filter(user=user, key=key).first()
        if record is None:  # expired and purged between the insert and this read
            return json_error_response(
                409, "idempotency_key_in_use", _("This Idempotency-Key is in use; retry.")
            )
        if record.fingerprint != fingerprint:
            return json_error_response(
                409,
                "idempotency_key_reused",
                _("This Idempotency-Key was used for another request: use a new key."),
            )
        if record.status is None:
            taken = self._take_over(request, record)
            if taken is not None:
                return taken
            record.refresh_from_db()
        if record.status is None:
            return json_error_response(
                409,
                "idempotency_key_in_use",
                _("The first request with this Idempotency-Key is still running; retry."),
            )
        response = HttpResponse(bytes(record.body), status=record.status)
        for header, value in record.headers.items():
            response[header] = value
        response["Idempotent-Replayed"] = "true"
        return response
