"""Where a webhook may post: http(s) only, and never to the server's own network.

An organiser types the URL, so without a guard the worker could be made to post to anything it
can reach (the database, Redis, a cloud metadata service at 169.254.169.254). A URL is checked
when it is saved, and again at delivery: the connection is opened to an address checked at that
moment, so a name that resolved to a public address when it was saved and to a private one now
(DNS rebinding) is refused too. Redirects are not followed (a public URL could bounce the POST
to a private one) and environment proxies are not used.

``WEBHOOKS_ALLOW_PRIVATE = True`` (development, tests against a local server) lets private,
loopback, link-local and reserved addresses through; the scheme is checked always.
"""

from __future__ import annotations

import http.client
import ipaddress
import socket
import urllib.request
from urllib.parse import urlsplit

from django.conf import settings
from django.core.exceptions import ValidationError
from django.utils.translation import gettext as _

MAX_URL_LENGTH = 500
Address = ipaddress.IPv4Address | ipaddress.IPv6Address


class AddressRefused(OSError):
    """The webhook's host resolves to an address the worker must not post to."""


def private_allowed() -> bool:
    return bool(getattr(settings, "WEBHOOKS_ALLOW_PRIVATE", False))


def resolve(host: str, port: int) -> list[tuple]:
    """``getaddrinfo`` for a TCP connection (a seam the tests replace for names: no DNS there)."""
    return socket.getaddrinfo(host, port, type=socket.SOCK_STREAM)


def is_public(address: Address) -> bool:
    """False for private, loopback, link-local, reserved, multicast, unspecified and shared
    (100.64/10) addresses, including IPv4 ones written as IPv6 (``::ffff:10.0.0.1``)."""
    if isinstance(address, ipaddress.IPv6Address) and address.ipv4_mapped is not None:
        address = address.ipv4_mapped
    return address.is_global and not (
        address.is_private
        or address.is_loopback
        or address.is_link_local
        or address.is_reserved
        or address.is_multicast
        or address.is_unspecified
    )


def checked_addresses(host: str, port: int) -> list[tuple]:
    """The resolved addresses of ``host`` (``getaddrinfo`` tuples), every one of them allowed.

    Raises ``AddressRefused`` if any is not public (unless private addresses are allowed), and
    ``socket.gaierror`` if the name does not resolve.
    """
    infos = resolve(host, port)
    if not infos:
        raise socket.gaierror(f"{host} has no address")
    if not private_allowed():
        for info in infos:
            address = ipaddress.ip_address(info[4][0].split("%", 1)[0])
            if not is_public(address):
                raise AddressRefused(f"{host} resolves to {address}, which is not public")
    return infos


def webhook_url_check(url: str) -> str:
    """The URL, stripped, if a webhook may post to it; else ``ValidationError`` on ``url``."""
    url = (url or "").strip()
    parts = urlsplit(url)
    if parts.scheme not in ("http", "https") or not parts.hostname or len(url) > MAX_URL_LENGTH:
        raise ValidationError({"url": _("Give an http:// or https:// address.")})
    try:
        port = parts.port or (443 if parts.scheme == "https" else 80)
        checked_addresses(parts.hostname, port)
    except ValueError as error:  # a bad port
        raise ValidationError({"url": _("Give an http:// or https:// address.")}) from error
    except AddressRefused as error:
        raise ValidationError(
            {"url": _("This address points into a private network: give a public one.")}
        ) from error
    except OSError as error:
        raise ValidationError(
            {"url": _("This host cannot be found: check the address.")}
        ) from error
    return url


def _guarded_create_connection(address, timeout=None, source_address=None, **_kwargs):
    """``socket.create_connection`` that connects only to addresses checked just now."""
    host, port = address
    error: OSError | None = None
    for family, kind, proto, _name, peer in checked_addresses(host, port):
        sock = socket.socket(family, kind, proto)
        try:
            if timeout is not None:
                sock.settimeout(timeout)
            if source_address:
                sock.bind(source_address)
            sock.connect(peer)
            return sock
        except OSError as failed:
            sock.close()
            error = failed
    raise error or OSError(f"cannot connect to {host}")


class _GuardedHTTPConnection(http.client.HTTPConnection):
    def __init__(self, *args, **kwargs):
        super().__init__(*args, **kwargs)
        self._create_connection = _guarded_create_connection


class _GuardedHTTPSConnection(http.client.HTTPSConnection):
    def __init__(self, *args, **kwargs):
        super().__init__(*args, **kwargs)
        self._create_connection = _guarded_create_connection


class _GuardedHTTPHandler(urllib.request.HTTPHandler):
    def http_open(self, req):
        return self.do_open(_GuardedHTTPConnection, req)


class _GuardedHTTPSHandler(urllib.request.HTTPSHandler):
    def https_open(self, req):
        return self.do_open(_GuardedHTTPSConnection, req, context=self._context)


class _NoRedirect(urllib.request.HTTPRedirectHandler):
    def redirect_request(self, req, fp, code, msg, headers, newurl):
        return None  # the 3xx answer is returned as an HTTPError: a failed delivery


def open_checked(request: urllib.request.Request, *, timeout: float):
    """Send ``request`` through guarded connections, without proxies or redirects.

    Raises ``urllib.error.URLError`` (its ``reason`` an ``AddressRefused`` when the guard said
    no), ``HTTPError`` for an answer outside 2xx, or ``AddressRefused`` for a scheme other than
    http(s) (a URL changed behind the services' back).
    """
    if urlsplit(request.full_url).scheme not in ("http", "https"):
        raise AddressRefused("only http:// and https:// addresses are allowed")
    opener = urllib.request.OpenerDirector()
    for handler in (
        urllib.request.ProxyHandler({}),
        urllib.request.UnknownHandler(),
        urllib.request.HTTPDefaultErrorHandler(),
        urllib.request.HTTPErrorProcessor(),
        _NoRedirect(),
        _GuardedHTTPHandler(),
        _GuardedHTTPSHandler(),
    ):
        opener.add_handler(handler)
    return opener.open(request, timeout=timeout)
