"""The node's connections to Redis, one Redis or a Redis Cluster, shared by every part.

- ``redis``: redis-py's client for the commands off the hot path (loading a room, a
  join, a heartbeat); on a cluster, redis-py's cluster client, which follows its map.
- ``pipe``: the hot path's commands (commits, forwards, timer claims), batched on a
  connection of their own (``redis_pipe``), one a primary on a cluster (``redis_cluster``).
- ``keys``: where everything lives (``redis_keys``).
"""

from __future__ import annotations

import logging
from typing import Any
from urllib.parse import parse_qsl, urlencode, urlsplit, urlunsplit

import redis.asyncio as aioredis
from redis.asyncio.cluster import RedisCluster

import redis
from snakes.server.backends.redis_cluster import WAIT_MILLISECONDS, ClusterPipes
from snakes.server.backends.redis_keys import RedisKeys
from snakes.server.backends.redis_pipe import TIMEOUT_SECONDS, Pipe

log = logging.getLogger("snakes.redis")

REDIS_CONNECTIONS = 64
"""Connections one node keeps in its pool at most (the pipe and the inbox have one of
their own each, besides)."""


def cluster_mode(url: str, timeout: float) -> tuple[str, bool]:
    """Whether ``url`` names a node of a Redis Cluster, and the URL for redis-py.

    ``?cluster=yes`` or ``?cluster=no`` says so; otherwise the node is asked (``INFO
    cluster``) once, as the server starts. A node that cannot be asked then is taken for
    a plain Redis, and a warning says to name the mode.
    """
    parts = urlsplit(url)
    query = parse_qsl(parts.query, keep_blank_values=True)
    said = [value for name, value in query if name == "cluster"]
    url = urlunsplit(parts._replace(query=urlencode([q for q in query if q[0] != "cluster"])))
    if said:
        if said[-1] not in ("yes", "no"):
            raise ValueError("the Redis URL's cluster= is yes or no")
        return url, said[-1] == "yes"
    try:
        client = redis.Redis.from_url(url, socket_timeout=timeout, socket_connect_timeout=timeout)
        try:
            info = client.info("cluster")
        finally:
            client.close()
    except (redis.RedisError, OSError) as error:
        log.warning(
            "could not ask %s whether it is a Redis Cluster (%s): taken for one Redis;"
            " add ?cluster=yes to the URL if it is a cluster",
            parts.hostname,
            error,
        )
        return url, False
    return url, bool(info.get("cluster_enabled"))


class RedisLink:
    def __init__(
        self,
        url: str,
        prefix: str,
        *,
        window: float = 0.0,
        timeout: float = TIMEOUT_SECONDS,
        replica_wait_ms: int = WAIT_MILLISECONDS,
    ) -> None:
        # A burst (thousands of players reconnecting, a restart) would need a connection
        # per request in flight; redis-py's default pool refuses past 100. This pool makes
        # the burst wait its turn for one of a bounded set of connections instead.
        # Every command has a deadline, ``timeout``: waiting for a free connection,
        # connecting, and each reply (redis-py drops a connection whose read timed out,
        # and retries nothing: its connections' default). RESP2: no pushes between
        # replies, on any connection.
        url, cluster = cluster_mode(url, timeout)
        options: dict[str, Any] = {
            "socket_timeout": timeout,
            "socket_connect_timeout": timeout,
            "protocol": 2,
            "decode_responses": True,
        }
        self.cluster = cluster
        """Whether the Redis named is a Redis Cluster (``redis_cluster``)."""
        self.keys = RedisKeys(prefix, cluster=cluster)
        self.timeout = timeout
        """Seconds any one call to Redis may take, commands and connecting included."""
        self.pipe: Pipe | ClusterPipes
        """The commits and forwards of every roll, sent together when they come within
        ``window`` seconds of each other."""
        self.redis: Any
        if cluster:
            self.redis = RedisCluster.from_url(url, max_connections=REDIS_CONNECTIONS, **options)
            connection = dict(aioredis.ConnectionPool.from_url(url, **options).connection_kwargs)
            for address in ("host", "port"):
                connection.pop(address, None)
            self.pipe = ClusterPipes(self.redis, connection, window, timeout, replica_wait_ms)
        else:
            pool = aioredis.BlockingConnectionPool.from_url(
                url,
                max_connections=REDIS_CONNECTIONS,
                timeout=timeout,
                health_check_interval=5,
                **options,
            )
            self.redis = aioredis.Redis(connection_pool=pool)
            self.pipe = Pipe(pool, window, timeout)

    def inbox_connection(self) -> Any:
        """A connection of its own for this node's inbox (one Redis)."""
        return self.redis.connection_pool.make_connection()

    async def reconnect(self) -> None:
        """After an outage of one Redis: it may have restarted. Idle connections in the
        pool lead to the old server, and the first command on each would fail. (A
        cluster's connections follow its map instead: ``redis_cluster``.)"""
        assert isinstance(self.pipe, Pipe)
        await self.redis.connection_pool.disconnect(inuse_connections=False)
        self.pipe.reconnect()

    async def close(self) -> None:
        await self.pipe.stop()
        if self.cluster:
            await self.redis.aclose()
        else:
            await self.redis.aclose(close_connection_pool=True)
