"""The WebSocket protocol as JSON Schema, served at ``GET /api/protocol.json``.

Client messages are the pydantic models of :mod:`snakes.server.transport.protocol`, the
very ones that validate what a client sends, so the schema cannot disagree with the
server. Server messages are described by the models below; ``tests/docs`` checks real
messages from a running server against them.
"""

from __future__ import annotations

from typing import Annotated, Any, Literal, get_args

from fastapi import APIRouter
from pydantic import BaseModel, ConfigDict, Field, TypeAdapter

from snakes import __version__
from snakes.server.transport.protocol import ClientMessage

router = APIRouter()
SCHEMA_DIALECT = "https://json-schema.org/draft/2020-12/schema"


class You(BaseModel):
    """What the receiving connection holds: its seats, whether it hosts or only watches."""

    model_config = ConfigDict(extra="forbid")
    seats: list[int]
    host: bool
    spectator: bool


class Event(BaseModel):
    """One thing that happened; the fields depend on ``type`` (PROTOCOL.md, Events)."""

    model_config = ConfigDict(extra="allow")
    type: str


class Welcome(BaseModel):
    """The whole state, after ``hello`` and after every reconnect."""

    model_config = ConfigDict(extra="forbid")
    type: Literal["welcome"]
    you: You
    room: dict[str, Any] = Field(description="the room's view (PROTOCOL.md); never a secret")


class Update(BaseModel):
    """What happened (may be empty) and the state after it."""

    model_config = ConfigDict(extra="forbid")
    type: Literal["update"]
    events: list[Event]
    instant: bool = Field(description='true: shown at once ("Skip to results")')
    room: dict[str, Any]
    you: You


class Presence(BaseModel):
    """A seat connected or went: each seat's ``connected`` and the countdown, nothing else
    (the rest of the room is as the last ``welcome`` or ``update`` showed it)."""

    model_config = ConfigDict(extra="forbid")
    type: Literal["presence"]
    connected: list[bool] = Field(description="each seat's `connected`, by seat index")
    countdown: dict[str, Any] | None = Field(description="the room's `countdown`, as in a view")


class Error(BaseModel):
    """An intent refused; ``ref`` echoes the ``ref`` of the message that caused it."""

    model_config = ConfigDict(extra="forbid")
    type: Literal["error"]
    code: str = Field(description="a stable code (PROTOCOL.md, Error codes)")
    message: str
    ref: str | None


class Pong(BaseModel):
    """The answer to ``ping``."""

    model_config = ConfigDict(extra="forbid")
    type: Literal["pong"]
    t: int | None = None
    """The ``t`` of the ping, echoed."""
    server_ms: int | None = None
    """The server's wall clock when it answered, ms since the epoch."""


ServerMessage = Annotated[Welcome | Update | Presence | Error | Pong, Field(discriminator="type")]


def message_models(union: Any) -> dict[str, type[BaseModel]]:
    """``{type: model}`` for every model of a discriminated union of messages."""
    members = get_args(get_args(union)[0])
    return {get_args(m.model_fields["type"].annotation)[0]: m for m in members}


CLIENT_MODELS = message_models(ClientMessage)
SERVER_MODELS = message_models(ServerMessage)


def protocol_schema() -> dict[str, Any]:
    """Every message's JSON Schema, by direction and type."""
    return {
        "$schema": SCHEMA_DIALECT,
        "title": "Snakes & Ladders WebSocket protocol",
        "version": __version__,
        "endpoint": "/ws",
        "client": TypeAdapter(ClientMessage).json_schema(),
        "server": TypeAdapter(ServerMessage).json_schema(mode="serialization"),
        "client_types": sorted(CLIENT_MODELS),
        "server_types": sorted(SERVER_MODELS),
    }


_SCHEMA = protocol_schema()


@router.get("/api/protocol.json")
async def protocol_json() -> dict[str, Any]:
    """The JSON Schema of every WebSocket message, client to server and server to client."""
    return _SCHEMA
