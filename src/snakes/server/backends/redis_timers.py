"""Room timers in Redis: sorted sets scored by due time, claimed by any node.

Any node may claim a due timer (pushing it a lease ahead, atomically, so that no other
node claims it meanwhile) and route it to the room's owner. On one Redis one sorted set
holds every timer; on a cluster each bucket of rooms has its own, in the rooms' slot
(``redis_keys``), and each is claimed from when its earliest timer is due, or when it was
last looked at ``CLUSTER_SWEEP_SECONDS`` ago (another node may have set one since):
together, in one write a primary.
"""

from __future__ import annotations

import asyncio
import logging
import math
from collections.abc import Callable
from typing import Any

from redis.exceptions import RedisError

from snakes.server.backends.interfaces import FireTimer
from snakes.server.backends.redis_link import RedisLink
from snakes.server.backends.redis_scripts import CLAIM
from snakes.server.clock import Clock
from snakes.server.rooms.work import Work

log = logging.getLogger("snakes.redis")

POLL_SECONDS = 0.05
POLL_MAX_SECONDS = 1.0
"""The longest the timer poller sleeps: how late a timer set by another node that then
died can fire at worst (a living node wakes its own poller for what it sets)."""
LEASE_SECONDS = 5.0
CLUSTER_SWEEP_SECONDS = 3.0
"""On a cluster, how often each bucket's timers are looked at when none is known due
there: what other nodes set, this node learns this late at most. It can wait that long:
a room's owner fires its own timers, and another node fires them only once the owner is
dead, which takes its heartbeat 3 s (``redis_liveness``)."""


class RedisTimers:
    def __init__(self, link: RedisLink, clock: Clock) -> None:
        self.link = link
        self.keys = link.keys
        self.clock = clock
        self._outage: Callable[[], None] = lambda: None
        self._wake = asyncio.Event()
        self._next_poll = -math.inf
        """When the poller next looks (infinity while its claim is on its way)."""
        self._set_while_claiming: dict[str, float] = {}
        """The earliest timer this node set in each sorted set while a claim was out."""
        self._first_due: dict[str, float] = {}
        """The earliest timer each sorted set held when last claimed from."""
        self._claimed_at: dict[str, float] = {}

    def on_outage(self, outage: Callable[[], None]) -> None:
        self._outage = outage

    async def run(self, fire: FireTimer) -> None:
        """Claim and fire due timers, sleeping until the next is due (at most
        ``POLL_MAX_SECONDS``: another node may set one sooner) or until a commit here sets
        one due before that."""
        failures = 0
        every = self.keys.every_timer_set()
        sweep = CLUSTER_SWEEP_SECONDS if self.link.cluster else POLL_MAX_SECONDS
        while True:
            self._wake.clear()
            now = self.clock.now()
            # A timer this node commits while a claim is on its way may be missing from
            # the claim's answer: it is kept here instead.
            self._next_poll, self._set_while_claiming = math.inf, {}
            due_sets = [
                key
                for key in every
                if self._first_due.get(key, -math.inf) <= now
                or now - self._claimed_at.get(key, -math.inf) >= sweep
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
            next_poll = min(first_due, looked_at + sweep)
            delay = min(max(next_poll - now, POLL_SECONDS), POLL_MAX_SECONDS)
            self._next_poll = now + delay
            if self.clock.now() < self._next_poll:  # (a hand-moved clock may be past it)
                await self.clock.wait(self._next_poll - self.clock.now(), self._wake)

    async def _claim(self, key: str, now: float) -> Any:
        return await self.link.pipe.script(CLAIM, [key], [now, now + LEASE_SECONDS])

    def noted(self, code: str, work: Work) -> None:
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
                    self._wake.set()
