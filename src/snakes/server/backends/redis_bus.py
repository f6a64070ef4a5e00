"""The room bus in Redis: a committed change's messages reach the room's players on
every other node, and a node's inbox brings it forwarded intents and their answers.

A change's messages go out from the room's owner alone: its runtime delivers them to its
own connections once the commit has run, and the commit script publishes them for
every other node that has connections to the room (the room's presence hash names
them), so every player sees one room's messages in one order.

- One Redis: to the inbox of each such node, a channel of its own that it listens to on
  a connection of its own, read by hiredis (``redis_wire``).
- A Redis Cluster: once, on the room's own sharded channel, which each such node listens
  to on the primary serving the room's slot (``redis_shards``); a node's inbox is a
  sharded channel too.
"""

from __future__ import annotations

import asyncio
import contextlib
import logging
from collections.abc import Callable
from typing import Any

from redis.exceptions import RedisError, ResponseError

from snakes.server.backends.interfaces import StoreUnavailable
from snakes.server.backends.redis_cluster import ClusterPipes
from snakes.server.backends.redis_link import RedisLink
from snakes.server.backends.redis_owners import RedisOwners
from snakes.server.backends.redis_shards import ShardListener
from snakes.server.backends.redis_wire import Replies
from snakes.server.rooms.messages import RoomUpdate, decode_node, encode_node
from snakes.server.rooms.model import Room
from snakes.server.rooms.work import Message, Work

log = logging.getLogger("snakes.redis")

SUBSCRIBE_SECONDS = 5.0
"""How long a hello waits for the update listener to be (re)connected."""
INBOX_CHECK_SECONDS = 1.0

Deliver = Callable[[str, list[Message], int | None, list[str]], None]
"""Messages to a room's connections on this node: the room's code, the messages, its
host seat and each seat's secret digest."""


