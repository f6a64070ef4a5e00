"""Test hooks, mounted only with ``--test-hooks``: move the clock, script the dice.

They let tests drive countdowns without sleeping and set up a six or an overshoot on
purpose, against a real server process. A normal server has none of this.
"""

from __future__ import annotations

from collections import deque
from typing import Annotated

from fastapi import APIRouter, Request
from pydantic import BaseModel, Field

from snakes.engine import SecureDice
from snakes.server.backends.redis_backend import SharedManualClock
from snakes.server.clock import ManualClock


class ScriptableDice:
    """Secure dice, unless a test has queued the next values."""

    def __init__(self) -> None:
        self.queued: deque[int] = deque()
        self._secure = SecureDice()

    def roll(self, faces: int) -> int:
        return self.queued.popleft() if self.queued else self._secure.roll(faces)


class Advance(BaseModel):
    seconds: Annotated[float, Field(ge=0, le=10**7)]


class Script(BaseModel):
    values: list[Annotated[int, Field(ge=-10, le=10)]]


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
