"""The game's WebSocket, served straight from the socket: handshake, limits, keepalive.

uvicorn parses each HTTP request and, for a WebSocket upgrade, hands the socket to the
protocol class it was given for WebSockets (``uvicorn.Config(ws=...)``). That class is
:class:`GameSocket`: it answers the handshake itself, then hands every byte the client
sends to the ``websockets`` package's sans-I/O protocol core (``Protocol``: framing,
masking, reserved bits and opcodes, control frames, fragment order and size, close
codes and the closing handshake), and writes what comes back, and each message of
ours, straight to the transport. A player's message reaches the room with no ASGI
layer in between (only while messages wait does a connection hold a queue and a task,
``inbox.py``), and an update goes out as one ``transport.write``. Each connection is
one object (it is its own :class:`Session`).

Its life, as an explicit sequence (``state``):

- ``HANDSHAKE``: the request head. ``/ws`` only; the Origin check (403 before the socket
  opens); the client's address (a trusted proxy's ``X-Forwarded-For``).
- ``OPEN``: bytes in, to the core, at most ``SLICE`` at a time. The core is taken (a
  spare, or a new one) when bytes come and let go when they end on a frame's boundary,
  with no message under way (``at_rest``): most connections, between two messages, hold
  none. Every frame the core
  reads spends one of the connection's frame budget (control frames and empty
  fragments too: 1008 past it); a text message is checked (UTF-8, rate, its type): a
  ping is answered at once, a reaction goes aside, the rest are answered in order, one
  at a time per connection, each within the deadline from its arrival, and past
  ``QUEUE_LIMIT`` waiting the next is refused ``busy`` (``inbox.py``). A client silent for
  ``keepalive`` seconds is pinged, and one silent for twice that is cut off. Whatever
  we write (messages, pongs, pings) counts against ``SEND_QUEUE_LIMIT`` while the
  socket's buffer is full, and a full buffer that takes nothing for ``keepalive``
  seconds is cut off.
- ``CLOSING``: a close frame was sent. The client's own close frame is echoed by the
  core and the socket closed at once; after a refusal (1002, 1003, 1007, 1008, 1009)
  our side is shut (FIN) and the client's goodbye awaited, briefly.
- ``CLOSED``: the socket is gone; the room is told (``runtime.disconnect``), once, after
  the message being applied, if any (those waiting behind it are dropped).
"""

from __future__ import annotations

import asyncio
import base64
import contextlib
import hashlib
import logging
from collections.abc import Callable
from dataclasses import dataclass
from types import GeneratorType
from typing import Any, ClassVar, cast

from websockets.frames import Frame, Opcode
from websockets.protocol import Protocol, Side, State
from websockets.streams import StreamReader

from snakes.server.metrics import Metrics
from snakes.server.runtime.runtime import RoomRuntime
from snakes.server.runtime.session import SEND_QUEUE_LIMIT, Session
from snakes.server.transport import ws
from snakes.server.transport.inbox import QUEUE_LIMIT, Inbox
from snakes.server.transport.limits import LookupLimiter, TrustedProxies, origin_allowed
from snakes.server.transport.protocol import MAX_MESSAGE_BYTES

log = logging.getLogger("snakes.ws")
access = logging.getLogger("uvicorn.error")
_core_log = logging.getLogger("snakes.ws.core")
_core_log.setLevel(logging.WARNING)  # the core says "connection closed" at INFO, per socket

