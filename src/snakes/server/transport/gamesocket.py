"""The game's WebSocket, served straight from the socket: handshake, frames, keepalive.

uvicorn parses each HTTP request and, for a WebSocket upgrade, hands the socket to the
protocol class it was given for WebSockets (``uvicorn.Config(ws=...)``). That class is
:class:`GameSocket`: it answers the handshake itself and then reads and writes frames
on the transport, so a player's message reaches the room with no ASGI layer, queue or
task of its own in between, and an update goes out as one ``transport.write``. Each
connection is one object (it is its own :class:`Session`); one roll costs a frame
read and a frame written per viewer.

Its life, as an explicit sequence (``state``):

- ``HANDSHAKE``: the request head. ``/ws`` only; the Origin check (403 before the socket
  opens); the client's address (a trusted proxy's ``X-Forwarded-For``).
- ``OPEN``: frames in. A text message is checked (size, rate) and handled in order, one
  at a time per connection (``ws.handle``). Pings are answered; a client silent for
  ``keepalive`` seconds is pinged, and one that answers nothing for as long again is
  cut off. Messages out are written at once; a client that stops reading is cut off
  when ``SEND_QUEUE_LIMIT`` messages wait or the socket has taken nothing for
  ``keepalive`` seconds.
- ``CLOSING``: our close frame is sent; the client's is awaited (briefly) and the socket
  closed. A refusal by the protocol (1002, 1003, 1007, 1008, 1009) goes this way.
- ``CLOSED``: the socket is gone; the room is told (``runtime.disconnect``), once, after
  the message being handled, if any.
"""

from __future__ import annotations

import asyncio
import base64
import contextlib
import hashlib
import logging
from collections import deque
from collections.abc import Callable
from dataclasses import dataclass
from typing import Any, ClassVar

from snakes.server.metrics import Metrics
from snakes.server.runtime.runtime import RoomRuntime
from snakes.server.runtime.session import SEND_QUEUE_LIMIT, Session
from snakes.server.transport import ws
from snakes.server.transport.frames import (
    CLOSE_GOING_AWAY,
    CLOSE_INVALID_TEXT,
    CLOSE_NO_STATUS,
    CLOSE_NORMAL,
    CLOSE_PROTOCOL_ERROR,
    CLOSE_SERVICE_RESTART,
    CLOSE_TOO_LARGE,
    OP_BINARY,
    OP_CLOSE,
    OP_CONTINUATION,
    OP_PING,
    OP_PONG,
    OP_TEXT,
    FrameError,
    FrameReader,
    close_code,
    close_frame,
    frame,
    text_frame,
)
from snakes.server.transport.limits import LookupLimiter, TrustedProxies, origin_allowed
from snakes.server.transport.protocol import MAX_MESSAGE_BYTES

log = logging.getLogger("snakes.ws")
access = logging.getLogger("uvicorn.error")

HANDSHAKE, OPEN, CLOSING, CLOSED = "handshake", "open", "closing", "closed"
CLOSE_POLICY = 1008
"""Too many messages."""
CLOSE_UNSUPPORTED = 1003
"""A binary frame: the protocol is JSON text only."""
CLOSE_TIMEOUT = 2.0
"""Seconds our close frame waits for the client's before the socket is closed anyway."""
INBOX_LIMIT = 32
"""Messages a connection may have waiting while one of its own is handled; past this,
reading from it pauses until it catches up (the rate limit keeps honest clients far
below)."""
_GUID = b"258EAFA5-E914-47DA-95CA-C5AB0DC85B11"


@dataclass
class SocketPolicy:
    """What every game socket of one server shares: its limits, and where the rooms are."""

    runtime: Callable[[], RoomRuntime]
    """The runtime, once the app has started it."""
    keepalive: float = 15.0
    public_url: str | None = None
    allowed_hosts: tuple[str, ...] = ()
    proxies: TrustedProxies | None = None
    lookups: LookupLimiter | None = None
    metrics: Metrics | None = None
    access_log: bool = False
    on_close: Callable[[asyncio.BaseTransport], None] | None = None
    """Told of every socket that closes (the connection gate counts it out)."""

    def __post_init__(self) -> None:
        self.sockets: set[GameSocket] = set()
        self._sweeping: asyncio.TimerHandle | None = None

    def watch(self, socket: GameSocket) -> None:
        self.sockets.add(socket)
        if self._sweeping is None:
            self._schedule()

    def _schedule(self) -> None:
        period = max(0.25, self.keepalive / 2)
        self._sweeping = asyncio.get_running_loop().call_later(period, self._sweep)

    def _sweep(self) -> None:
        """Ping the silent, cut off the ones that answer nothing (one pass for all)."""
        self._sweeping = None
        loop = asyncio.get_running_loop()
        now = loop.time()
        for socket in list(self.sockets):
            socket.keep_alive(now, self.keepalive)
        if self.sockets:
            self._schedule()


