"""Conditional GET (RFC 9110, section 13.1.2): does ``If-None-Match`` match the resource's ETag?

``If-None-Match`` uses the *weak* comparison: ``W/"x"`` matches ``"x"``. The header may list
several ETags (``"a", W/"b"``), and ``*`` matches any current representation. A match answers
304 (with the ETag) instead of the body.
"""

from __future__ import annotations

import re

from rest_framework import status
from rest_framework.response import Response

# One entity-tag: optional W/ then a quoted string without quotes inside.
_ENTITY_TAG = re.compile(r'\s*(?:W/)?("[^"]*")\s*(?:,|$)')


def _opaque(tag: str) -> str:
    tag = tag.strip()
    return tag[2:] if tag.startswith("W/") else tag


def if_none_match(request, etag: str) -> bool:
    """True when the request's ``If-None-Match`` matches ``etag`` (weak comparison)."""
    header = request.headers.get("If-None-Match", "").strip()
    if not header:
        return False
    if header == "*":
        return True
    wanted = _opaque(etag)
    return any(match.group(1) == wanted for match in _ENTITY_TAG.finditer(header))


def not_modified(etag: str) -> Response:
    return Response(status=status.HTTP_304_NOT_MODIFIED, headers={"ETag": etag})
