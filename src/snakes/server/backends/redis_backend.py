"""Many processes, one set of rooms: the room log, bus, timers and presence in Redis.

Each room has one owner, the node holding its lease (the ``owner`` key names it, and
the node's heartbeat keeps it alive). Only the owner applies the room's intents; other
nodes forward theirs to it (see :mod:`snakes.server.backends.redis_owners`). A commit
is one Lua script that checks this node still owns the room and the revision it
started from, then writes the snapshot, appends the actions, stores a finished game's
record, sets the timers and publishes the messages: all of it, or nothing.

A committed change's messages go out from the owner alone: it delivers them to its
own connections as soon as the script has run, and the script publishes them to the
inbox of every other node that has connections to the room (the room's presence hash
names them), so every player sees one room's messages in one order and no node parses
an update it has no viewer for. Timers are one sorted set scored by due time; any node
may claim a due timer (pushing it a lease ahead, atomically) and route it to the
room's owner.
"""

from __future__ import annotations

import asyncio
import contextlib
import logging
import math
from collections.abc import Callable, Sequence
from typing import Any
from urllib.parse import parse_qsl, urlencode, urlsplit, urlunsplit

import redis.asyncio as aioredis
from redis.asyncio.cluster import RedisCluster
from redis.exceptions import RedisError, ResponseError

import redis
from snakes.engine import action_to_data
from snakes.server import jsontext
from snakes.server.backends.interfaces import FireTimer, StoreUnanswered, StoreUnavailable
from snakes.server.backends.redis_cluster import ClusterPipes
from snakes.server.backends.redis_keys import RedisKeys
from snakes.server.backends.redis_owners import REQUEST_SECONDS, RedisOwners
from snakes.server.backends.redis_pipe import TIMEOUT_SECONDS, Pipe, Unanswered
from snakes.server.backends.redis_shards import ShardListener
from snakes.server.backends.redis_wire import Replies
from snakes.server.backends.rows import RowPlan
from snakes.server.clock import Clock, WallClock
from snakes.server.rooms.errors import Unavailable
from snakes.server.rooms.messages import RoomUpdate, decode_node, encode_node
from snakes.server.rooms.model import Mode, Room
from snakes.server.rooms.work import Message, Work
from snakes.server.runtime.hub import Hub
from snakes.server.runtime.session import Session

log = logging.getLogger("snakes.redis")

POLL_SECONDS = 0.05
POLL_MAX_SECONDS = 1.0
"""The longest the timer poller sleeps: how late a timer set by another node that then
died can fire at worst (a living node wakes its own poller for what it sets)."""
LEASE_SECONDS = 5.0
REDIS_CONNECTIONS = 64
"""Connections one node keeps in its pool at most (the pipe and the inbox have one of
their own each, besides)."""
SUBSCRIBE_SECONDS = 5.0
"""How long a hello waits for the update listener to be (re)connected."""

# Claim due timers: move each a lease ahead and return it with the score it had; last,
# the earliest score left ('' for none).
_CLAIM = """
local due = redis.call('ZRANGEBYSCORE', KEYS[1], '-inf', ARGV[1], 'WITHSCORES', 'LIMIT', 0, 50)
for i = 1, #due, 2 do
    redis.call('ZADD', KEYS[1], ARGV[2], due[i])
end
local first = redis.call('ZRANGE', KEYS[1], 0, 0, 'WITHSCORES')
due[#due + 1] = first[2] or ''
return due
"""

# An update for the room's connections on other nodes: to the inbox of every node but
# this one that holds a connection in the room's presence hash ("node/connection"). The
# message comes whole from the node ("u", the code, a newline, the envelope): Lua
# would copy it once more to put it together.
_PUBLISH = """
local function publish(presence, node, inboxes, message)
    local sent = {}
    for _, key in ipairs(redis.call('HKEYS', presence)) do
        local slash = string.find(key, '/', 1, true)
        if slash then
            local other = string.sub(key, 1, slash - 1)
            if other ~= node and not sent[other] then
                sent[other] = true
                redis.call('PUBLISH', inboxes .. other, message)
            end
        end
    end
end
"""

