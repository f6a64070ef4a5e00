"""The hot path's commands to Redis: whatever is waiting goes out as one write.

Every roll costs a commit script, and a roll that arrives at a node not owning its
room one publish more. Through redis-py's pool each command takes a connection, checks
it, sends, waits for its reply and gives the connection back, and pays a round of
system calls alone. Here one connection is kept for these commands; a task sends every
command queued since its last write in one write and reads the replies in order, so
commands that arrive together share their system calls (Redis's own too), and none
waits for a free connection.

With a ``window``, the task waits that long after the first command of a write for
others to join it, as the SQLite store's group commit does: at a few hundred rolls a
second, commands seldom coincide by themselves, and each write alone costs this node a
wake-up for its replies, Redis one to read it, and every node it publishes to one more.

A failure of the connection fails every command of that write (the store is
unavailable to them, as with any other command) and the next write connects again.

Every command has a deadline (``timeout`` seconds from when it was asked): one that
waited that long in the queue is never sent, and a write whose replies are not all in
by its first command's deadline is given up, its connection dropped (a late reply can
never be taken for the next write's) and made again for the next write. A command that
went out and got no answer raises :class:`Unanswered`: Redis may yet carry it out.

The connection speaks RESP2 (no pushes: replies come strictly one per command, in
order), and arguments are typed as redis-py's are: bytes, str, int or float.
"""

from __future__ import annotations

import asyncio
import contextlib
import functools
import hashlib
import itertools
import logging
from typing import Any

import hiredis
import redis.asyncio as aioredis
from redis.exceptions import DataError, NoScriptError, RedisError, ResponseError
from redis.exceptions import TimeoutError as RedisTimeout

from snakes.server.backends.redis_wire import Replies

log = logging.getLogger("snakes.redis")

Reply = Any
TIMEOUT_SECONDS = 2.0
"""How long a command may wait for its reply, queue included, unless told otherwise."""
WAIT_PAUSE_SECONDS = 5.0
"""How long writes go on without waiting for a replica that failed to confirm one."""


class Unanswered(RedisTimeout):
    """The command went out to Redis, and its answer did not come in time (or the
    connection broke first): Redis may carry it out yet, or may have."""


class Queued:
    """One command waiting to go out: its bytes, its reply, its deadline."""

    __slots__ = ("deadline", "packed", "replies", "reply", "sent")

    def __init__(
        self, packed: bytes, reply: asyncio.Future[Reply], deadline: float, replies: int = 1
    ) -> None:
        self.packed = packed
        self.reply = reply
        self.deadline = deadline
        self.replies = replies
        """Replies its bytes get: its command's is the last (an ASKING may go before)."""
        self.sent = False
        """Written to Redis: from then on, a lost reply leaves its outcome unknown."""


