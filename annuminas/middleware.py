"""Site-wide middleware: security headers, compression, the visitor's language, NUL bytes in
addresses, Redis unreachable.

Language: Spanish unless the visitor picked another one. Pages follow the language cookie set by
the language switcher and otherwise use Spanish (the game's language), whatever the browser
says. The API also honours ``Accept-Language`` so companion apps can ask for English
explanations without a cookie.
"""

import logging

from django.conf import settings
from django.http import HttpResponse, HttpResponseBadRequest
from django.middleware.gzip import GZipMiddleware
from django.middleware.locale import LocaleMiddleware
from django.utils import translation
from django.utils.translation import gettext as _

from .api.errors import json_error_response
from .tasks import BACKEND_UNAVAILABLE

logger = logging.getLogger(__name__)


def content_security_policy(policy: dict[str, list[str]]) -> str:
    """``SECURE_CSP`` (directive → sources, Django 6's shape) as a header value."""
    return "; ".join(" ".join([directive, *sources]) for directive, sources in policy.items())


class ContentSecurityPolicyMiddleware:
    """``Content-Security-Policy`` on every answer, from ``SECURE_CSP``: scripts and styles from
    the site's own files only (no inline script, no inline style, no ``eval``), no framing, forms
    posted to the site only. A view that needs another policy may set the header itself."""

    def __init__(self, get_response):
        self.get_response = get_response
        self.header = content_security_policy(settings.SECURE_CSP)

    def __call__(self, request):
        response = self.get_response(request)
        if self.header and "Content-Security-Policy" not in response:
            response["Content-Security-Policy"] = self.header
        return response


# What is worth compressing: text. PDFs, images and archives are compressed already.
COMPRESSIBLE_TYPES = (
    "text/",
    "application/json",
    "application/javascript",
    "application/xml",
    "application/vnd.oai.openapi",
    "image/svg+xml",
)


class CompressionMiddleware(GZipMiddleware):
    """gzip for pages and the API when the client accepts it (Django's middleware, with its
    random padding against length attacks), with two choices of ours.

    BREACH (guessing a secret on a page from the length of compressed answers to requests the
    attacker makes the victim's browser send, each reflecting a guess): the CSRF token is masked
    anew in every answer, so it cannot be guessed that way; the secrets that stay the same from
    one answer to the next (the API token on the profile page, calendar and share links, join
    codes) can be, if the page reflects what the attacker puts in its address. Every page
    reflects its query string (the language switcher sends the visitor back to it). So an answer
    to a browser that carries a session cookie and asked with a query string is sent
    uncompressed; the same pages without a query string, everything anonymous and every app
    calling the API with a token are compressed. See docs/operations.md.

    ETags stay as the views set them: an API ETag names a version of the resource, the same
    whatever the encoding (``Vary: Accept-Encoding`` keeps caches apart), and clients send it
    back in ``If-Match``, where a weakened ``W/`` one would never match.
    """

    def process_response(self, request, response):
        content_type = response.get("Content-Type", "")
        if not content_type.startswith(COMPRESSIBLE_TYPES) or self._reflects_for_a_session(request):
            return response
        etag = response.get("ETag")
        response = super().process_response(request, response)
        if etag is not None and response.get("Content-Encoding") == "gzip":
            response["ETag"] = etag
        return response

    @staticmethod
    def _reflects_for_a_session(request) -> bool:
        return bool(request.META.get("QUERY_STRING")) and (
            settings.SESSION_COOKIE_NAME in request.COOKIES
        )


class SiteLocaleMiddleware(LocaleMiddleware):
    def process_request(self, request):
        supported = {code for code, _name in settings.LANGUAGES}
        language = request.COOKIES.get(settings.LANGUAGE_COOKIE_NAME)
        if language not in supported:
            language = None
            if request.path.startswith("/api/"):
                from_header = translation.get_language_from_request(request)
                if request.headers.get("Accept-Language") and from_header in supported:
                    language = from_header
        translation.activate(language or settings.LANGUAGE_CODE)
        request.LANGUAGE_CODE = translation.get_language()


class RejectNullBytesMiddleware:
    """A NUL byte in the path, the query string or a page's posted form is refused with 400
    before any view runs (the API's parsers refuse one in a body, naming the field).

    No URL, slug, token, filter or form value of this site contains one, and PostgreSQL refuses
    NUL in text, so such a request used to reach the database and fail there with a 500.
    """

    def __init__(self, get_response):
        self.get_response = get_response

    def __call__(self, request):
        if "\x00" in request.path or _query_has_null(request):
            message = _("The address contains a NUL character.")
            if request.path.startswith("/api/"):
                return json_error_response(400, "bad_request", message)
            return HttpResponseBadRequest(message, content_type="text/plain; charset=utf-8")
        if (
            request.method == "POST"
            and not request.path.startswith("/api/")
            and _form_has_null(request)
        ):
            return HttpResponseBadRequest(
                _("The form contains a NUL character."), content_type="text/plain; charset=utf-8"
            )
        return self.get_response(request)


def _form_has_null(request) -> bool:
    return any(
        "\x00" in key or any("\x00" in value for value in values)
        for key, values in request.POST.lists()
    )


def _query_has_null(request) -> bool:
    query = request.META.get("QUERY_STRING", "")
    return "%00" in query or "\x00" in query


class BackendUnavailableMiddleware:
    """Redis unreachable where a page cannot do without it: 503 with a clear message, not 500.

    The cache already degrades on its own (annuminas/cache.py) and follow-up tasks are queued
    with ``enqueue_safely``; this is the net for anything else that talks to Redis.
    """

    def __init__(self, get_response):
        self.get_response = get_response

    def __call__(self, request):
        return self.get_response(request)

    def process_exception(self, request, exception):
        if not isinstance(exception, BACKEND_UNAVAILABLE):
            return None
        logger.warning("503 for %s: %s: %s", request.path, type(exception).__name__, exception)
        message = _("A service the site needs is unreachable; try again in a minute.")
        if request.path.startswith("/api/"):
            response = json_error_response(503, "service_unavailable", message)
        else:
            response = HttpResponse(message, status=503, content_type="text/plain; charset=utf-8")
        response["Retry-After"] = "60"
        return response
