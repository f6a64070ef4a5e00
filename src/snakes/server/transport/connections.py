"""Limits on connections, below the application: how many, from where, how slow.

uvicorn accepts a TCP connection and hands it to an HTTP protocol object; a WebSocket
upgrade hands the same socket on to the game's WebSocket (``gamesocket.py``). The HTTP
protocol is subclassed here (:func:`gated_http`) so that

- a connection over the cap for its client address (an IPv6 /64 counts as one
  address) or over the overall cap is answered ``503`` and closed at once, before
  anything of it is read, so a flood from one address cannot use up the descriptors;
- a client that has not sent a whole request head within ``header_timeout`` seconds
  (slowloris) is disconnected; so is one that sends the next request's head too slowly;
- a request head over ``MAX_HEAD_BYTES`` is answered ``400`` and the connection closed,
  whether it arrives in pieces (h11's own limit on an unfinished head) or whole in one
  read (:class:`HeadLimit`, which h11's limit does not see).

The address is the TCP peer's. Behind a reverse proxy every connection comes from the
proxy, so the ``--trusted-proxy`` addresses are exempt from the per-address cap (the
proxy limits its own clients); the overall cap still holds.

:class:`QuietLog` and :class:`FloodFilter` keep the log readable under a flood: one
line per kind of refusal per interval, with a count, and never a traceback per socket.
"""

from __future__ import annotations

import asyncio
import contextlib
import errno
import json
import logging
import math
import resource
import socket
import time
from collections import Counter
from collections.abc import Callable
from typing import Any

import h11
from uvicorn.protocols.http.h11_impl import H11Protocol

from snakes.server.transport.limits import address_key

log = logging.getLogger("snakes.limits")

QUIET_SECONDS = 10.0
"""A limit that is hit again and again is logged once per this many seconds."""
DESCRIPTOR_RESERVE = 64
"""Descriptors kept back from connections: the store, logs, Redis, accept() itself."""
MAX_HEAD_BYTES = 16 * 1024
"""The largest request head (request line and headers) a client may send."""
SOCKET_SEND_BUFFER = 64 * 1024
"""The kernel's send buffer per connection (SO_SNDBUF; Linux doubles it). Left to
autotuning, a client that stops reading could hold megabytes of kernel memory; a game
sends a few KB a second, which this carries at any round-trip time under 10 s."""


class QuietLog:
    """Log a limit hit at most once per ``interval`` per kind, counting the ones folded in."""

    def __init__(
        self,
        logger: logging.Logger = log,
        interval: float = QUIET_SECONDS,
        clock: Callable[[], float] = time.monotonic,
    ) -> None:
        self.logger, self.interval, self._clock = logger, interval, clock
        self._seen: dict[str, tuple[float, int]] = {}
        self.hits: Counter[str] = Counter()

    def hit(self, kind: str, message: str, *args: object) -> None:
        self.hits[kind] += 1
        now = self._clock()
        last, folded = self._seen.get(kind, (-math.inf, 0))
        if now - last < self.interval:
            self._seen[kind] = (last, folded + 1)
            return
        self._seen[kind] = (now, 0)
        if folded:
            message += f" (and {folded} more like it since the last line)"
        self.logger.warning(message, *args)