HANDSHAKE, OPEN, CLOSING, CLOSED = "handshake", "open", "closing", "closed"
CLOSE_GOING_AWAY = 1001
"""Reserved: a browser sends it when a tab closes; the server does not."""
CLOSE_UNSUPPORTED = 1003
"""A binary frame: the protocol is JSON text only."""
CLOSE_INVALID_TEXT = 1007
"""A text message that is not UTF-8 (the core says the same of a close reason)."""
CLOSE_POLICY = 1008
"""Too many messages, or too many frames."""
CLOSE_SERVICE_RESTART = 1012
"""The server is stopping; the client comes back."""
CLOSE_TIMEOUT = 2.0
"""Seconds our close frame waits for the client's goodbye before the socket is closed."""
SLICE = 1024
"""Bytes handed to the core at a time. A client's frame is at least 6 bytes, so a slice
holds at most 170 frames (about the frame budget's burst, and a millisecond or two of
parsing), and the budget is checked between slices: a read of 256 KB of empty frames
costs one slice before the client is refused, not 43,000 frames."""
FRAME_RATE = 80.0
FRAME_BURST = 160.0
"""Frames a connection may send: 80 a second on average, bursts of 160. Twice the
message rate (``ws.RateLimit``), so a flood of whole messages meets that limit first;
a browser sends one frame per message and a pong per keepalive ping."""
SPARE_CORES = 64
"""Protocol cores let go at rest and kept for reuse: a core at rest is as good as a new
one (``at_rest``), and taking one costs less than making one (about 5 µs: its stream
reader, its parser's generators, an id from ``os.urandom``). Only a few connections are
in the middle of a frame at once, so a few dozen spares cover a busy server."""
KEEPALIVE_CHECKS = 8
"""Keepalive sweeps per ``keepalive`` period: a silent client is dropped within
``keepalive / KEEPALIVE_CHECKS`` before twice the keepalive, never after."""
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
    frame_rate: float = FRAME_RATE
    frame_burst: float = FRAME_BURST
    spare_cores: int = SPARE_CORES
    """Protocol cores at rest kept for the next connection that needs one."""

    def __post_init__(self) -> None:
        self.sockets: set[GameSocket] = set()
        self.spares: list[Protocol] = []
        self._sweeping: asyncio.TimerHandle | None = None

    @property
    def sweep_period(self) -> float:
        return self.keepalive / KEEPALIVE_CHECKS

    def watch(self, socket: GameSocket) -> None:
        self.sockets.add(socket)
        if self._sweeping is None:
            self._schedule()

    def _schedule(self) -> None:
        loop = asyncio.get_running_loop()
        self._sweeping = loop.call_later(self.sweep_period, self._sweep)

    def _sweep(self) -> None:
        """Ping the silent, cut off the ones silent too long (one pass for all)."""
        self._sweeping = None
        now = asyncio.get_running_loop().time()
        ping_after = self.keepalive
        # Swept every period, a client silent for 2 x keepalive - period is cut off:
        # never later than 2 x keepalive after it last sent anything.
        drop_after = 2 * self.keepalive - self.sweep_period
        for socket in list(self.sockets):
            socket.keep_alive(now, ping_after, drop_after)
        if self.sockets:
            self._schedule()


