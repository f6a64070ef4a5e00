"""One owner per room across nodes: leases, liveness, forwarding, takeover.

- A room's ``owner`` key names the node that owns it. The lease is the node's own
  heartbeat: a node whose heartbeat is older than ``NODE_STALE_SECONDS`` is dead, and
  any node may then take its rooms over (an atomic compare-and-set of the key). Every
  commit checks the key, so a node that lost a room can never write to it again.
- An intent for a room owned elsewhere is published to the owner's node channel with a
  reply address; the owner applies it in the room's queue and answers. A node that
  does not answer in time is asked again after routing anew (it may have died).
- Right after this node could not reach Redis, it cannot tell a dead node from its
  own blindness: for a grace period it takes every node for alive, so a Redis stall
  never moves rooms, drops players or skips their turns.
- Every call to Redis here has the deadline ``timeout``. A forwarded intent whose
  answer does not come within it may have been applied or not (:class:`OutcomeLost`);
  when it has an id, :meth:`RedisOwners.settle` finds out which once Redis answers.
"""

from __future__ import annotations

import asyncio
import contextlib
import itertools
import logging
import secrets
import time
from collections.abc import Callable
from dataclasses import replace

import redis.asyncio as aioredis
from redis.asyncio.cluster import RedisCluster
from redis.exceptions import RedisError

from snakes.server.backends.redis_cluster import ClusterPipes
from snakes.server.backends.redis_keys import RedisKeys
from snakes.server.backends.redis_pipe import Pipe, Unanswered
from snakes.server.rooms.errors import (
    Internal,
    NotOwning,
    OutcomeUnknown,
    ProtocolError,
    RoomNotFound,
    unavailable,
)
from snakes.server.rooms.intents import Intent
from snakes.server.rooms.messages import Forward, ForwardAnswer, encode_node, prepare_intents
from snakes.server.rooms.work import Caller
from snakes.server.runtime.owners import ANSWERED, NotOwner, OutcomeLost, Serve
from snakes.server.runtime.session import Session

log = logging.getLogger("snakes.owners")

HEARTBEAT_SECONDS = 1.0
HEARTBEAT_TIMEOUT = 1.5
"""A heartbeat that takes longer than this counts as Redis being unreachable."""
NODE_STALE_SECONDS = 3.0
REQUEST_SECONDS = 3600
"""How long an intent's outcome is kept under its id (and a given-up mark)."""
SETTLE_SECONDS = 600.0
"""How long :meth:`RedisOwners.settle` keeps asking before it leaves the outcome unknown."""
SETTLE_RETRY_SECONDS = 0.5

# KEYS: owner, room. ARGV: this node, the owner seen ('' for none).
_TAKE = """
if redis.call('EXISTS', KEYS[2]) == 0 then return -1 end
local current = redis.call('GET', KEYS[1])
if current == ARGV[1] then return 1 end
if (current == false and ARGV[2] == '') or current == ARGV[2] then
    redis.call('SET', KEYS[1], ARGV[1], 'KEEPTTL')  -- the room's expiry stands
    return 1
end
return 0
"""