class FloodFilter(logging.Filter):
    """Lines that a flood of bad clients would repeat once per socket: one per interval.

    uvicorn logs "Invalid HTTP request received." per bad request, asyncio logs a
    traceback per failed ``accept()`` when descriptors run out. The first of each kind
    in an interval passes, without its traceback; the rest are counted in the next one.
    """

    FLOODS = (
        "Invalid HTTP request received",
        "Exceeded concurrency limit",
        "socket.accept() out of system resource",
        "Invalid UTF-8 sequence received",
        "Error in connection_made",
        "Fatal error on transport",
        "Fatal read error on socket transport",
        "Fatal write error on socket transport",
    )

    def __init__(self, interval: float = QUIET_SECONDS) -> None:
        super().__init__()
        self.interval = interval
        self._seen: dict[str, tuple[float, int]] = {}

    def filter(self, record: logging.LogRecord) -> bool:
        text = str(record.msg)
        kind = next((k for k in self.FLOODS if k in text), None)
        if kind is None:
            return True
        now = time.monotonic()
        last, folded = self._seen.get(kind, (-math.inf, 0))
        if now - last < self.interval:
            self._seen[kind] = (last, folded + 1)
            return False
        self._seen[kind] = (now, 0)
        error = record.exc_info[1] if record.exc_info else None
        record.msg = f"{record.getMessage()}{f': {error!r}' if error else ''}" + (
            f" (and {folded} more since the last line)" if folded else ""
        )
        record.args = None
        record.exc_info = None
        record.exc_text = None
        return True


def quiet_exception_handler(loop: asyncio.AbstractEventLoop, context: dict[str, Any]) -> None:
    """The event loop's handler: descriptor exhaustion is one quiet line, not a traceback."""
    error = context.get("exception")
    if isinstance(error, OSError) and error.errno in (errno.EMFILE, errno.ENFILE, errno.ENOBUFS):
        _LOOP_QUIET.hit("descriptors", "out of descriptors: %s (accepting pauses 1 s)", error)
        return
    loop.default_exception_handler(context)


_LOOP_QUIET = QuietLog()


def default_max_connections() -> int:
    """The descriptor limit less a reserve: beyond it ``accept()`` would fail anyway."""
    soft, _ = resource.getrlimit(resource.RLIMIT_NOFILE)
    if soft == resource.RLIM_INFINITY:
        return 100_000
    return max(16, soft - DESCRIPTOR_RESERVE)


class ConnectionGate:
    """Counts open connections, overall and per address, and admits or refuses new ones."""

    def __init__(
        self,
        total: int,
        per_address: int,
        exempt: tuple[str, ...] = (),
        quiet: QuietLog | None = None,
    ) -> None:
        self.total = total or default_max_connections()
        self.per_address = per_address
        self.exempt = frozenset(address_key(a) for a in exempt)
        self.quiet = quiet or QuietLog()
        self._open: dict[int, str] = {}
        self._counts: Counter[str] = Counter()
        self.refused = 0

    def __len__(self) -> int:
        return len(self._open)

    def admit(self, transport: asyncio.BaseTransport) -> str | None:
        """Count this connection in, or say why it is refused."""
        peer = transport.get_extra_info("peername")
        key = address_key(str(peer[0])) if isinstance(peer, tuple) and peer else ""
        if len(self._open) >= self.total:
            self.refused += 1
            self.quiet.hit("total", "refused a connection: %d open, the most allowed", self.total)
            return "the server is full; try again soon"
        if self.per_address and key not in self.exempt and self._counts[key] >= self.per_address:
            self.refused += 1
            self.quiet.hit(
                "address", "refused a connection from %s: %d open already", key, self.per_address
            )
            return "too many connections from your address"
        self._open[id(transport)] = key
        self._counts[key] += 1
        return None

    def release(self, transport: asyncio.BaseTransport) -> None:
        key = self._open.pop(id(transport), None)
        if key is not None:
            self._counts[key] -= 1
            if self._counts[key] <= 0:
                del self._counts[key]


def _refusal(reason: str) -> bytes:
    body = json.dumps({"error": {"code": "busy", "message": reason}}).encode()
    head = (
        "HTTP/1.1 503 Service Unavailable\r\ncontent-type: application/json\r\n"
        f"retry-after: 10\r\nconnection: close\r\ncontent-length: {len(body)}\r\n\r\n"
    )
    return head.encode() + body


