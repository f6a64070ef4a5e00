"""Abuse limits that concern a client address rather than one connection.

A room code has 30 bits, so nobody finds a room by trying codes one by one, unless
they can try very fast. Every failed lookup of a code (HTTP or WebSocket) spends a
token of the client's address and of its network; an address or a network with none
left is answered ``rate_limited`` (HTTP 429) for every lookup, found or not, until its
bucket refills. Misses from everyone together spend a global budget too, and when it is
spent only those who miss pay: see :class:`LookupLimiter`. The address is the peer's,
or the one a trusted reverse proxy names (``--trusted-proxy``: uvicorn's proxy headers
middleware rewrites the client address only for those).
"""

from __future__ import annotations

import ipaddress
import math
import time
from collections import OrderedDict
from collections.abc import Callable
from urllib.parse import urlsplit

from snakes.server.rooms.errors import (
    BadSecret,
    ProtocolError,
    RateLimited,
    RecordNotFound,
    RoomNotFound,
)

MAX_TRACKED = 100_000
"""Addresses remembered at once; the least recently seen ones are forgotten first."""
MISSES = (RoomNotFound, RecordNotFound)
"""Refusals that say a code holds nothing: what a guesser of codes gets."""
HELLO_MISSES = (*MISSES, BadSecret)
"""A hello with a secret that holds nothing is a miss too: it would tell a real code."""


def address_key(host: str) -> str:
    """The unit per-address limits count: the address, or its /64 for IPv6.

    One IPv6 host usually has a whole /64 to itself, so counting single IPv6 addresses
    would give it billions of budgets.

    >>> address_key("2001:db8:1:2:aaaa::1"), address_key("::ffff:192.0.2.7"), address_key("x")
    ('2001:db8:1:2::/64', '192.0.2.7', 'x')
    """
    return _prefix(host, 32, 64)


def network_key(host: str) -> str:
    """The unit per-network limits count: an IPv4 /24, an IPv6 /48 (what one site, one
    customer of a provider, is usually given: 65,536 /64s, each an "address" above).

    >>> network_key("2001:db8:1:2:aaaa::1"), network_key("::ffff:192.0.2.7"), network_key("x")
    ('2001:db8:1::/48', '192.0.2.0/24', 'x')
    """
    return _prefix(host, 24, 48)


def _prefix(host: str, ipv4_bits: int, ipv6_bits: int) -> str:
    try:
        address = ipaddress.ip_address(host)
    except ValueError:
        return host
    if isinstance(address, ipaddress.IPv6Address) and address.ipv4_mapped is not None:
        address = address.ipv4_mapped
    bits = ipv4_bits if isinstance(address, ipaddress.IPv4Address) else ipv6_bits
    if bits == address.max_prefixlen:
        return str(address)
    return str(ipaddress.ip_network(f"{address}/{bits}", strict=False))


class Buckets:
    """Token buckets by key: ``capacity`` tokens, refilled at ``capacity`` per ``period`` s.

    ``capacity`` 0 means no limit. At most ``MAX_TRACKED`` keys are kept; a forgotten
    key starts again full, which favours the many over the one.
    """

    def __init__(
        self, capacity: int, period: float, clock: Callable[[], float] = time.monotonic
    ) -> None:
        self.capacity = capacity
        self.rate = capacity / period if period > 0 else 0.0
        self._clock = clock
        self._buckets: OrderedDict[str, tuple[float, float]] = OrderedDict()

    def _tokens(self, key: str, now: float) -> float:
        tokens, stamp = self._buckets.get(key, (float(self.capacity), now))
        return min(float(self.capacity), tokens + (now - stamp) * self.rate)

    def wait(self, key: str) -> float:
        """Seconds until ``key`` has a whole token again; 0 when it has one now."""
        if self.capacity <= 0:
            return 0.0
        tokens = self._tokens(key, self._clock())
        return 0.0 if tokens >= 1 else (1 - tokens) / self.rate

    def spend(self, key: str, amount: float = 1.0) -> None:
        """Take ``amount`` tokens (a bucket may go below empty: it refills from there)."""
        if self.capacity <= 0:
            return
        now = self._clock()
        self._buckets[key] = (self._tokens(key, now) - amount, now)
        self._buckets.move_to_end(key)
        while len(self._buckets) > MAX_TRACKED:
            self._buckets.popitem(last=False)

    def __len__(self) -> int:
        return len(self._buckets)


def _refuse(what: str, wait: float) -> ProtocolError:
    seconds = max(1, math.ceil(wait))
    return RateLimited(f"{what}; try again in {seconds} s", retry_after=seconds)


QUIET_SECONDS = 60.0
"""While everyone's budget is spent, an address may miss once in this time."""


