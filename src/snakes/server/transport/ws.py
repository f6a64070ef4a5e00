"""A game message, from the bytes of a WebSocket text frame to the room and back.

Each message is checked (nesting depth, JSON, its type's schema) as it comes
(:func:`receive`) and made the typed intent the room code handles; a ping is answered
there and then. Any other is dispatched to the runtime (:func:`apply`), or refused,
when its connection's queue lets it (``inbox.py``); every refusal is a typed ``error``
carrying a stable code: never a traceback. The socket itself (frames, limits,
keepalive) is ``gamesocket.py``.
"""

from __future__ import annotations

import asyncio
import logging
import time
from dataclasses import replace
from typing import Any, NamedTuple

from snakes.server import jsontext
from snakes.server.metrics import Metrics
from snakes.server.rooms import messages
from snakes.server.rooms.boards import board_named
from snakes.server.rooms.errors import (
    BadMessage,
    Internal,
    InvalidName,
    OutcomeUnknown,
    ProtocolError,
    Unavailable,
)
from snakes.server.rooms.intents import AddAi, Intent, React, SetRules
from snakes.server.rooms.model import clean_name
from snakes.server.runtime.runtime import RoomRuntime
from snakes.server.runtime.session import Session
from snakes.server.transport.connections import QuietLog
from snakes.server.transport.limits import HELLO_MISSES, MISSES, LookupLimiter
from snakes.server.transport.protocol import Hello, Ping, parse_client_message

log = logging.getLogger("snakes.ws")

MAX_DEPTH = 32
"""Deepest nesting of arrays and objects a message may have; our messages need 3."""
QUIET = QuietLog(log)
"""One line per kind of dropped or refused socket per interval, however many."""


class RateLimit:
    """A token bucket: ``rate`` messages a second on average, bursts up to ``burst``.

    A player holding Space down sends about 30 intents a second at most; the limit
    sits well above that.
    """

    __slots__ = ("burst", "rate", "stamp", "tokens")

    def __init__(self, now: float, rate: float = 40.0, burst: float = 80.0) -> None:
        self.rate, self.burst = rate, burst
        self.tokens, self.stamp = burst, now

    def allow(self, now: float, count: int = 1) -> bool:
        """Spend ``count`` tokens, or say there are not that many."""
        self.tokens = min(self.burst, self.tokens + (now - self.stamp) * self.rate)
        self.stamp = now
        if self.tokens < count:
            return False
        self.tokens -= count
        return True


class Incoming(NamedTuple):
    """A message on its way to its answer."""

    message: Hello | Intent | ProtocolError
    """A hello (``protocol.py``), the intent a message asks for, or the refusal it gets
    (not JSON, not a message of ours, a name or a board that is no good)."""
    ref: str | None
    arrived: float
    """When it came, on the event loop's clock: its deadline counts from then."""

    @property
    def refused(self) -> bool:
        """Whether its answer is a refusal known already: nothing to ask a room."""
        return isinstance(self.message, ProtocolError)


def receive(
    payload: bytes, session: Session, arrived: float, metrics: Metrics | None = None
) -> Incoming | None:
    """A message as it comes: parsed and validated by type. A ping is answered at once
    and None returned; any other message, or its refusal, is returned for :func:`apply`
    once its turn comes."""
    ref = None
    kind = "invalid"
    started = time.perf_counter()
    try:
        if _too_deep(payload):
            raise BadMessage(f"a message nests at most {MAX_DEPTH} deep")
        try:
            data: Any = jsontext.loads(payload)
        except (ValueError, RecursionError):
            raise BadMessage("a message is one JSON object") from None
        if isinstance(data, dict) and isinstance(data.get("ref"), str):
            ref = data["ref"][:64]
        message = parse_client_message(data)
        kind = message.kind
        match message:
            case Ping(t=sent):
                # Echo the client's time with ours: it measures its clock's offset from it.
                pong = messages.PONG if sent is None else messages.pong(sent, _wall_ms())
                session.send(pong.encode())
            case Hello():
                return Incoming(message, ref, arrived)
            case _:
                return Incoming(_checked(message), ref, arrived)
    except ProtocolError as error:
        return Incoming(error, ref, arrived)
    if metrics is not None:
        metrics.intent(kind, time.perf_counter() - started)
    return None


def answer_refused(incoming: Incoming, session: Session, metrics: Metrics | None = None) -> None:
    """Answer a message whose refusal is known already (``incoming.refused``)."""
    assert isinstance(incoming.message, ProtocolError)
    refuse(session, incoming.message, incoming.ref, metrics)
    if metrics is not None:
        metrics.intent("invalid", 0.0)


def goes_aside(message: Hello | Intent | ProtocolError) -> bool:
    """Whether this message need not wait for its connection's earlier ones: a reaction
    (it changes nothing that is stored, and names no state it saw)."""
    return isinstance(message, React)


