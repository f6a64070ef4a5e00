"""The story of a finished game (replay and odds after every move), and the app shell.

``GET /api/rooms/{code}/story[?game=N]``: the room's last finished game (or game ``N``)
replayed by the engine, with each seat's exact odds after every action; the browser's
replay and chart draw this and decide nothing. The app shell's routes (manifest, service
worker, shell list) are included from :mod:`snakes.server.transport.shell`.
"""

from __future__ import annotations

import asyncio
import functools
from typing import Annotated, Any

from fastapi import APIRouter, Query, Request
from fastapi.responses import JSONResponse

from snakes.analysis import UnfinishableBoard
from snakes.analysis.story import game_story
from snakes.engine import RecordError
from snakes.engine.record import GameRecord
from snakes.server.codes import normalise_code
from snakes.server.transport import shell
from snakes.server.transport.api import _ERRORS, _looked_up
from snakes.server.transport.protocol import ProtocolError

router = APIRouter()
router.include_router(shell.router)

STORY_DIGITS = 4
"""Odds travel rounded: 4 decimals (a chance to 0.01%, an expected place to 1/10000)."""


@functools.lru_cache(maxsize=16)
def story_data(record_text: str) -> dict[str, Any]:
    """The story of one record, as JSON. A finished game's record never changes: cached."""
    story = game_story(GameRecord.from_json(record_text)).to_data()
    for step in story["steps"]:
        step["odds"] = [round(value, STORY_DIGITS) for value in step["odds"]]
    for moment in story["moments"]:
        moment["swing"] = round(moment["swing"], STORY_DIGITS)
    return story


@router.get("/api/rooms/{code}/story", responses=_ERRORS)
async def get_story(
    code: str,
    request: Request,
    game: Annotated[int, Query(ge=1, le=2**31)] | None = None,
) -> JSONResponse:
    """A finished game move by move: positions and each seat's exact odds after each.

    ``kind`` is ``win`` (Classic: ``odds`` are chances to win) or ``place`` (Last One
    Standing: expected places). ``steps[0]`` is the start; ``steps[i]`` follows action
    ``i`` of the record, with the events it caused. ``moments`` are the ladders and
    snakes taken, with the change of their seat's odds; ``key`` marks the few that swung
    the game most.
    """
    room = normalise_code(code)

    async def load() -> dict[str, Any]:
        text = await request.app.state.runtime.record(room, game)
        if text is None:
            raise ProtocolError("record_not_found", "no finished game is recorded for that room")
        try:
            data: dict[str, Any] = await asyncio.to_thread(story_data, text)
        except (RecordError, UnfinishableBoard) as error:
            raise ProtocolError("bad_record", f"the record does not replay: {error}") from None
        return {"code": room, "game": game, **data}

    return JSONResponse(await _looked_up(request, load()), headers={"Cache-Control": "no-store"})
