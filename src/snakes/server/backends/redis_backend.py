"""Many processes, one set of rooms: rooms, timers and presence in Redis.

Any node can handle any intent. A node reads the room, runs the handler, and commits
with an optimistic transaction (WATCH the room, check its revision, MULTI/EXEC): if
another node changed the room first, the commit fails and the intent is tried again on
the newer room. Updates are published inside the same transaction, so every node —
and so every player — sees one room's events in one order.

Timers live in one sorted set, scored by when they are due. Nodes poll it and claim a
due timer by pushing its score a lease ahead; the claim is atomic, so each countdown
fires once. If the claiming node dies, the lease runs out and another node fires it.

Presence (who is connected) is a hash per room, one field per connection, tagged with
the node that holds it. Nodes publish a heartbeat; a dead node's connections stop
counting once its heartbeat is stale, and its players reconnect elsewhere.
"""

from __future__ import annotations

import asyncio
import contextlib
import json
import logging
import secrets
import time
from collections import defaultdict
from collections.abc import Awaitable, Callable
from typing import Any

import redis.asyncio as aioredis
from redis.exceptions import RedisError, WatchError

from snakes.engine import action_to_data
from snakes.server.backends.local import (
    BackendUnavailable,
    FireTimer,
    Presence,
    Resync,
    Work,
    deliver,
)
from snakes.server.clock import Clock, WallClock
from snakes.server.rooms.model import Mode, Room
from snakes.server.runtime.session import Session

log = logging.getLogger("snakes.redis")

POLL_SECONDS = 0.05
LEASE_SECONDS = 5.0
HEARTBEAT_SECONDS = 1.0
NODE_STALE_SECONDS = 4.0
LOCAL_ROOM_DAYS = 30
REDIS_CONNECTIONS = 64
"""Connections one node keeps to Redis at most (pub/sub takes one of them)."""
REDIS_WAIT_SECONDS = 10.0
"""How long a request waits for a free connection before it counts as unavailable."""

# Claim due timers: move each a lease ahead and return it with the score it had.
_CLAIM = """
local due = redis.call('ZRANGEBYSCORE', KEYS[1], '-inf', ARGV[1], 'WITHSCORES', 'LIMIT', 0, 50)
for i = 1, #due, 2 do
    redis.call('ZADD', KEYS[1], ARGV[2], due[i])
end
return due
"""


class SharedManualClock:
    """Test-only: one hand-moved clock for every node, kept in Redis.

    Each node reads the shared offset before it looks for due timers, so moving the
    clock through any node lets countdowns fire on whichever node claims them.
    """

    START = 1_000.0

    def __init__(self) -> None:
        self.offset = 0.0
        self.backend: RedisBackend | None = None

    def now(self) -> float:
        return self.START + self.offset

    async def wait(self, delay: float | None, wake: asyncio.Event) -> None:
        await asyncio.sleep(POLL_SECONDS)

    async def refresh(self) -> None:
        assert self.backend is not None
        self.offset = float(await self.backend.redis.get(self.backend.clock_key) or 0)

    async def advance(self, seconds: float) -> None:
        assert self.backend is not None
        await self.backend.redis.incrbyfloat(self.backend.clock_key, seconds)
        await self.refresh()


