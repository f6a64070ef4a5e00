"""The WebSocket endpoint: one connection's life, as an explicit sequence.

accept -> read messages (size and rate limited) -> dispatch -> ... -> disconnect in
``finally``. A writer task drains the connection's outbox, so a slow client never
holds up a room.
"""

from __future__ import annotations

import asyncio
import contextlib
import logging
import time
from typing import Any, cast

from starlette.websockets import WebSocket, WebSocketDisconnect

from snakes.server import jsontext
from snakes.server.boards import board_named
from snakes.server.metrics import Metrics
from snakes.server.rooms.model import clean_name
from snakes.server.runtime.runtime import RoomRuntime
from snakes.server.runtime.session import Session
from snakes.server.transport.connections import TRANSPORT_KEY, QuietLog
from snakes.server.transport.limits import (
    HELLO_MISS_CODES,
    MISS_CODES,
    LookupLimiter,
    origin_allowed,
)
from snakes.server.transport.protocol import (
    MAX_MESSAGE_BYTES,
    AddAiIntent,
    FinishAiIntent,
    Hello,
    LeaveIntent,
    Ping,
    ProtocolError,
    ReactIntent,
    ReactionsIntent,
    RematchIntent,
    RemoveIntent,
    RollIntent,
    RulesIntent,
    SeedIntent,
    StartIntent,
    error_message,
    parse_client_message,
)

log = logging.getLogger("snakes.ws")

CLOSE_TOO_LARGE = 1009
CLOSE_POLICY = 1008
CLOSE_GOING_AWAY = 1001
CLOSE_UNSUPPORTED = 1003
"""A binary frame: the protocol is JSON text only."""
CLOSE_TOO_SLOW = 4000
MAX_DEPTH = 32
"""Deepest nesting of arrays and objects a message may have; our messages need 3."""


class RateLimit:
    """A token bucket: ``rate`` messages a second on average, bursts up to ``burst``.

    A player holding Space down sends about 30 intents a second at most; the limit
    sits well above that.
    """

    def __init__(self, now: float, rate: float = 40.0, burst: float = 80.0) -> None:
        self.rate, self.burst = rate, burst
        self.tokens, self.stamp = burst, now

    def allow(self, now: float) -> bool:
        self.tokens = min(self.burst, self.tokens + (now - self.stamp) * self.rate)
        self.stamp = now
        if self.tokens < 1:
            return False
        self.tokens -= 1
        return True


class _Transport:
    """What the endpoint needs besides the runtime: limits and metrics, per app."""

    def __init__(self, lookups: LookupLimiter | None, metrics: Metrics | None) -> None:
        self.lookups = lookups
        self.metrics = metrics


async def serve_connection(
    websocket: WebSocket,
    runtime: RoomRuntime,
    *,
    lookups: LookupLimiter | None = None,
    metrics: Metrics | None = None,
    public_url: str | None = None,
    allowed_hosts: tuple[str, ...] = (),
    send_timeout: float = 15.0,
) -> None:
    origin = websocket.headers.get("origin")
    if not origin_allowed(origin, websocket.headers.get("host"), public_url, allowed_hosts):
        # Before accept: the handshake is refused (HTTP 403), so a page on another
        # site can never drive a player's seat with the player's cookies or network.
        if metrics is not None:
            metrics.error("bad_origin")
        log.warning("refused a WebSocket from origin %r", origin[:100] if origin else origin)
        await websocket.close(CLOSE_POLICY)
        return
    await websocket.accept()
    session = Session()
    session.address = websocket.client.host if websocket.client else ""
    socket_transport = transport_of(websocket)
    if socket_transport is not None:
        session.drop = lambda: _drop(socket_transport, session, "fell too far behind")
    transport = _Transport(lookups, metrics)
    writer = asyncio.create_task(_write(websocket, session, send_timeout, socket_transport))
    loop = asyncio.get_running_loop()
    limit = RateLimit(loop.time())
    try:
        while True:
            frame = await websocket.receive()
            if frame["type"] == "websocket.disconnect":
                return
            text = frame.get("text")
            if text is None:
                # Binary frames carry nothing of ours; invalid UTF-8 in a text frame is
                # refused earlier, by the WebSocket layer (1007).
                await websocket.close(CLOSE_UNSUPPORTED, "messages are JSON text")
                return
            if len(text.encode()) > MAX_MESSAGE_BYTES:
                await websocket.close(CLOSE_TOO_LARGE, "message too large")
                return
            if not limit.allow(loop.time()):
                await websocket.close(CLOSE_POLICY, "too many messages")
                return
            await _handle(text, session, runtime, transport)
    except WebSocketDisconnect:
        pass
    except RuntimeError:
        # Binary frames or a socket closed under us end the connection quietly.
        pass
    finally:
        with contextlib.suppress(Exception):
            await runtime.disconnect(session)
        session.close()
        with contextlib.suppress(Exception):
            await writer


async def _handle(
    text: str, session: Session, runtime: RoomRuntime, transport: _Transport | None = None
) -> None:
    ref = None
    kind = "invalid"
    started = time.perf_counter()
    metrics = transport.metrics if transport else None
    try:
        if _too_deep(text):
            raise ProtocolError("bad_message", f"a message nests at most {MAX_DEPTH} deep")
        try:
            data: Any = jsontext.loads(text)
        except (ValueError, RecursionError):
            raise ProtocolError("bad_message", "a message is one JSON object") from None
        if isinstance(data, dict) and isinstance(data.get("ref"), str):
            ref = data["ref"][:64]
        message = parse_client_message(data)
        kind = message.type
        await _dispatch(message, session, runtime, transport)
    except ProtocolError as error:
        if metrics is not None:
            metrics.error(error.code)
        refusal = error_message(error.code, error.message, ref, error.retry_after)
        session.send(jsontext.dumps(refusal))
    except Exception:
        log.exception("intent failed")
        if metrics is not None:
            metrics.error("internal")
        session.send(
            jsontext.dumps(error_message("internal", "the server failed; nothing changed", ref))
        )
    if metrics is not None:
        metrics.intent_seconds.labels(kind).observe(time.perf_counter() - started)


