"""The hot path's commands on a Redis Cluster: one pipe a primary, routed by slot.

A room's commit touches keys of one slot (``redis_keys``), so it goes to the pipe of
the primary that serves the slot, by redis-py's map of the cluster. What the cluster
may answer instead, and what is done:

- ``MOVED``: the slot lives elsewhere now (a reshard finished, a replica took over): the
  map is read again and the command sent where it says. Nothing ran.
- ``ASK``: the slot is being moved and this key has gone already: the command goes to
  the slot's new primary once, after an ``ASKING``. Nothing ran where it was refused.
- ``TRYAGAIN`` (a slot's keys half moved) and ``CLUSTERDOWN`` (a primary just failed and
  no replica has taken over yet): asked again a moment later.
- A primary that cannot be reached before the command went out: the map is read again,
  and the command goes to whoever serves the slot by then.

All of it within the command's one deadline. A command that went out and got no answer
is :class:`~snakes.server.backends.redis_pipe.Unanswered`, never sent again: it may have
run.

Each primary's writes wait for one replica (``WAIT``) before their replies are given, so
a roll a player was told of is on a replica when its primary dies, and the replica that
takes over has it (docs/DEPLOY.md measures it).
"""

from __future__ import annotations

import asyncio
import contextlib
import functools
import logging
from typing import Any

import redis.asyncio as aioredis
from redis.asyncio.cluster import RedisCluster
from redis.crc import key_slot
from redis.exceptions import ConnectionError as RedisConnectionError
from redis.exceptions import RedisError, ResponseError
from redis.exceptions import TimeoutError as RedisTimeout

from snakes.server.backends.redis_pipe import TIMEOUT_SECONDS, Pipe, Reply, Unanswered

log = logging.getLogger("snakes.redis")

RETRY_SECONDS = 0.05
"""How long a command waits before it is asked again (TRYAGAIN, CLUSTERDOWN, a primary
not reached)."""
REFRESH_SECONDS = 0.1
"""The cluster's map is read again at most this often."""
WAIT_MILLISECONDS = 100
"""How long a write waits for its replica at most, unless told otherwise
(``--redis-replica-wait``; on loopback a replica answers in well under a millisecond)."""
REPLICAS_SECONDS = 10.0
"""How often a primary is asked again how many replicas it has (one may have come back)."""


@functools.lru_cache(maxsize=65536)
def _slot(key: str) -> int:
    """A key's slot: a room's keys are asked for on every roll."""
    return int(key_slot(key.encode()))


