"""A connection without a socket: what the server sends it is kept in a queue."""

from __future__ import annotations

from collections import deque

from snakes.server.runtime.session import Session


class RecordingSession(Session):
    """A :class:`Session` whose messages wait in ``outbox`` for a test to read them."""

    __slots__ = ("closed", "outbox")

    def __init__(self, address: str = "") -> None:
        super().__init__(address)
        self.outbox: deque[bytes] = deque()
        self.closed = False

    def send(self, payload: bytes) -> None:
        self.outbox.append(payload)

    def close(self) -> None:
        self.closed = True
