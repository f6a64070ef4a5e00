"""Abuse limits that concern a client address rather than one connection.

A room code has 30 bits, so nobody finds a room by trying codes one by one, unless
they can try very fast. Every failed lookup of a code (HTTP or WebSocket) spends one of
the address's tokens; an address with none left is answered ``rate_limited`` (HTTP
429) for every lookup, found or not, until its bucket refills. The address is the
peer's, or the one a trusted reverse proxy names (``--trusted-proxy``: uvicorn's proxy
headers middleware rewrites the client address only for those).
"""

from __future__ import annotations

import ipaddress
import time
from collections import OrderedDict
from collections.abc import Callable
from urllib.parse import urlsplit

from snakes.server.transport.protocol import ProtocolError

MAX_TRACKED = 100_000
"""Addresses remembered at once; the least recently seen ones are forgotten first."""
MISS_CODES = frozenset({"room_not_found", "record_not_found"})


class LookupLimiter:
    """Failed room lookups per client address: ``per_minute`` on average, in bursts."""

    def __init__(self, per_minute: int, clock: Callable[[], float] = time.monotonic) -> None:
        self.per_minute = per_minute
        self.rate = per_minute / 60.0
        self._clock = clock
        self._buckets: OrderedDict[str, tuple[float, float]] = OrderedDict()
        self.refused = 0

    def _tokens(self, address: str, now: float) -> float:
        tokens, stamp = self._buckets.get(address, (float(self.per_minute), now))
        return min(float(self.per_minute), tokens + (now - stamp) * self.rate)

    def check(self, address: str) -> None:
        """Refuse any lookup from an address that has used up its misses."""
        if self.per_minute <= 0:
            return
        now = self._clock()
        tokens = self._tokens(address, now)
        if tokens < 1:
            self.refused += 1
            wait = max(1, round((1 - tokens) / self.rate))
            raise ProtocolError(
                "rate_limited", f"too many unknown room codes; try again in {wait} s"
            )

    def miss(self, address: str) -> None:
        """Spend one token: this address looked up a code that names no room."""
        if self.per_minute <= 0:
            return
        now = self._clock()
        self._buckets[address] = (self._tokens(address, now) - 1, now)
        self._buckets.move_to_end(address)
        while len(self._buckets) > MAX_TRACKED:
            self._buckets.popitem(last=False)

    def __len__(self) -> int:
        return len(self._buckets)


def _origin_of(url: str) -> tuple[str, str] | None:
    parts = urlsplit(url)
    if not parts.scheme or not parts.hostname:
        return None
    default = {"http": 80, "https": 443, "ws": 80, "wss": 443}.get(parts.scheme)
    try:
        port = parts.port
    except ValueError:
        return None
    host = parts.hostname.lower()
    if ":" in host:
        host = f"[{host}]"
    netloc = host if port in (None, default) else f"{host}:{port}"
    return parts.scheme.lower(), netloc


LOOPBACK_NAMES = frozenset({"localhost", "localhost.localdomain", "ip6-localhost"})


def host_allowed(host: str | None, public_url: str | None, allowed: tuple[str, ...] = ()) -> bool:
    """Is ``host`` (a ``Host`` header) a name this server answers to?

    A page that rebinds its own name (``evil.example``) to this server's address sends
    ``Host: evil.example`` and ``Origin: http://evil.example``: the two agree, so the
    Host is checked on its own. Allowed: an address literal (nobody rebinds those),
    the loopback names, the public URL's host and the ``--allowed-host`` names.

    >>> host_allowed("evil.example:8000", None), host_allowed("127.0.0.1:8000", None)
    (False, True)
    >>> host_allowed("snakes.example.org", "https://snakes.example.org")
    True
    >>> host_allowed("[::1]:80", None)
    True
    """
    if not host:
        return False
    parts = urlsplit(f"//{host}")
    try:
        name = (parts.hostname or "").rstrip(".").lower()
    except ValueError:
        return False
    if not name:
        return False
    try:
        ipaddress.ip_address(name)
        return True
    except ValueError:
        pass
    if name in LOOPBACK_NAMES or name.endswith(".localhost"):
        return True
    if public_url and (urlsplit(public_url).hostname or "").lower() == name:
        return True
    return name in {a.rstrip(".").lower() for a in allowed}


def origin_allowed(
    origin: str | None, host: str | None, public_url: str | None, allowed: tuple[str, ...] = ()
) -> bool:
    """May a WebSocket handshake with this ``Origin`` header go on?

    Browsers always send ``Origin``; programs (the CLI, bots, tests) often do not, and
    they are no cross-site threat, so a missing header is allowed. Otherwise the origin
    must be the public URL's, or the site the request itself came to (its ``Host``),
    when that Host is one of this server's names (:func:`host_allowed`: DNS rebinding).

    >>> origin_allowed("https://evil.example", "127.0.0.1:8000", None)
    False
    >>> origin_allowed("http://127.0.0.1:8000", "127.0.0.1:8000", None)
    True
    >>> origin_allowed("https://snakes.example.org", "127.0.0.1:8000", "https://snakes.example.org/")
    True
    >>> origin_allowed(None, "127.0.0.1:8000", None)
    True
    >>> origin_allowed("http://evil.example:8000", "evil.example:8000", "https://snakes.example.org")
    False
    """
    if origin is None:
        return True
    seen = _origin_of(origin)
    if seen is None or seen[0] not in ("http", "https"):
        return False  # "null" (sandboxed frames, files) and anything odd
    if public_url and _origin_of(public_url) == seen:
        return True
    if host and host_allowed(host, public_url, allowed):
        here = _origin_of(f"{seen[0]}://{host}")
        return here is not None and here[1] == seen[1]
    return False