def names_a_room(message: Hello | Intent | ProtocolError) -> bool:
    """Whether this message says which room (and seat) its connection is in: what comes
    after it is for that room, so nothing after it goes aside while it waits."""
    return isinstance(message, Hello)


def refuse(
    session: Session, error: ProtocolError, ref: str | None, metrics: Metrics | None = None
) -> None:
    """Answer a refusal: a typed ``error`` naming the message's ``ref``."""
    if metrics is not None:
        metrics.error(error.code)
    session.send(messages.error(error, ref).encode())


async def apply(
    incoming: Incoming,
    session: Session,
    runtime: RoomRuntime,
    lookups: LookupLimiter | None = None,
    metrics: Metrics | None = None,
) -> None:
    """A message from a connection, applied; any refusal goes back to it as a typed
    ``error`` (never a traceback)."""
    message = incoming.message
    if isinstance(message, ProtocolError):
        answer_refused(incoming, session, metrics)
        return
    ref = incoming.ref
    started = time.perf_counter()
    try:
        if isinstance(message, Hello):
            await _hello(message, session, runtime, lookups, incoming.arrived)
        else:
            await runtime.intent(session, message, arrived=incoming.arrived)
    except ProtocolError as error:
        refuse(session, error, ref, metrics)
        if isinstance(error, OutcomeUnknown) and error.verdict is not None:
            error.verdict.add_done_callback(lambda verdict: _tell(verdict, session, ref))
    except Exception:
        log.exception("intent failed")
        if metrics is not None:
            metrics.error("internal")
        failed = Internal("the server failed; nothing changed")
        session.send(messages.error(failed, ref).encode())
    if metrics is not None:
        kind = message.kind
        metrics.intent(kind, time.perf_counter() - started)


def _tell(verdict: asyncio.Future[bool | None], session: Session, ref: Any) -> None:
    """What became of an intent answered ``outcome_unknown``: not applied, and never to
    be, is said with ``unavailable`` and its ``ref`` (send it again); an applied one is
    shown by the update it made."""
    if verdict.cancelled() or verdict.exception() is not None or verdict.result() is not False:
        return
    message = "it was not applied, and will not be: nothing changed; send it again"
    session.send(messages.error(Unavailable(message), ref).encode())


async def _hello(
    message: Hello,
    session: Session,
    runtime: RoomRuntime,
    lookups: LookupLimiter | None,
    arrived: float,
) -> None:
    code, secret, odds = message.room, message.secret, message.odds
    if lookups is None:
        await runtime.hello(session, code, secret, odds=odds, arrived=arrived)
        return
    if secret is None:
        lookups.check(session.address)
        try:
            await runtime.hello(session, code, secret, odds=odds, arrived=arrived)
        except ProtocolError as error:
            if isinstance(error, MISSES):
                lookups.miss(session.address)
            raise
        return
    # A valid seat secret (192 bits) is no guess: it is tried first and never
    # refused, so a guesser behind the same NAT cannot lock the player out.
    try:
        await runtime.hello(session, code, secret, odds=odds, arrived=arrived)
    except ProtocolError as error:
        if isinstance(error, HELLO_MISSES):
            lookups.check(session.address)  # out of guesses: say no more than that
            lookups.miss(session.address)
        raise


def _checked(intent: Intent) -> Intent:
    """A valid intent as the rooms take it: a name as it will be shown, and a board known
    by name (refused here, before it waits for its room, as any bad message is)."""
    match intent:
        case AddAi(name=name):
            return replace(intent, name=_clean_name(name))
        case SetRules(board=str(board)):
            board_named(board)
    return intent


def _too_deep(payload: bytes) -> bool:
    """Does this text nest arrays or objects deeper than ``MAX_DEPTH`` (strings aside)?

    Checked before parsing, so that no parser ever walks a thousand levels of a
    hostile message.

    >>> _too_deep(b"[" * 33 + b"]" * 33), _too_deep(b'{"a": "[[[[[[[[[[[[[[[[[[[[[[[[[[[[[[[[[["}')
    (True, False)
    """
    if payload.count(b"[") + payload.count(b"{") <= MAX_DEPTH:
        return False
    depth = 0
    in_string = escaped = False
    for byte in payload:
        if in_string:
            if escaped:
                escaped = False
            elif byte == 0x5C:  # backslash
                escaped = True
            elif byte == 0x22:  # quote
                in_string = False
        elif byte == 0x22:
            in_string = True
        elif byte in (0x5B, 0x7B):  # [ {
            depth += 1
            if depth > MAX_DEPTH:
                return True
        elif byte in (0x5D, 0x7D):  # ] }
            depth -= 1
    return False


def _wall_ms() -> int:
    return round(time.time() * 1000)


def _clean_name(name: str) -> str:
    try:
        return clean_name(name)
    except ValueError as error:
        raise InvalidName(str(error)) from None
