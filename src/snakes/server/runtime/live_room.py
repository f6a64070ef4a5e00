"""One room at its owner: its value, who is here, and its queue of intents."""

from __future__ import annotations

import asyncio

from snakes.server.rooms.model import Room
from snakes.server.runtime.members import Members


class LiveRoom:
    """Everything the runtime holds for one room, in one object.

    ``value`` is the room as last committed (None once let go: a local game nobody
    shows, a room released or moved to another node). The runtime drops the object only
    when its queue is empty as well: between a lock's release and the next waiter's
    wake-up the lock reads as free, and a new object then would let two intents for the
    same room run at once.
    """

    __slots__ = ("lock", "members", "value", "waiting")

    def __init__(self, value: Room | None = None) -> None:
        self.value = value
        self.members = Members()
        self.lock = asyncio.Lock()
        """The room's queue: its intents are applied one at a time, in order (FIFO)."""
        self.waiting = 0
        """Intents in the queue, the one running included."""

    @property
    def idle(self) -> bool:
        """Nothing to keep: no value, and no intent running or waiting."""
        return self.value is None and not self.waiting