# On a cluster: the room's own sharded channel (ARGV[9] names it), once, when another node
# has a connection to the room; the nodes that do listen to it there.
_SHARD_PUBLISH = """
local function publish(presence, node, channel, message)
    for _, key in ipairs(redis.call('HKEYS', presence)) do
        local slash = string.find(key, '/', 1, true)
        if slash and string.sub(key, 1, slash - 1) ~= node then
            redis.call('SPUBLISH', channel, message)
            return
        end
    end
end
"""

# KEYS: room, actions, owner, timers, presence, and the intent's outcome key if it has one.
# ARGV: node, created, expected rev, new rev, data ('' to keep the row: only the live part
#       changes), delete, new game, ttl, inbox prefix, code, live, whether to set the
#       keys' expiry again ('0': it stands, but for a list made anew), the outcome key's
#       time to live, then counted lists:
#       actions; timers as (name, due or ''); one envelope or none; record as (key, text,
#       latest key, game, ttl) or none.
_COMMIT_BODY = """
local node, created = ARGV[1], ARGV[2]
if created == '1' then
    if redis.call('EXISTS', KEYS[1]) == 1 then return -1 end
    redis.call('SET', KEYS[3], node)
else
    if redis.call('GET', KEYS[3]) ~= node then return 0 end
    if redis.call('HGET', KEYS[1], 'rev') ~= ARGV[3] then return 0 end
end
-- The intent's outcome, when it has an id (KEYS[6]): 'a', applied. A sender that lost
-- the answer has written 'x' there first if it gave the intent up: then it never applies.
if KEYS[6] and not redis.call('SET', KEYS[6], 'a', 'NX', 'EX', ARGV[13]) then return 2 end
local ttl = tonumber(ARGV[8])
if ARGV[6] == '1' then
    redis.call('DEL', KEYS[1], KEYS[2], KEYS[3], KEYS[5])
elseif ARGV[5] == '' then
    redis.call('HSET', KEYS[1], 'rev', ARGV[4], 'live', ARGV[11])
else
    redis.call('HSET', KEYS[1], 'rev', ARGV[4], 'data', ARGV[5])
    redis.call('HDEL', KEYS[1], 'live')
    if ARGV[7] == '1' then redis.call('DEL', KEYS[2]) end
end
-- The counted lists, read by position (i: the count of the next one).
local i = 14
local count = tonumber(ARGV[i])
local first, last = i + 1, i + count
local length = 0
while first <= last and ARGV[6] ~= '1' do  -- in slices: unpack has a limit
    local upto = math.min(first + 499, last)
    length = redis.call('RPUSH', KEYS[2], unpack(ARGV, first, upto))
    first = upto + 1
end
i = last + 1
if ARGV[6] ~= '1' and ARGV[12] == '1' then
    for _, key in ipairs({KEYS[1], KEYS[2], KEYS[3], KEYS[5]}) do redis.call('EXPIRE', key, ttl) end
elseif length == count and count > 0 then
    redis.call('EXPIRE', KEYS[2], ttl)  -- the game's log began here (a start, a rematch)
end
count = tonumber(ARGV[i])
for k = 1, count do
    local member, due = ARGV[10] .. '|' .. ARGV[i + 2 * k - 1], ARGV[i + 2 * k]
    if due == '' then redis.call('ZREM', KEYS[4], member)
    else redis.call('ZADD', KEYS[4], due, member) end
end
i = i + 2 * count + 1
count = tonumber(ARGV[i])
for k = 1, count do publish(KEYS[5], node, ARGV[9], ARGV[i + k]) end
i = i + count + 1
if ARGV[i] == '1' then
    local rttl = tonumber(ARGV[i + 5])
    redis.call('SET', ARGV[i + 1], ARGV[i + 2], 'EX', rttl)
    redis.call('SET', ARGV[i + 3], ARGV[i + 4], 'EX', rttl)
end
return 1
"""
_COMMIT = _PUBLISH + _COMMIT_BODY
_CLUSTER_COMMIT = _SHARD_PUBLISH + _COMMIT_BODY


