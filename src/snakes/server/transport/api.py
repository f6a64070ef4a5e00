"""The HTTP API: create and join rooms, look one up, download a record, read the rules."""

from __future__ import annotations

import asyncio
import functools
import math
from collections.abc import Awaitable, Mapping
from typing import Annotated, Any, Literal, TypeVar

from fastapi import APIRouter, Query, Request
from fastapi.responses import JSONResponse, PlainTextResponse, Response
from pydantic import BaseModel, BeforeValidator, ConfigDict, Field, field_validator

from snakes.engine import Rules
from snakes.server.boards import board_catalogue, board_named
from snakes.server.codes import normalise_code
from snakes.server.content import build_content
from snakes.server.invite_qr import qr_svg
from snakes.server.languages import DEFAULT as DEFAULT_LANGUAGE
from snakes.server.rooms.errors import ProtocolError, RecordNotFound
from snakes.server.rooms.model import Colour, Kind, Mode, Seat, clean_name
from snakes.server.runtime.runtime import RoomRuntime
from snakes.server.transport.compute import Compute
from snakes.server.transport.limits import MISSES, LookupLimiter, RoomBudget

router = APIRouter()
T = TypeVar("T")


class SeatIn(BaseModel):
    model_config = ConfigDict(extra="forbid")
    name: Annotated[str, Field(max_length=80)]
    colour: Colour
    kind: Literal["human", "ai"] = "human"

    @field_validator("name")
    @classmethod
    def _name(cls, value: str) -> str:
        return clean_name(value)


def rules_from_json(data: Any) -> Rules:
    """The engine's rules, from a body's ``rules``: each flag true or false, nothing else."""
    return data if isinstance(data, Rules) else Rules.from_data(data)


class CreateRoom(BaseModel):
    model_config = ConfigDict(extra="forbid")
    mode: Literal["ai", "pass", "online"]
    seats: Annotated[list[SeatIn], Field(min_length=1, max_length=6)]
    rules: Annotated[Rules, BeforeValidator(rules_from_json)] = Rules()
    shuffle: bool = False
    countdown_seconds: Annotated[int, Field(ge=1, le=600)] | None = None
    board: Annotated[str, Field(min_length=1, max_length=40)] = "jungle"


class JoinRoom(BaseModel):
    model_config = ConfigDict(extra="forbid")
    name: Annotated[str, Field(max_length=80)]
    colour: Colour

    @field_validator("name")
    @classmethod
    def _name(cls, value: str) -> str:
        return clean_name(value)


class SeatsHeld(BaseModel):
    code: str
    secret: str
    seats: list[int]


class ErrorBody(BaseModel):
    code: Annotated[
        str,
        Field(
            description="What went wrong, for programs: a code from docs/PROTOCOL.md's table",
            examples=["room_not_found", "bad_request", "name_taken", "rate_limited"],
        ),
    ]
    message: Annotated[
        str, Field(description="What went wrong, for people", examples=["no room has that code"])
    ]


class ErrorOut(BaseModel):
    """Every refusal of the API, whatever its status: never a trace, never another shape."""

    error: ErrorBody


_ERRORS: dict[int | str, dict[str, Any]] = {
    400: {"model": ErrorOut},
    404: {"model": ErrorOut},
    409: {"model": ErrorOut},
    422: {"model": ErrorOut},
    429: {"model": ErrorOut},
}


def _runtime(request: Request) -> RoomRuntime:
    runtime: RoomRuntime = request.app.state.runtime
    return runtime


def client_address(request: Request) -> str:
    """The peer's address; behind a trusted proxy, the one it forwarded."""
    return request.client.host if request.client else ""


async def _looked_up(request: Request, work: Awaitable[T]) -> T:
    """Run a lookup by room code, counting misses against the client's address."""
    lookups: LookupLimiter = request.app.state.lookups
    address = client_address(request)
    try:
        lookups.check(address)
    except ProtocolError:
        if asyncio.iscoroutine(work):
            work.close()  # never started: no "never awaited" warning
        raise
    try:
        return await work
    except ProtocolError as error:
        if isinstance(error, MISSES):
            lookups.miss(address)
        raise


@router.post("/api/rooms", status_code=201, responses=_ERRORS)
async def create_room(body: CreateRoom, request: Request) -> SeatsHeld:
    """Create a room. Local rooms (ai, pass) start at once; online rooms open a lobby.

    Rooms are budgeted per client address and overall (``--room-limit``...): over the
    budget the answer is 429 ``rate_limited`` with ``Retry-After``.
    """
    budget: RoomBudget = request.app.state.rooms_budget
    budget.spend(client_address(request), _runtime(request).room_count)
    seats = [Seat(s.name, s.colour, Kind(s.kind)) for s in body.seats]
    created = await _runtime(request).create(
        Mode(body.mode),
        seats,
        body.rules,
        shuffle=body.shuffle,
        countdown_seconds=body.countdown_seconds,
        board=board_named(body.board),
    )
    return SeatsHeld(code=created.code, secret=created.secret, seats=created.seats)