class GameSocket(Session, asyncio.Protocol):
    """One player's (or spectator's) WebSocket; built by uvicorn on an upgrade."""

    policy: ClassVar[SocketPolicy]

    __slots__ = (
        "_close_timer",
        "_core",
        "_frames",
        "_heard",
        "_inbox",
        "_parts",
        "_pinged",
        "_rate",
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
        self._core: Protocol | None = None
        self._parts: list[bytes] | None = None
        now = self.loop.time()
        self._rate = ws.RateLimit(now)
        self._frames = ws.RateLimit(now, self.policy.frame_rate, self.policy.frame_burst)
        self._inbox: Inbox | None = None
        """Messages waiting for the rooms (None when none do: most of the time)."""
        self._heard = now
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
            self._heard = now = self.loop.time()
            if len(data) <= SLICE:
                self._take(data, now)
                return
            for start in range(0, len(data), SLICE):
                self._take(data[start : start + SLICE], now)
                if self.state != OPEN:
                    return
        elif self.state == HANDSHAKE:
            self._handshake(data)
        # CLOSING: our close frame is out and our side shut; what still comes is dropped
        # until the client closes too (or CLOSE_TIMEOUT passes).

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
        inbox, self._inbox = self._inbox, None
        applying = inbox.close() if inbox is not None else None
        self._parts = None
        if self._core is not None:
            # The core's frame parser is a generator that holds the core: a reference
            # cycle, which only a full collection (rare here: tune_gc) would free. Ended,
            # it lets reference counting free the core with this connection.
            self._core.parser.close()
        if self.policy.on_close is not None and self.transport is not None:
            self.policy.on_close(self.transport)
        if was != HANDSHAKE and (self.room is not None or applying is not None):
            self.loop.create_task(self._gone(applying))

    # ---- uvicorn's shutdown ---------------------------------------------------------------

    def shutdown(self) -> None:
        """The server stops: players are told to come back (1012), then the socket closes."""
        if self.state == OPEN:
            core = self._engage()
            if core.state is State.OPEN:
                core.send_close(CLOSE_SERVICE_RESTART, "the server is restarting")
                self._flush()
        self._close_transport()

    # ---- Session: what the room sends this connection -----------------------------------

    def send(self, payload: bytes) -> None:
        if self.state == OPEN:
            self._write(text_frame(payload), 1)

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
        # From here on every byte is the protocol core's to read (``_engage``).
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

    # ---- the protocol core --------------------------------------------------------------------

    def _engage(self) -> Protocol:
        """The connection's protocol core: the one under way, a spare, or a new one."""
        core = self._core
        if core is None:
            spares = self.policy.spares
            core = self._core = spares.pop() if spares else new_core()
        return core

    def _release(self) -> None:
        """Let the core go if nothing is under way: a new one would read on the same.

        A core holds about 1.1 KB and eight tracked objects (a quarter of what a
        connection keeps, which every middle-generation collection walks); between two
        messages a connection needs none. It goes to the spares, or, past
        ``spare_cores`` of them, away.
        """
        core = self._core
        if core is not None and at_rest(core):
            self._core = None
            spares = self.policy.spares
            if len(spares) < self.policy.spare_cores:
                spares.append(core)
            else:
                core.parser.close()  # ends the generator's reference back to the core

    # ---- frames in ----------------------------------------------------------------------------

    def _take(self, data: bytes, now: float) -> None:
        """One slice of what the client sent: through the core, then its frames."""
        core = self._engage()
        core.receive_data(data)
        events = core.events_received()
        if events:
            if not self._frames.allow(now, len(events)):
                self._refuse(CLOSE_POLICY, "too many frames")
                return
            # An open connection's events are frames (requests and responses are the
            # handshake's, which is ours).
            for frame in cast("list[Frame]", events):
                opcode = frame.opcode
                if opcode is Opcode.TEXT:
                    # A server's frames come unmasked out of the core: always bytes.
                    if frame.fin:
                        self._message(cast(bytes, frame.data), now)
                    else:
                        self._parts = [cast(bytes, frame.data)]
                elif opcode is Opcode.CONT:
                    # The core has checked the order and the total size (1002, 1009); a
                    # message's parts are joined once, at its end.
                    parts = self._parts
                    assert parts is not None
                    parts.append(cast(bytes, frame.data))
                    if frame.fin:
                        self._parts = None
                        self._message(b"".join(parts), now)
                elif opcode is Opcode.BINARY:
                    self._refuse(CLOSE_UNSUPPORTED, "messages are JSON text")
                # Pings are answered by the core (its pong is in data_to_send); a pong
                # or anything else heard already counts as heard; a close is echoed.
                if self.state != OPEN:
                    return
        self._flush()
        self._release()

    def _message(self, payload: bytes, now: float) -> None:
        if not payload.isascii():
            try:
                payload.decode()
            except UnicodeDecodeError:
                ws.QUIET.hit("utf8", "closed a WebSocket that sent invalid UTF-8 (1007)")
                self._refuse(CLOSE_INVALID_TEXT, "text frames are UTF-8")
                return
        if not self._rate.allow(now):
            self._refuse(CLOSE_POLICY, "too many messages")
            return
        # What the core owes for frames read before this message goes out before its
        # answer, which may be written at once (a pong to a ping between its fragments).
        self._flush()
        incoming = ws.receive(payload, self, now, self.policy.metrics)
        if incoming is None:
            return  # a ping, answered
        inbox = self._inbox
        if inbox is None:
            if incoming.refused:
                ws.answer_refused(incoming, self, self.policy.metrics)  # nothing before it
                return
            inbox = self._inbox = Inbox(self)
        inbox.put(incoming)

    def inbox_done(self, inbox: Inbox) -> None:
        """Every message that waited is answered: the connection holds no queue again."""
        if self._inbox is inbox:
            self._inbox = None

    # ---- bytes out ------------------------------------------------------------------------

    def _write(self, data: bytes, frames: int) -> None:
        """Write ``frames`` frames; a client that owes too many while it reads nothing goes.

        Everything written counts, the core's pongs and pings as much as our messages,
        so what a client that does not read can make us hold is bounded as a whole.
        """
        if self.paused:
            self._unsent += frames
            if self._unsent > SEND_QUEUE_LIMIT:
                self._cut_off("fell %d frames behind", SEND_QUEUE_LIMIT)
                return
        assert self.transport is not None
        self.transport.write(data)

    def _flush(self) -> None:
        """Write what the core has for the client (pongs, pings, close frames)."""
        assert self._core is not None
        writes = self._core.data_to_send()
        if not writes:
            return
        frames = [chunk for chunk in writes if chunk]
        transport = self.transport
        if transport is None or transport.is_closing():
            return  # cut off (aborted): nothing more reaches the client
        if frames:
            self._write(frames[0] if len(frames) == 1 else b"".join(frames), len(frames))
        if len(frames) != len(writes) and self.state != CLOSING:
            self._end()  # the core's end of stream: the closing handshake is done or failed

    # ---- closing ---------------------------------------------------------------------------

    def _refuse(self, code: int, reason: str) -> None:
        """End the connection for breaking the protocol or a limit: a close frame, FIN."""
        if self.state != OPEN:
            return
        self._engage().fail(code, reason)
        self._parts = None
        self._flush()

    def _end(self) -> None:
        """Close the socket once the core has sent its last frame.

        The client closed first: its close frame is echoed, and the server closes the
        TCP connection (RFC 6455 7.1.1). We refused the client: our side is shut (FIN)
        and the socket kept reading (and dropping) until the client closes, or for
        ``CLOSE_TIMEOUT`` at most, so that a client still writing reads our close frame
        rather than a reset.
        """
        self.state = CLOSING
        transport = self.transport
        assert transport is not None and self._core is not None
        if self._core.close_rcvd is not None or not transport.can_write_eof():
            transport.close()
            return
        transport.write_eof()
        transport.resume_reading()
        self._close_timer = self.loop.call_later(CLOSE_TIMEOUT, self._close_transport)

    def _close_transport(self) -> None:
        if self.state != CLOSED:
            self.state = CLOSING if self.state == OPEN else self.state
        if self.transport is not None:
            if self.paused:
                self.transport.abort()  # it takes nothing: close() would wait for ever
            else:
                self.transport.close()

    def _cut_off(self, why: str, *args: object) -> None:
        """Abort the socket: a client that takes nothing could never read a close frame."""
        ws.QUIET.hit("dropped", "dropped a WebSocket that " + why, *args)
        self.state = CLOSING
        if self.transport is not None:
            self.transport.abort()

    def keep_alive(self, now: float, ping_after: float, drop_after: float) -> None:
        """Ping a client silent for ``ping_after`` s; cut off one silent for ``drop_after``."""
        if self.state != OPEN:
            return
        silent = now - self._heard
        if silent >= drop_after:
            self._cut_off("sent nothing for %.3g s", silent)
        elif silent >= ping_after and self._pinged <= self._heard:
            # Heard since the last ping (uvloop's clock has 1 ms steps: a pong can come
            # back within the step the ping went out in, so an equal time is an answer).
            self._pinged = now
            self._engage().send_ping(b"keepalive")
            self._flush()
            self._release()

    async def _gone(self, handling: asyncio.Task[None] | None) -> None:
        """Tell the room this connection went, after what it was doing."""
        if handling is not None:
            with contextlib.suppress(BaseException):
                await handling
        with contextlib.suppress(Exception):
            await self.policy.runtime().disconnect(self)


def text_frame(payload: bytes) -> bytes:
    """A text message of ours (``payload`` is UTF-8) as one unmasked frame.

    The one frame the server writes per viewer per update: a two- to ten-byte header,
    written here rather than through the core's ``Frame.serialize`` (a frame object, its
    checks and a ``BytesIO`` per message).

    >>> text_frame(b"hi")
    b'\\x81\\x02hi'
    """
    length = len(payload)
    if length < 126:
        return bytes((0x81, length)) + payload
    if length < 65536:
        return b"\x81\x7e" + length.to_bytes(2, "big") + payload
    return b"\x81\x7f" + length.to_bytes(8, "big") + payload


_WAITING_FOR_A_FRAME = StreamReader.at_eof.__code__


def new_core() -> Protocol:
    """A protocol core for the server's side of an open connection.

    It refuses any message over ``MAX_MESSAGE_BYTES`` (1009), whether its frame's header
    says so or its fragments add up to it.
    """
    return Protocol(Side.SERVER, state=State.OPEN, max_size=MAX_MESSAGE_BYTES, logger=_core_log)


def at_rest(core: Protocol) -> bool:
    """Whether ``core`` is between two frames, with no message under way.

    Then it holds nothing a fresh core would not, and may read for any connection:
    open, no fragments counted or expected, no bytes buffered, nothing to send, and its
    parser waiting for a frame's first byte (in ``at_eof``) rather than for the rest of
    a header whose start it has taken from the buffer. (The parser's local variable
    still names the last frame it read; nothing reads it again.) websockets is pinned;
    ``tests/transport/test_protocol_core.py`` goes red if this stops telling a frame's
    boundary from its middle.
    """
    waiting = cast("GeneratorType[None, None, None]", core.parser).gi_yieldfrom
    return (
        core.state is State.OPEN
        and core.current_size is None
        and not core.expect_continuation_frame
        and not core.reader.buffer
        and not core.writes
        and getattr(waiting, "gi_code", None) is _WAITING_FOR_A_FRAME
    )


def _text(value: bytes | None) -> str | None:
    return None if value is None else value.decode("latin-1")


def game_socket_class(policy: SocketPolicy) -> type[GameSocket]:
    """A :class:`GameSocket` class bound to one server's policy, for ``uvicorn.Config(ws=)``."""
    return type("BoundGameSocket", (GameSocket,), {"policy": policy, "__slots__": ()})


__all__ = [
    "CLOSE_GOING_AWAY",
    "QUEUE_LIMIT",
    "GameSocket",
    "SocketPolicy",
    "game_socket_class",
    "text_frame",
]
