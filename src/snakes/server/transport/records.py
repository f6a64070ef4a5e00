"""The story and the live odds of a game played at someone's own table.

Play with AI and Pass & Play run in the page (``js/local-room.js``): the server never
sees their rolls. The odds and the story need the engine's Markov chains, so the page
sends the game's record when it wants them, and the server replays it through the
engine before it works anything out (a record that does not replay is refused with
``bad_record``): the server vouches for the arithmetic, never for the dice.

``POST /api/records/story``: the same story as ``GET /api/rooms/{code}/story``.
``POST /api/records/odds``: each seat's odds in the record's last state, as
``room.odds`` in a room view (null once the game is over).
"""

from __future__ import annotations

import asyncio
import json
from typing import Any

from fastapi import APIRouter, Body
from fastapi.responses import JSONResponse

from snakes.analysis import UnfinishableBoard
from snakes.engine import RecordError
from snakes.engine.record import GameRecord, replay
from snakes.server.rooms.views import _odds as odds_of_state
from snakes.server.transport.api import _ERRORS
from snakes.server.transport.protocol import ProtocolError
from snakes.server.transport.story import story_data

router = APIRouter()

MAX_ACTIONS = 3000
"""The most actions a posted record may have (the request body is capped at --max-body
too): a story replays the chain once per action. A real game rarely has 500."""


def _record(data: Any) -> GameRecord:
    try:
        record = GameRecord.from_data(data)
    except RecordError as error:
        raise ProtocolError("bad_record", str(error)) from None
    if len(record.actions) > MAX_ACTIONS:
        raise ProtocolError("bad_record", f"a record of more than {MAX_ACTIONS} actions")
    return record


def _odds(record: GameRecord) -> dict[str, Any] | None:
    try:
        state = replay(record)
    except RecordError as error:
        raise ProtocolError("bad_record", f"the record does not replay: {error}") from None
    return odds_of_state(state)


@router.post("/api/records/story", responses=_ERRORS)
async def post_story(record: dict[str, Any] = Body()) -> JSONResponse:  # noqa: B008
    """A game move by move, from its record: positions and each seat's odds after each."""
    text = json.dumps(_record(record).to_data())
    try:
        data: dict[str, Any] = await asyncio.to_thread(story_data, text)
    except (RecordError, UnfinishableBoard) as error:
        raise ProtocolError("bad_record", f"the record does not replay: {error}") from None
    return JSONResponse({"code": None, "game": None, **data}, headers={"Cache-Control": "no-store"})


@router.post("/api/records/odds", responses=_ERRORS)
async def post_odds(record: dict[str, Any] = Body()) -> JSONResponse:  # noqa: B008
    """Each seat's chance to win (Classic) or expected place (Last One Standing) now."""
    table = _record(record)
    try:
        odds = await asyncio.to_thread(_odds, table)
    except UnfinishableBoard as error:
        raise ProtocolError("bad_record", str(error)) from None
    return JSONResponse({"odds": odds}, headers={"Cache-Control": "no-store"})
