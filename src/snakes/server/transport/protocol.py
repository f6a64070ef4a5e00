"""Messages in and out, validated by type. Every refusal has a stable error code."""

from __future__ import annotations

from typing import Annotated, Any, Literal

from pydantic import BaseModel, ConfigDict, Field, TypeAdapter, ValidationError

from snakes.server.rooms.errors import ProtocolError
from snakes.server.rooms.reactions import Reaction

__all__ = ["ProtocolError", "parse_client_message", "error_message"]

MAX_MESSAGE_BYTES = 4096
"""A client message larger than this closes the connection (1009)."""


class _Message(BaseModel):
    model_config = ConfigDict(extra="forbid", strict=True, frozen=True)
    ref: Annotated[str, Field(max_length=64)] | None = None


class RulesIn(BaseModel):
    model_config = ConfigDict(extra="forbid", strict=True, frozen=True)
    finish: Literal["classic", "last-one-standing"] = "classic"
    exact_finish: bool = True
    six_again: bool = True


class Hello(_Message):
    type: Literal["hello"]
    room: Annotated[str, Field(min_length=1, max_length=16)]
    secret: Annotated[str, Field(max_length=128)] | None = None
    odds: bool = False
    """This device shows the live odds: the server works them out while it is here."""


SeatIndex = Annotated[int, Field(ge=0, le=5)]
Change = Annotated[int, Field(ge=0, le=2**31)]
"""The room's ``change`` its sender last saw (``room.change`` in a welcome or update).

An intent that changes the room names it, and is refused as ``stale_version`` unless it
is the room's: a stale or repeated one is never applied, so it never means another seat
and never happens twice."""


class RollIntent(_Message):
    type: Literal["roll"]
    seat: SeatIndex
    version: Annotated[int, Field(ge=0, le=2**31)]


class LeaveIntent(_Message):
    type: Literal["leave"]
    change: Change
    seat: SeatIndex


class StartIntent(_Message):
    type: Literal["start"]
    change: Change
    shuffle: bool = False


class RulesIntent(_Message):
    type: Literal["rules"]
    change: Change
    rules: RulesIn
    countdown_seconds: Annotated[int, Field(ge=1, le=600)] | None = None
    board: Annotated[str, Field(min_length=1, max_length=40)] | None = None


class SeedIntent(_Message):
    type: Literal["seed"]
    seed: Annotated[str, Field(max_length=128)]
    commitment: Annotated[str, Field(min_length=64, max_length=64)]
    """The commitment (``room.fair.commitment``) the seed is for: one per device and game."""


class AddAiIntent(_Message):
    type: Literal["add_ai"]
    change: Change
    name: Annotated[str, Field(min_length=1, max_length=80)]
    colour: Literal["red", "blue", "green", "yellow", "purple", "orange"]


class RemoveIntent(_Message):
    type: Literal["remove"]
    change: Change
    seat: SeatIndex


class RematchIntent(_Message):
    type: Literal["rematch"]
    change: Change
    start: bool = False
    """The host starts the rematch now, with the players who agreed."""


class FinishAiIntent(_Message):
    type: Literal["finish_ai"]
    change: Change


class ReactIntent(_Message):
    type: Literal["react"]
    seat: SeatIndex
    reaction: Reaction
    """One of the fixed reactions, by id: no free text."""


class ReactionsIntent(_Message):
    type: Literal["reactions"]
    change: Change
    on: bool
    """The host turns reactions on or off for the room."""


class Ping(_Message):
    type: Literal["ping"]
    t: Annotated[int, Field(ge=0, le=2**53)] | None = None
    """The client's own clock (ms); the pong echoes it with the server's, NTP-style."""


ClientMessage = Annotated[
    Hello
    | RollIntent
    | LeaveIntent
    | StartIntent
    | RulesIntent
    | RemoveIntent
    | RematchIntent
    | FinishAiIntent
    | SeedIntent
    | AddAiIntent
    | ReactIntent
    | ReactionsIntent
    | Ping,
    Field(discriminator="type"),
]

_CLIENT_MESSAGE: TypeAdapter[ClientMessage] = TypeAdapter(ClientMessage)
KNOWN_TYPES = frozenset(
    [
        "hello",
        "roll",
        "leave",
        "start",
        "rules",
        "remove",
        "rematch",
        "finish_ai",
        "seed",
        "add_ai",
        "react",
        "reactions",
        "ping",
    ]
)


def parse_client_message(data: Any) -> ClientMessage:
    """Validate one decoded JSON value; raise :class:`ProtocolError` with a clear message."""
    if not isinstance(data, dict):
        raise ProtocolError("bad_message", "a message is a JSON object")
    kind = data.get("type")
    if not isinstance(kind, str) or kind not in KNOWN_TYPES:
        raise ProtocolError("unknown_type", f"unknown message type {str(kind)[:40]!r}")
    try:
        return _CLIENT_MESSAGE.validate_python(data)
    except ValidationError as error:
        first = error.errors()[0]
        where = ".".join(str(p) for p in first["loc"][1:]) or "message"
        raise ProtocolError("bad_message", f"{kind}: {where}: {first['msg']}") from None


def error_message(
    code: str, message: str, ref: str | None = None, retry_after: float | None = None
) -> dict[str, Any]:
    """An ``error``; ``retry_after`` (seconds) when trying again later may succeed."""
    error: dict[str, Any] = {"type": "error", "code": code, "message": message, "ref": ref}
    if retry_after is not None:
        error["retry_after"] = retry_after
    return error