class GameSocket(Session, asyncio.Protocol):
    """One player's (or spectator's) WebSocket; built by uvicorn on an upgrade."""

    policy: ClassVar[SocketPolicy]

    __slots__ = (
        "_close_timer",
        "_fragments",
        "_handling",
        "_heard",
        "_inbox",
        "_pinged",
        "_rate",
        "_reader",
        "_stall_timer",
        "_unsent",
        "_uvicorn_connections",
        "loop",
        "paused",
        "state",
        "transport",
    )

    def __init__(self, config: Any = None, server_state: Any = None, **_: Any) -> None:
        super().__init__()
        self.loop = asyncio.get_running_loop()
        self.state = HANDSHAKE
        self.transport: asyncio.Transport | None = None
        # uvicorn's own set: its shutdown closes every member (with 1012, below).
        self._uvicorn_connections: set[Any] = (
            server_state.connections if server_state is not None else set()
        )
        self._reader = FrameReader(MAX_MESSAGE_BYTES)
        self._fragments: list[bytes] | None = None
        self._rate = ws.RateLimit(self.loop.time())
        self._handling: asyncio.Task[None] | None = None
        self._inbox: deque[bytes] | None = None
        self._heard = self.loop.time()
        self._pinged = 0.0
        self.paused = False
        self._unsent = 0
        self._stall_timer: asyncio.TimerHandle | None = None
        self._close_timer: asyncio.TimerHandle | None = None

    # ---- asyncio.Protocol ---------------------------------------------------------------

    def connection_made(self, transport: asyncio.BaseTransport) -> None:
        self.transport = transport  # type: ignore[assignment]
        self._uvicorn_connections.add(self)

    def data_received(self, data: bytes) -> None:
        if self.state == OPEN:
            self._heard = self.loop.time()
            try:
                frames = self._reader.feed(data)
            except FrameError as error:
                self._refuse(error.code, error.reason)
                return
            for opcode, fin, payload in frames:
                if self.state != OPEN:
                    return
                self._frame(opcode, fin, payload)
        elif self.state == HANDSHAKE:
            self._handshake(data)
        elif self.state == CLOSING:
            # Only the client's close frame matters now.
            with contextlib.suppress(FrameError):
                if any(f[0] == OP_CLOSE for f in self._reader.feed(data)):
                    self._close_transport()

    def eof_received(self) -> bool | None:
        return None  # the transport closes itself

    def pause_writing(self) -> None:
        """The socket's buffer is full: the client is not reading fast enough."""
        self.paused = True
        self._unsent = 0
        if self._stall_timer is None:
            self._stall_timer = self.loop.call_later(
                self.policy.keepalive, self._cut_off, "took nothing for %g s", self.policy.keepalive
            )

    def resume_writing(self) -> None:
        self.paused = False
        if self._stall_timer is not None:
            self._stall_timer.cancel()
            self._stall_timer = None

    def connection_lost(self, exc: Exception | None) -> None:
        was = self.state
        self.state = CLOSED
        self._uvicorn_connections.discard(self)
        self.policy.sockets.discard(self)
        for timer in (self._stall_timer, self._close_timer):
            if timer is not None:
                timer.cancel()
        self._stall_timer = self._close_timer = None
        self._inbox = None
        if self.policy.on_close is not None and self.transport is not None:
            self.policy.on_close(self.transport)
        if was != HANDSHAKE and (self.room is not None or self._handling is not None):
            self.loop.create_task(self._gone(self._handling))
        self._handling = None

    # ---- uvicorn's shutdown ---------------------------------------------------------------

    def shutdown(self) -> None:
        """The server stops: players are told to come back (1012), then the socket closes."""
        if self.state == OPEN:
            self._send_close(CLOSE_SERVICE_RESTART, "the server is restarting")
        self._close_transport()

    # ---- Session: what the room sends this connection -----------------------------------

    def send(self, payload: bytes) -> None:
        if self.state != OPEN:
            return
        if self.paused:
            self._unsent += 1
            if self._unsent > SEND_QUEUE_LIMIT:
                self._cut_off("fell %d messages behind", SEND_QUEUE_LIMIT)
                return
        assert self.transport is not None
        self.transport.write(text_frame(payload))

    def close(self) -> None:
        self.shutdown()

    # ---- the handshake ----------------------------------------------------------------------

    def _handshake(self, head: bytes) -> None:
        policy = self.policy
        lines = head.split(b"\r\n")
        method, _, rest = lines[0].partition(b" ")
        target = rest.rpartition(b" ")[0]
        headers: dict[bytes, bytes] = {}
        for line in lines[1:]:
            if not line:
                break
            name, _, value = line.partition(b":")
            name = name.strip().lower()
            value = value.strip()
            headers[name] = headers[name] + b", " + value if name in headers else value
        path = target.partition(b"?")[0]
        if path != b"/ws" or method != b"GET":
            self._answer(404, "Not Found", b"no WebSocket here; the game's is /ws")
            return
        if headers.get(b"sec-websocket-version") != b"13":
            self._answer(426, "Upgrade Required", b"", b"Sec-WebSocket-Version: 13\r\n")
            return
        key = headers.get(b"sec-websocket-key", b"")
        try:
            if len(base64.b64decode(key, validate=True)) != 16:
                raise ValueError(key)
        except ValueError:
            self._answer(400, "Bad Request", b"Sec-WebSocket-Key is 16 bytes in base64")
            return
        origin = _text(headers.get(b"origin"))
        host = _text(headers.get(b"host"))
        if not origin_allowed(origin, host, policy.public_url, policy.allowed_hosts):
            # Refused before the socket opens, so a page on another site can never drive
            # a player's seat with the player's cookies or network.
            if policy.metrics is not None:
                policy.metrics.error("bad_origin")
            log.warning("refused a WebSocket from origin %r", origin[:100] if origin else origin)
            self._answer(403, "Forbidden", b"")
            return
        self.address = self._client_address(headers.get(b"x-forwarded-for"))
        accept = base64.b64encode(hashlib.sha1(key + _GUID).digest())
        assert self.transport is not None
        self.transport.write(
            b"HTTP/1.1 101 Switching Protocols\r\nUpgrade: websocket\r\n"
            b"Connection: Upgrade\r\nSec-WebSocket-Accept: " + accept + b"\r\n\r\n"
        )
        self.state = OPEN
        self._heard = self.loop.time()
        policy.watch(self)
        if policy.access_log:
            access.info('%s - "WebSocket %s" [accepted]', self.address, _text(target))

    def _client_address(self, forwarded: bytes | None) -> str:
        assert self.transport is not None
        peer = self.transport.get_extra_info("peername")
        address = str(peer[0]) if isinstance(peer, tuple) and peer else ""
        proxies = self.policy.proxies
        if proxies is not None and forwarded is not None and proxies.trusts(address):
            return proxies.client(forwarded.decode("latin-1")) or address
        return address

    def _answer(self, status: int, phrase: str, body: bytes, extra: bytes = b"") -> None:
        """Refuse the upgrade with a plain HTTP answer, and close."""
        assert self.transport is not None
        self.transport.write(
            f"HTTP/1.1 {status} {phrase}\r\n".encode()
            + extra
            + b"Content-Type: text/plain; charset=utf-8\r\nConnection: close\r\n"
            + f"Content-Length: {len(body)}\r\n\r\n".encode()
            + body
        )
        self.state = CLOSED
        self.transport.close()

    # ---- frames in ----------------------------------------------------------------------------

    def _frame(self, opcode: int, fin: bool, payload: bytes) -> None:
        if opcode in (OP_TEXT, OP_CONTINUATION):
            if (opcode == OP_TEXT) == (self._fragments is not None):
                self._refuse(CLOSE_PROTOCOL_ERROR, "a message began inside another")
                return
            if fin and opcode == OP_TEXT:
                self._message(payload)
                return
            parts = self._fragments = [*(self._fragments or []), payload]
            if sum(len(p) for p in parts) > MAX_MESSAGE_BYTES:
                self._refuse(CLOSE_TOO_LARGE, "message too large")
            elif fin:
                self._fragments = None
                self._message(b"".join(parts))
        elif opcode == OP_PING:
            assert self.transport is not None
            self.transport.write(frame(OP_PONG, payload))
        elif opcode == OP_PONG:
            self._pinged = 0.0
        elif opcode == OP_CLOSE:
            self._closed_by_client(payload)
        elif opcode == OP_BINARY:
            self._refuse(CLOSE_UNSUPPORTED, "messages are JSON text")

    def _message(self, payload: bytes) -> None:
        if not payload.isascii():
            try:
                payload.decode()
            except UnicodeDecodeError:
                ws.QUIET.hit("utf8", "closed a WebSocket that sent invalid UTF-8 (1007)")
                self._refuse(CLOSE_INVALID_TEXT, "text frames are UTF-8")
                return
        if not self._rate.allow(self.loop.time()):
            self._refuse(CLOSE_POLICY, "too many messages")
            return
        if self._handling is not None:
            inbox = self._inbox
            if inbox is None:
                inbox = self._inbox = deque()
            inbox.append(payload)
            if len(inbox) >= INBOX_LIMIT and self.transport is not None:
                self.transport.pause_reading()
            return
        self._handling = self.loop.create_task(self._handle(payload))

    async def _handle(self, payload: bytes) -> None:
        """This connection's messages, one at a time, in the order they came."""
        policy = self.policy
        runtime = policy.runtime()
        try:
            while True:
                await ws.handle(payload, self, runtime, policy.lookups, policy.metrics)
                inbox = self._inbox
                if not inbox or self.state == CLOSED:
                    return
                payload = inbox.popleft()
                if len(inbox) == INBOX_LIMIT // 2 and self.transport is not None:
                    self.transport.resume_reading()
        finally:
            if self.state != CLOSED:
                self._handling = None

    def _closed_by_client(self, payload: bytes) -> None:
        try:
            code, _ = close_code(payload)
        except FrameError as error:
            self._refuse(error.code, error.reason)
            return
        # Answer with the same code (RFC 6455 5.5.1), then close: the client said goodbye.
        self._send_close(CLOSE_NORMAL if code == CLOSE_NO_STATUS else code)
        self._close_transport()

    # ---- closing ---------------------------------------------------------------------------

    def _refuse(self, code: int, reason: str) -> None:
        """End the connection for breaking the protocol: our close frame, then the client's."""
        if self.state != OPEN:
            return
        self._send_close(code, reason)
        self.state = CLOSING
        self._fragments = None
        if self.transport is not None:
            self.transport.resume_reading()  # the client's close frame must be read
        self._close_timer = self.loop.call_later(CLOSE_TIMEOUT, self._close_transport)

    def _send_close(self, code: int, reason: str = "") -> None:
        if self.transport is not None and not self.transport.is_closing():
            self.transport.write(close_frame(code, reason))

    def _close_transport(self) -> None:
        if self.state != CLOSED:
            self.state = CLOSING if self.state == OPEN else self.state
        if self.transport is not None:
            self.transport.close()

    def _cut_off(self, why: str, *args: object) -> None:
        """Abort the socket: a client that takes nothing could never read a close frame."""
        ws.QUIET.hit("dropped", "dropped a WebSocket that " + why, *args)
        self.state = CLOSING
        if self.transport is not None:
            self.transport.abort()

    def keep_alive(self, now: float, keepalive: float) -> None:
        """Ping a client silent for ``keepalive`` s; cut off one that answered nothing."""
        if self.state != OPEN:
            return
        if self._pinged:
            if self._heard >= self._pinged:
                self._pinged = 0.0  # anything heard since answers it
            elif now - self._pinged >= keepalive:
                self._cut_off("did not answer a ping in %g s", keepalive)
                return
        if not self._pinged and now - self._heard >= keepalive:
            self._pinged = now
            assert self.transport is not None
            self.transport.write(frame(OP_PING, b"keepalive"))

    async def _gone(self, handling: asyncio.Task[None] | None) -> None:
        """Tell the room this connection went, after what it was doing."""
        if handling is not None:
            with contextlib.suppress(BaseException):
                await handling
        with contextlib.suppress(Exception):
            await self.policy.runtime().disconnect(self)


def _text(value: bytes | None) -> str | None:
    return None if value is None else value.decode("latin-1")


def game_socket_class(policy: SocketPolicy) -> type[GameSocket]:
    """A :class:`GameSocket` class bound to one server's policy, for ``uvicorn.Config(ws=)``."""
    return type("BoundGameSocket", (GameSocket,), {"policy": policy, "__slots__": ()})


__all__ = ["CLOSE_GOING_AWAY", "GameSocket", "SocketPolicy", "game_socket_class"]
