"""Which nodes are alive: each node's heartbeat in one sorted set of Redis.

A node writes its heartbeat every ``HEARTBEAT_SECONDS``; one whose heartbeat is older
than ``NODE_STALE_SECONDS`` is dead, and any node may take its rooms over. A node whose
inbox nobody listens to (a forward no one heard) is dead before its heartbeat says.
Right after this node could not reach Redis, it cannot tell a dead node from its own
blindness: for a grace period it takes every node for alive, so a Redis stall never
moves rooms, drops players or skips their turns.
"""

from __future__ import annotations

import asyncio
import contextlib
import logging
import secrets
import time
from collections.abc import Callable

from redis.exceptions import RedisError

from snakes.server.backends.redis_link import RedisLink

log = logging.getLogger("snakes.owners")

HEARTBEAT_SECONDS = 1.0
HEARTBEAT_TIMEOUT = 1.5
"""A heartbeat that takes longer than this counts as Redis being unreachable."""
NODE_STALE_SECONDS = 3.0
FORGOTTEN_SECONDS = 3600
"""A node silent this long leaves the sorted set."""


class NodeLiveness:
    def __init__(self, link: RedisLink) -> None:
        self.link = link
        self.node = secrets.token_hex(6)
        """This node's name: its heartbeat's, its inbox's, its connections' prefix."""
        self._stale: set[str] = set()
        """Nodes whose last heartbeat is older than NODE_STALE_SECONDS: dead. A node not
        seen yet (it joined after our last heartbeat) counts as alive."""
        self.gone: set[str] = set()
        """Nodes whose inbox nobody listens to any more: dead before their heartbeat says."""
        self.blind_until = 0.0
        self._outage: Callable[[], None] = lambda: None
        self._task: asyncio.Task[None] | None = None

    async def start(self, outage: Callable[[], None]) -> None:
        self._outage = outage
        with contextlib.suppress(RedisError, OSError, TimeoutError):
            await self._beat()
        self._task = asyncio.create_task(self._heartbeat())

    async def stop(self) -> None:
        if self._task is not None:
            self._task.cancel()
        with contextlib.suppress(RedisError, OSError):
            async with asyncio.timeout(self.link.timeout):
                await self.link.redis.zrem(self.link.keys.nodes, self.node)

    async def _beat(self) -> None:
        now = time.time()
        nodes = self.link.keys.nodes
        deadline = min(self.link.timeout, HEARTBEAT_TIMEOUT)
        async with asyncio.timeout(deadline), self.link.redis.pipeline(transaction=False) as pipe:
            pipe.zadd(nodes, {self.node: now})
            pipe.zremrangebyscore(nodes, "-inf", now - FORGOTTEN_SECONDS)
            pipe.zrangebyscore(nodes, "-inf", now - NODE_STALE_SECONDS)
            *_, stale = await pipe.execute()
        self._stale = set(stale) - {self.node}

    async def _heartbeat(self) -> None:
        failing = False
        while True:
            try:
                await self._beat()
                if failing:
                    log.info("Redis is back (heartbeat)")
                    failing = False
            except (RedisError, OSError, TimeoutError) as error:
                # Until our own heartbeats are through again, and for a while after,
                # nobody's staleness means anything.
                self.blind()
                if not failing:
                    log.error("Redis unreachable (heartbeat): %s", error or "timed out")
                    failing = True
                self._outage()
            await asyncio.sleep(HEARTBEAT_SECONDS)

    def blind(self) -> None:
        """This node could not hear Redis: for a while, every node counts as alive."""
        self.blind_until = time.monotonic() + 3 * NODE_STALE_SECONDS

    def seeing(self) -> bool:
        return time.monotonic() >= self.blind_until

    def alive_node(self, node: str) -> bool:
        if not self.seeing():
            return True
        return node not in self._stale and node not in self.gone

    def alive(self, key: str) -> bool:
        """Whether a connection's node ("node/connection") is alive."""
        return self.alive_node(key.partition("/")[0])

    def dead(self) -> frozenset[str]:
        if not self.seeing():
            return frozenset()
        return frozenset(self._stale | self.gone)
