"""What the campaign and battle endpoints share: the bounds of an id or a version a client
sends, and who is told 401 rather than 404."""

from __future__ import annotations

from django.http import Http404
from rest_framework import serializers
from rest_framework.exceptions import NotAuthenticated

MAX_ID = 10**18 - 1  # ids fit a bigint on every database (see annuminas.converters)


def version_field() -> serializers.IntegerField:
    """The battle's ``version`` the client read (or ``If-Match``): a stale one is a 409."""
    return serializers.IntegerField(
        min_value=0, max_value=2**31 - 1, required=False, allow_null=True
    )


def visible_or_401(request, find):
    """What ``find`` returns; a caller who is not logged in and may not see it gets 401 (log
    in), as before public reads existed — whether it is private or missing is not told."""
    try:
        return find()
    except Http404:
        if not request.user.is_authenticated:
            raise NotAuthenticated from None
        raise