class RedisBus:
    def __init__(self, link: RedisLink, owners: RedisOwners, deliver: Deliver) -> None:
        self.link = link
        self.keys = link.keys
        self.owners = owners
        self.deliver = deliver
        self.shards: ShardListener | None = None
        """On a cluster: this node's sharded channels, each on its slot's primary."""
        self._listener: asyncio.Task[None] | None = None
        self._subscribed: set[str] = set()
        self.listening = asyncio.Event()
        """Set while this node's inbox is listened to."""
        self._outage: Callable[[], None] = lambda: None

    @property
    def subscribed(self) -> set[str]:
        """Rooms this node has connections to."""
        return self._subscribed

    def start(self, outage: Callable[[], None]) -> None:
        self._outage = outage
        if isinstance(self.link.pipe, ClusterPipes):
            self.shards = ShardListener(self.link.pipe, self._take, outage, self._heard_again)
            self.shards.start()
            self._listener = asyncio.create_task(self._listen_on_shards())
        else:
            self._listener = asyncio.create_task(self._listen())

    async def stop(self) -> None:
        if self.shards is not None:
            await self.shards.stop()
        if self._listener is not None:
            self._listener.cancel()
            with contextlib.suppress(asyncio.CancelledError):
                await self._listener  # its connection closes on the way out

    def envelope(self, room: Room, work: Work) -> str:
        """The message that carries a change's messages to the other nodes."""
        hashes = [s.secret_hash for s in room.seats]
        sender = self.owners.node if self.link.cluster else ""  # its own listener hears it
        update = RoomUpdate(room.code, room.host, hashes, work.messages, list(work.answers), sender)
        return encode_node(update)

    async def subscribe(self, code: str) -> None:
        """Hear a room's updates here; returns once they are listened to.

        The owner sends them to every node in the room's presence hash, which the
        connection joins next (``redis_presence``), before it says hello to the owner.
        """
        self._subscribed.add(code)
        try:
            if self.shards is not None:
                await self.shards.add(self.keys.updates(code), SUBSCRIBE_SECONDS)
            else:
                await asyncio.wait_for(self.listening.wait(), SUBSCRIBE_SECONDS)
        except TimeoutError as error:
            self._subscribed.discard(code)
            raise StoreUnavailable(f"cannot listen to room {code}: {error}") from error

    async def unsubscribe(self, code: str) -> None:
        self._subscribed.discard(code)
        if self.shards is not None:
            self.shards.discard(self.keys.updates(code))

    # ---- one Redis: this node's inbox -----------------------------------------------------

    async def _listen(self) -> None:
        failures = 0
        while True:
            connection: Any = None
            try:
                # This node's inbox on a connection of its own, read without redis-py's
                # pub/sub layer (``redis_wire``): one read may carry many messages.
                connection = self.link.inbox_connection()
                await connection.connect()
                replies = Replies(connection)
                await connection.send_command("SUBSCRIBE", self.keys.inbox(self.owners.node))
                pending = await _subscribed(replies)
                rooms = list(self._subscribed)
                if failures:
                    await self.link.reconnect()
                self.listening.set()
                if failures:
                    log.info("Redis is back (updates)")
                    self.owners.listener_back(rooms)
                failures = 0
                while True:
                    for reply in pending:
                        if isinstance(reply, list) and reply[0] == "message":
                            self._take(reply[2])
                    pending = await replies.some()
            except (RedisError, OSError) as error:
                self.listening.clear()
                failures += 1
                self._outage()
                if failures == 1:
                    log.error("Redis unreachable (updates): %s", error)
                await asyncio.sleep(min(2.0, 0.1 * 2**failures))
            except asyncio.CancelledError:
                raise
            except Exception:
                self.listening.clear()
                failures += 1  # connected again, it resyncs: messages may have been lost
                log.exception("update listener failed")
                await asyncio.sleep(1.0)
            finally:
                if connection is not None:
                    with contextlib.suppress(Exception):
                        await connection.disconnect()

    # ---- a cluster: sharded channels ------------------------------------------------------

    async def _listen_on_shards(self) -> None:
        """This node's inbox is a sharded channel; it is listened to for as long as the
        node runs (``redis_shards`` keeps it on its primary)."""
        assert self.shards is not None
        inbox = self.keys.inbox(self.owners.node)
        while True:
            try:
                await self.shards.add(inbox, SUBSCRIBE_SECONDS)
            except TimeoutError:
                self.listening.clear()
                continue
            self.listening.set()
            await asyncio.sleep(INBOX_CHECK_SECONDS)
            if not self.shards.hears(inbox):
                self.listening.clear()

    def _heard_again(self, channels: list[str]) -> None:
        """Sharded channels heard again after a time unheard: their rooms are sent afresh."""
        codes = [c for c in self._subscribed if self.keys.updates(c) in channels]
        if codes:
            self.owners.resync_rooms(codes)

    # ---- what arrives ---------------------------------------------------------------------

    def _take(self, data: str) -> None:
        """One message; a bad one is logged, and the others in the same read are handled
        still."""
        try:
            self._on_message(data)
        except Exception:
            log.exception("a message in this node's inbox could not be handled: %.200s", data)

    def _on_message(self, data: str) -> None:
        message = decode_node(data)
        if not isinstance(message, RoomUpdate):
            self.owners.on_node_message(message)  # a forwarded intent or its answer
            return
        if message.sender == self.owners.node:
            return  # a room's channel on a cluster: delivered here already
        self.deliver(message.code, message.messages, message.host, message.hashes)
        if message.answers:
            self.owners.answered(message.answers)


async def _subscribed(replies: Replies) -> list[Any]:
    """Wait for Redis to confirm the subscription; what arrived after it, to handle."""
    while True:
        batch = await replies.some()
        for index, reply in enumerate(batch):
            if isinstance(reply, ResponseError):
                raise reply
            if isinstance(reply, list) and reply[0] == "subscribe":
                return batch[index + 1 :]
