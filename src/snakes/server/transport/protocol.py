"""What a client may send, validated by type: every message is one typed value, and
every refusal a typed error with a stable code.

A player's intent is its own message type: ``{"type": "roll", "seat": 0, "version": 3}``
is validated straight into :class:`~snakes.server.rooms.intents.Roll`, field by field,
by pydantic reading the dataclass itself, with no second definition of the message and
no mapping by hand. The two messages that are not intents, :class:`Hello` and
:class:`Ping`, are defined here the same way. Every message may carry a ``ref`` (at most
64 characters), echoed by the answer it gets.
"""

from __future__ import annotations

from dataclasses import dataclass
from typing import Annotated, Any, ClassVar, Literal

from annotated_types import Ge, Le, MaxLen, MinLen
from pydantic import TypeAdapter, ValidationError

from snakes.server import jsontext
from snakes.server.rooms.errors import BadMessage, UnknownType
from snakes.server.rooms.intents import PLAYERS_INTENTS, WIRE, Intent

MAX_MESSAGE_BYTES = 4096
"""A client message larger than this closes the connection (1009)."""

REF_MAX = 64
Ref = Annotated[str, MaxLen(REF_MAX)] | None
"""A message's own id, echoed by the answer it gets."""


@dataclass(frozen=True)
class Hello:
    """The first message on a connection: the room it is for, and the seats its secret
    holds (none: it watches)."""

    __pydantic_config__: ClassVar[dict[str, Any]] = WIRE
    kind: ClassVar[str] = "hello"
    room: Annotated[str, MinLen(1), MaxLen(16)]
    secret: Annotated[str, MaxLen(128)] | None = None
    odds: bool = False
    """This device shows the live odds: the server works them out while it is here."""


@dataclass(frozen=True)
class Ping:
    __pydantic_config__: ClassVar[dict[str, Any]] = WIRE
    kind: ClassVar[str] = "ping"
    t: Annotated[int, Ge(0), Le(2**53)] | None = None
    """The client's own clock (ms); the pong echoes it with the server's, NTP-style."""


ClientMessage = Hello | Ping | Intent
"""What a client's message becomes: a hello, a ping, or one of the players' intents."""

CLIENT_TYPES: dict[str, type[Any]] = {cls.kind: cls for cls in (Hello, Ping, *PLAYERS_INTENTS)}
"""Every message type a client may send, by its ``type``."""

_READERS: dict[str, TypeAdapter[Any]] = {
    kind: TypeAdapter(cls) for kind, cls in CLIENT_TYPES.items()
}


def parse_client_message(data: Any) -> ClientMessage:
    """Validate one decoded JSON value into its type; raise a typed refusal
    (:class:`BadMessage`, :class:`UnknownType`) with a clear message otherwise.

    >>> parse_client_message({"type": "roll", "seat": 1, "version": 4, "ref": "r1"})
    Roll(seat=1, version=4)
    >>> parse_client_message({"type": "roll", "seat": 9, "version": 4})
    Traceback (most recent call last):
    ...
    snakes.server.rooms.errors.BadMessage: roll: seat: Input should be less than or equal to 5
    """
    if not isinstance(data, dict):
        raise BadMessage("a message is a JSON object")
    kind = data.get("type")
    if not isinstance(kind, str) or kind not in _READERS:
        raise UnknownType(f"unknown message type {str(kind)[:40]!r}")
    ref = data.get("ref")
    if ref is not None and not (isinstance(ref, str) and len(ref) <= REF_MAX):
        raise BadMessage(f"{kind}: ref: a string of at most {REF_MAX} characters")
    fields = {key: value for key, value in data.items() if key not in ("type", "ref")}
    try:
        # Read as JSON, the form it came in: strictly (no "1" for 1), a dataclass from
        # an object and an enum from its value. A message is at most 4 KB, so writing it
        # again costs about a microsecond.
        message: ClientMessage = _READERS[kind].validate_json(jsontext.dumps(fields))
    except ValidationError as error:
        first = error.errors()[0]
        where = ".".join(str(part) for part in first["loc"]) or "message"
        raise BadMessage(f"{kind}: {where}: {first['msg']}") from None
    return message


_REF_SCHEMA = TypeAdapter(Ref).json_schema()


def message_schema(kind: str) -> dict[str, Any]:
    """One client message's JSON Schema: its type's fields, with ``type`` and ``ref``."""
    schema = _READERS[kind].json_schema()
    schema["properties"] = {
        "type": TypeAdapter[str](Literal[kind]).json_schema(),  # type: ignore[arg-type]  # a literal known when it runs
        **schema["properties"],
        "ref": _REF_SCHEMA,
    }
    schema["required"] = ["type", *schema.get("required", [])]
    return schema
