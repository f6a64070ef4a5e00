"""Who owns a room: the one process that holds its authoritative copy.

On one machine without Redis that is always this process (:class:`LocalOwners`). With
Redis (:mod:`snakes.server.backends.redis_owners`) a node owns a room under a lease;
other nodes forward intents to it, and take the room over when it dies.
"""

from __future__ import annotations

from collections.abc import Awaitable, Callable
from typing import Any, Protocol

from snakes.server.rooms.intents import Intent
from snakes.server.rooms.messages import ForwardAnswer
from snakes.server.rooms.work import Caller
from snakes.server.runtime.session import Session

Serve = Callable[[str, Intent, Caller], Awaitable[Any]]
"""Where a forwarded intent goes at the room's owner: (room code, intent, its caller)."""


ANSWERED = "answered-with-the-update"
"""What the owner's runtime returns for a forwarded intent whose answer travels with the
update it caused: nothing more need be sent."""


class NotOwner(Exception):
    """This process does not (or no longer) own the room: route the intent again."""


class OutcomeLost(Exception):
    """The intent went out (to the room's owner, or as a commit to the store) and its
    answer was lost within the deadline: it may have been applied, or may be yet."""


class Owners(Protocol):
    node: str
    """This node's name."""

    def key(self, session: Session) -> str:
        """The connection's key in a room's presence: its node and its id."""
        ...

    async def route(self, code: str) -> str | None:
        """The node that owns ``code``; None when it is this one (taking it over if the
        owner is gone)."""
        ...

    async def holds(self, code: str) -> bool:
        """This node holds the room's lease (asked when a forwarded intent arrives)."""
        ...

    async def forward(
        self,
        node: str,
        code: str,
        intent: Intent,
        caller: Caller,
        *,
        listening: bool = False,
    ) -> ForwardAnswer | None:
        """Ask the owner to apply an intent; None if it did not answer as the owner.
        ``listening``: this node hears the room's updates (its answer may come with one)."""
        ...

    def serve(self, handler: Serve) -> None:
        """Where forwarded operations go on this node."""
        ...

    def new_ident(self) -> str:
        """An id for an intent whose outcome is kept with its commit."""
        ...

    async def settle(self, code: str, ident: str) -> bool | None:
        """Whether the intent ``ident``, whose answer was lost, was applied (it never will
        be after this): asked until the store answers; None if it never does."""
        ...

    async def members(self, code: str) -> dict[str, str]:
        """Connections to the room on live nodes (for a room being taken over)."""
        ...

    def dead(self) -> frozenset[str]:
        """The nodes taken for dead now (none while this node cannot tell)."""
        ...

    async def stop(self) -> None: ...


class LocalOwners:
    """One process owns every room."""

    node = "local"

    def key(self, session: Session) -> str:
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