# KEYS: owner, room, presence. ARGV: node, rev, inbox prefix, message. Messages
# that need no write (a welcome) still go out only from the room's owner, at the
# revision it holds.
_SEND_BODY = """
if redis.call('GET', KEYS[1]) ~= ARGV[1] then return 0 end
if redis.call('HGET', KEYS[2], 'rev') ~= ARGV[2] then return 0 end
publish(KEYS[3], ARGV[1], ARGV[3], ARGV[4])
return 1
"""
_SEND = _PUBLISH + _SEND_BODY
_CLUSTER_SEND = _SHARD_PUBLISH + _SEND_BODY


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


class RedisBackend:
    def __init__(
        self,
        url: str,
        hub: Hub,
        *,
        prefix: str = "snakes:",
        clock: Clock | None = None,
        record_days: float = 30,
        idle_seconds: float = 1800,
        unopened_seconds: float = 600,
        window: float = 0.0,
        timeout: float = TIMEOUT_SECONDS,
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
        self.pipe: Pipe | ClusterPipes
        """The commits and forwards of every roll, sent together when they come within
        ``window`` seconds of each other."""
        self.redis: Any
        if cluster:
            # redis-py follows the cluster's map for the commands off the hot path.
            self.redis = RedisCluster.from_url(url, max_connections=REDIS_CONNECTIONS, **options)
            connection = dict(aioredis.ConnectionPool.from_url(url, **options).connection_kwargs)
            for address in ("host", "port"):
                connection.pop(address, None)
            self.pipe = ClusterPipes(self.redis, connection, window, timeout)
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
        self.timeout = timeout
        """Seconds any one call to Redis may take, commands and connecting included."""
        self.prefix = prefix
        self.hub = hub
        self.clock: Clock = clock or WallClock()
        self.record_ttl = int(record_days * 86400)
        self.online_ttl = int(max(idle_seconds * 4, 86400))
        self.unopened_ttl = int(unopened_seconds)
        self.rows = RowPlan()
        """What this node last wrote of each room's row (``rows.py``)."""
        self._expiry: dict[str, tuple[int, float]] = {}
        """Each room's keys' time to live as this node last set it, and when."""
        self.owners = RedisOwners(self.redis, self.pipe, self.keys, timeout)
        self.log = self
        self.bus = self
        self.timers = self
        self.presence = self
        self._timer_wake = asyncio.Event()
        self._next_poll = -math.inf
        """When the timer poller next looks (infinity while its claim is on its way)."""
        self._set_while_claiming: dict[str, float] = {}
        """The earliest timer this node set in each sorted set while a claim was out."""
        self._first_due: dict[str, float] = {}
        """The earliest timer each sorted set held when last claimed from."""
        self._claimed_at: dict[str, float] = {}
        self._listener: asyncio.Task[None] | None = None
        self._subscribed: set[str] = set()
        self._listening = asyncio.Event()
        """Set while the update listener is connected and subscribed."""
        self._outage: Callable[[], None] = lambda: None
        self.shards: ShardListener | None = None
        """On a cluster: this node's sharded channels, each on its slot's primary."""

    # ---- keys: one hash tag per room (``redis_keys``) -----------------------------------

    def _room(self, code: str) -> str:
        return self.keys.room(code)

    def _actions(self, code: str) -> str:
        return self.keys.actions(code)

    def _people(self, code: str) -> str:
        return self.keys.presence(code)

    def _owner(self, code: str) -> str:
        return self.keys.owner(code)

    def _record(self, code: str, game: int | str) -> str:
        return self.keys.record(code, game)

    @property
    def _inboxes(self) -> str:
        return self.keys.inboxes

    # ---- life cycle ---------------------------------------------------------------------

    async def start(self, outage: Callable[[], None], resync: Callable[[list[str]], None]) -> None:
        self.pipe.start()
        await self.owners.start(outage, resync)
        self._outage = outage
        if isinstance(self.pipe, ClusterPipes):
            self.shards = ShardListener(self.pipe, self._take_message, outage, self._heard_again)
            self.shards.start()
            self._listener = asyncio.create_task(self._listen_on_shards())
        else:
            self._listener = asyncio.create_task(self._listen())

    async def _listen_on_shards(self) -> None:
        """A cluster: this node's inbox is a sharded channel; it is listened to for as
        long as the node runs (``redis_shards`` keeps it on its primary)."""
        assert self.shards is not None
        inbox = self._listen_channel_for_node()
        while True:
            try:
                await self.shards.add(inbox, SUBSCRIBE_SECONDS)
            except TimeoutError:
                self._listening.clear()
                continue
            self._listening.set()
            await asyncio.sleep(POLL_MAX_SECONDS)
            if not self.shards.hears(inbox):
                self._listening.clear()

    def _heard_again(self, channels: list[str]) -> None:
        """Sharded channels heard again after a time unheard: their rooms are sent afresh."""
        codes = [c for c in self._subscribed if self.keys.updates(c) in channels]
        if codes:
            self.owners.resync_rooms(codes)

    async def stop(self) -> None:
        if self.shards is not None:
            await self.shards.stop()
        if self._listener is not None:
            self._listener.cancel()
            with contextlib.suppress(asyncio.CancelledError):
                await self._listener  # its connection closes on the way out
        # One deadline for the lot: a stopping node never waits on a stalled Redis.
        with contextlib.suppress(RedisError, OSError):
            async with asyncio.timeout(self.timeout):
                for code in self.hub.rooms():
                    fields = [self.owners.key(s) for s in self.hub.sessions(code)]
                    if fields:
                        await self.redis.hdel(self._people(code), *fields)
        await self.pipe.stop()
        if self.cluster:
            await self.redis.aclose()
        else:
            await self.redis.aclose(close_connection_pool=True)

    def stats(self) -> dict[str, int]:
        return {"subscriptions": len(self._subscribed)}

    # ---- the room log -------------------------------------------------------------------

    async def load(self, code: str) -> Room | None:
        try:
            async with (
                asyncio.timeout(self.timeout),
                self.redis.pipeline(transaction=False) as pipe,
            ):
                pipe.hmget(self._room(code), "data", "live")
                pipe.lrange(self._actions(code), 0, -1)
                (data, live), actions = await pipe.execute()
        except (RedisError, OSError) as error:
            raise StoreUnavailable(str(error)) from error
        if data is None:
            return None
        logged = [jsontext.loads(a) for a in actions]
        for action in logged:
            del action["seq"]  # the log's own sequence number, not part of the action
        return Room.from_data(
            jsontext.loads(data), logged, None if live is None else jsontext.loads(live)
        )

    async def load_record(self, code: str, game: int | None) -> str | None:
        try:
            async with asyncio.timeout(self.timeout):
                if game is None:
                    latest = await self.redis.get(self._record(code, "latest"))
                    if latest is None:
                        return None
                    game = int(latest)
                text = await self.redis.get(self._record(code, game))
        except (RedisError, OSError) as error:
            raise StoreUnavailable(str(error)) from error
        return None if text is None else str(text)

    async def live_codes(self) -> list[str]:
        return []  # Redis keeps the timers; nothing restarts with a node

    async def purge(self, before: float, unopened_before: float) -> int:
        return 0  # records and local games expire by themselves (Redis TTL)

    async def probe(self) -> bool:
        try:
            async with asyncio.timeout(self.timeout):
                return bool(await self.redis.ping())
        except (RedisError, OSError):
            return False

    async def action_log(self, code: str) -> list[dict[str, Any]]:
        """The current game's stored actions, for checks."""
        return [jsontext.loads(a) for a in await self.redis.lrange(self._actions(code), 0, -1)]

    async def commit(
        self, room: Room, work: Work, *, created: bool = False, request: str = ""
    ) -> bool:
        code = room.code
        if not work.durable:
            return await self._send(room, work)
        first_seq = room.version - len(work.actions) + 1
        actions = [
            jsontext.dumps({**action_to_data(a), "seq": first_seq + i})
            for i, a in enumerate(work.actions)
        ]
        timers: list[str] = []
        for name, due in work.timers.items():
            timers += [name, "" if due is None else repr(due)]
        envelope = [self._envelope(work.messages, room, work.answers)] if work.messages else []
        record: list[str] = []
        if work.record is not None:
            game, text = work.record
            latest = self._record(code, "latest")
            record = [self._record(code, game), text, latest, str(game), str(self.record_ttl)]
        whole = None if work.delete else self.rows.whole(room, work)
        ttl = self.online_ttl if room.mode is Mode.ONLINE else self.record_ttl
        if room.is_local and not room.opened:
            ttl = self.unopened_ttl  # a local game no device opened goes soon
        now = self.clock.now()
        # Four EXPIREs on every roll were a fifth of the commit script's calls; the keys'
        # expiry is set again only when it may have changed or has run down an eighth
        # (and the script gives a list it makes anew, a game's log, one of its own).
        known = self._expiry.get(code)
        expires = (
            created or work.new_game or known is None or known[0] != ttl or now - known[1] > ttl / 8
        )
        args: list[Any] = [
            self.owners.node,
            "1" if created else "0",
            str(room.rev - 1),
            str(room.rev),
            "" if whole is None else jsontext.dumps(room.to_data()),
            "1" if work.delete else "0",
            "1" if work.new_game else "0",
            str(ttl),
            self._channel(code),
            code,
            "" if whole is not None else jsontext.dumps(room.live_data()),
            "1" if expires else "0",
            str(REQUEST_SECONDS),
            str(len(actions)),
            *actions,
            str(len(work.timers)),
            *timers,
            str(len(envelope)),
            *envelope,
            "1" if record else "0",
            *record,
        ]
        keys = [self._room(code), self._actions(code), self._owner(code)]
        keys += [self.keys.timers(code), self._people(code)]
        if request:
            keys.append(self.owners.request_key(code, request))
        try:
            answer = await self.pipe.script(self._commit_script, keys, args)
        except Unanswered as error:
            self._forget(code)  # it may have been written: this node no longer knows
            raise StoreUnanswered(str(error)) from error
        except (RedisError, OSError) as error:
            self._forget(code)
            raise StoreUnavailable(str(error)) from error
        except BaseException:
            self._forget(code)  # cut short (a deadline above this one): as unanswered
            raise
        if int(answer) == 2:
            # Its sender lost the answer and gave the intent up meanwhile: not applied.
            raise Unavailable("the intent was given up; nothing changed")
        if int(answer) != 1:
            self._forget(code)  # another node owns it now: its row is not ours to know
            return False
        if expires:
            self._expiry[code] = (ttl, now)
        if work.delete:
            self._forget(code)
        elif whole is not None:
            self.rows.written(code, whole, room.version)
        self._timers_set(code, work)
        self._deliver_here(room, work.messages)
        return True

    async def _send(self, room: Room, work: Work) -> bool:
        """A change that writes nothing: its messages, from the owner at its revision."""
        if not work.messages:
            return True
        code = room.code
        try:
            sent = await self.pipe.script(
                _CLUSTER_SEND if self.cluster else _SEND,
                [self._owner(code), self._room(code), self._people(code)],
                [
                    self.owners.node,
                    str(room.rev),
                    self._channel(code),
                    self._envelope(work.messages, room, work.answers),
                ],
            )
        except Unanswered as error:
            raise StoreUnanswered(str(error)) from error
        except (RedisError, OSError) as error:
            raise StoreUnavailable(str(error)) from error
        if int(sent) != 1:
            return False
        self._deliver_here(room, work.messages)
        return True

    @property
    def _commit_script(self) -> str:
        return _CLUSTER_COMMIT if self.cluster else _COMMIT

    def _forget(self, code: str) -> None:
        self.rows.forget(code)
        self._expiry.pop(code, None)

    def _deliver_here(self, room: Room, messages: list[Message]) -> None:
        """The owner's own connections get a committed change's messages at once."""
        if messages:
            self.hub.deliver(room.code, messages, room.host, [s.secret_hash for s in room.seats])

    # ---- the room bus -------------------------------------------------------------------

    def _envelope(self, messages: list[Message], room: Room, answers: Sequence[str] = ()) -> str:
        """The inbox message that carries a change's messages to the other nodes."""
        hashes = [s.secret_hash for s in room.seats]
        sender = self.owners.node if self.cluster else ""  # its own listener hears it too
        update = RoomUpdate(room.code, room.host, hashes, messages, list(answers), sender)
        return encode_node(update)

    def _channel(self, code: str) -> str:
        """Where a commit publishes: every node's inbox by this prefix, or on a cluster
        the room's own sharded channel."""
        return self.keys.updates(code) if self.cluster else self.keys.inboxes

    async def subscribe(self, code: str) -> None:
        """Hear a room's updates here; returns once this node's inbox is listened to.

        The owner sends them to every node in the room's presence hash, which the
        connection joins next (:meth:`join`), before it says hello to the owner.
        """
        self._subscribed.add(code)
        try:
            if self.shards is not None:
                await self.shards.add(self.keys.updates(code), SUBSCRIBE_SECONDS)
            else:
                await asyncio.wait_for(self._listening.wait(), SUBSCRIBE_SECONDS)
        except TimeoutError as error:
            self._subscribed.discard(code)
            raise StoreUnavailable(f"cannot listen to room {code}: {error}") from error

    async def unsubscribe(self, code: str) -> None:
        self._subscribed.discard(code)
        if self.shards is not None:
            self.shards.discard(self.keys.updates(code))

    def _listen_channel_for_node(self) -> str:
        return self._inboxes + self.owners.node

    async def _listen(self) -> None:
        failures = 0
        while True:
            connection: Any = None
            try:
                # This node's inbox on a connection of its own, read without redis-py's
                # pub/sub layer (``redis_wire``): one read may carry many messages.
                connection = self._inbox_connection()
                await connection.connect()
                replies = Replies(connection)
                await connection.send_command("SUBSCRIBE", self._listen_channel_for_node())
                pending = await _subscribed(replies)
                rooms = list(self._subscribed)
                if failures:
                    await self._reconnect()
                self._listening.set()
                if failures:
                    log.info("Redis is back (updates)")
                    self.owners.listener_back(rooms)
                failures = 0
                while True:
                    for reply in pending:
                        if isinstance(reply, list) and reply[0] == "message":
                            self._take_message(reply[2])
                    pending = await replies.some()
            except (RedisError, OSError) as error:
                self._listening.clear()
                failures += 1
                self._outage()
                if failures == 1:
                    log.error("Redis unreachable (updates): %s", error)
                await asyncio.sleep(min(2.0, 0.1 * 2**failures))
            except asyncio.CancelledError:
                raise
            except Exception:
                self._listening.clear()
                failures += 1  # connected again, it resyncs: messages may have been lost
                log.exception("update listener failed")
                await asyncio.sleep(1.0)
            finally:
                if connection is not None:
                    with contextlib.suppress(Exception):
                        await connection.disconnect()

    def _inbox_connection(self) -> Any:
        """A connection of its own for this node's inbox (one Redis)."""
        return self.redis.connection_pool.make_connection()

    async def _reconnect(self) -> None:
        """After an outage: Redis may have restarted. Idle connections in the pool lead
        to the old server, and the first command on each would fail."""
        await self.redis.connection_pool.disconnect(inuse_connections=False)
        self.pipe.reconnect()

    def _take_message(self, data: str) -> None:
        """One message from the inbox; a bad one is logged, and the others in the same
        read are handled still."""
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
        self.hub.deliver(message.code, message.messages, message.host, message.hashes)
        if message.answers:
            self.owners.answered(message.answers)

    # ---- timers -------------------------------------------------------------------------

    async def run(self, fire: FireTimer) -> None:
        """Claim and fire due timers, sleeping until the next is due (at most
        ``POLL_MAX_SECONDS``: another node may set one sooner) or until a commit here sets
        one due before that.

        On a cluster the timers are in a sorted set a bucket of rooms: each is claimed
        from when its earliest timer is due, or when it was last looked at
        ``POLL_MAX_SECONDS`` ago (another node may have set one since), together in one
        write a primary."""
        failures = 0
        every = self.keys.every_timer_set()
        while True:
            self._timer_wake.clear()
            now = self.clock.now()
            # A timer this node commits while a claim is on its way may be missing from
            # the claim's answer: it is kept here instead.
            self._next_poll, self._set_while_claiming = math.inf, {}
            due_sets = [
                key
                for key in every
                if self._first_due.get(key, -math.inf) <= now
                or now - self._claimed_at.get(key, -math.inf) >= POLL_MAX_SECONDS
            ]
            answers = await asyncio.gather(
                *(self._claim(key, now) for key in due_sets), return_exceptions=True
            )
            failed = False
            for key, answer in zip(due_sets, answers, strict=True):
                if isinstance(answer, RedisError | OSError):
                    failed = True
                    continue
                if isinstance(answer, BaseException):
                    raise answer
                *claimed, first = answer
                self._claimed_at[key] = now
                # Anything claimed is fired now, and its set looked at again at once.
                self._first_due[key] = -math.inf if claimed else float(first or math.inf)
                for member, due in zip(claimed[::2], claimed[1::2], strict=True):
                    code, _, name = member.rpartition("|")
                    try:
                        await fire(code, name, float(due))
                    except Exception:
                        log.exception("timer %s of room %s failed", name, code)
            for key, due in self._set_while_claiming.items():
                self._first_due[key] = min(self._first_due.get(key, math.inf), due)
            if failed:
                failures += 1
                self._outage()
                if failures == 1:
                    log.error("Redis unreachable (timers)")
            else:
                failures = 0
            first_due = min(self._first_due.get(key, -math.inf) for key in every)
            looked_at = min(self._claimed_at.get(key, -math.inf) for key in every)
            next_poll = min(first_due, looked_at + POLL_MAX_SECONDS)
            delay = min(max(next_poll - now, POLL_SECONDS), POLL_MAX_SECONDS)
            self._next_poll = now + delay
            if self.clock.now() < self._next_poll:  # (a hand-moved clock may be past it)
                await self.clock.wait(self._next_poll - self.clock.now(), self._timer_wake)

    async def _claim(self, key: str, now: float) -> Any:
        return await self.pipe.script(_CLAIM, [key], [now, now + LEASE_SECONDS])

    def _timers_set(self, code: str, work: Work) -> None:
        """A timer this node just committed may be due before its next poll."""
        key = self.keys.timers(code)
        for due in work.timers.values():
            if due is None:
                continue
            if self._next_poll == math.inf:  # a claim is on its way
                self._set_while_claiming[key] = min(self._set_while_claiming.get(key, due), due)
            else:
                self._first_due[key] = min(self._first_due.get(key, math.inf), due)
                if due < self._next_poll:
                    self._timer_wake.set()

    # ---- presence -----------------------------------------------------------------------

    async def join(self, code: str, session: Session) -> None:
        try:
            # The value as the runtime keeps it (a reconnecting owner reads it back);
            # whether the connection shows odds is set again by the owner's own map.
            async with (
                asyncio.timeout(self.timeout),
                self.redis.pipeline(transaction=False) as pipe,
            ):
                pipe.hset(self._people(code), self.owners.key(session), session.secret_hash)
                # A commit may leave the expiry standing for days: a presence hash made
                # anew by this join gets one of its own, the longest a room's can be.
                pipe.expire(self._people(code), max(self.online_ttl, self.record_ttl))
                await pipe.execute()
        except (RedisError, OSError) as error:
            raise StoreUnavailable(str(error)) from error

    async def leave(self, code: str, session: Session) -> None:
        try:
            async with asyncio.timeout(self.timeout):
                await self.redis.hdel(self._people(code), self.owners.key(session))
        except (RedisError, OSError) as error:
            log.warning("could not record a disconnect in Redis: %s", error)

    async def members(self, code: str) -> dict[str, str]:
        return await self.owners.members(code)


async def _subscribed(replies: Replies) -> list[Any]:
    """Wait for Redis to confirm the subscription; what arrived after it, to handle."""
    while True:
        batch = await replies.some()
        for index, reply in enumerate(batch):
            if isinstance(reply, ResponseError):
                raise reply
            if isinstance(reply, list) and reply[0] == "subscribe":
                return batch[index + 1 :]