@router.post("/api/rooms/{code}/join", status_code=201, responses=_ERRORS)
async def join_room(code: str, body: JoinRoom, request: Request) -> SeatsHeld:
    """Take a free seat in an online room's lobby, with a name and a free colour."""
    room_code, seat, secret = await _looked_up(
        request, _runtime(request).join(code, body.name, body.colour)
    )
    return SeatsHeld(code=room_code, secret=secret, seats=[seat])


@router.get("/api/rooms/{code}", responses=_ERRORS)
async def get_room(code: str, request: Request) -> dict[str, Any]:
    """A room's public view: seats, rules, state. Never a secret."""
    return await _looked_up(request, _runtime(request).view(code))


@router.get("/api/rooms/{code}/record", responses=_ERRORS)
async def get_record(
    code: str,
    request: Request,
    # Bounded: the store keeps 64-bit integers (a huge number was a 500, found by
    # schemathesis).
    game: Annotated[int, Query(ge=1, le=2**31)] | None = None,
) -> Response:
    """The record of the room's last finished game (or of game number ``game``)."""

    async def load() -> str:
        text = await _runtime(request).record(code, game)
        if text is None:
            raise RecordNotFound("no finished game is recorded for that room")
        return text

    text = await _looked_up(request, load())
    return Response(
        text,
        media_type="application/json",
        headers={
            "Content-Disposition": f'attachment; filename="snakes-{normalise_code(code)}.json"'
        },
    )


@router.get(
    "/api/rooms/{code}/qr.svg",
    response_class=Response,
    responses={
        **_ERRORS,
        200: {
            "description": "The QR code, an SVG image",
            "content": {"image/svg+xml": {}},
        },
    },
)
async def get_qr(code: str, request: Request) -> Response:
    """A QR code of the room's invite link, for phones."""
    view = await get_room(code, request)
    compute: Compute = request.app.state.compute
    image: bytes = await compute.run(client_address(request), qr_svg, view["invite_url"])
    return Response(image, media_type="image/svg+xml")


@router.get("/api/content", responses=_ERRORS)
def get_content(board: str = "jungle", lang: str = DEFAULT_LANGUAGE) -> dict[str, Any]:
    """How to play and the FAQ, built from the board and rule data the engine uses, in the
    words of the language ``lang`` (one of /api/config's languages)."""
    return _content(board, lang)


@functools.lru_cache(maxsize=64)
def _content(board: str, lang: str) -> dict[str, Any]:
    # Only shipped boards and shipped languages get here (anything else is refused, and a
    # refusal is not kept): at most 5 x 5 pages of about 7 KB. Shared: never change it.
    return build_content(board_named(board), lang)


@router.get("/api/boards")
def get_boards() -> list[dict[str, Any]]:
    """The boards a game can be played on, with how long a game on each usually takes."""
    return board_catalogue()


@router.get("/healthz")
async def health(request: Request) -> dict[str, Any]:
    """Alive: the process answers. Counts of what it holds, for a quick look."""
    runtime = _runtime(request)
    node = {} if runtime.node is None else {"node": runtime.node}
    return {"status": "ok", **runtime.stats(), **node}


@router.get("/readyz", responses={503: {"model": dict[str, str]}})
async def ready(request: Request) -> JSONResponse:
    """Ready for players: the store (SQLite or Redis) answers. 503 otherwise."""
    runtime: RoomRuntime | None = getattr(request.app.state, "runtime", None)
    try:
        ok = runtime is not None and await asyncio.wait_for(runtime.ready(), 2.0)
    except Exception:
        ok = False
    if ok:
        return JSONResponse({"status": "ready"})
    return JSONResponse({"status": "unavailable"}, status_code=503)


@router.get("/metrics", response_class=PlainTextResponse)
async def metrics(request: Request) -> Response:
    """Prometheus metrics: rooms, connections, rolls, intent latency, errors by code."""
    from snakes.server.metrics import CONTENT_TYPE  # noqa: PLC0415

    return Response(request.app.state.metrics.render(), media_type=CONTENT_TYPE)


_STATUS = {
    "room_not_found": 404,
    "record_not_found": 404,
    "rate_limited": 429,
    "room_full": 409,
    "colour_taken": 409,
    "name_taken": 409,
    "already_started": 409,
    "unavailable": 503,
    "outcome_unknown": 503,
    "busy": 503,
    "board_too_slow": 422,
    "unfinishable_board": 422,
    "internal": 500,
    # The web framework's own refusals, typed by transport/http_errors.py.
    "not_found": 404,
    "method_not_allowed": 405,
    # Answered by the body limit before a request reaches a route; listed here so that
    # every HTTP status of the API has one home.
    "too_large": 413,
    "too_slow": 408,
}


def protocol_error_response(
    error: ProtocolError, headers: Mapping[str, str] | None = None
) -> JSONResponse:
    status = _STATUS.get(error.code, 400)
    if status == 429 or error.retry_after is not None:
        retry = math.ceil(error.retry_after) if error.retry_after is not None else 60
        headers = {**(headers or {}), "Retry-After": str(retry)}
    return JSONResponse(
        {"error": {"code": error.code, "message": error.message}},
        status_code=status,
        headers=headers,
    )
