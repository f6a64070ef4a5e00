"""Test hooks, mounted only with ``--test-hooks``: move the clock, script the dice,
make the store's writes fail.

They let tests drive countdowns without sleeping, set up a six or an overshoot on
purpose, and run the server while its store fails now and then, against a real server
process. A normal server never imports this module.
"""

from __future__ import annotations

import asyncio
import sqlite3
from collections import deque
from typing import Annotated, Any, Literal

import redis.asyncio as aioredis
from fastapi import APIRouter, HTTPException, Request
from pydantic import BaseModel, Field

from snakes.server.backends.sqlite import SQLiteLog
from snakes.server.clock import Clock, ManualClock
from snakes.server.rooms.model import Room
from snakes.server.rooms.work import RoomDice
from snakes.server.settings import Settings

POLL_SECONDS = 0.05


class ScriptableDice:
    """The server's own dice, unless a test has queued the next values."""

    def __init__(self, inner: RoomDice) -> None:
        self.queued: deque[int] = deque()
        self._inner = inner

    def next_roll(self, room: Room, faces: int) -> int:
        return self.queued.popleft() if self.queued else self._inner.next_roll(room, faces)


class SharedManualClock:
    """One hand-moved clock for every node, kept in Redis.

    Each node reads the shared offset whenever it waits (its timer loop waits between
    looks for due timers), so moving the clock through any node lets countdowns fire on
    whichever node claims them.
    """

    START = 1_000.0

    def __init__(self, url: str, key: str) -> None:
        self.offset = 0.0
        self.key = key
        self._redis = aioredis.Redis.from_url(url, decode_responses=True)

    def now(self) -> float:
        return self.START + self.offset

    async def wait(self, delay: float | None, wake: asyncio.Event) -> None:
        await asyncio.sleep(POLL_SECONDS)
        await self.refresh()

    async def refresh(self) -> None:
        self.offset = float(await self._redis.get(self.key) or 0)

    async def advance(self, seconds: float) -> None:
        await self._redis.incrbyfloat(self.key, seconds)
        await self.refresh()


def hand_moved_clock(settings: Settings) -> Clock:
    if settings.redis_url:
        return SharedManualClock(settings.redis_url, f"{settings.redis_prefix}test-clock")
    return ManualClock()


class Advance(BaseModel):
    seconds: Annotated[float, Field(ge=0, le=10**7)]


class Script(BaseModel):
    values: list[Annotated[int, Field(ge=-10, le=10)]]


class StoreFaults(BaseModel):
    fail: Literal["none", "writes", "commits"]
    """``writes``: every INSERT, UPDATE and DELETE is refused; ``commits``: the statements
    run but every COMMIT is refused, so each transaction is rolled back at its end."""


_WRITES = frozenset({sqlite3.SQLITE_INSERT, sqlite3.SQLITE_UPDATE, sqlite3.SQLITE_DELETE})


def fail_store(db: sqlite3.Connection, fail: str) -> None:
    """Make the SQLite connection's writes fail, as a full disk or an I/O error would.

    SQLite itself refuses them (an authorizer denies the statement: ``not authorized``,
    a ``sqlite3.DatabaseError``), so the server meets the fault in the store's own code
    path and nothing above it is touched. Setting an authorizer expires every prepared
    statement, so cached ones are checked too. Reads always work.
    """
    if fail == "none":
        db.set_authorizer(None)
        return

    def authorize(action: int, arg1: str | None, *_: Any) -> int:
        if fail == "writes" and action in _WRITES:
            return sqlite3.SQLITE_DENY
        if fail == "commits" and action == sqlite3.SQLITE_TRANSACTION and arg1 == "COMMIT":
            return sqlite3.SQLITE_DENY
        return sqlite3.SQLITE_OK

    db.set_authorizer(authorize)


router = APIRouter(prefix="/_test", include_in_schema=False)


@router.post("/clock")
async def advance_clock(body: Advance, request: Request) -> dict[str, float]:
    clock: ManualClock | SharedManualClock = request.app.state.clock
    if isinstance(clock, SharedManualClock):
        await clock.advance(body.seconds)
    else:
        clock.advance(body.seconds)
    return {"now": clock.now()}


@router.post("/dice")
def script_dice(body: Script, request: Request) -> dict[str, int]:
    dice: ScriptableDice = request.app.state.dice
    dice.queued.extend(body.values)
    return {"queued": len(dice.queued)}


@router.post("/store")
async def store_faults(body: StoreFaults, request: Request) -> dict[str, str]:
    """Writes of the SQLite store fail from now on (or work again: ``none``).

    An async route: it runs on the event loop, between the store's statements."""
    room_log = request.app.state.runtime.backend.log
    if not isinstance(room_log, SQLiteLog):
        raise HTTPException(409, "store faults need the SQLite store")
    fail_store(room_log._db, body.fail)  # the connection every write goes through
    return {"fail": body.fail}
