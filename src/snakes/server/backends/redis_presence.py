"""Who is connected to a room, on any node: the room's presence hash in Redis.

Each field is a connection ("node/connection") and its value the seat secret's digest
it holds. A commit publishes a room's messages for every other node named there, and a
node that takes a room over learns from it who is connected already.
"""

from __future__ import annotations

import asyncio
import contextlib
import logging
from collections.abc import Sequence

from redis.exceptions import RedisError

from snakes.server.backends.interfaces import Connection, StoreUnavailable
from snakes.server.backends.redis_link import RedisLink
from snakes.server.backends.redis_owners import RedisOwners

log = logging.getLogger("snakes.redis")


class RedisPresence:
    def __init__(self, link: RedisLink, owners: RedisOwners, ttl: int) -> None:
        self.link = link
        self.keys = link.keys
        self.owners = owners
        self.ttl = ttl
        """A presence hash made anew lives this long: the longest a room's keys can."""

    async def join(self, code: str, session: Connection) -> None:
        try:
            # The value as the runtime keeps it (a reconnecting owner reads it back);
            # whether the connection shows odds is set again by the owner's own map.
            async with (
                asyncio.timeout(self.link.timeout),
                self.link.redis.pipeline(transaction=False) as pipe,
            ):
                pipe.hset(self.keys.presence(code), self.owners.key(session), session.secret_hash)
                # A commit may leave the expiry standing for days: a presence hash made
                # anew by this join gets one of its own.
                pipe.expire(self.keys.presence(code), self.ttl)
                await pipe.execute()
        except (RedisError, OSError) as error:
            raise StoreUnavailable(str(error)) from error

    async def leave(self, code: str, session: Connection) -> None:
        try:
            async with asyncio.timeout(self.link.timeout):
                await self.link.redis.hdel(self.keys.presence(code), self.owners.key(session))
        except (RedisError, OSError) as error:
            log.warning("could not record a disconnect in Redis: %s", error)

    async def leave_all(self, rooms: dict[str, Sequence[Connection]]) -> None:
        """A node stopping: its connections leave every room, within one deadline (it
        never waits on a stalled Redis)."""
        with contextlib.suppress(RedisError, OSError, TimeoutError):
            async with asyncio.timeout(self.link.timeout):
                for code, sessions in rooms.items():
                    fields = [self.owners.key(s) for s in sessions]
                    if fields:
                        await self.link.redis.hdel(self.keys.presence(code), *fields)

    async def members(self, code: str) -> dict[str, str]:
        return await self.owners.members(code)