class RedisOwners:
    def __init__(
        self,
        redis: aioredis.Redis | RedisCluster,
        pipe: Pipe | ClusterPipes,
        keys: RedisKeys,
        timeout: float,
    ) -> None:
        self.redis = redis
        self.pipe = pipe
        self.keys = keys
        self.prefix = keys.prefix
        self.timeout = timeout
        # The intents' readers are made now, not by the first intent forwarded: making
        # them takes about 0.1 s, which a forward's deadline (``timeout``) must not pay.
        prepare_intents()
        """Seconds any call to Redis here may take (a forward: the owner's answer too)."""
        self.node = secrets.token_hex(6)
        self._room_key, self._owner_key, self._people_key = keys.room, keys.owner, keys.presence
        self._take = redis.register_script(_TAKE)
        self._owners: dict[str, str] = {}
        """Who owns rooms this node forwards to (a cache; checked again when stale)."""
        self._stale: set[str] = set()
        """Nodes whose last heartbeat is older than NODE_STALE_SECONDS: dead. A node not
        seen yet (it joined after our last heartbeat) counts as alive."""
        self._gone: set[str] = set()
        """Nodes whose inbox nobody listens to any more: dead before their heartbeat says."""
        self._blind_until = 0.0
        self._pending: dict[str, asyncio.Future[ForwardAnswer]] = {}
        self._requests = itertools.count(1)
        self._serve: Serve | None = None
        self._outage: Callable[[], None] = lambda: None
        self._resync: Callable[[list[str]], None] = lambda rooms: None
        self._tasks: list[asyncio.Task[None]] = []
        self.replies = 0
        """Forwarded intents this node answered apart (not with the update they caused)."""

    @property
    def _nodes(self) -> str:
        return self.keys.nodes

    def _inbox(self, node: str) -> str:
        return self.keys.inbox(node)

    # ---- life -------------------------------------------------------------------------

    async def start(self, outage: Callable[[], None], resync: Callable[[list[str]], None]) -> None:
        self._outage, self._resync = outage, resync
        with contextlib.suppress(RedisError, OSError, TimeoutError):
            await self._beat()
        self._tasks.append(asyncio.create_task(self._heartbeat()))
        log.info("node %s joined through Redis (%s)", self.node, self.prefix)

    async def stop(self) -> None:
        for task in self._tasks:
            task.cancel()
        with contextlib.suppress(RedisError, OSError):
            async with asyncio.timeout(self.timeout):
                await self.redis.zrem(self._nodes, self.node)

    async def _beat(self) -> None:
        now = time.time()
        deadline = min(self.timeout, HEARTBEAT_TIMEOUT)
        async with asyncio.timeout(deadline), self.redis.pipeline(transaction=False) as pipe:
            pipe.zadd(self._nodes, {self.node: now})
            pipe.zremrangebyscore(self._nodes, "-inf", now - 3600)
            pipe.zrangebyscore(self._nodes, "-inf", now - NODE_STALE_SECONDS)
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
                self._blind_until = time.monotonic() + 3 * NODE_STALE_SECONDS
                if not failing:
                    log.error("Redis unreachable (heartbeat): %s", error or "timed out")
                    failing = True
                self._outage()
            await asyncio.sleep(HEARTBEAT_SECONDS)

    def resync_rooms(self, rooms: list[str]) -> None:
        """Messages to these rooms' connections here may have been missed (a cluster's
        slot moved under their channels): send them the rooms afresh."""
        self._resync(rooms)

    def listener_back(self, rooms: list[str]) -> None:
        """The update listener reconnected: what was published meanwhile was lost."""
        self._blind_until = time.monotonic() + 3 * NODE_STALE_SECONDS
        self._outage()
        self._resync(rooms)

    # ---- who is alive ---------------------------------------------------------------------

    def key(self, session: Session) -> str:
        return f"{self.node}/{session.id}"

    def alive_node(self, node: str) -> bool:
        if time.monotonic() < self._blind_until:
            return True
        return node not in self._stale and node not in self._gone

    def alive(self, key: str) -> bool:
        return self.alive_node(key.partition("/")[0])

    def dead(self) -> frozenset[str]:
        if time.monotonic() < self._blind_until:
            return frozenset()
        return frozenset(self._stale | self._gone)

    async def members(self, code: str) -> dict[str, str]:
        try:
            async with asyncio.timeout(self.timeout):
                people: dict[str, str] = await self.redis.hgetall(self._people_key(code))  # type: ignore[assignment]
        except (RedisError, OSError):
            return {}
        return {k: v for k, v in people.items() if self.alive(k)}

    # ---- routing --------------------------------------------------------------------------

    async def route(self, code: str) -> str | None:
        cached = self._owners.get(code)
        if cached is not None and self.alive_node(cached):
            return cached
        try:
            async with asyncio.timeout(self.timeout):
                owner: str | None = await self.redis.get(self._owner_key(code))  # type: ignore[assignment]
                if owner == self.node:
                    return None
                if owner is not None and self.alive_node(owner):
                    self._owners[code] = owner
                    return str(owner)
                taken = await self._take(
                    keys=[self._owner_key(code), self._room_key(code)],
                    args=[self.node, owner or ""],
                )
                if int(taken) == -1:
                    raise RoomNotFound("no room has that code")
                if int(taken) == 1:
                    self._owners.pop(code, None)
                    if owner:
                        log.info("room %s taken over from node %s", code, owner)
                    return None
                return await self._owner_now(code)
        except (RedisError, OSError):
            self._outage()
            raise unavailable() from None

    async def _owner_now(self, code: str) -> str | None:
        owner: str | None = await self.redis.get(self._owner_key(code))  # type: ignore[assignment]
        if owner is None or owner == self.node:
            return None
        self._owners[code] = owner
        return str(owner)

    async def holds(self, code: str) -> bool:
        try:
            async with asyncio.timeout(self.timeout):
                return bool(await self.redis.get(self._owner_key(code)) == self.node)
        except (RedisError, OSError):
            return False

    # ---- forwarding -----------------------------------------------------------------------

    def serve(self, handler: Serve) -> None:
        self._serve = handler

    async def forward(
        self,
        node: str,
        code: str,
        intent: Intent,
        caller: Caller,
        *,
        listening: bool = False,
    ) -> ForwardAnswer | None:
        # Unique among every node's requests (an update names the ones it answers, and
        # every node in the room hears it), without a system call for randomness.
        ident = self.new_ident()
        future: asyncio.Future[ForwardAnswer] = asyncio.get_running_loop().create_future()
        self._pending[ident] = future
        # With the request's id the owner may answer with the update it causes.
        sender = replace(caller, request=ident if listening else "")
        request = encode_node(Forward(ident, self.node, code, intent, sender))
        try:
            # The request and its answer within one deadline: past it, the owner may
            # have applied the intent or not (or may yet, once Redis passes it on).
            async with asyncio.timeout(self.timeout):
                heard = await self.pipe.publish(self._inbox(node), request)
                if not heard:
                    reply = None  # nobody listens there: that node is gone
                    if time.monotonic() >= self._blind_until:
                        self._gone.add(node)
                else:
                    reply = await future
        except (Unanswered, TimeoutError):
            self._outage()
            raise OutcomeLost(code) from None
        except (RedisError, OSError):
            self._outage()  # never sent: nothing changed
            raise unavailable() from None
        finally:
            self._pending.pop(ident, None)
        if reply is not None and isinstance(reply.refused, OutcomeUnknown):
            raise OutcomeLost(code)  # the owner's own commit went unanswered
        if reply is None or isinstance(reply.refused, NotOwning):
            self._owners.pop(code, None)
            if node not in self._gone:
                await asyncio.sleep(0.5)  # give a dying owner's lease time to run out
            return None
        return reply

    def new_ident(self) -> str:
        """An id for an intent, unique among every node's."""
        return f"{self.node}.{next(self._requests)}"

    def request_key(self, code: str, ident: str) -> str:
        """Where an intent's outcome is kept: 'a' once applied, 'x' once given up."""
        return self.keys.request(code, ident)

    async def settle(self, code: str, ident: str) -> bool | None:
        """Whether the intent ``ident`` was applied, for a sender that lost its answer;
        None if Redis does not answer within ``SETTLE_SECONDS``.

        Once Redis answers, the intent is marked given up unless its commit got there
        first ('x', set only where nothing is): either way the mark is final, since the
        commit script applies nothing whose mark is there. An earlier try that went
        unanswered may have set the mark itself: it reads 'x' then, not applied.
        """
        key = self.request_key(code, ident)
        give_up = time.monotonic() + SETTLE_SECONDS
        while time.monotonic() < give_up:
            try:
                async with asyncio.timeout(self.timeout):
                    if await self.redis.set(key, "x", nx=True, ex=REQUEST_SECONDS):
                        return False
                    return bool(await self.redis.get(key) == "a")
            except (RedisError, OSError):
                await asyncio.sleep(SETTLE_RETRY_SECONDS)
        return None

    def answered(self, idents: list[str]) -> None:
        """Forwarded intents answered by an update that just arrived on a room channel."""
        for ident in idents:
            future = self._pending.get(ident)
            if future is not None and not future.done():
                future.set_result(ForwardAnswer(ident))

    def on_node_message(self, message: Forward | ForwardAnswer) -> None:
        """A forwarded intent (for a room this node owns) or the answer to one it sent."""
        if isinstance(message, ForwardAnswer):
            future = self._pending.get(message.ident)
            if future is not None and not future.done():
                future.set_result(message)
        else:
            self._tasks.append(asyncio.create_task(self._answer(message)))
            self._tasks = [t for t in self._tasks if not t.done()]

    async def _answer(self, request: Forward) -> None:
        try:
            assert self._serve is not None
            result = await self._serve(request.code, request.intent, request.caller)
            if result == ANSWERED:
                return  # the update that carried the answer has gone out already
            reply = ForwardAnswer(request.ident, result)
        except NotOwner:
            reply = ForwardAnswer(request.ident, refused=NotOwning("not the owner"))
        except OutcomeLost:
            reply = ForwardAnswer(request.ident, refused=OutcomeUnknown())
        except ProtocolError as error:
            reply = ForwardAnswer(request.ident, refused=error)
        except Exception:
            log.exception("a forwarded intent failed")
            failed = Internal("the server failed; nothing changed")
            reply = ForwardAnswer(request.ident, refused=failed)
        self.replies += 1
        with contextlib.suppress(RedisError, OSError):
            await self.pipe.publish(self._inbox(request.sender), encode_node(reply))
