"""The backends' small interfaces, each with a local and a Redis implementation.

- :class:`RoomLog`: a room's snapshot and its append-only action log, and records.
- :class:`RoomBus`: a room's messages to every node that has viewers of it.
- :class:`Timers`: when each room's timers are due; claiming the due ones.
- :class:`PresenceBoard`: who is connected to a room, on any node.
- :class:`Owners`: which node owns a room; forwarding an intent to it.

A :class:`Backend` bundles the first four and adds the one write that spans them,
:meth:`Backend.commit`: the change is stored, its timers set and its messages published
to other nodes as one unit, or nothing is. Locally that is one SQLite transaction
followed by in-memory timers; with Redis it is one script that also checks this node
still owns the room. The committed messages for this node's own connections are the
runtime's to deliver, once it has swapped the new room in.

The stores sit below the runtime and import nothing of it: they know a connection as a
:class:`Connection` (its id and seat digest), and this node's connections as
:class:`Viewers`, where messages that arrive from other nodes are delivered (the
runtime's hub is one).
"""

from __future__ import annotations

from collections.abc import Awaitable, Callable, Sequence
from typing import Any, Protocol

from snakes.server.clock import Clock
from snakes.server.rooms.intents import Intent
from snakes.server.rooms.messages import ForwardAnswer
from snakes.server.rooms.model import Room
from snakes.server.rooms.work import Caller, Message, Work


class Connection(Protocol):
    """One connection as the stores see it (the runtime's ``Connection`` is one)."""

    @property
    def id(self) -> str: ...
    @property
    def secret_hash(self) -> str:
        """The digest of the seat secret it holds; '' for none."""
        ...


class Viewers(Protocol):
    """This node's connections by room (the runtime's ``Hub``): where a room's messages
    that arrive from other nodes are delivered."""

    def rooms(self) -> list[str]: ...
    def sessions(self, code: str) -> Sequence[Connection]: ...
    def deliver(
        self, code: str, messages: list[Message], host: int | None, hashes: list[str]
    ) -> None:
        """Send messages to this node's connections of a room (``hashes``: each seat's
        secret digest, from which each connection's seats are worked out)."""
        ...


class StoreUnavailable(Exception):
    """The store cannot be reached or written; the change was not stored."""


class StoreUnanswered(StoreUnavailable):
    """The change went out to the store and its answer was lost (it did not come within
    the deadline, or the connection broke): it may have been stored, or may be yet."""


class RoomLog(Protocol):
    async def load(self, code: str) -> Room | None:
        """The room from its snapshot and the tail of its log; None if there is none."""
        ...

    async def load_record(self, code: str, game: int | None) -> str | None: ...
    async def live_codes(self) -> list[str]:
        """Rooms to bring back when the process starts (their countdowns restart)."""
        ...

    async def purge(self, before: float, unopened_before: float) -> int:
        """Drop records and local rooms untouched since ``before``, and local rooms never
        opened, made before ``unopened_before``."""
        ...

    async def probe(self) -> bool:
        """A real write: True once the store takes changes again after an outage."""
        ...


class RoomBus(Protocol):
    """A room's committed messages reach its connections on every node (sent by
    :meth:`Backend.commit`); a node listens while it has connections to the room."""

    async def subscribe(self, code: str) -> None: ...
    async def unsubscribe(self, code: str) -> None: ...


FireTimer = Callable[[str, str, float], Awaitable[None]]


class Timers(Protocol):
    async def run(self, fire: FireTimer) -> None:
        """Fire due timers until cancelled."""
        ...


class PresenceBoard(Protocol):
    """Connections to a room as every node can see them (a node taking a room over
    learns from here who is already connected)."""

    async def join(self, code: str, session: Connection) -> None: ...
    async def leave(self, code: str, session: Connection) -> None: ...
    async def members(self, code: str) -> dict[str, str]:
        """Live connections: connection key -> the seat secret digest it holds ('')."""
        ...


class Backend(Protocol):
    @property
    def clock(self) -> Clock: ...
    @property
    def log(self) -> RoomLog: ...
    @property
    def bus(self) -> RoomBus: ...
    @property
    def timers(self) -> Timers: ...
    @property
    def presence(self) -> PresenceBoard: ...

    async def start(self, outage: Callable[[], None], resync: Callable[[list[str]], None]) -> None:
        """Begin. ``outage`` is called whenever the store cannot be reached; ``resync``
        with rooms whose messages may have been lost meanwhile."""
        ...

    async def stop(self) -> None: ...
    async def commit(
        self, room: Room, work: Work, *, created: bool = False, request: str = ""
    ) -> bool:
        """Store the change, set its timers, publish its messages to the other nodes
        that have connections to the room. True: committed, and ``work.messages`` are
        for the caller to deliver to this node's own connections (after it swaps the
        room in; the store delivers none). False: refused (the code is taken, or another
        node owns the room now); raises :class:`StoreUnavailable`. ``request``: the
        intent's id, stored with the change where the store keeps outcomes (Redis: see
        ``RedisOwners.settle``)."""
        ...

    def stats(self) -> dict[str, int]: ...


# ---- owners --------------------------------------------------------------------------------

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
    """Who owns a room: the one process that holds its authoritative copy.

    On one machine without Redis that is always this process
    (``runtime/owners.py``, ``LocalOwners``). With Redis (``redis_owners.py``) a node
    owns a room under a lease; other nodes forward intents to it, and take the room
    over when it dies."""

    node: str
    """This node's name."""

    def key(self, session: Connection) -> str:
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