class RedisBackend:
    def __init__(
        self,
        url: str,
        *,
        prefix: str = "snakes:",
        clock: Clock | None = None,
        record_days: float = 30,
        idle_seconds: float = 1800,
    ) -> None:
        # A burst (thousands of players reconnecting, a restart) would need a connection
        # per request in flight; redis-py's default pool refuses past 100 ("Too many
        # connections", and every player would see `unavailable`). This pool makes the
        # burst wait its turn for one of a bounded set of connections instead.
        pool = aioredis.BlockingConnectionPool.from_url(
            url,
            max_connections=REDIS_CONNECTIONS,
            timeout=REDIS_WAIT_SECONDS,
            decode_responses=True,
            health_check_interval=5,
        )
        self.redis = aioredis.Redis(connection_pool=pool)
        self.prefix = prefix
        self.clock: Clock = clock or WallClock()
        self.node = secrets.token_hex(6)
        self.record_ttl = int(record_days * 86400)
        self.online_ttl = int(max(idle_seconds * 4, 86400))
        self._sessions: dict[str, set[Session]] = defaultdict(set)
        self._presence: dict[str, Presence] = {}
        self._live_nodes: set[str] = {self.node}
        self._tasks: list[asyncio.Task[None]] = []
        self._pubsub: Any = None
        self._resync: Resync | None = None
        self._claim = self.redis.register_script(_CLAIM)
        if isinstance(self.clock, SharedManualClock):
            self.clock.backend = self

    # ---- keys: one hash tag per room, so a room's keys share a Redis Cluster slot ----

    def _room(self, code: str) -> str:
        return f"{self.prefix}room:{{{code}}}"

    def _actions(self, code: str) -> str:
        return f"{self.prefix}room:{{{code}}}:actions"

    def _people(self, code: str) -> str:
        return f"{self.prefix}room:{{{code}}}:presence"

    def _record(self, code: str, game: int | str) -> str:
        return f"{self.prefix}record:{{{code}}}:{game}"

    def _channel(self, code: str) -> str:
        return f"{self.prefix}updates:{code}"

    @property
    def _timers(self) -> str:
        return f"{self.prefix}timers"

    @property
    def clock_key(self) -> str:
        return f"{self.prefix}test-clock"

    @property
    def _nodes(self) -> str:
        return f"{self.prefix}nodes"

    # ---- life cycle -----------------------------------------------------------------

    async def start(self, fire: FireTimer, resync: Resync) -> None:
        self._resync = resync
        await self._heartbeat_once()
        self._tasks = [
            asyncio.create_task(
                self._forever("heartbeat", self._heartbeat_once, HEARTBEAT_SECONDS)
            ),
            asyncio.create_task(self._forever("timers", lambda: self._poll(fire), POLL_SECONDS)),
            asyncio.create_task(self._listen()),
        ]
        log.info("node %s joined through Redis (%s)", self.node, self.prefix)

    async def stop(self) -> None:
        for task in self._tasks:
            task.cancel()
        with contextlib.suppress(RedisError, OSError):
            for code, sessions in self._sessions.items():
                await self.redis.hdel(self._people(code), *[self._field(s) for s in sessions])
            await self.redis.zrem(self._nodes, self.node)
        if self._pubsub is not None:
            with contextlib.suppress(Exception):
                await self._pubsub.aclose()
        await self.redis.aclose(close_connection_pool=True)

    async def _forever(self, name: str, step: Callable[[], Awaitable[Any]], every: float) -> None:
        failures = 0
        while True:
            try:
                await step()
                if failures:
                    log.info("Redis is back (%s)", name)
                failures = 0
                await asyncio.sleep(every)
            except (RedisError, OSError) as error:
                failures += 1
                if failures == 1:
                    log.error("Redis unreachable (%s): %s", name, error)
                await asyncio.sleep(min(5.0, every * 2**failures))
            except Exception:
                log.exception("%s failed", name)
                await asyncio.sleep(1.0)

    async def _heartbeat_once(self) -> None:
        now = time.time()
        async with self.redis.pipeline(transaction=False) as pipe:
            pipe.zadd(self._nodes, {self.node: now})
            pipe.zremrangebyscore(self._nodes, "-inf", now - 3600)
            pipe.zrangebyscore(self._nodes, now - NODE_STALE_SECONDS, "+inf")
            *_, live = await pipe.execute()
        self._live_nodes = set(live) | {self.node}

    async def _poll(self, fire: FireTimer) -> None:
        if isinstance(self.clock, SharedManualClock):
            await self.clock.refresh()
        now = self.clock.now()
        claimed = await self._claim(keys=[self._timers], args=[now, now + LEASE_SECONDS])
        for member, due in zip(claimed[::2], claimed[1::2], strict=True):
            code, _, name = member.rpartition("|")
            await fire(code, name, float(due))

    async def _listen(self) -> None:
        failures = 0
        while True:
            try:
                self._pubsub = self.redis.pubsub(ignore_subscribe_messages=True)
                await self._pubsub.subscribe(f"{self.prefix}node:{self.node}")
                rooms = list(self._sessions)
                if rooms:
                    await self._pubsub.subscribe(*[self._channel(c) for c in rooms])
                if failures:
                    log.info("Redis is back (updates); resending every room's state")
                    for code in rooms:
                        if self._resync is not None:
                            await self._resync(code)
                failures = 0
                async for message in self._pubsub.listen():
                    if message.get("type") == "message":
                        self._on_message(message["channel"], message["data"])
            except (RedisError, OSError) as error:
                failures += 1
                if failures == 1:
                    log.error("Redis unreachable (updates): %s", error)
                with contextlib.suppress(Exception):
                    await self._pubsub.aclose()
                await asyncio.sleep(min(5.0, 0.1 * 2**failures))
            except asyncio.CancelledError:
                raise
            except Exception:
                log.exception("update listener failed")
                await asyncio.sleep(1.0)

    def _on_message(self, channel: str, data: str) -> None:
        code = channel.rpartition(":")[2]
        sessions = list(self._sessions.get(code, ()))
        if not sessions:
            return
        envelope = json.loads(data)
        deliver(sessions, envelope["b"], envelope["h"], envelope["s"], envelope["k"])

    # ---- rooms ------------------------------------------------------------------------

    async def fetch(self, code: str, cached: Room | None) -> Room | None:
        try:
            async with self.redis.pipeline(transaction=False) as pipe:
                pipe.hmget(self._room(code), "rev", "data")
                pipe.hgetall(self._people(code))
                (rev, data), people = await pipe.execute()
            if data is None:
                return None
            self._presence[code] = self._count(people)
            if cached is not None and cached.rev == int(rev):
                return cached
            actions = await self.redis.lrange(self._actions(code), 0, -1)
        except (RedisError, OSError) as error:
            raise BackendUnavailable(str(error)) from error
        return Room.from_data(json.loads(data), [json.loads(a) for a in actions])

    def _count(self, people: dict[str, str]) -> Presence:
        live = [v for k, v in people.items() if k.partition("/")[0] in self._live_nodes]
        return Presence(frozenset(v for v in live if v), len(live))

    async def commit(self, room: Room, work: Work, *, created: bool = False) -> bool:
        key, code = self._room(room.code), room.code
        try:
            async with self.redis.pipeline(transaction=True) as pipe:
                await pipe.watch(key)
                stored = await pipe.hget(key, "rev")
                if created and stored is not None:
                    return False
                if not created and (stored is None or int(stored) != room.rev - 1):
                    return False
                pipe.multi()  # type: ignore[no-untyped-call]
                ttl = self.online_ttl if room.mode is Mode.ONLINE else self.record_ttl
                if work.delete:
                    pipe.delete(key, self._actions(code), self._people(code))
                else:
                    pipe.hset(key, mapping={"rev": room.rev, "data": _dump(room.to_data())})
                    if work.new_game:
                        pipe.delete(self._actions(code))
                    if work.actions:
                        pipe.rpush(
                            self._actions(code), *[_dump(action_to_data(a)) for a in work.actions]
                        )
                    for name in (key, self._actions(code), self._people(code)):
                        pipe.expire(name, ttl)
                for game, record in work.records:
                    pipe.set(self._record(code, game), record, ex=self.record_ttl)
                    pipe.set(self._record(code, "latest"), game, ex=self.record_ttl)
                for name, due in work.timers.items():
                    member = f"{code}|{name}"
                    if due is None:
                        pipe.zrem(self._timers, member)
                    else:
                        pipe.zadd(self._timers, {member: due})
                hashes = [s.secret_hash for s in room.seats]
                for body, skip in work.updates:
                    envelope = {"b": body, "h": room.host, "s": hashes, "k": skip}
                    pipe.publish(self._channel(code), _dump(envelope))
                await pipe.execute()
        except WatchError:
            return False
        except (RedisError, OSError) as error:
            raise BackendUnavailable(str(error)) from error
        return True

    # ---- connections ------------------------------------------------------------------

    def _field(self, session: Session) -> str:
        return f"{self.node}/{session.id}"

    async def attach(self, code: str, session: Session) -> None:
        first = code not in self._sessions
        self._sessions[code].add(session)
        try:
            await self.redis.hset(self._people(code), self._field(session), session.secret_hash)
        except (RedisError, OSError) as error:
            raise BackendUnavailable(str(error)) from error
        if first and self._pubsub is not None:
            try:
                await self._pubsub.subscribe(self._channel(code))
            except (RedisError, OSError) as error:
                # The update listener is reconnecting; it subscribes to every room with
                # connections here once it is back, and resends their state.
                log.warning("could not subscribe to room %s yet: %s", code, error)

    async def detach(self, code: str, session: Session) -> None:
        members = self._sessions.get(code)
        if members is not None:
            members.discard(session)
            if not members:
                del self._sessions[code]
                self._presence.pop(code, None)
        try:
            await self.redis.hdel(self._people(code), self._field(session))
            if code not in self._sessions and self._pubsub is not None:
                await self._pubsub.unsubscribe(self._channel(code))
        except (RedisError, OSError) as error:
            log.warning("could not record a disconnect in Redis: %s", error)

    def presence(self, code: str) -> Presence:
        return self._presence.get(code, Presence(frozenset(), 0))

    def local_sessions(self, code: str) -> list[Session]:
        return list(self._sessions.get(code, ()))

    async def load_record(self, code: str, game: int | None) -> str | None:
        try:
            if game is None:
                latest = await self.redis.get(self._record(code, "latest"))
                if latest is None:
                    return None
                game = int(latest)
            text = await self.redis.get(self._record(code, game))
            return None if text is None else str(text)
        except (RedisError, OSError) as error:
            raise BackendUnavailable(str(error)) from error

    async def startup_rooms(self) -> list[str]:
        return []  # Redis keeps the timers; nothing restarts with a node

    async def purge(self, before: float) -> int:
        return 0  # records and local games expire by themselves (Redis TTL)

    def stats(self) -> dict[str, int]:
        return {"connections": sum(len(m) for m in self._sessions.values())}

    async def ready(self) -> bool:
        try:
            return bool(await self.redis.ping())
        except (RedisError, OSError):
            return False


def _dump(data: Any) -> str:
    return json.dumps(data, separators=(",", ":"), ensure_ascii=False)
