"""The feeds over HTTP: no session, the token in the URL is the credential."""

from __future__ import annotations

from django.http import Http404, HttpRequest, HttpResponse
from django.views.decorators.http import require_GET

from . import services

CONTENT_TYPE = "text/calendar; charset=utf-8"


def _answer(body: bytes, filename: str) -> HttpResponse:
    response = HttpResponse(body, content_type=CONTENT_TYPE)
    response["Content-Disposition"] = f'inline; filename="{filename}"'
    response["Cache-Control"] = "private, max-age=300"
    response["X-Robots-Tag"] = "noindex"
    return response


@require_GET
def user_battles_feed(request: HttpRequest, token: str) -> HttpResponse:
    user = services.calendar_token_user(token)
    if user is None:
        raise Http404
    return _answer(services.user_feed(user=user), "battles.ics")


@require_GET
def campaign_rounds_feed(request: HttpRequest, token: str, slug: str) -> HttpResponse:
    user = services.calendar_token_user(token)
    body = services.campaign_feed(user=user, slug=slug) if user is not None else None
    if body is None:
        raise Http404
    return _answer(body, f"{slug}.ics")
