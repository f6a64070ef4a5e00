"""Many processes, one set of rooms: the room log, bus, timers and presence in Redis.

Each part stands alone, over one link to Redis (``redis_link``: one Redis, or a Redis
Cluster):

- the log (``redis_log``): rooms, their actions and records, and the commit script;
- the bus (``redis_bus``): a change's messages for the room's players on other nodes;
- the timers (``redis_timers``): sorted sets scored by due time, claimed by any node;
- the presence (``redis_presence``): who is connected to a room, on any node;
- the owners (``redis_owners``): one node owns each room; the others forward to it.

Each room has one owner, the node holding its lease. Only the owner applies the room's
intents; other nodes forward theirs to it. A commit is one script that checks this node
still owns the room and the revision it started from, then writes it all or nothing;
the script has published the change's messages for the room's connections on other
nodes, and the owner's runtime delivers them to its own once it has swapped the room in.
"""

from __future__ import annotations

from collections.abc import Callable
from typing import Any

from snakes.server.backends.interfaces import Viewers
from snakes.server.backends.redis_bus import RedisBus
from snakes.server.backends.redis_cluster import WAIT_MILLISECONDS
from snakes.server.backends.redis_keys import RedisKeys
from snakes.server.backends.redis_link import RedisLink
from snakes.server.backends.redis_log import RedisLog
from snakes.server.backends.redis_owners import RedisOwners
from snakes.server.backends.redis_pipe import TIMEOUT_SECONDS
from snakes.server.backends.redis_presence import RedisPresence
from snakes.server.backends.redis_timers import RedisTimers
from snakes.server.clock import Clock, WallClock
from snakes.server.rooms.model import Room
from snakes.server.rooms.work import Work


class RedisBackend:
    def __init__(
        self,
        url: str,
        hub: Viewers,
        *,
        prefix: str = "snakes:",
        clock: Clock | None = None,
        record_days: float = 30,
        idle_seconds: float = 1800,
        unopened_seconds: float = 600,
        window: float = 0.0,
        timeout: float = TIMEOUT_SECONDS,
        replica_wait_ms: int = WAIT_MILLISECONDS,
    ) -> None:
        self.link = RedisLink(
            url, prefix, window=window, timeout=timeout, replica_wait_ms=replica_wait_ms
        )
        self.hub = hub
        self.clock: Clock = clock or WallClock()
        self.owners = RedisOwners(self.link)
        self.bus = RedisBus(self.link, self.owners, hub.deliver)
        self.log = RedisLog(
            self.link,
            self.owners.node,
            self.clock,
            envelope=self.bus.envelope,
            request_key=self.owners.request_key,
            record_days=record_days,
            idle_seconds=idle_seconds,
            unopened_seconds=unopened_seconds,
        )
        self.timers = RedisTimers(self.link, self.clock)
        self.presence = RedisPresence(
            self.link, self.owners, max(self.log.online_ttl, self.log.record_ttl)
        )

    @property
    def redis(self) -> Any:
        """redis-py's client, for checks."""
        return self.link.redis

    @property
    def keys(self) -> RedisKeys:
        return self.link.keys

    async def start(self, outage: Callable[[], None], resync: Callable[[list[str]], None]) -> None:
        self.link.pipe.start()
        await self.owners.start(outage, resync)
        self.timers.on_outage(outage)
        self.bus.start(outage)

    async def stop(self) -> None:
        await self.bus.stop()
        rooms = {code: self.hub.sessions(code) for code in self.hub.rooms()}
        await self.presence.leave_all(rooms)
        await self.link.close()  # the owners stop apart (the runtime's ``Owners``)

    def stats(self) -> dict[str, int]:
        return {"subscriptions": len(self.bus.subscribed)}

    async def commit(
        self, room: Room, work: Work, *, created: bool = False, request: str = ""
    ) -> bool:
        if not await self.log.commit(room, work, created=created, request=request):
            return False
        self.timers.noted(room.code, work)
        return True  # the runtime delivers to this node's connections once it swaps