class HeadLimit(h11.Connection):
    """h11's server side, refusing a request whose head is over ``MAX_HEAD_BYTES``.

    h11 limits only an unfinished head (``max_incomplete_event_size``): a whole head
    that arrives in one read passes at any size. Each request is measured here as it
    comes out of the parser; a refusal is h11's own protocol error, which uvicorn answers
    with 400 and a closed connection, as it does an unfinished head over the limit.

    >>> conn = HeadLimit()
    >>> conn.receive_data(b"GET / HTTP/1.1\\r\\nHost: a\\r\\nX: " + b"y" * 20_000 + b"\\r\\n\\r\\n")
    >>> conn.next_event()
    Traceback (most recent call last):
    h11._util.RemoteProtocolError: a request head is at most 16384 bytes
    """

    def __init__(self) -> None:
        super().__init__(h11.SERVER, max_incomplete_event_size=MAX_HEAD_BYTES)

    def next_event(self) -> Any:
        event = super().next_event()
        if type(event) is h11.Request and head_bytes(event) > MAX_HEAD_BYTES:
            raise h11.RemoteProtocolError(
                f"a request head is at most {MAX_HEAD_BYTES} bytes", error_status_hint=431
            )
        return event


def head_bytes(request: h11.Request) -> int:
    """The size of a request's head as sent: its request line and header lines.

    >>> head_bytes(h11.Request(method="GET", target="/", headers=[("Host", "a")]))
    27
    >>> len(b"GET / HTTP/1.1\\r\\nHost: a\\r\\n\\r\\n")
    27
    """
    size = len(request.method) + len(request.target) + len(b"  HTTP/1.1\r\n\r\n")
    return size + sum(len(name) + len(value) + 4 for name, value in request.headers)


def gated_http(gate: ConnectionGate, header_timeout: float) -> type[asyncio.Protocol]:
    """uvicorn's HTTP protocol, counting connections through ``gate`` (an upgraded
    connection is counted out by the game's WebSocket when it closes), with its request
    heads limited to ``MAX_HEAD_BYTES`` (:class:`HeadLimit`)."""

    class GatedH11(H11Protocol):
        _header_timer: asyncio.TimerHandle | None = None
        _refused = False

        def __init__(self, *args: Any, **kwargs: Any) -> None:
            super().__init__(*args, **kwargs)
            self.conn = HeadLimit()

        def connection_made(self, transport: asyncio.Transport) -> None:  # type: ignore[override]
            reason = gate.admit(transport)
            if reason is not None:
                self._refused = True
                self.transport = transport
                transport.write(_refusal(reason))
                transport.close()
                return
            super().connection_made(transport)
            sock = transport.get_extra_info("socket")
            if sock is not None:
                with contextlib.suppress(OSError):
                    sock.setsockopt(socket.SOL_SOCKET, socket.SO_SNDBUF, SOCKET_SEND_BUFFER)
            self._arm()

        def _arm(self) -> None:
            self._disarm()
            self._header_timer = self.loop.call_later(header_timeout, self._too_slow)

        def _disarm(self) -> None:
            if self._header_timer is not None:
                self._header_timer.cancel()
                self._header_timer = None

        def _too_slow(self) -> None:
            self._header_timer = None
            if self.transport.get_protocol() is not self:
                return  # upgraded: the WebSocket side keeps its own time
            if self.cycle is None or self.cycle.response_complete:
                gate.quiet.hit(
                    "headers",
                    "disconnected a client that sent no request in %.0f s",
                    header_timeout,
                )
                self.transport.abort()

        def data_received(self, data: bytes) -> None:
            if self._refused:
                return
            super().data_received(data)
            if self.transport.get_protocol() is not self or (
                self.cycle is not None and not self.cycle.response_complete
            ):
                self._disarm()  # a whole request head arrived (or the socket is a WebSocket)

        def on_response_complete(self) -> None:
            super().on_response_complete()
            if not self.transport.is_closing():
                self._arm()  # the next request's head must come in time too

        def connection_lost(self, exc: Exception | None) -> None:
            self._disarm()
            if self._refused:
                return
            if self.transport.get_protocol() is self:
                gate.release(self.transport)
            super().connection_lost(exc)

    return GatedH11
