"""Sending: to one connection, or to everyone in a room. Nothing above knows how.

The in-memory hub serves one process. A hub that crosses processes implements the same
three calls.
"""

from __future__ import annotations

import asyncio
import itertools
from collections import defaultdict
from dataclasses import dataclass, field
from typing import Protocol

SEND_QUEUE_LIMIT = 256
"""A connection this far behind is closed; it reconnects and gets the whole state."""

_ids = itertools.count(1)


@dataclass(eq=False)
class Session:
    """One WebSocket connection: where it is, which seats it holds, what it still has to send."""

    id: int = field(default_factory=lambda: next(_ids))
    room: str | None = None
    seats: frozenset[int] = frozenset()
    secret_hash: str = ""
    outbox: asyncio.Queue[str | None] = field(default_factory=asyncio.Queue)
    overflowed: bool = False

    @property
    def spectator(self) -> bool:
        return self.room is not None and not self.seats

    def send(self, text: str) -> None:
        if self.overflowed:
            return
        if self.outbox.qsize() >= SEND_QUEUE_LIMIT:
            self.overflowed = True
            self.outbox.put_nowait(None)  # tells the writer to close
            return
        self.outbox.put_nowait(text)

    def close(self) -> None:
        self.outbox.put_nowait(None)


class Hub(Protocol):
    def attach(self, code: str, session: Session) -> None: ...
    def detach(self, code: str, session: Session) -> None: ...
    def sessions(self, code: str) -> list[Session]: ...
    def broadcast(self, code: str, text: str) -> None: ...


class InMemoryHub:
    def __init__(self) -> None:
        self._rooms: dict[str, set[Session]] = defaultdict(set)

    def attach(self, code: str, session: Session) -> None:
        self._rooms[code].add(session)

    def detach(self, code: str, session: Session) -> None:
        members = self._rooms.get(code)
        if members is not None:
            members.discard(session)
            if not members:
                del self._rooms[code]

    def sessions(self, code: str) -> list[Session]:
        return sorted(self._rooms.get(code, ()), key=lambda s: s.id)

    def broadcast(self, code: str, text: str) -> None:
        for session in self._rooms.get(code, ()):
            session.send(text)

    @property
    def connection_count(self) -> int:
        return sum(len(m) for m in self._rooms.values())
