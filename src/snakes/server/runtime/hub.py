"""The hub: this process's connections, by room, and delivery to them.

Every backend delivers through one hub. An update's body is encoded once; each
connection gets it with its own ``you`` (its seats, host or spectator) appended, and
that tail is worked out once per distinct set of seats.

Presence messages (a seat connected or went) are coalesced per room: the first goes
out at once and opens a window of ``PRESENCE_WINDOW`` seconds; one that comes within
it is held, a newer one replaces it, and the latest goes out when the window ends
(opening the next). An update to the whole room says everything a held presence would,
so it drops it. However fast connections come and go, each viewer of a room gets at
most one presence message per window. A window of 0 sends every one at once.
"""

from __future__ import annotations

import asyncio
import functools
from collections import defaultdict

from snakes.server import jsontext
from snakes.server.rooms.work import Message
from snakes.server.runtime.session import Session

PRESENCE_WINDOW = 0.25
"""Seconds a room's presence messages are coalesced over (a reload is one, not two)."""


class Hub:
    def __init__(self, presence_window: float = PRESENCE_WINDOW) -> None:
        self._rooms: dict[str, set[Session]] = defaultdict(set)
        self._window = presence_window
        self._held: dict[str, Message | None] = {}
        """Rooms whose presence window is open: the presence message held for its end."""
        self.presence_sent = 0
        """Presence messages that went out (each to a whole room); for tests and stats."""

    def attach(self, code: str, session: Session) -> bool:
        """Add a connection; True if it is the room's first here."""
        first = code not in self._rooms
        self._rooms[code].add(session)
        return first

    def detach(self, code: str, session: Session) -> bool:
        """Remove a connection; True if the room has no connection here any more."""
        members = self._rooms.get(code)
        if members is None:
            return False
        members.discard(session)
        if members:
            return False
        del self._rooms[code]
        return True

    def sessions(self, code: str) -> list[Session]:
        return list(self._rooms.get(code, ()))

    def rooms(self) -> list[str]:
        return list(self._rooms)

    def find(self, code: str, connection: str) -> Session | None:
        return next((s for s in self._rooms.get(code, ()) if s.id == connection), None)

    @property
    def connections(self) -> int:
        return sum(len(m) for m in self._rooms.values())

    def deliver(
        self, code: str, messages: list[Message], host: int | None, hashes: list[str]
    ) -> None:
        """Send messages to this process's connections of a room, each with its ``you``.

        Seat numbers can move in the lobby, so each connection's seats are worked out
        again from its secret digest (``hashes``: each seat's) before a message goes out.
        """
        now: list[Message] = []
        for message in messages:
            if message.presence and self._window > 0:
                if code in self._held:
                    self._held[code] = message  # the latest replaces one not yet sent
                    continue
                self._open_window(code)
            elif not message.to and self._held.get(code) is not None:
                self._held[code] = None  # this update tells everything it would
            self.presence_sent += message.presence
            now.append(message)
        if now:
            self._send(code, now, host, hashes)

    def _open_window(self, code: str) -> None:
        self._held[code] = None
        asyncio.get_running_loop().call_later(self._window, self._window_ends, code)

    def _window_ends(self, code: str) -> None:
        held = self._held.pop(code, None)
        if held is not None and code in self._rooms:
            self._open_window(code)
            self.presence_sent += 1
            self._send(code, [held], None, [])

    def _send(
        self, code: str, messages: list[Message], host: int | None, hashes: list[str]
    ) -> None:
        sessions = self._rooms.get(code)
        if not sessions:
            return
        targets = list(sessions)
        if any(not m.presence for m in messages):
            held: dict[str, frozenset[int]] = {}
            for index, digest in enumerate(hashes):
                if digest:
                    held[digest] = held.get(digest, frozenset()) | {index}
            for session in targets:
                if session.secret_hash:
                    session.seats = held.get(session.secret_hash, NO_SEATS)
        for message in messages:
            # Each message is encoded once; each connection gets it with its ``you``.
            body = message.body.encode()
            if message.presence:
                for session in targets:  # no ``you``: it holds nothing of a viewer's
                    if message.skip != session.id:
                        session.send(body)
                continue
            head = body[:-1]
            for session in targets:
                if message.skip == session.id or (message.to and message.to != session.id):
                    continue
                session.send(head + _you(session.seats, host))


NO_SEATS: frozenset[int] = frozenset()


@functools.lru_cache(maxsize=4096)
def _you(seats: frozenset[int], host: int | None) -> bytes:
    """The end of an update for a connection holding ``seats``: its ``you`` and the brace."""
    you = {
        "seats": sorted(seats),
        "host": host is not None and host in seats,
        "spectator": not seats,
    }
    return b',"you":' + jsontext.dumps(you).encode() + b"}"