class ClusterPipes:
    """A :class:`Pipe` for each primary of a cluster; commands routed by their key."""

    def __init__(
        self,
        cluster: RedisCluster,
        connection: dict[str, Any],
        window: float = 0.0,
        timeout: float = TIMEOUT_SECONDS,
        wait_ms: int = WAIT_MILLISECONDS,
    ) -> None:
        self.cluster = cluster
        self.wait_ms = wait_ms
        """How long a write waits for a replica at most (0: not at all)."""
        self._connection = connection
        """What every connection needs but its address (password, TLS, RESP2)."""
        self.window = window
        self.timeout = timeout
        self._pipes: dict[str, Pipe] = {}
        self._pools: dict[str, aioredis.ConnectionPool] = {}
        self._refreshing: asyncio.Lock | None = None
        self._refreshed_at = -1.0
        self._running = False
        self._replicas: dict[str, tuple[int, float]] = {}
        """Each primary's connected replicas, and when it said so."""
        self.redirects = 0
        """MOVED and ASK answers met so far."""
        self.refreshes = 0
        """Times the cluster's map was read again."""

    @property
    def writes(self) -> int:
        return sum(pipe.writes for pipe in self._pipes.values())

    @property
    def commands(self) -> int:
        return sum(pipe.commands for pipe in self._pipes.values())

    @property
    def unreplicated(self) -> int:
        return sum(pipe.unreplicated for pipe in self._pipes.values())

    def start(self) -> None:
        self._running = True

    async def stop(self) -> None:
        self._running = False
        for pipe in self._pipes.values():
            await pipe.stop()
        for pool in self._pools.values():
            with contextlib.suppress(Exception):
                await pool.disconnect()

    def pool(self, name: str) -> aioredis.ConnectionPool:
        """Connections to one node of the cluster (``host:port``)."""
        pool = self._pools.get(name)
        if pool is None:
            host, _, port = name.rpartition(":")
            pool = aioredis.ConnectionPool(host=host, port=int(port), **self._connection)
            self._pools[name] = pool
        return pool

    def _pipe(self, name: str) -> Pipe:
        pipe = self._pipes.get(name)
        if pipe is None:
            if not self._running:
                raise RedisConnectionError("the Redis pipes are not running")
            pipe = Pipe(self.pool(name), self.window, self.timeout)
            pipe.start()
            self._pipes[name] = pipe
        return pipe

    def primary(self, key: str) -> str:
        """The primary serving the key's (or sharded channel's) slot."""
        slot = _slot(key)
        serving = self.cluster.nodes_manager.slots_cache.get(slot)
        if not serving:
            raise ResponseError(f"CLUSTERDOWN slot {slot} is not served")
        return str(serving[0].name)

    async def _replicas_of(self, name: str) -> int:
        """How many replicas are connected to a primary (its ``INFO replication``)."""
        now = asyncio.get_running_loop().time()
        known = self._replicas.get(name)
        if known is not None and now - known[1] < REPLICAS_SECONDS:
            return known[0]
        client = aioredis.Redis(connection_pool=self.pool(name))
        info = await client.info("replication")
        count = int(info.get("connected_slaves", 0))
        self._replicas[name] = (count, now)
        return count

    async def refresh(self) -> None:
        """Read the cluster's map again (once for many callers that ask together)."""
        if self._refreshing is None:
            self._refreshing = asyncio.Lock()
        asked_at = asyncio.get_running_loop().time()
        async with self._refreshing:
            if self._refreshed_at >= asked_at - REFRESH_SECONDS:
                return  # read while this caller waited
            with contextlib.suppress(RedisError, OSError):
                await self.cluster.nodes_manager.initialize()
            self._replicas.clear()  # a replica may have become a primary, or come back
            self.refreshes += 1
            self._refreshed_at = asyncio.get_running_loop().time()

    async def publish(self, channel: str, message: str) -> Reply:
        """To a sharded channel, on the primary of its slot: how many heard it there
        (every listener of a sharded channel listens there)."""
        return await self._routed(channel, ("SPUBLISH", channel, message), None, None)

    async def script(
        self, source: str, keys: list[str], args: list[Any], *, timeout: float | None = None
    ) -> Reply:
        """A script on the primary of its keys' slot."""
        return await self._routed(keys[0], None, (source, keys, args), timeout)

    async def _routed(
        self,
        key: str,
        command: tuple[Any, ...] | None,
        script: tuple[str, list[str], list[Any]] | None,
        timeout: float | None,
    ) -> Reply:
        loop = asyncio.get_running_loop()
        deadline = loop.time() + (self.timeout if timeout is None else timeout)
        asking: str | None = None
        while True:
            left = deadline - loop.time()
            if left <= 0:
                raise RedisTimeout("the Redis Cluster did not serve the command in time")
            try:
                name = asking if asking is not None else self.primary(key)
                pipe = self._pipe(name)
                if command is not None:
                    return await pipe.execute(*command, timeout=left, asking=asking is not None)
                assert script is not None
                if asking is None and self.wait_ms:
                    replicas = await self._replicas_of(name)
                    pipe.wait = (1, self.wait_ms) if replicas else None
                source, keys, args = script
                return await pipe.script(
                    source, keys, args, timeout=left, asking=asking is not None
                )
            except Unanswered:
                raise  # it went out: it may have run, and is never sent twice
            except ResponseError as error:
                kind, _, rest = str(error).partition(" ")
                if kind == "MOVED":
                    self.redirects += 1
                    asking = None
                    await self.refresh()
                elif kind == "ASK":
                    self.redirects += 1
                    asking = rest.split(" ")[-1]
                elif kind in ("TRYAGAIN", "CLUSTERDOWN"):
                    asking = None
                    await asyncio.sleep(min(RETRY_SECONDS, max(0.0, left)))
                else:
                    raise
            except (RedisConnectionError, RedisTimeout, OSError) as error:
                # Not sent (Unanswered is handled above): the primary may have died, and
                # a replica may serve its slots by now.
                log.debug("a primary of the cluster was not reached: %s", error)
                asking = None
                await asyncio.sleep(min(RETRY_SECONDS, max(0.0, deadline - loop.time())))
                await self.refresh()
