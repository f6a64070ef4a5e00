"""The hot path's pipe to Redis: commands that coincide (or come within its window)
share one write; errors stay with their own command; a lost Redis fails what was
waiting, and the pipe comes back."""

from __future__ import annotations

import asyncio
from pathlib import Path

import pytest
import redis.asyncio as aioredis
from redis.exceptions import ResponseError

from snakes.server.backends.redis_pipe import Pipe
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
