"""Optimistic concurrency on the API: the one rule for reading the version a write expects.

Warbands and battles carry a ``version`` (bumped by every write) and answer it as an ETag,
``"<kind>-<id>-v<version>"``. A write says which version it read, in one of two places:

- the ``If-Match`` header: our ETag (weak ``W/`` or not), or the bare number;
- ``version`` in the body.

The rule:

1. Only the header: its version. Only the body: its version.
2. Both, and they agree: that version. Both, and they disagree: 400 (the client is confused;
   guessing which one it meant could overwrite someone else's change).
3. Neither, or ``If-Match: *`` ("whatever is current") with no body version: no check
   (``None``), or 400 where the write requires one.
4. A header that is not an ETag of this kind of resource, or a version that is not a whole
   number from 0 to 2³¹ - 1: 400.

Every error is a 400 on the ``version`` field in the API's error shape; a stale version is the
service's business (``annuminas.errors.Conflict`` → 409).
"""

from __future__ import annotations

import re
from collections.abc import Mapping
from dataclasses import dataclass
from typing import Any

from django.utils.functional import Promise
from django.utils.translation import get_language
from django.utils.translation import gettext as _
from rest_framework.exceptions import ValidationError

# Our ETags: ``"warband-7-v3"``, and for a read whose words follow the reader's language
# ``"warband-7-v3-en"`` (so a client that switches language never gets a 304 for the other
# language's body). As If-Match, each gives the version.
ETAG = re.compile(
    r'^(?:W/)?"?(?:(?P<kind>[a-z_]+)-\d+-v)?(?P<version>\d+)(?:-[a-z]{2}(?:-[a-z0-9]+)?)?"?$'
)
VERSION_LIMIT = 2**31


@dataclass(frozen=True)
class VersionedKind:
    """A kind of resource under optimistic concurrency (``warband``, ``battle``).

    ``not_an_etag`` is the message for an ``If-Match`` that is not one of its ETags (lazy, so
    it is translated when raised).
    """

    kind: str
    not_an_etag: Promise | str

    def etag(self, pk: int, version: int) -> str:
        return f'"{self.kind}-{pk}-v{version}"'

    def read_etag(self, pk: int, version: int) -> str:
        """The ETag of a read in the active language (its answers to If-None-Match)."""
        return f'"{self.kind}-{pk}-v{version}-{get_language() or "es"}"'

    def expected_version(
        self, request, *, body: Mapping[str, Any] | None = None, required: bool = False
    ) -> int | None:
        """The version the client read, by the module's rule; ``body`` defaults to the
        request's parsed body (pass a serializer's ``validated_data`` where there is one)."""
        if body is None:
            body = request.data if isinstance(request.data, Mapping) else {}
        from_header = self._from_header(request.headers.get("If-Match", ""))
        raw = body.get("version")
        from_body = None if raw in (None, "") else _whole_number(raw)
        if from_header is not None and from_body is not None and from_header != from_body:
            raise ValidationError(
                {
                    "version": [
                        _(
                            "The version in the body (%(body)d) and in If-Match (%(header)d) "
                            "disagree: send the version you read once."
                        )
                        % {"body": from_body, "header": from_header}
                    ]
                }
            )
        version = from_header if from_header is not None else from_body
        if version is None and required:
            raise ValidationError(
                {"version": [_("Send the version you read (in the body or as If-Match).")]}
            )
        return version

    def _from_header(self, header: str) -> int | None:
        header = header.strip()
        if not header or header == "*":
            return None
        match = ETAG.match(header.split(",")[0].strip())
        if not match or match.group("kind") not in (None, self.kind):
            raise ValidationError({"version": [str(self.not_an_etag)]})
        return _whole_number(match.group("version"))


def _whole_number(value: Any) -> int:
    if isinstance(value, bool):
        value = None  # JSON true is not a version
    try:
        number = int(value)
    except (TypeError, ValueError, OverflowError) as exc:
        raise ValidationError({"version": [_("The version must be a whole number.")]}) from exc
    if not 0 <= number < VERSION_LIMIT:
        raise ValidationError({"version": [_("The version must be a whole number.")]})
    return number
