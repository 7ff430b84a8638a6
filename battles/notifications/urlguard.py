"""Where a webhook may post: http(s) only, and never to the server's own network.

An organiser types the URL, so without a guard the worker could be made to post to anything it
can reach (the database, Redis, a cloud metadata service at 169.254.169.254). The URL is parsed
once, by ``webhook_target``, into a scheme, host, port and path; the same function serves the
check when it is saved and the delivery, which opens its connection to that host and port
itself (no second URL parser that could read ``http://127.0.0.1:80@8.8.8.8/`` differently).
URLs with credentials (``user@``, ``user:pass@``), backslashes, spaces or control characters
are refused outright. At delivery the connection goes to an address checked at that moment, so
a name that resolved to a public address when it was saved and to a private one now (DNS
rebinding) is refused too. Redirects are not followed (a public URL could bounce the POST to a
private one) and environment proxies are not used.

Public means a global unicast address: not private, loopback, link-local, site-local
(``fec0::/10``), reserved, multicast, shared (100.64/10) or unspecified, and not an IPv6
address that carries an IPv4 one (``::ffff:0:0/96``, 6to4 ``2002::/16``, Teredo ``2001::/32``,
NAT64 ``64:ff9b::/96``): those reach whatever IPv4 address they embed.

``WEBHOOKS_ALLOW_PRIVATE = True`` (development, tests against a local server) lets private,
loopback, link-local and reserved addresses through; the scheme, credentials and backslashes
are checked always.
"""

from __future__ import annotations

import http.client
import ipaddress
import socket
import ssl
from dataclasses import dataclass
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


# IPv6 ranges whose addresses lead to an embedded IPv4 address (or are not meant to be reached
# directly): refused whatever they embed.
_IPV6_REFUSED = tuple(
    ipaddress.IPv6Network(network)
    for network in (
        "2002::/16",  # 6to4
        "2001::/32",  # Teredo
        "64:ff9b::/96",  # NAT64, well-known prefix
        "64:ff9b:1::/48",  # NAT64, local use
        "fec0::/10",  # site-local (deprecated, still routed inside some networks)
        "2001:db8::/32",  # documentation
    )
)
# Global unicast: the only IPv6 space a webhook may reach.
_IPV6_GLOBAL_UNICAST = ipaddress.IPv6Network("2000::/3")


def is_public(address: Address) -> bool:
    """False for private, loopback, link-local, site-local, reserved, multicast, unspecified and
    shared (100.64/10) addresses, for IPv4 ones written as IPv6 (``::ffff:10.0.0.1``) and for
    IPv6 ranges that carry an IPv4 address (6to4, Teredo, NAT64)."""
    if isinstance(address, ipaddress.IPv6Address):
        if address.ipv4_mapped is not None:
            address = address.ipv4_mapped
        elif address not in _IPV6_GLOBAL_UNICAST or any(
            address in network for network in _IPV6_REFUSED
        ):
            return False
    return address.is_global and not (
        address.is_private
        or address.is_loopback
        or address.is_link_local
        or address.is_reserved
        or address.is_multicast
        or address.is_unspecified
        or getattr(address, "is_site_local", False)
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


class BadURL(ValueError):
    """The URL cannot be a webhook's, whatever its host resolves to; ``message`` says why."""

    def __init__(self, message):
        self.message = message
        super().__init__(str(message))


@dataclass(frozen=True)
class Target:
    """A webhook URL parsed once: where the delivery connects and what it asks for."""

    scheme: str
    host: str  # a name (IDNA, lowercase) or an IP literal without brackets
    port: int
    path: str  # path and query, never empty

    @property
    def https(self) -> bool:
        return self.scheme == "https"


def _host(host: str) -> str:
    """An IP literal in its canonical form, or a name in IDNA; "" if it is neither."""
    try:
        return str(ipaddress.ip_address(host))
    except ValueError:
        pass
    try:
        name = host.encode("idna").decode("ascii").lower()
    except UnicodeError:
        return ""
    return name if all(char.isalnum() or char in ".-" for char in name) else ""


def webhook_target(url: str) -> Target:
    """Parse ``url`` into a ``Target``, or ``BadURL`` saying why it cannot be a webhook's.

    The one parser for both the save check and the delivery."""
    url = (url or "").strip()
    scheme_error = _("Give an http:// or https:// address.")
    if len(url) > MAX_URL_LENGTH:
        raise BadURL(scheme_error)
    if "\\" in url or any(ord(char) <= 32 or ord(char) == 127 for char in url):
        raise BadURL(_("Give an address without backslashes, spaces or control characters."))
    parts = urlsplit(url)
    if parts.scheme not in ("http", "https"):
        raise BadURL(scheme_error)
    if "@" in parts.netloc:
        raise BadURL(
            _(
                "Give an address without a user name or password: the webhook's secret signs "
                "each delivery."
            )
        )
    host = parts.hostname or ""
    try:
        port = parts.port or (443 if parts.scheme == "https" else 80)
    except ValueError as error:  # a port that is not a number or out of range
        raise BadURL(scheme_error) from error
    if "%" in host:  # a percent-encoded name, or an IPv6 zone: no webhook needs either
        raise BadURL(scheme_error)
    host = _host(host)
    if not host:
        raise BadURL(scheme_error)
    path = parts.path or "/"
    if parts.query:
        path += "?" + parts.query
    return Target(scheme=parts.scheme, host=host, port=port, path=path)


def webhook_url_check(url: str) -> str:
    """The URL, stripped, if a webhook may post to it; else ``ValidationError`` on ``url``."""
    url = (url or "").strip()
    try:
        target = webhook_target(url)
        checked_addresses(target.host, target.port)
    except BadURL as error:
        raise ValidationError({"url": error.message}) from error
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


def post(url: str, *, body: bytes, headers: dict[str, str], timeout: float) -> int:
    """POST ``body`` to ``url`` through a guarded connection; the answer's status code.

    The URL is parsed by ``webhook_target`` (as when it was saved) and the connection opened to
    its host and port, to an address checked now; no proxy, no redirect (a 3xx is returned as
    it is). Raises ``AddressRefused`` when the URL or its address is refused (a URL changed
    behind the services' back, DNS that changed), ``OSError`` or ``http.client.HTTPException``
    when the host cannot be reached or answers nonsense.
    """
    try:
        target = webhook_target(url)
    except BadURL as error:
        if urlsplit((url or "").strip()).scheme not in ("http", "https"):
            raise AddressRefused("only http:// and https:// addresses are allowed") from error
        raise AddressRefused(f"the address is not allowed ({error.message})") from error
    if target.https:
        connection: http.client.HTTPConnection = _GuardedHTTPSConnection(
            target.host, target.port, timeout=timeout, context=ssl.create_default_context()
        )
    else:
        connection = _GuardedHTTPConnection(target.host, target.port, timeout=timeout)
    try:
        connection.request("POST", target.path, body=body, headers=headers)
        response = connection.getresponse()
        response.read(64 * 1024)  # drain a little; the body is not kept
        return response.status
    finally:
        connection.close()
