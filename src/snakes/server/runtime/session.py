"""A connection's side of a room: which seats it holds and what it still has to send."""

from __future__ import annotations

import asyncio
import secrets
from collections.abc import Callable
from dataclasses import dataclass, field

SEND_QUEUE_LIMIT = 256
"""A connection this far behind is dropped; it reconnects and gets the whole state."""


@dataclass(eq=False)
class Session:
    """One WebSocket connection: where it is, which seats it holds, what it still has to send."""

    id: str = field(default_factory=lambda: secrets.token_hex(8))
    room: str | None = None
    seats: frozenset[int] = frozenset()
    secret_hash: str = ""
    address: str = ""
    """The client's address (a trusted proxy's X-Forwarded-For already applied)."""
    outbox: asyncio.Queue[str | None] = field(default_factory=asyncio.Queue)
    overflowed: bool = False
    drop: Callable[[], None] | None = None
    """Cuts the connection off at once (the transport's ``abort``), set by the endpoint.

    A client that has stopped reading never drains its socket, so neither a closing
    handshake nor the writer would ever finish: the connection is aborted instead, and
    its endpoint's disconnect path runs as for any lost connection."""

    @property
    def spectator(self) -> bool:
        return self.room is not None and not self.seats

    def send(self, text: str) -> None:
        if self.overflowed:
            return
        if self.outbox.qsize() >= SEND_QUEUE_LIMIT:
            self.overflowed = True
            self.outbox.put_nowait(None)  # tells the writer to stop
            if self.drop is not None:
                self.drop()
            return
        self.outbox.put_nowait(text)

    def close(self) -> None:
        self.outbox.put_nowait(None)
        # The endpoint's ``drop`` closes over this session and its transport: a cycle
        # that would keep the socket's objects until a full collection.
        self.drop = None
