"""The story and the live odds of a game played at someone's own table.

Play with AI and Pass & Play run in the page (``js/local-room.js``): the server never
sees their rolls. The odds and the story need the engine's Markov chains, so the page
sends the game's record when it wants them, and the server replays it through the
engine before it works anything out (a record that does not replay is refused with
``bad_record``): the server vouches for the arithmetic, never for the dice.

``POST /api/records/story``: the same story as ``GET /api/rooms/{code}/story``.
``POST /api/records/odds``: each seat's odds in the record's last state, as
``room.odds`` in a room view (null once the game is over).

Both are worked out by the compute worker, within the address's budget
(``compute.py``; the work itself is ``server/stories.py``); a board whose analysis would
not fit the analysis budget is refused with ``board_too_slow`` (422) before any chain
is built (``snakes.analysis.markov.check_budget``).
"""

from __future__ import annotations

from collections.abc import Callable
from typing import Any, TypeVar

from fastapi import APIRouter, Request
from fastapi.responses import JSONResponse, Response
from pydantic import TypeAdapter

from snakes.server import jsontext
from snakes.server.stories import posted_odds, posted_story
from snakes.server.transport.api import _ERRORS, client_address
from snakes.server.transport.compute import Compute
from snakes.server.transport.http_errors import NOT_JSON, UNREADABLE, MalformedBody

router = APIRouter()
T = TypeVar("T")

RECORD_BODY: dict[str, Any] = {
    "requestBody": {
        "required": True,
        "description": "A game record, as `snakes replay --record` reads one",
        "content": {
            "application/json": {
                "schema": {"title": "Record", **TypeAdapter(dict[str, Any]).json_schema()}
            }
        },
    }
}
"""The body the two routes take, for the OpenAPI schema: they read it themselves, once
the address's budget let the request in (FastAPI would read and parse it first)."""


def _check_object(kind: str, body: bytes) -> None:
    """Refuse a body that is no JSON object, as FastAPI refuses other routes' bodies.
    Read only once the address's budget let the request in, so that a refused flood
    costs no parsing; the worker parses it again (orjson: a fifth of a millisecond for
    64 KB)."""
    if kind and not (kind.startswith("application/") and kind.endswith("json")):
        raise MalformedBody(NOT_JSON)
    try:
        data = jsontext.loads(body)
    except jsontext.DecodeError as error:
        message = str(error)
        if "recursion" in message or "64-bit" in message:
            raise MalformedBody(UNREADABLE) from None
        raise MalformedBody(f"body: not JSON ({message})") from None
    if not isinstance(data, dict):
        raise MalformedBody("body: a JSON object")


async def _computed(request: Request, work: Callable[[bytes], T]) -> T:
    compute: Compute = request.app.state.compute
    ticket = compute.admit(client_address(request))
    try:
        body = await request.body()
        kind = request.headers.get("content-type", "").split(";")[0].strip().lower()
        _check_object(kind, body)
    except BaseException:
        ticket.give_back()
        raise
    return await ticket.run(work, body)


@router.post("/api/records/story", responses=_ERRORS, openapi_extra=RECORD_BODY)
async def post_story(request: Request) -> Response:
    """A game move by move, from its record: positions and each seat's odds after each."""
    told = await _computed(request, posted_story)
    return Response(told, media_type="application/json", headers={"Cache-Control": "no-store"})


@router.post("/api/records/odds", responses=_ERRORS, openapi_extra=RECORD_BODY)
async def post_odds(request: Request) -> JSONResponse:
    """Each seat's chance to win (Classic) or expected place (Last One Standing) now."""
    odds = await _computed(request, posted_odds)
    return JSONResponse({"odds": odds}, headers={"Cache-Control": "no-store"})
