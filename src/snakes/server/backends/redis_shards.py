"""What a node hears on a Redis Cluster: sharded channels, on the primary of each slot.

On a cluster a classic ``PUBLISH`` goes to every node of it, and a count of listeners
is one node's only; a sharded channel (``SPUBLISH``/``SSUBSCRIBE``, Redis 7) lives in a
slot like a key, and only the primary serving the slot carries it. A node listens to
its own inbox (forwarded intents and their answers) and to the update channel of every
room it has players in, each on the primary that serves the channel's slot, one
connection a primary, read by hiredis (``redis_wire``).

The cluster changes under it:

- a slot moved away (a reshard): its primary says ``sunsubscribe`` for the slot's
  channels, and they are subscribed again where the cluster's map now says;
- a primary that dies: its connection breaks, and its channels are subscribed again on
  the replica that takes over, once the cluster's map names it;
- a subscription refused with ``MOVED``: the map is read again.

Whatever was published on a channel between losing it and having it back is lost to
this node: ``back`` is told the channels once they are heard again, so that their
rooms' players are sent the room afresh; ``lost`` is told at once when a primary's
connection breaks (Redis may be failing).
"""

from __future__ import annotations

import asyncio
import contextlib
import logging
from collections.abc import Callable
from typing import Any

from redis.exceptions import RedisError, ResponseError

from snakes.server.backends.redis_cluster import ClusterPipes
from snakes.server.backends.redis_pipe import pack
from snakes.server.backends.redis_wire import Replies

log = logging.getLogger("snakes.redis")

CHECK_SECONDS = 1.0
"""How often every channel's primary is checked against the cluster's map (a slot that
moved without a word, a subscription still missing)."""
RETRY_SECONDS = 0.1


class _Link:
    """One connection to one primary, and the channels asked and heard there."""

    def __init__(self, name: str) -> None:
        self.name = name
        self.connection: Any = None
        self.ready = asyncio.Event()
        self.heard: set[str] = set()
        """Channels whose subscription the primary confirmed."""
        self.asked: set[str] = set()
        """Channels asked for and not confirmed yet."""
        self.task: asyncio.Task[None] | None = None