async def _dispatch(
    message: Any, session: Session, runtime: RoomRuntime, transport: _Transport | None = None
) -> None:
    match message:
        case Hello(room=code, secret=secret, odds=odds):
            lookups = transport.lookups if transport else None
            if lookups is None:
                await runtime.hello(session, code, secret, odds=odds)
                return
            if secret is None:
                lookups.check(session.address)
                try:
                    await runtime.hello(session, code, secret, odds=odds)
                except ProtocolError as error:
                    if error.code in MISS_CODES:
                        lookups.miss(session.address)
                    raise
                return
            # A valid seat secret (192 bits) is no guess: it is tried first and never
            # refused, so a guesser behind the same NAT cannot lock the player out.
            try:
                await runtime.hello(session, code, secret, odds=odds)
            except ProtocolError as error:
                if error.code in HELLO_MISS_CODES:
                    lookups.check(session.address)  # out of guesses: say no more than that
                    lookups.miss(session.address)
                raise
        case Ping(t=None):
            session.send('{"type":"pong"}')
        case Ping(t=sent):
            # Echo the client's time with ours: it measures its clock's offset from it.
            session.send(jsontext.dumps({"type": "pong", "t": sent, "server_ms": _wall_ms()}))
        case RollIntent(seat=seat, version=version):
            await runtime.intent(session, "roll", {"seat": seat, "version": version})
        case LeaveIntent(seat=seat):
            await runtime.intent(session, "leave", {"seat": seat})
        case StartIntent(shuffle=shuffle):
            await runtime.intent(session, "start", {"shuffle": shuffle})
        case RulesIntent(rules=rules, countdown_seconds=countdown, board=board_name):
            if board_name is not None:
                board_named(board_name)  # an unknown board is refused here, by name
            args = {"rules": rules.model_dump(), "countdown": countdown, "board": board_name}
            await runtime.intent(session, "rules", args)
        case SeedIntent(seed=seed):
            await runtime.intent(session, "seed", {"seed": seed})
        case AddAiIntent(name=name, colour=colour):
            args = {"name": _clean_name(name), "colour": colour}
            await runtime.intent(session, "add_ai", args)
        case RemoveIntent(seat=seat):
            await runtime.intent(session, "remove", {"seat": seat})
        case RematchIntent():
            await runtime.intent(session, "rematch", {})
        case FinishAiIntent():
            await runtime.intent(session, "finish_ai", {})
        case ReactIntent(seat=seat, reaction=reaction):
            await runtime.intent(session, "react", {"seat": seat, "reaction": reaction})
        case ReactionsIntent(on=on):
            await runtime.intent(session, "reactions", {"on": on})


def _too_deep(text: str) -> bool:
    """Does this text nest arrays or objects deeper than ``MAX_DEPTH`` (strings aside)?

    Checked before parsing, so that no parser ever walks a thousand levels of a
    hostile message (the standard library's would raise ``RecursionError``).

    >>> _too_deep("[" * 33 + "]" * 33), _too_deep('{"a": "[[[[[[[[[[[[[[[[[[[[[[[[[[[[[[[[[["}')
    (True, False)
    """
    if text.count("[") + text.count("{") <= MAX_DEPTH:
        return False
    depth = 0
    in_string = escaped = False
    for ch in text:
        if in_string:
            if escaped:
                escaped = False
            elif ch == "\\":
                escaped = True
            elif ch == '"':
                in_string = False
        elif ch == '"':
            in_string = True
        elif ch in "[{":
            depth += 1
            if depth > MAX_DEPTH:
                return True
        elif ch in "]}":
            depth -= 1
    return False


def _wall_ms() -> int:
    return round(time.time() * 1000)


def _clean_name(name: str) -> str:
    try:
        return clean_name(name)
    except ValueError as error:
        raise ProtocolError("invalid_name", str(error)) from None


def transport_of(websocket: WebSocket) -> asyncio.Transport | None:
    """The connection's transport, when the server put it in the scope.

    Known by what it does, not by its class: uvloop's transports do all an asyncio
    transport does without deriving from ``asyncio.Transport``.
    """
    found = websocket.scope.get("extensions", {}).get(TRANSPORT_KEY)
    return cast(asyncio.Transport, found) if callable(getattr(found, "abort", None)) else None


_QUIET = QuietLog(logging.getLogger("snakes.ws"))


def _drop(transport: asyncio.Transport, session: Session, why: str) -> None:
    """Abort the socket: its buffer is never sent, and the receive loop sees it gone."""
    _QUIET.hit("dropped", "dropped a WebSocket that %s", why)
    transport.abort()
    session.outbox.put_nowait(None)


async def _write(
    websocket: WebSocket,
    session: Session,
    send_timeout: float = 15.0,
    transport: asyncio.Transport | None = None,
) -> None:
    while True:
        text = await session.outbox.get()
        if text is None:
            if session.overflowed and transport is None:
                with contextlib.suppress(Exception):
                    await websocket.close(CLOSE_TOO_SLOW, "too far behind; reconnect")
            return
        try:
            async with asyncio.timeout(send_timeout):
                await websocket.send_text(text)
        except TimeoutError:
            # The socket did not take one message in all that time: the client stopped
            # reading. Waiting longer would hold its memory and its seat's presence.
            if transport is not None:
                _drop(transport, session, f"read nothing for {send_timeout:g} s")
            return
        except Exception:
            return