class Pipe:
    def __init__(
        self,
        pool: aioredis.ConnectionPool,
        window: float = 0.0,
        timeout: float = TIMEOUT_SECONDS,
    ) -> None:
        self._pool = pool
        self.window = window
        """Seconds a write waits for more commands to go with it."""
        self.timeout = timeout
        """Seconds a command may take from being asked to its reply."""
        self._waiting: list[Queued] = []
        self._wake = asyncio.Event()
        self._first_at = 0.0
        """When the first command now waiting was queued (the loop's clock)."""
        self._connection: Any = None
        self._replies: Replies | None = None
        self._task: asyncio.Task[None] | None = None
        self._reconnect = False
        self.writes = 0
        """Writes sent so far (commands per write = commands / writes)."""
        self.commands = 0
        self.wait: tuple[int, int] | None = None
        """On a cluster's primary: after each write, ``WAIT`` for this many replicas, at
        most this many milliseconds, before any of its replies is given: a change told to
        a player is then on a replica too, and outlives its primary's death."""
        self.unreplicated = 0
        """Writes whose ``WAIT`` timed out short of its replicas."""
        self._wait_paused = 0.0

    def start(self) -> None:
        self._task = asyncio.create_task(self._run())

    async def stop(self) -> None:
        if self._task is not None:
            self._task.cancel()
            with contextlib.suppress(asyncio.CancelledError):
                await self._task
        self._fail(self._waiting, ConnectionError("the server is stopping"))
        self._waiting = []
        await self._drop()

    async def execute(
        self, *command: Any, timeout: float | None = None, asking: bool = False
    ) -> Reply:
        """Send one command with the next write; its reply, or the error Redis gave.

        Past ``timeout`` seconds (the pipe's own by default) it fails: with
        :class:`Unanswered` when it was sent, else with a plain ``TimeoutError`` of
        redis-py's (then it never reaches Redis). ``asking``: a cluster's slot is on its
        way here, and the command goes right after an ``ASKING``."""
        packed = pack(command)  # a bad argument fails here, alone
        if asking:
            packed = _ASKING + packed
        if self._task is None or self._task.done():
            raise ConnectionError("the Redis pipe is not running")
        loop = asyncio.get_running_loop()
        reply: asyncio.Future[Reply] = loop.create_future()
        now = loop.time()
        if not self._waiting:
            self._first_at = now
        deadline = now + (self.timeout if timeout is None else timeout)
        queued = Queued(packed, reply, deadline, 2 if asking else 1)
        self._waiting.append(queued)
        self._wake.set()
        try:
            # Given up (or cancelled), the reply is cancelled with it: the writer then
            # skips the command, or drops its reply.
            async with asyncio.timeout_at(queued.deadline):
                return await reply
        except TimeoutError:
            if queued.sent:
                raise Unanswered(f"Redis did not answer {_name(command)} in time") from None
            raise RedisTimeout(f"Redis was not reached for {_name(command)} in time") from None

    async def publish(self, channel: str, message: str) -> Reply:
        """To a node's channel: how many listen to it."""
        return await self.execute("PUBLISH", channel, message)

    async def script(
        self,
        source: str,
        keys: list[str],
        args: list[Any],
        *,
        timeout: float | None = None,
        asking: bool = False,
    ) -> Reply:
        """Run a Lua script by its digest, loading it first where Redis lacks it (after
        a restart of Redis, say)."""
        digest = _digest(source)
        command = ("EVALSHA", digest, len(keys), *keys, *args)
        try:
            return await self.execute(*command, timeout=timeout, asking=asking)
        except NoScriptError:
            await self.execute("SCRIPT", "LOAD", source, timeout=timeout)
            return await self.execute(*command, timeout=timeout, asking=asking)

    async def _run(self) -> None:
        while True:
            await self._wake.wait()
            if self.window:
                # From the first command's arrival: one queued during the last write
                # has waited for its replies already.
                left = self._first_at + self.window - asyncio.get_running_loop().time()
                if left > 0:
                    await asyncio.sleep(left)
            self._wake.clear()
            # A command whose caller has given up (its deadline passed in the queue)
            # is not sent at all.
            batch = [q for q in self._waiting if not q.reply.done()]
            self._waiting = []
            if not batch:
                continue
            try:
                await self._write(batch)
            except asyncio.CancelledError:
                raise
            except Exception as error:  # never leave callers waiting on a dead task
                log.exception("a write to Redis failed")
                await self._drop()
                self._fail(batch, error)

    async def _write(self, batch: list[Queued]) -> None:
        sent = False
        try:
            # The write's deadline is its first command's: none of them waits longer.
            async with asyncio.timeout_at(min(q.deadline for q in batch)):
                connection, replies = await self._connect()
                parts = [q.packed for q in batch]
                expected = sum(q.replies for q in batch)
                wait = self.wait
                if wait is not None and asyncio.get_running_loop().time() < self._wait_paused:
                    wait = None
                if wait is not None:
                    parts.append(pack(("WAIT", *wait)))
                    expected += 1
                for queued in batch:
                    queued.sent = True
                sent = True
                await connection.send_packed_command(b"".join(parts), check_health=False)
                self.writes += 1
                self.commands += len(batch)
                answers: list[Reply] = []
                while len(answers) < expected:  # the next write waits for all of them
                    answers += await replies.some()
            if wait is not None:
                acknowledged = answers.pop()
                if not isinstance(acknowledged, int) or acknowledged < wait[0]:
                    # A replica is down or far behind: every write would wait the whole
                    # timeout for it. The writes go on unreplicated for a while (the
                    # window in which a primary's death loses acknowledged changes).
                    self.unreplicated += 1
                    self._wait_paused = asyncio.get_running_loop().time() + WAIT_PAUSE_SECONDS
                    log.warning("a replica did not confirm a write in %d ms", wait[1])
            if expected - (wait is not None) != len(batch):  # an ASKING's OK goes
                ends = itertools.accumulate(q.replies for q in batch)
                answers = [answers[end - 1] for end in ends]
            for queued, answer in zip(batch, answers, strict=True):
                if queued.reply.done():
                    continue
                if isinstance(answer, ResponseError):  # this command's own error
                    queued.reply.set_exception(answer)
                else:
                    queued.reply.set_result(answer)
        except (RedisError, OSError) as error:  # TimeoutError among them
            await self._drop()  # replies may come late: never on a connection reused
            if sent:
                error = Unanswered(f"no answer from Redis: {error or 'timed out'}")
            self._fail(batch, error)
        except asyncio.CancelledError:
            await self._drop()  # a write cut short leaves replies unread
            self._fail(batch, ConnectionError("the server is stopping"))
            raise

    def reconnect(self) -> None:
        """Connect afresh for the next write (Redis may have restarted meanwhile)."""
        self._reconnect = True

    async def _connect(self) -> tuple[Any, Replies]:
        if self._reconnect:
            self._reconnect = False
            await self._drop()
        if self._connection is None or self._replies is None:
            # Its own connection, outside the pool's count.
            connection = self._pool.make_connection()  # type: ignore[no-untyped-call]
            if connection.get_protocol() not in (2, "2"):
                # RESP3 may push a message between replies, and replies are matched to
                # commands by their order.
                raise ConnectionError("the Redis pipe needs a RESP2 connection (protocol=2)")
            await connection.connect()
            self._connection, self._replies = connection, Replies(connection)
        return self._connection, self._replies

    async def _drop(self) -> None:
        self._replies = None
        if self._connection is not None:
            connection, self._connection = self._connection, None
            with contextlib.suppress(Exception):
                await connection.disconnect()

    @staticmethod
    def _fail(batch: list[Queued], error: BaseException) -> None:
        for queued in batch:
            if not queued.reply.done():
                queued.reply.set_exception(
                    error if isinstance(error, RedisError | OSError) else ConnectionError(error)
                )


def pack(command: tuple[Any, ...]) -> bytes:
    """One command in Redis's protocol, packed by hiredis: about 5 µs for a commit's
    thirty arguments, against 22 µs for a packer in Python (a commit has a score of
    arguments, and packing them was an eighth of a roll's CPU on a node).

    Arguments are what redis-py's encoder takes: bytes, text, a number; anything else (a
    bool, None, an object) is a mistake, refused as redis-py refuses it.
    """
    try:
        packed: bytes = hiredis.pack_command(command)
    except TypeError:
        bad = next(
            (
                a
                for a in command
                if isinstance(a, bool) or not isinstance(a, bytes | str | int | float)
            ),
            None,
        )
        raise DataError(
            f"a {type(bad).__name__} is not a Redis argument: bytes, str, int or float"
        ) from None
    return packed


_ASKING = pack(("ASKING",))


def _name(command: tuple[Any, ...]) -> str:
    return str(command[0]) if command and isinstance(command[0], str | bytes) else "a command"


@functools.cache
def _digest(source: str) -> str:
    """A script's SHA1, worked out once (a commit script's 3 KB took about 1% of a node's
    CPU, hashed again on every roll)."""
    return hashlib.sha1(source.encode(), usedforsecurity=False).hexdigest()
