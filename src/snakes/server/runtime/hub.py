"""The hub: this process's connections, by room, and delivery to them.

Every backend delivers through one hub. An update's body is encoded once; each
connection gets it with its own ``you`` (its seats, host or spectator) appended, and
that tail is worked out once per distinct set of seats.
"""

from __future__ import annotations

import json
from collections import defaultdict

from snakes.server.rooms.work import Message
from snakes.server.runtime.session import Session


class Hub:
    def __init__(self) -> None:
        self._rooms: dict[str, set[Session]] = defaultdict(set)

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
        sessions = self._rooms.get(code)
        if not sessions:
            return
        tails: dict[frozenset[int], str] = {}
        for session in list(sessions):
            if session.secret_hash:
                session.seats = frozenset(
                    i for i, h in enumerate(hashes) if h == session.secret_hash
                )
            for message in messages:
                if message.skip == session.id or (message.to and message.to != session.id):
                    continue
                tail = tails.get(session.seats)
                if tail is None:
                    you = {
                        "seats": sorted(session.seats),
                        "host": host is not None and host in session.seats,
                        "spectator": not session.seats,
                    }
                    tail = tails[session.seats] = f',"you":{json.dumps(you)}}}'
                session.send(message.body[:-1] + tail)
