"""The HTTP API: create and join rooms, look one up, download a record, read the rules."""

from __future__ import annotations

import io
from typing import Annotated, Any, Literal

import segno
from fastapi import APIRouter, Request
from fastapi.responses import JSONResponse, Response
from pydantic import BaseModel, ConfigDict, Field, field_validator

from snakes.server.codes import normalise_code
from snakes.server.content import build_content
from snakes.server.manager import RoomManager
from snakes.server.protocol import ProtocolError, RulesIn
from snakes.server.rooms import COLOURS, Kind, Mode, Seat, clean_name, clean_rules

router = APIRouter()

Colour = Literal["red", "blue", "green", "yellow", "purple", "orange"]
assert set(COLOURS) == set(Colour.__args__)  # type: ignore[attr-defined]


class SeatIn(BaseModel):
    model_config = ConfigDict(extra="forbid")
    name: Annotated[str, Field(max_length=80)]
    colour: Colour
    kind: Literal["human", "ai"] = "human"

    @field_validator("name")
    @classmethod
    def _name(cls, value: str) -> str:
        return clean_name(value)


class CreateRoom(BaseModel):
    model_config = ConfigDict(extra="forbid")
    mode: Literal["ai", "pass", "online"]
    seats: Annotated[list[SeatIn], Field(min_length=1, max_length=6)]
    rules: RulesIn = RulesIn()
    shuffle: bool = False
    countdown_seconds: Annotated[int, Field(ge=1, le=600)] | None = None


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
    code: str
    message: str


class ErrorOut(BaseModel):
    error: ErrorBody


_ERRORS: dict[int | str, dict[str, Any]] = {
    400: {"model": ErrorOut},
    404: {"model": ErrorOut},
    409: {"model": ErrorOut},
    422: {"model": ErrorOut},
}


def _manager(request: Request) -> RoomManager:
    manager: RoomManager = request.app.state.manager
    return manager


@router.post("/api/rooms", status_code=201, responses=_ERRORS)
async def create_room(body: CreateRoom, request: Request) -> SeatsHeld:
    """Create a room. Local rooms (ai, pass) start at once; online rooms open a lobby."""
    seats = [Seat(s.name, s.colour, Kind(s.kind)) for s in body.seats]
    room, secret = await _manager(request).create(
        Mode(body.mode),
        seats,
        clean_rules(body.rules.model_dump()),
        shuffle=body.shuffle,
        countdown_seconds=body.countdown_seconds,
    )
    held = [i for i, s in enumerate(room.seats) if s.kind is Kind.HUMAN]
    return SeatsHeld(code=room.code, secret=secret, seats=held)


@router.post("/api/rooms/{code}/join", status_code=201, responses=_ERRORS)
async def join_room(code: str, body: JoinRoom, request: Request) -> SeatsHeld:
    """Take a free seat in an online room's lobby, with a name and a free colour."""
    room, seat, secret = await _manager(request).join(code, body.name, body.colour)
    return SeatsHeld(code=room.code, secret=secret, seats=[seat])


@router.get("/api/rooms/{code}", responses=_ERRORS)
async def get_room(code: str, request: Request) -> dict[str, Any]:
    """A room's public view: seats, rules, state. Never a secret."""
    return await _manager(request).public_view(code)


@router.get("/api/rooms/{code}/record", responses=_ERRORS)
async def get_record(code: str, request: Request, game: int | None = None) -> Response:
    """The record of the room's last finished game (or of game number ``game``)."""
    text = await _manager(request).backend.load_record(normalise_code(code), game)
    if text is None:
        raise ProtocolError("record_not_found", "no finished game is recorded for that room")
    return Response(
        text,
        media_type="application/json",
        headers={
            "Content-Disposition": f'attachment; filename="snakes-{normalise_code(code)}.json"'
        },
    )


@router.get("/api/rooms/{code}/qr.svg", responses=_ERRORS)
async def get_qr(code: str, request: Request) -> Response:
    """A QR code of the room's invite link, for phones."""
    view = await get_room(code, request)
    buffer = io.BytesIO()
    segno.make(view["invite_url"], error="m").save(
        buffer, kind="svg", scale=6, border=2, dark="#14301c", light="#ffffff", xmldecl=False
    )
    return Response(buffer.getvalue(), media_type="image/svg+xml")


@router.get("/api/content")
def get_content() -> dict[str, Any]:
    """How to play and the FAQ, built from the board and rule data the engine uses."""
    return build_content()


@router.get("/healthz")
def health(request: Request) -> dict[str, Any]:
    manager = _manager(request)
    return {"status": "ok", "rooms": len(manager.rooms), **manager.backend.stats()}


_STATUS = {
    "room_not_found": 404,
    "record_not_found": 404,
    "room_full": 409,
    "colour_taken": 409,
    "already_started": 409,
    "unavailable": 503,
    "busy": 503,
}


def protocol_error_response(error: ProtocolError) -> JSONResponse:
    return JSONResponse(
        {"error": {"code": error.code, "message": error.message}},
        status_code=_STATUS.get(error.code, 400),
    )
