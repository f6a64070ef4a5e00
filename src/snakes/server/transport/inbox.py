"""One connection's messages on their way to the rooms: in order, without head-of-line waits.

A ping is answered the moment it comes (``ws.receive``), and so is a message refused
as it is read (not JSON, not one of ours, a name that is no good) when nothing waits
before it. The others wait
here, and only while they wait does a connection hold an :class:`Inbox` (and a task that
works through it): at rest it holds neither.

- **In order**: a connection's messages are answered one at a time, in the order sent
  (a roll, then a leave), so each intent is applied to the room its sender's earlier
  ones left, and each answer follows the answers to what was sent before it.
- **Aside**: a reaction changes nothing that is stored and names no state it saw, so it
  does not wait behind its connection's intents; it goes to the room's queue at once
  (there, it takes its turn like any intent). After a hello that is still waiting, it
  waits too: the hello says which room and seat it is from.
- **On time**: an intent's deadline (``RoomRuntime.deadline``) counts from when it came,
  its wait here included. One whose deadline passed while it waited behind its
  connection's earlier ones is refused ``unavailable`` without being tried: nothing was
  sent, so nothing changed.
- **Bounded**: past ``QUEUE_LIMIT`` messages waiting, the next is refused ``busy`` at
  once, so a client that sends faster than the rooms answer (the store hangs) costs a
  bounded queue, and reading its socket never pauses: its pings are still answered.
"""

from __future__ import annotations

import asyncio
from typing import TYPE_CHECKING

from snakes.server.rooms.errors import Busy, ProtocolError, unavailable
from snakes.server.transport import ws

if TYPE_CHECKING:
    from snakes.server.transport.gamesocket import GameSocket

QUEUE_LIMIT = 16
"""Messages one connection may have waiting for the rooms at once, the one being applied
included (a page has one or two); past it, ``busy`` at once. With the message rate
(40 a second) this bounds what a connection holds during a stall of the store."""


def busy() -> ProtocolError:
    return Busy(
        f"{QUEUE_LIMIT} messages of this connection wait for the game store already; "
        "nothing changed; try again in a moment",
    )


class Inbox:
    """What one connection sent that the rooms have not answered yet."""

    __slots__ = ("aside", "lane", "socket", "task")

    def __init__(self, socket: GameSocket) -> None:
        self.socket = socket
        self.lane: list[ws.Incoming] = []
        """The messages to apply in order; the first is being applied."""
        self.task: asyncio.Task[None] | None = None
        """Works through ``lane``."""
        self.aside: set[asyncio.Task[None]] | None = None
        """Reactions on their way, each on its own (made with the first)."""

    @property
    def waiting(self) -> int:
        return len(self.lane) + (len(self.aside) if self.aside else 0)

    @property
    def idle(self) -> bool:
        return not self.lane and not self.aside and self.task is None

    def put(self, incoming: ws.Incoming) -> None:
        """A message that needs a room: aside, in order, or ``busy`` past the limit."""
        socket = self.socket
        if self.waiting >= QUEUE_LIMIT:
            ws.refuse(socket, busy(), incoming.ref, socket.policy.metrics)
            return
        lane = self.lane
        if incoming.refused and not lane:
            ws.answer_refused(incoming, socket, socket.policy.metrics)  # nothing before it
            return
        if ws.goes_aside(incoming.message) and not any(ws.names_a_room(i.message) for i in lane):
            task = socket.loop.create_task(self._apply(incoming))
            if self.aside is None:
                self.aside = set()
            self.aside.add(task)
            task.add_done_callback(self._aside_done)
            return
        lane.append(incoming)
        if self.task is None:
            self.task = socket.loop.create_task(self._work())

    def close(self) -> asyncio.Task[None] | None:
        """The connection went: what waits in order is dropped (the message being applied
        goes on); the task that applies it, to wait for."""
        del self.lane[1:]
        return self.task

    async def _work(self) -> None:
        """The in-order messages, one at a time, each within its deadline from arrival."""
        lane = self.lane
        socket = self.socket
        deadline = socket.policy.runtime().deadline
        try:
            while lane:
                incoming = lane[0]
                late = deadline is not None and socket.loop.time() >= incoming.arrived + deadline
                if late and not incoming.refused:
                    # Its time went by behind its connection's earlier intents: never sent.
                    ws.refuse(socket, unavailable(), incoming.ref, socket.policy.metrics)
                else:
                    await self._apply(incoming)
                lane.pop(0)
        finally:
            self.task = None
            self._settle()

    async def _apply(self, incoming: ws.Incoming) -> None:
        policy = self.socket.policy
        await ws.apply(incoming, self.socket, policy.runtime(), policy.lookups, policy.metrics)

    def _aside_done(self, task: asyncio.Task[None]) -> None:
        if self.aside is not None:
            self.aside.discard(task)
        self._settle()

    def _settle(self) -> None:
        if self.idle:
            self.socket.inbox_done(self)


__all__ = ["QUEUE_LIMIT", "Inbox"]