class LookupLimiter:
    """Failed room lookups (misses), counted three ways.

    - **Per address** (an IPv6 /64): ``per_minute``. With none left, every lookup from
      the address is refused, found or not, so a guesser learns nothing more.
    - **Per network** (an IPv4 /24, an IPv6 /48): ``network_per_minute``, the same way,
      so that many addresses of one network guess no faster than a few. It is several
      addresses' worth: one guessing address alone never locks its neighbours out.
    - **From everyone together**: ``total_per_minute``. It refuses no lookup by itself:
      while it is spent, an address may miss once in ``QUIET_SECONDS`` (60 s), and one
      that has missed is refused every lookup until then. So misses from many addresses
      never lock out anyone who has not missed: a player or spectator looking up a real
      room (no miss) is answered, whoever guesses elsewhere, and a guesser with many
      addresses is slowed to one miss a minute on each.

    Every check is made before the lookup and depends on nothing but past misses, so a
    refusal says nothing about the code asked for, and costs the store nothing. Looking
    up first and refusing only the misses would answer a guesser's every hit, however
    spent its budget (a miss refused or answered 404 tells the same: not a room).

    A hello that holds a valid seat secret is never refused (the WebSocket endpoint
    tries it first: see ``ws.py``).
    """

    def __init__(
        self,
        per_minute: int,
        total_per_minute: int = 0,
        clock: Callable[[], float] = time.monotonic,
        network_per_minute: int = 0,
    ) -> None:
        self.per_minute = per_minute
        self.total_per_minute = total_per_minute
        self.network_per_minute = network_per_minute
        self._addresses = Buckets(per_minute, 60.0, clock)
        self._networks = Buckets(network_per_minute, 60.0, clock)
        self._everyone = Buckets(total_per_minute, 60.0, clock)
        self._quiet = Buckets(1, QUIET_SECONDS, clock)
        self.refused = 0

    def check(self, address: str) -> None:
        """Refuse any lookup from an address (or network) that has used up its misses,
        or that has missed while everyone's misses are spent."""
        key = address_key(address)
        for buckets, bucket, why in (
            (self._addresses, key, "too many unknown room codes from your address"),
            (self._networks, network_key(address), "too many unknown room codes from your network"),
        ):
            wait = buckets.wait(bucket)
            if wait > 0:
                self.refused += 1
                raise _refuse(why, wait)
        wait = self._quiet.wait(key)
        if wait > 0 and self._everyone.wait("") > 0:
            self.refused += 1
            raise _refuse("too many unknown room codes are being tried, yours among them", wait)

    def miss(self, address: str) -> None:
        """Spend: this address looked up a code that names no room."""
        key = address_key(address)
        if self._everyone.wait("") > 0:
            self._quiet.spend(key)
        self._addresses.spend(key)
        self._networks.spend(network_key(address))
        self._everyone.spend("")

    def __len__(self) -> int:
        return len(self._addresses)


class RoomBudget:
    """New rooms: per client address (an IPv6 /64) a minute and an hour, and from
    everyone together a minute; and how many rooms this process may hold at once."""

    def __init__(
        self,
        per_minute: int,
        per_hour: int,
        total_per_minute: int,
        max_rooms: int,
        clock: Callable[[], float] = time.monotonic,
    ) -> None:
        self.max_rooms = max_rooms
        self._minute = Buckets(per_minute, 60.0, clock)
        self._hour = Buckets(per_hour, 3600.0, clock)
        self._everyone = Buckets(total_per_minute, 60.0, clock)
        self.refused = 0

    def spend(self, address: str, rooms_held: int) -> None:
        """Count one new room from ``address``, or refuse it (``rate_limited``)."""
        key = address_key(address)
        if self.max_rooms and rooms_held >= self.max_rooms:
            self.refused += 1
            raise _refuse("the server holds as many rooms as it may", 60.0)
        for buckets, who in (
            (self._minute, "your address"),
            (self._hour, "your address"),
            (self._everyone, "everyone"),
        ):
            wait = buckets.wait(key if buckets is not self._everyone else "")
            if wait > 0:
                self.refused += 1
                raise _refuse(f"too many new rooms from {who}", wait)
        self._minute.spend(key)
        self._hour.spend(key)
        self._everyone.spend("")


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


class TrustedProxies:
    """``--trusted-proxy``: addresses (or networks, or ``*``) whose ``X-Forwarded-For``
    names the client. The rule is uvicorn's for HTTP requests, here for the game's
    WebSocket, which uvicorn's proxy middleware never sees: the client is the rightmost
    forwarded address that is not itself a trusted proxy.

    >>> proxies = TrustedProxies(("10.0.0.0/8", "127.0.0.1"))
    >>> proxies.trusts("10.1.2.3"), proxies.trusts("192.0.2.1")
    (True, False)
    >>> proxies.client("198.51.100.7, 10.0.0.9")
    '198.51.100.7'
    >>> proxies.client("203.0.113.1, 198.51.100.7")
    '198.51.100.7'
    """

    def __init__(self, trusted: tuple[str, ...]) -> None:
        self.everyone = "*" in trusted
        self._networks: list[ipaddress.IPv4Network | ipaddress.IPv6Network] = []
        self._names: set[str] = set()
        for item in trusted:
            try:
                self._networks.append(ipaddress.ip_network(item, strict=False))
            except ValueError:
                self._names.add(item)

    def trusts(self, host: str) -> bool:
        if self.everyone:
            return True
        try:
            address = ipaddress.ip_address(host)
        except ValueError:
            return host in self._names
        return any(address in network for network in self._networks)

    def client(self, forwarded: str) -> str | None:
        """The client a chain of ``X-Forwarded-For`` addresses names (None: none)."""
        hosts = [_host_of(part.strip()) for part in forwarded.split(",") if part.strip()]
        if not hosts:
            return None
        if self.everyone:
            return hosts[0]
        for host in reversed(hosts):
            if not self.trusts(host):
                return host
        return hosts[0]


def _host_of(value: str) -> str:
    """An address without its port: ``[::1]:80`` -> ``::1``, ``192.0.2.1:80`` -> ``192.0.2.1``."""
    if value.startswith("["):
        return value[1 : value.find("]")] if "]" in value else value
    if value.count(":") == 1:
        return value.partition(":")[0]
    return value
