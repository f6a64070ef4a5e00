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
"""

from __future__ import annotations

import asyncio
import contextlib
import hashlib
import logging
from typing import Any

import redis.asyncio as aioredis
from redis.exceptions import NoScriptError, RedisError, ResponseError

from snakes.server.backends.redis_wire import Replies

log = logging.getLogger("snakes.redis")

Reply = Any


class Pipe:
    def __init__(self, pool: aioredis.ConnectionPool, window: float = 0.0) -> None:
        self._pool = pool
        self.window = window
        """Seconds a write waits for more commands to go with it."""
        self._waiting: list[tuple[tuple[Any, ...], asyncio.Future[Reply]]] = []
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

    async def execute(self, *command: Any) -> Reply:
        """Send one command with the next write; its reply, or the error Redis gave."""
        if self._task is None or self._task.done():
            raise ConnectionError("the Redis pipe is not running")
        loop = asyncio.get_running_loop()
        reply: asyncio.Future[Reply] = loop.create_future()
        if not self._waiting:
            self._first_at = loop.time()
        self._waiting.append((command, reply))
        self._wake.set()
        return await reply

    async def script(self, source: str, keys: list[str], args: list[Any]) -> Reply:
        """Run a Lua script by its digest, loading it first where Redis lacks it (after
        a restart of Redis, say)."""
        digest = _digest(source)
        try:
            return await self.execute("EVALSHA", digest, len(keys), *keys, *args)
        except NoScriptError:
            await self.execute("SCRIPT", "LOAD", source)
            return await self.execute("EVALSHA", digest, len(keys), *keys, *args)

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
            batch, self._waiting = self._waiting, []
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

    async def _write(self, batch: list[tuple[tuple[Any, ...], asyncio.Future[Reply]]]) -> None:
        try:
            connection, replies = await self._connect()
            packed = b"".join([_resp(command) for command, _ in batch])
            await connection.send_packed_command(packed, check_health=False)
            self.writes += 1
            self.commands += len(batch)
            answers: list[Reply] = []
            while len(answers) < len(batch):  # the next write waits for all of them
                answers += await replies.some()
            for (_, future), answer in zip(batch, answers, strict=True):
                if future.done():
                    continue
                if isinstance(answer, ResponseError):  # this command's own error
                    future.set_exception(answer)
                else:
                    future.set_result(answer)
        except (RedisError, OSError) as error:
            await self._drop()
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
    def _fail(
        batch: list[tuple[tuple[Any, ...], asyncio.Future[Reply]]], error: BaseException
    ) -> None:
        for _, reply in batch:
            if not reply.done():
                reply.set_exception(
                    error if isinstance(error, RedisError | OSError) else ConnectionError(error)
                )


def _resp(command: tuple[Any, ...]) -> bytes:
    """One command in Redis's protocol. Here, not redis-py's packer: a commit has a score
    of arguments, and packing them was an eighth of a roll's CPU on a node."""
    parts = [b"*%d\r\n" % len(command)]
    for argument in command:
        data = argument if isinstance(argument, bytes) else str(argument).encode()
        parts.append(b"$%d\r\n%b\r\n" % (len(data), data))
    return b"".join(parts)


def _digest(source: str) -> str:
    return hashlib.sha1(source.encode(), usedforsecurity=False).hexdigest()
