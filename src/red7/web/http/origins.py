"""Whether a request comes from the server's own pages: the host allow-list and the
same-origin check.

A page of another site can make its visitor's browser send requests here: plain form
posts and ``text/plain`` fetches need no permission from this server (no CORS
preflight), and WebSockets are never subject to the same-origin policy. So every request
that changes something must show it comes from a page of this server: JSON only (which a
page of another site cannot send without a preflight, which this server never answers),
and an ``Origin`` header, when the browser sends one, naming this server exactly: the
same scheme, host and port (:func:`same_origin`).

DNS rebinding gets around that: another site's name made to point at this server makes
its pages *same-origin* with it, ``Host: evil.example:8320`` and ``Origin:
http://evil.example:8320`` agreeing. So the server answers only to the host names it is
given (:class:`Hosts`, ``--allowed-host``): by default the address it listens on and
``localhost``. A name in an address bar is checked; an IP address is what the server
listens on, or (listening on every address) any address, which no other site can
rebind to (a rebinding attack needs a name of its own).
"""

from __future__ import annotations

import ipaddress
from collections.abc import Iterable
from dataclasses import dataclass
from urllib.parse import urlsplit

LOCAL_NAMES = ("localhost", "127.0.0.1", "::1")
"""The names a server always answers to: this machine's."""
DEFAULT_PORTS = {"http": 80, "https": 443}
SCHEMES = {"http": "http", "https": "https", "ws": "http", "wss": "https"}
"""A WebSocket's scheme as the page's that opened it (``wss`` is opened by ``https`` pages)."""

Origin = tuple[str, str, int]
"""An origin: scheme (``http``, ``https``), lower-case host name or address, port."""


def split_host(host: str) -> tuple[str, int | None] | None:
    """A ``Host`` header (``name``, ``name:port``, ``[::1]:8000``...) as the lower-case host
    (an IPv6 address without its brackets) and the port if given; None if malformed.

    >>> split_host("Red7.Example.org:8320"), split_host("[::1]"), split_host("a b")
    (('red7.example.org', 8320), ('::1', None), None)
    """
    if not host or any(ch in host for ch in " /?#@\\") or not host.isprintable():
        return None
    try:
        parts = urlsplit(f"//{host}")
        name, port = parts.hostname, parts.port
    except ValueError:
        return None
    if not name:
        return None
    return name, port


def parse_origin(text: str) -> Origin | None:
    """An origin (``http://example.org:8000``, a page's ``Origin`` header, or an origin
    given with ``--allow-origin``) as (scheme, host, port), the default port filled in;
    None if it is not one (``null``, another scheme, a path).

    >>> parse_origin("HTTP://Example.org"), parse_origin("https://[::1]:8443"), parse_origin("null")
    (('http', 'example.org', 80), ('https', '::1', 8443), None)
    """
    try:
        parts = urlsplit(text.strip())
    except ValueError:
        return None
    scheme = parts.scheme.lower()
    if scheme not in DEFAULT_PORTS or parts.path not in ("", "/") or parts.query or parts.fragment:
        return None
    host = split_host(parts.netloc)
    if host is None:
        return None
    name, port = host
    return scheme, name, port or DEFAULT_PORTS[scheme]


def own_origin(scheme: str, host: str | None) -> Origin | None:
    """The origin of this server's pages as a request reaching it names them: the request's
    scheme (``https`` behind a proxy that says so in ``X-Forwarded-Proto``) and its
    ``Host`` header. None if the host is missing or malformed."""
    page_scheme = SCHEMES.get(scheme.lower())
    found = split_host(host or "")
    if page_scheme is None or found is None:
        return None
    name, port = found
    return page_scheme, name, port or DEFAULT_PORTS[page_scheme]


def same_origin(origin: str | None, scheme: str, host: str | None, allowed: Iterable[Origin] = ()) -> bool:
    """Whether a request with this ``Origin`` header may act: no header (not a browser's
    page: a program, which no page can make send anything), or an origin equal in scheme,
    host and port to this server's (:func:`own_origin`) or to one of ``allowed``."""
    if origin is None:
        return True
    theirs = parse_origin(origin)
    if theirs is None:  # "null" (a sandboxed frame, a file), or garbage
        return False
    return theirs == own_origin(scheme, host) or theirs in set(allowed)


@dataclass(frozen=True)
class Hosts:
    """The host names this server answers to (``--allowed-host``): names (``red7.example.org``),
    names under a domain (``*.example.org``), every name (``*``: the proxy in front checks
    them); this machine's names always; and, with ``any_address`` (listening on every
    address), every IP address."""

    names: frozenset[str]
    suffixes: tuple[str, ...] = ()
    any_name: bool = False
    any_address: bool = False

    @classmethod
    def of(cls, allowed: Iterable[str], listening: str | None = None) -> Hosts:
        """The allow-list of the names given and ``listening``'s (the address the server
        listens on: ``0.0.0.0`` or ``::`` allows every IP address)."""
        names = set(LOCAL_NAMES)
        suffixes: list[str] = []
        any_name = any_address = False
        for entry in allowed:
            text = entry.strip().lower().strip("[]")
            if text == "*":
                any_name = True
            elif text.startswith("*."):
                suffixes.append(text[1:])
            elif text:
                names.add(text)
        if listening:
            address = _address(listening)
            if address is not None and address.is_unspecified:
                any_address = True
            else:
                names.add(listening.strip("[]").lower())
        return cls(frozenset(names), tuple(suffixes), any_name, any_address)

    def allows(self, host: str | None) -> bool:
        """Whether a request with this ``Host`` header is for this server."""
        found = split_host(host or "")
        if found is None:
            return False
        name = found[0]
        if self.any_name or name in self.names or any(name.endswith(suffix) for suffix in self.suffixes):
            return True
        return self.any_address and _address(name) is not None


def _address(text: str) -> ipaddress.IPv4Address | ipaddress.IPv6Address | None:
    try:
        return ipaddress.ip_address(text.strip("[]"))
    except ValueError:
        return None