class ShardListener:
    def __init__(
        self,
        pipes: ClusterPipes,
        on_message: Callable[[str], None],
        lost: Callable[[], None],
        back: Callable[[list[str]], None],
    ) -> None:
        self.pipes = pipes
        self._on_message = on_message
        self._lost = lost
        self._back = back
        self._wanted: dict[str, asyncio.Event] = {}
        """Every channel this node should hear, and whether it is heard now."""
        self._links: dict[str, _Link] = {}
        self._missed: set[str] = set()
        """Channels lost since they were heard: told to ``back`` once heard again."""
        self._checker: asyncio.Task[None] | None = None
        self._check = asyncio.Event()
        self._stopping = False

    def start(self) -> None:
        self._checker = asyncio.create_task(self._keep_up())

    async def stop(self) -> None:
        self._stopping = True
        tasks = [link.task for link in self._links.values() if link.task is not None]
        if self._checker is not None:
            tasks.append(self._checker)
        for task in tasks:
            task.cancel()
        for task in tasks:
            with contextlib.suppress(asyncio.CancelledError):
                await task

    def hears(self, channel: str) -> bool:
        event = self._wanted.get(channel)
        return event is not None and event.is_set()

    async def add(self, channel: str, seconds: float) -> None:
        """Hear ``channel``; returns once its primary has confirmed it."""
        event = self._wanted.setdefault(channel, asyncio.Event())
        if not event.is_set():
            self._check.set()
            async with asyncio.timeout(seconds):
                await event.wait()

    def discard(self, channel: str) -> None:
        if self._wanted.pop(channel, None) is None:
            return
        self._missed.discard(channel)
        for link in self._links.values():
            if channel in link.heard or channel in link.asked:
                link.heard.discard(channel)
                link.asked.discard(channel)
                self._send(link, "SUNSUBSCRIBE", channel)

    # ---- keeping every channel on its primary ----------------------------------------------

    async def _keep_up(self) -> None:
        placed_at = -1
        while True:
            with contextlib.suppress(TimeoutError):
                async with asyncio.timeout(CHECK_SECONDS):
                    await self._check.wait()
            if not self._check.is_set() and placed_at == self.pipes.refreshes:
                continue  # nothing asked, and the map is the one placed by
            self._check.clear()
            placed_at = self.pipes.refreshes
            try:
                await self._place()
            except (RedisError, OSError) as error:
                log.debug("the cluster's map could not be read: %s", error)
                await asyncio.sleep(RETRY_SECONDS)
                self._check.set()
            except Exception:
                log.exception("the sharded channels could not be placed")
                await asyncio.sleep(RETRY_SECONDS)

    async def _place(self) -> None:
        """Ask for each wanted channel on the primary serving its slot now, and let go of
        it where it no longer lives."""
        for channel, event in list(self._wanted.items()):  # (it may change meanwhile)
            try:
                name = self.pipes.primary(channel)
            except ResponseError:
                await self.pipes.refresh()
                self._check.set()
                continue
            link = self._link(name)
            for other in self._links.values():
                if other is not link and (channel in other.heard or channel in other.asked):
                    other.heard.discard(channel)
                    other.asked.discard(channel)
                    self._send(other, "SUNSUBSCRIBE", channel)
            if channel in link.heard or channel in link.asked:
                continue
            if not link.ready.is_set():
                continue  # asked for when the link is up
            event.clear()
            link.asked.add(channel)
            self._send(link, "SSUBSCRIBE", channel)

    def _link(self, name: str) -> _Link:
        link = self._links.get(name)
        if link is None:
            link = self._links[name] = _Link(name)
            link.task = asyncio.create_task(self._listen(link))
        return link

    def _send(self, link: _Link, *command: str) -> None:
        if link.connection is None or not link.ready.is_set():
            return
        try:
            link.connection._writer.write(pack(command))
        except (OSError, RuntimeError, AttributeError) as error:
            log.debug("a subscription could not be sent to %s: %s", link.name, error)

    # ---- one primary ------------------------------------------------------------------------

    async def _listen(self, link: _Link) -> None:
        failures = 0
        while True:
            try:
                link.connection = self.pipes.pool(link.name).make_connection()  # type: ignore[no-untyped-call]
                await link.connection.connect()
                replies = Replies(link.connection)
                link.ready.set()
                failures = 0
                self._check.set()  # ask for this primary's channels
                while True:
                    for reply in await replies.some():
                        self._take(link, reply)
            except asyncio.CancelledError:
                raise
            except (RedisError, OSError) as error:
                failures += 1
                if failures == 1:
                    log.warning("lost the sharded channels on %s: %s", link.name, error)
            except Exception:
                failures += 1
                log.exception("the sharded channels on %s failed", link.name)
            finally:
                link.ready.clear()
                self._drop(link)
                if link.connection is not None:
                    with contextlib.suppress(Exception):
                        await link.connection.disconnect()
                    link.connection = None
            await self.pipes.refresh()  # a replica may serve its slots by now
            self._check.set()
            if not self._serves_any(link.name):
                self._links.pop(link.name, None)  # a primary no more (dead, or replaced)
                return
            await asyncio.sleep(min(2.0, RETRY_SECONDS * 2**failures))

    def _serves_any(self, name: str) -> bool:
        """Whether the primary serves a wanted channel's slot, by the cluster's map."""
        for channel in list(self._wanted):
            try:
                if self.pipes.primary(channel) == name:
                    return True
            except ResponseError:
                return True  # the map has a hole: keep trying
        return False

    def _drop(self, link: _Link) -> None:
        """The link's channels are no longer heard: whatever they carry now is missed."""
        gone = link.heard | link.asked
        link.heard.clear()
        link.asked.clear()
        lost = False
        for channel in gone:
            event = self._wanted.get(channel)
            if event is not None:
                if event.is_set():
                    self._missed.add(channel)
                    lost = True
                event.clear()
        if lost and not self._stopping:
            self._lost()

    def _take(self, link: _Link, reply: Any) -> None:
        if isinstance(reply, ResponseError):
            # A subscription refused (MOVED: the slot is elsewhere now): every channel
            # asked here is asked again where the map, read again, says.
            log.debug("a subscription on %s was refused: %s", link.name, reply)
            link.asked.clear()
            self._check.set()
            asyncio.get_running_loop().create_task(self.pipes.refresh())
            return
        if not isinstance(reply, list) or len(reply) < 3:
            return
        kind, channel = reply[0], reply[1]
        if kind == "smessage":
            self._on_message(reply[2])
        elif kind == "ssubscribe":
            link.asked.discard(channel)
            event = self._wanted.get(channel)
            if event is None:
                self._send(link, "SUNSUBSCRIBE", channel)  # let go of meanwhile
                return
            link.heard.add(channel)
            event.set()
            if channel in self._missed:
                self._missed.discard(channel)
                self._back([channel])
        elif kind == "sunsubscribe" and channel in link.heard:
            # Unasked: the channel's slot has left this primary (a reshard).
            link.heard.discard(channel)
            event = self._wanted.get(channel)
            if event is not None and event.is_set():
                event.clear()
                self._missed.add(channel)  # sent afresh once heard again: no outage
            asyncio.get_running_loop().create_task(self.pipes.refresh())
            self._check.set()
