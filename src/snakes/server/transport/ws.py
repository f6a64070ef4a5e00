"""The WebSocket endpoint: one connection's life, as an explicit sequence.

accept -> read messages (size and rate limited) -> dispatch -> ... -> disconnect in
``finally``. A writer task drains the connection's outbox, so a slow client never
holds up a room.
"""

from __future__ import annotations

import asyncio
import contextlib
import json
import logging
import time
from typing import Any

from starlette.websockets import WebSocket, WebSocketDisconnect

from snakes.server.boards import board_named
from snakes.server.metrics import Metrics
from snakes.server.rooms.model import clean_name, clean_rules
from snakes.server.runtime.manager import RoomManager
from snakes.server.runtime.session import Session
from snakes.server.transport.limits import MISS_CODES, LookupLimiter, origin_allowed
from snakes.server.transport.protocol import (
    MAX_MESSAGE_BYTES,
    AddAiIntent,
    FinishAiIntent,
    Hello,
    LeaveIntent,
    Ping,
    ProtocolError,
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
CLOSE_TOO_SLOW = 4000


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
    """What the endpoint needs besides the manager: limits and metrics, per app."""

    def __init__(self, lookups: LookupLimiter | None, metrics: Metrics | None) -> None:
        self.lookups = lookups
        self.metrics = metrics


async def serve_connection(
    websocket: WebSocket,
    manager: RoomManager,
    *,
    lookups: LookupLimiter | None = None,
    metrics: Metrics | None = None,
    public_url: str | None = None,
) -> None:
    origin = websocket.headers.get("origin")
    if not origin_allowed(origin, websocket.headers.get("host"), public_url):
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
    transport = _Transport(lookups, metrics)
    writer = asyncio.create_task(_write(websocket, session))
    loop = asyncio.get_running_loop()
    limit = RateLimit(loop.time())
    try:
        while True:
            text = await websocket.receive_text()
            if len(text.encode()) > MAX_MESSAGE_BYTES:
                await websocket.close(CLOSE_TOO_LARGE, "message too large")
                return
            if not limit.allow(loop.time()):
                await websocket.close(CLOSE_POLICY, "too many messages")
                return
            await _handle(text, session, manager, transport)
    except WebSocketDisconnect:
        pass
    except RuntimeError:
        # Binary frames or a socket closed under us end the connection quietly.
        pass
    finally:
        with contextlib.suppress(Exception):
            await manager.disconnect(session)
        session.close()
        with contextlib.suppress(Exception):
            await writer


async def _handle(
    text: str, session: Session, manager: RoomManager, transport: _Transport | None = None
) -> None:
    ref = None
    kind = "invalid"
    started = time.perf_counter()
    metrics = transport.metrics if transport else None
    try:
        try:
            data: Any = json.loads(text)
        except ValueError:
            raise ProtocolError("bad_message", "a message is one JSON object") from None
        if isinstance(data, dict) and isinstance(data.get("ref"), str):
            ref = data["ref"][:64]
        message = parse_client_message(data)
        kind = message.type
        await _dispatch(message, session, manager, transport)
    except ProtocolError as error:
        if metrics is not None:
            metrics.error(error.code)
        session.send(json.dumps(error_message(error.code, error.message, ref)))
    except Exception:
        log.exception("intent failed")
        if metrics is not None:
            metrics.error("internal")
        session.send(
            json.dumps(error_message("internal", "the server failed; nothing changed", ref))
        )
    if metrics is not None:
        metrics.intent_seconds.labels(kind).observe(time.perf_counter() - started)


async def _dispatch(
    message: Any, session: Session, manager: RoomManager, transport: _Transport | None = None
) -> None:
    match message:
        case Hello(room=code, secret=secret):
            lookups = transport.lookups if transport else None
            if lookups is None:
                await manager.hello(session, code, secret)
                return
            lookups.check(session.address)
            try:
                await manager.hello(session, code, secret)
            except ProtocolError as error:
                if error.code in MISS_CODES:
                    lookups.miss(session.address)
                raise
        case Ping(t=None):
            session.send('{"type":"pong"}')
        case Ping(t=sent):
            # Echo the client's time with ours: it measures its clock's offset from it.
            session.send(json.dumps({"type": "pong", "t": sent, "server_ms": _wall_ms()}))
        case RollIntent(seat=seat, version=version):
            await manager.intent(session, lambda s, r: manager.roll(s, r, seat, version))
        case LeaveIntent(seat=seat):
            await manager.intent(session, lambda s, r: manager.leave(s, r, seat))
        case StartIntent(shuffle=shuffle):
            await manager.intent(session, lambda s, r: manager.start_game(s, r, shuffle))
        case RulesIntent(rules=rules, countdown_seconds=countdown, board=board_name):
            new_rules = clean_rules(rules.model_dump())
            board = None if board_name is None else board_named(board_name)
            await manager.intent(
                session, lambda s, r: manager.set_rules(s, r, new_rules, countdown, board)
            )
        case SeedIntent(seed=seed):
            await manager.intent(session, lambda s, r: manager.seed(s, r, seed))
        case AddAiIntent(name=name, colour=colour):
            clean = _clean_name(name)
            await manager.intent(session, lambda s, r: manager.add_ai(s, r, clean, colour))
        case RemoveIntent(seat=seat):
            await manager.intent(session, lambda s, r: manager.remove(s, r, seat))
        case RematchIntent():
            await manager.intent(session, manager.rematch)
        case FinishAiIntent():
            await manager.intent(session, manager.finish_ai)


def _wall_ms() -> int:
    return round(time.time() * 1000)


def _clean_name(name: str) -> str:
    try:
        return clean_name(name)
    except ValueError as error:
        raise ProtocolError("invalid_name", str(error)) from None


async def _write(websocket: WebSocket, session: Session) -> None:
    while True:
        text = await session.outbox.get()
        if text is None:
            if session.overflowed:
                with contextlib.suppress(Exception):
                    await websocket.close(CLOSE_TOO_SLOW, "too far behind; reconnect")
            return
        try:
            await websocket.send_text(text)
        except Exception:
            return
