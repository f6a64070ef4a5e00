"""The Redis timer poller of one node: it sleeps until the earliest due timer (at most
POLL_MAX_SECONDS), a commit of this node that sets an earlier one wakes it, and a due
timer is claimed and fired. On a hand-moved clock: nothing here waits on real time
but Redis's answers."""

from __future__ import annotations

import asyncio

import pytest

from snakes.server.backends.redis_backend import RedisBackend
from snakes.server.backends.redis_timers import POLL_MAX_SECONDS
from snakes.server.clock import ManualClock
from snakes.server.rooms.work import Work
from snakes.server.runtime.hub import Hub
from tests.support.inprocess import run

pytestmark = pytest.mark.usefixtures("redis_url")


async def _polled(backend: RedisBackend, when: float) -> None:
    """Wait (real time, Redis is real) until the poller plans its next look at ``when``."""
    for _ in range(500):
        if backend.timers._next_poll == pytest.approx(when):
            return
        await asyncio.sleep(0.01)
    raise AssertionError(f"the poller plans {backend.timers._next_poll}, not {when}")


def test_the_poller_sleeps_until_the_next_due_timer_and_a_commit_here_wakes_it(
    redis_url: str, prefix: str
) -> None:
    async def scenario() -> None:
        clock = ManualClock()
        backend = RedisBackend(redis_url, Hub(), prefix=prefix, clock=clock)
        fired: list[tuple[str, str, float]] = []

        async def fire(code: str, name: str, due: float) -> None:
            fired.append((code, name, due))

        await backend.start(lambda: None, lambda rooms: None)
        poller = asyncio.create_task(backend.timers.run(fire))
        try:
            now = clock.now()
            await _polled(backend, now + POLL_MAX_SECONDS)  # nothing set: a second
            # This node commits a countdown due sooner: it looks again at that time.
            due = now + 0.2
            await backend.redis.zadd(backend.keys.timers("ROOM01"), {"ROOM01|turn": due})
            backend.timers.noted("ROOM01", Work(timers={"turn": due}))
            await _polled(backend, due)
            assert fired == []
            clock.advance(0.2)
            for _ in range(500):
                if fired:
                    break
                await asyncio.sleep(0.01)
            assert fired == [("ROOM01", "turn", due)]
        finally:
            poller.cancel()
            await backend.stop()

    run(scenario())
