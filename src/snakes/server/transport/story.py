"""The story of a finished game (replay and odds after every move), and the app shell.

``GET /api/rooms/{code}/story[?game=N]``: the room's last finished game (or game ``N``)
replayed by the engine, with each seat's exact odds after every action; the browser's
replay and chart draw this and decide nothing. It is worked out by the compute worker
(``compute.py``; the work and its cache are ``server/stories.py``). The app shell's
routes (manifest, service worker, shell list) are included from
:mod:`snakes.server.transport.shell`.
"""

from __future__ import annotations

from typing import Annotated

from fastapi import APIRouter, Query, Request
from fastapi.responses import Response

from snakes.server.codes import normalise_code
from snakes.server.rooms.errors import RecordNotFound
from snakes.server.stories import room_story
from snakes.server.transport import shell
from snakes.server.transport.api import _ERRORS, _looked_up, client_address
from snakes.server.transport.compute import Compute

router = APIRouter()
router.include_router(shell.router)


@router.get("/api/rooms/{code}/story", responses=_ERRORS)
async def get_story(
    code: str,
    request: Request,
    game: Annotated[int, Query(ge=1, le=2**31)] | None = None,
) -> Response:
    """A finished game move by move: positions and each seat's exact odds after each.

    ``kind`` is ``win`` (Classic: ``odds`` are chances to win) or ``place`` (Last One
    Standing: expected places). ``steps[0]`` is the start; ``steps[i]`` follows action
    ``i`` of the record, with the events it caused. ``moments`` are the ladders and
    snakes taken, with the change of their seat's odds; ``key`` marks the few that swung
    the game most.
    """
    room = normalise_code(code)
    compute: Compute = request.app.state.compute

    async def load() -> bytes:
        text = await request.app.state.runtime.record(room, game)
        if text is None:
            raise RecordNotFound("no finished game is recorded for that room")
        told: bytes = await compute.run(client_address(request), room_story, text, room, game)
        return told

    told = await _looked_up(request, load())
    return Response(told, media_type="application/json", headers={"Cache-Control": "no-store"})
