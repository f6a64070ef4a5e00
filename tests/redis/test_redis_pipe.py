"""The hot path's pipe to Redis: commands that coincide (or come within its window)
share one write; errors stay with their own command; a lost Redis fails what was
waiting, and the pipe comes back."""

from __future__ import annotations

import asyncio
import os
import signal
import time
from pathlib import Path

import pytest
import redis.asyncio as aioredis
from redis.exceptions import DataError, ResponseError
from redis.exceptions import TimeoutError as RedisTimeout

from snakes.server.backends.redis_pipe import Pipe, Unanswered
from tests.redis.private_redis import PrivateRedis
from tests.support.inprocess import run

ECHO = "return ARGV[1] .. KEYS[1]"


def _pipe(
    url: str, window: float = 0.0, timeout: float = 2.0
) -> tuple[Pipe, aioredis.ConnectionPool]:
    pool = aioredis.ConnectionPool.from_url(url, decode_responses=True, protocol=2)
    return Pipe(pool, window, timeout), pool


def test_commands_that_coincide_go_out_in_one_write(tmp_path: Path) -> None:
    async def scenario(url: str) -> None:
        pipe, pool = _pipe(url)
        pipe.start()
        replies = await asyncio.gather(
            *[pipe.execute("INCR", "counter") for _ in range(50)],
            pipe.execute("GET", "counter"),
        )
        assert sorted(replies[:50]) == list(range(1, 51))
        assert replies[50] == "50"  # in the order they were asked
        assert pipe.commands == 51
        assert pipe.writes < 5  # not one write each
        await pipe.stop()
        await pool.aclose()

    with PrivateRedis(tmp_path / "redis") as private:
        run(scenario(private.url))


@pytest.mark.parametrize(("window", "writes"), [(0.0, range(3, 6)), (0.2, range(1, 2))])
def test_with_a_window_commands_a_few_milliseconds_apart_share_a_write(
    tmp_path: Path, window: float, writes: range
) -> None:
    async def scenario(url: str) -> None:
        pipe, pool = _pipe(url, window)
        pipe.start()

        async def later(delay: float) -> str:
            await asyncio.sleep(delay)
            return str(await pipe.execute("ECHO", str(delay)))

        replies = await asyncio.gather(*[later(n * 0.01) for n in range(5)])
        assert replies == [str(n * 0.01) for n in range(5)]
        assert pipe.writes in writes  # (a stalled machine may join two of five)
        await pipe.stop()
        await pool.aclose()

    with PrivateRedis(tmp_path / "redis") as private:
        run(scenario(private.url))


def test_an_error_stays_with_its_own_command(tmp_path: Path) -> None:
    async def scenario(url: str) -> None:
        pipe, pool = _pipe(url)
        pipe.start()
        good, bad, after = await asyncio.gather(
            pipe.execute("SET", "k", "v"),
            pipe.execute("INCR", "k"),  # not a number: this one fails
            pipe.execute("GET", "k"),
            return_exceptions=True,
        )
        assert good is True or good == "OK"
        assert isinstance(bad, ResponseError)
        assert after == "v"
        await pipe.stop()
        await pool.aclose()

    with PrivateRedis(tmp_path / "redis") as private:
        run(scenario(private.url))


def test_a_script_is_loaded_again_after_redis_restarts(tmp_path: Path) -> None:
    private = PrivateRedis(tmp_path / "redis")

    async def scenario() -> None:
        pipe, pool = _pipe(private.url)
        pipe.start()
        assert await pipe.script(ECHO, ["k"], ["a"]) == "ak"
        private.stop()
        with pytest.raises((OSError, aioredis.RedisError)):
            await pipe.execute("PING")  # what waits while Redis is gone fails, typed
        private.start()  # empty: its script cache too
        pipe.reconnect()
        assert await pipe.script(ECHO, ["k"], ["b"]) == "bk"
        await pipe.stop()
        await pool.aclose()

    with private:
        run(scenario())


def test_a_stopped_pipe_refuses_at_once(tmp_path: Path) -> None:
    async def scenario(url: str) -> None:
        pipe, pool = _pipe(url)
        pipe.start()
        await pipe.stop()
        with pytest.raises(ConnectionError):
            await pipe.execute("PING")
        await pool.aclose()

    with PrivateRedis(tmp_path / "redis") as private:
        run(scenario(private.url))


def test_a_stalled_redis_fails_each_command_by_its_deadline_and_no_late_reply_is_misplaced(
    tmp_path: Path,
) -> None:
    """SIGSTOP: what was sent fails as Unanswered within the deadline, and after SIGCONT
    the stalled command's late reply never answers a later command (its connection was
    dropped)."""

    async def scenario(private: PrivateRedis) -> None:
        pipe, pool = _pipe(private.url, timeout=0.5)
        pipe.start()
        assert await pipe.execute("SET", "k", "before") in (True, "OK")
        assert private.process is not None
        os.kill(private.process.pid, signal.SIGSTOP)
        try:
            started = time.monotonic()
            with pytest.raises(Unanswered):
                await pipe.execute("SET", "k", "during")
            assert time.monotonic() - started < 0.9
            started = time.monotonic()
            with pytest.raises(RedisTimeout):  # never sent, or sent and unanswered
                await pipe.execute("GET", "k")
            assert time.monotonic() - started < 0.9
        finally:
            os.kill(private.process.pid, signal.SIGCONT)
        # The stalled SET may land after all; whichever it is, each reply is its own.
        assert await pipe.execute("ECHO", "mine") == "mine"
        assert await pipe.execute("GET", "k") in ("before", "during")
        await pipe.stop()
        await pool.aclose()

    with PrivateRedis(tmp_path / "redis") as private:
        run(scenario(private))


def test_arguments_are_typed_as_redis_py_takes_them(tmp_path: Path) -> None:
    async def scenario(url: str) -> None:
        pipe, pool = _pipe(url)
        pipe.start()
        assert await pipe.execute("ECHO", b"bytes") == "bytes"
        assert await pipe.execute("ECHO", 12) == "12"
        assert await pipe.execute("ECHO", 0.5) == "0.5"
        for bad in (True, None, object(), [1], {"a": 1}):
            with pytest.raises(DataError):
                await pipe.execute("ECHO", bad)
        assert await pipe.execute("ECHO", "still fine") == "still fine"
        await pipe.stop()
        await pool.aclose()

    with PrivateRedis(tmp_path / "redis") as private:
        run(scenario(private.url))


def test_the_pipe_refuses_a_resp3_connection(tmp_path: Path) -> None:
    """Replies are matched to commands by their order: a push between them would shift
    every later reply onto the wrong command."""

    async def scenario(url: str) -> None:
        pool = aioredis.ConnectionPool.from_url(url, decode_responses=True, protocol=3)
        pipe = Pipe(pool)
        pipe.start()
        with pytest.raises(ConnectionError, match="RESP2"):
            await pipe.execute("PING")
        await pipe.stop()
        await pool.aclose()

    with PrivateRedis(tmp_path / "redis") as private:
        run(scenario(private.url))
