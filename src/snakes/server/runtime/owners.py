"""Who owns a room on one machine without Redis: always this process.

The interface, :class:`~snakes.server.backends.interfaces.Owners`, is the backends'
(``backends/interfaces.py``); with Redis (:mod:`snakes.server.backends.redis_owners`) a
node owns a room under a lease, other nodes forward intents to it, and take the room
over when it dies.
"""

from __future__ import annotations

from snakes.server.backends.interfaces import Connection, Serve
from snakes.server.rooms.intents import Intent
from snakes.server.rooms.messages import ForwardAnswer
from snakes.server.rooms.work import Caller


class LocalOwners:
    """One process owns every room."""

    node = "local"

    def key(self, session: Connection) -> str:
        return f"{self.node}/{session.id}"

    async def route(self, code: str) -> str | None:
        return None

    async def holds(self, code: str) -> bool:
        return True

    async def forward(
        self,
        node: str,
        code: str,
        intent: Intent,
        caller: Caller,
        *,
        listening: bool = False,
    ) -> ForwardAnswer | None:
        raise AssertionError("one process owns every room; nothing is forwarded")

    def serve(self, handler: Serve) -> None:
        """Nothing arrives from other nodes."""

    def new_ident(self) -> str:
        return ""  # in one process no answer is lost on the way: no outcome is kept

    async def settle(self, code: str, ident: str) -> bool | None:
        raise AssertionError("one process keeps no outcomes")

    async def members(self, code: str) -> dict[str, str]:
        return {}

    def dead(self) -> frozenset[str]:
        return frozenset()

    async def stop(self) -> None:
        """Nothing to leave."""
