"""A connection's side of a room: which seats it holds, and where its messages go.

The runtime and the hub know a connection only as a :class:`Session`. The game's
WebSocket (``transport/gamesocket.py``) is one: it writes each message straight to its
socket. ``snakes.testing.sessions.RecordingSession`` keeps what it is sent instead, for
benchmarks and in-process tests.
"""

from __future__ import annotations

import secrets
from abc import ABC, abstractmethod

SEND_QUEUE_LIMIT = 256
"""A connection that is written this many frames (messages, pongs, pings) while its
client takes nothing is dropped; it reconnects and gets the whole state."""


class Session(ABC):
    """One connection: where it is, which seats it holds; ``send`` delivers to it."""

    __slots__ = ("address", "id", "room", "seats", "secret_hash")

    def __init__(self, address: str = "") -> None:
        self.id = secrets.token_hex(8)
        self.room: str | None = None
        self.seats: frozenset[int] = frozenset()
        self.secret_hash = ""
        self.address = address
        """The client's address (a trusted proxy's X-Forwarded-For already applied)."""

    @property
    def spectator(self) -> bool:
        return self.room is not None and not self.seats

    @abstractmethod
    def send(self, payload: bytes) -> None:
        """One message: JSON text, UTF-8 encoded."""

    def close(self) -> None:  # noqa: B027 - a session with nothing to close keeps this
        """The server is stopping: end the connection (a socket closes with 1012)."""
