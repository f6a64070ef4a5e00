"""The WebSocket protocol as JSON Schema, served at ``GET /api/protocol.json`` and
committed as ``docs/protocol.schema.json`` (``make schema`` writes it again; a test fails
while the committed one is out of date).

Client messages are the types a client's message is validated into (the players'
intents of :mod:`snakes.server.rooms.intents`, and ``Hello`` and ``Ping`` of
:mod:`snakes.server.transport.protocol`), read by pydantic, so the schema cannot disagree
with the server. Server messages are described by the models below, their room view and events
by :mod:`snakes.server.transport.view_schema`; the tests check real messages from the
runtime and from a running server against them, and the page's own room (a game at
your own table) against the committed file.

    python -m snakes.server.transport.protocol_schema [FILE]
"""

from __future__ import annotations

import json
import sys
from pathlib import Path
from typing import Annotated, Any, Literal, get_args

from fastapi import APIRouter
from pydantic import BaseModel, ConfigDict, Field, TypeAdapter

from snakes import __version__
from snakes.server.rooms.reactions import Reaction as ReactionId
from snakes.server.transport.protocol import CLIENT_TYPES, message_schema
from snakes.server.transport.view_schema import EVENT_TYPES, CountdownView, Event, RoomView

router = APIRouter()
SCHEMA_DIALECT = "https://json-schema.org/draft/2020-12/schema"


class You(BaseModel):
    """What the receiving connection holds: its seats, whether it hosts or only watches."""

    model_config = ConfigDict(extra="forbid")
    seats: list[int]
    host: bool
    spectator: bool


class Welcome(BaseModel):
    """The whole state, after ``hello`` and after every reconnect."""

    model_config = ConfigDict(extra="forbid")
    type: Literal["welcome"]
    you: You
    room: RoomView


class Update(BaseModel):
    """What happened (may be empty) and the state after it."""

    model_config = ConfigDict(extra="forbid")
    type: Literal["update"]
    events: list[Event]
    instant: bool = Field(description='true: shown at once ("Skip to results")')
    room: RoomView
    you: You


class Presence(BaseModel):
    """A seat connected or went: each seat's ``connected`` and the countdown, nothing else
    (the rest of the room is as the last ``welcome`` or ``update`` showed it)."""

    model_config = ConfigDict(extra="forbid")
    type: Literal["presence"]
    connected: list[bool] = Field(description="each seat's `connected`, by seat index")
    countdown: CountdownView | None = Field(description="the room's `countdown`, as in a view")


class Error(BaseModel):
    """An intent refused; ``ref`` echoes the ``ref`` of the message that caused it."""

    model_config = ConfigDict(extra="forbid")
    type: Literal["error"]
    code: str = Field(description="a stable code (PROTOCOL.md, Error codes)")
    message: str
    ref: str | None
    retry_after: float | None = Field(
        default=None, description="seconds until trying again may succeed (a limit's refusal)"
    )


class Reaction(BaseModel):
    """A seated player's reaction, for everyone in the room: not a game action."""

    model_config = ConfigDict(extra="forbid")
    type: Literal["reaction"]
    seat: int
    reaction: ReactionId = Field(description="one of the fixed reactions, by id")
    you: You


class Pong(BaseModel):
    """The answer to ``ping``."""

    model_config = ConfigDict(extra="forbid")
    type: Literal["pong"]
    t: int | None = None
    """The ``t`` of the ping, echoed."""
    server_ms: int | None = None
    """The server's wall clock when it answered, ms since the epoch."""


ServerMessage = Annotated[
    Welcome | Update | Presence | Error | Reaction | Pong, Field(discriminator="type")
]


def message_models(union: Any) -> dict[str, type[BaseModel]]:
    """``{type: model}`` for every model of a discriminated union of messages."""
    members = get_args(get_args(union)[0])
    return {get_args(m.model_fields["type"].annotation)[0]: m for m in members}


SERVER_MODELS = message_models(ServerMessage)


def client_schema() -> dict[str, Any]:
    """Every client message, one of them by its ``type``."""
    defs: dict[str, Any] = {}
    mapping: dict[str, str] = {}
    for kind in sorted(CLIENT_TYPES):
        schema = message_schema(kind)
        defs.update(schema.pop("$defs", {}))
        defs[schema["title"]] = schema
        mapping[kind] = f"#/$defs/{schema['title']}"
    return {
        "$defs": dict(sorted(defs.items())),
        "discriminator": {"mapping": mapping, "propertyName": "type"},
        "oneOf": [{"$ref": ref} for ref in sorted(set(mapping.values()))],
    }


def protocol_schema() -> dict[str, Any]:
    """Every message's JSON Schema, by direction and type, and the room view's on its own
    (what a page's own room is checked against)."""
    return {
        "$schema": SCHEMA_DIALECT,
        "title": "Snakes & Ladders WebSocket protocol",
        "endpoint": "/ws",
        "client": client_schema(),
        "server": TypeAdapter(ServerMessage).json_schema(mode="serialization"),
        "room": RoomView.model_json_schema(mode="serialization"),
        "client_types": sorted(CLIENT_TYPES),
        "server_types": sorted(SERVER_MODELS),
        "event_types": sorted(EVENT_TYPES),
    }


def schema_text() -> str:
    """The schema as committed (``docs/protocol.schema.json``): sorted, indented."""
    return json.dumps(protocol_schema(), indent=2, sort_keys=True, ensure_ascii=False) + "\n"


_SCHEMA = {**protocol_schema(), "version": __version__}


@router.get("/api/protocol.json")
async def protocol_json() -> dict[str, Any]:
    """The JSON Schema of every WebSocket message, client to server and server to client,
    and of the room view; ``version``: the game's."""
    return _SCHEMA


if __name__ == "__main__":
    text = schema_text()
    if len(sys.argv) > 1:
        Path(sys.argv[1]).write_text(text, encoding="utf-8")
    else:
        sys.stdout.write(text)
