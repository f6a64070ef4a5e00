"""Every message the server writes, and every message its nodes say to each other: a
typed encoder for each, and one decoder for what nodes read.

To players (the JSON Schema's ``server`` messages, ``transport/protocol_schema.py``):
:func:`welcome`, :func:`update`, :func:`presence`, :func:`reaction`, :func:`error`,
:func:`pong`. The viewer's own ``you`` is added by the hub as each goes out.

Between nodes (through Redis): a :class:`Forward` (an intent for the room's owner), its
:class:`ForwardAnswer`, and a :class:`RoomUpdate` (a committed change's messages for the
room's connections on other nodes); :func:`encode_node` writes each as text and
:func:`decode_node` reads any of them back. An intent travels as its ``kind`` and its
fields, validated into its type on arrival by the same types that validate a client's
message (:func:`intent_from`): what travels is data, never a function.
"""

from __future__ import annotations

import functools
from dataclasses import dataclass, field
from typing import TYPE_CHECKING, Any

from snakes.server import jsontext
from snakes.server.rooms.errors import BadMessage, ProtocolError, UnknownType, refusal

if TYPE_CHECKING:
    from pydantic import TypeAdapter

    from snakes.server.rooms.intents import Intent

# ---- what a room sends, and who asked -------------------------------------------------------


@dataclass(frozen=True)
class Message:
    """One message for a room's connections, as JSON text without the viewer's ``you``."""

    body: str
    skip: str = ""
    """A connection that does not get it (the one a presence change is about)."""
    to: str = ""
    """Only this connection gets it (a welcome); empty: every connection in the room."""
    presence: bool = False
    """Who is connected and the countdown, nothing else: it carries no ``you``, and one
    not yet sent is replaced by a newer one (the hub coalesces them)."""


@dataclass(frozen=True)
class Caller:
    """Who sent an intent: a connection, and the secret digest it holds (if any)."""

    connection: str = ""
    secret_hash: str = ""
    request: str = ""
    """A forwarded intent's id, when the node that forwarded it hears the room's updates:
    its answer can then travel with the update it caused instead of apart."""
    ident: str = ""
    """The intent's id where its outcome is kept with its commit (Redis), so that a
    sender who lost the answer can learn whether it was applied; empty: not kept."""


# ---- to players ------------------------------------------------------------------------


def welcome(room: dict[str, Any]) -> str:
    """The whole state, after ``hello`` and after every reconnect."""
    return jsontext.dumps({"type": "welcome", "room": room})


def update(events: list[dict[str, Any]], instant: bool, room: dict[str, Any]) -> str:
    """What happened (may be nothing) and the state after it."""
    return jsontext.dumps({"type": "update", "events": events, "instant": instant, "room": room})


def presence(connected: list[bool], countdown: dict[str, Any] | None) -> str:
    """Who is connected, and the countdown: nothing else changed."""
    return jsontext.dumps({"type": "presence", "connected": connected, "countdown": countdown})


def reaction(seat: int, reaction_id: str) -> str:
    """A seated player's reaction, for everyone in the room."""
    return jsontext.dumps({"type": "reaction", "seat": seat, "reaction": reaction_id})


def error(refused: ProtocolError, ref: str | None = None) -> str:
    """A refusal, naming the ``ref`` of the message refused; ``retry_after`` (seconds)
    when trying again later may succeed."""
    body: dict[str, Any] = {
        "type": "error",
        "code": refused.code,
        "message": refused.message,
        "ref": ref,
    }
    if refused.retry_after is not None:
        body["retry_after"] = refused.retry_after
    return jsontext.dumps(body)


PONG = '{"type":"pong"}'
"""The answer to a ping that gave no time of its own."""


def pong(sent: int, server_ms: int) -> str:
    """The answer to a ping: its time echoed with the server's, for the client's clock."""
    return jsontext.dumps({"type": "pong", "t": sent, "server_ms": server_ms})


# ---- intents as data ---------------------------------------------------------------------


@functools.cache
def _intent_types() -> dict[str, TypeAdapter[Any]]:
    """Each intent's reader and writer, by its kind (made when first needed: the intents'
    module imports the handlers, which write their messages with this one; and pydantic
    loads only for intents between nodes, never with the rooms)."""
    from pydantic import TypeAdapter  # noqa: PLC0415 - see above

    from snakes.server.rooms.intents import INTENTS  # noqa: PLC0415 - see above

    return {kind: TypeAdapter(cls) for kind, cls in INTENTS.items()}


def prepare_intents() -> None:
    """Make every intent's reader and writer now (about 0.1 s), before any intent is on
    its way between nodes with a deadline."""
    _intent_types()


def intent_args(intent: Intent) -> dict[str, Any]:
    """An intent's fields as JSON-ready arguments (what is forwarded to a room's owner).

    >>> from snakes.server.rooms.intents import Roll
    >>> intent_args(Roll(1, 7))
    {'seat': 1, 'version': 7}
    """
    args: dict[str, Any] = _intent_types()[intent.kind].dump_python(intent, mode="json")
    return args


def intent_from(kind: str, args: Any) -> Intent:
    """The intent of this kind with these arguments, each of its type and within its
    bounds, or :class:`BadMessage` saying which is not (:func:`intent_args` read back).

    >>> from snakes.engine import Rules
    >>> from snakes.server.rooms.intents import SetRules
    >>> intent_from("roll", {"seat": 1, "version": 7})
    Roll(seat=1, version=7)
    >>> intent_from("rules", intent_args(SetRules(3, Rules()))) == SetRules(3, Rules())
    True
    >>> intent_from("roll", {"seat": "1", "version": 7})
    Traceback (most recent call last):
    ...
    snakes.server.rooms.errors.BadMessage: roll: seat: Input should be a valid integer
    """
    from pydantic import ValidationError  # noqa: PLC0415 - loaded by _intent_types

    adapter = _intent_types().get(kind)
    if adapter is None:
        raise UnknownType(f"unknown message type {kind[:40]!r}")
    try:
        # As JSON, where a strict dataclass takes an object and an enum its value: the
        # very form a client sends (and a node forwards).
        intent: Intent = adapter.validate_json(jsontext.dumps(args))
    except ValidationError as invalid:
        first = invalid.errors()[0]
        where = ".".join(str(part) for part in first["loc"]) or "message"
        raise BadMessage(f"{kind}: {where}: {first['msg']}") from None
    return intent


# ---- between nodes -------------------------------------------------------------------------


@dataclass(frozen=True)
class Forward:
    """An intent for the room's owner, from the node its sender is connected to."""

    ident: str
    """Unique among every node's requests: its answer names it."""
    sender: str
    """The node that waits for the answer."""
    code: str
    intent: Intent
    caller: Caller


@dataclass(frozen=True)
class ForwardAnswer:
    """What became of a forwarded intent: its result, or its refusal."""

    ident: str
    result: Any = None
    refused: ProtocolError | None = None


@dataclass(frozen=True)
class RoomUpdate:
    """A committed change's messages, for the room's connections on another node."""

    code: str
    host: int | None
    hashes: list[str]
    """Each seat's secret digest, by seat (who is who, to write each viewer's ``you``)."""
    messages: list[Message]
    answers: list[str] = field(default_factory=list)
    """Forwarded intents this change answers (their senders need wait no longer)."""
    sender: str = ""
    """The node that sent it, where its own listener hears it too (a cluster's room
    channel): that node delivered it already."""


NodeMessage = Forward | ForwardAnswer | RoomUpdate


def encode_node(message: NodeMessage) -> str:
    """A node message as the text a node's inbox carries.

    A room update starts with ``u``, its room's code and a newline, so that the node that
    reads it knows the room before it parses the rest; the others are JSON objects.
    """
    match message:
        case RoomUpdate(code=code):
            envelope: dict[str, Any] = {
                "h": message.host,
                "s": message.hashes,
                "m": [[m.body, m.skip, m.to, m.presence] for m in message.messages],
            }
            if message.answers:
                envelope["a"] = message.answers
            if message.sender:
                envelope["n"] = message.sender
            return f"u{code}\n{jsontext.dumps(envelope)}"
        case Forward(caller=caller):
            return jsontext.dumps(
                {
                    "k": "req",
                    "id": message.ident,
                    "from": message.sender,
                    "code": message.code,
                    "op": message.intent.kind,
                    "args": intent_args(message.intent),
                    "caller": [caller.connection, caller.secret_hash, caller.request, caller.ident],
                }
            )
        case ForwardAnswer(refused=None):
            return jsontext.dumps({"k": "rep", "id": message.ident, "result": message.result})
        case ForwardAnswer(refused=refused):
            assert refused is not None
            reason: dict[str, Any] = {"code": refused.code, "message": refused.message}
            if refused.retry_after is not None:
                reason["retry_after"] = refused.retry_after  # a limit's wait, kept
            return jsontext.dumps({"k": "rep", "id": message.ident, "error": reason})


def decode_node(text: str) -> NodeMessage:
    """Any node message read back from its text (:func:`encode_node`'s inverse).

    >>> from snakes.server.rooms.intents import Roll
    >>> sent = Forward("n1.4", "n1", "ABCDEF", Roll(0, 3), Caller("n1/7", "d1gest"))
    >>> decode_node(encode_node(sent)) == sent
    True
    >>> decode_node('{"k":"rep","id":"n1.4","error":{"code":"stale_version","message":"m"}}')
    ForwardAnswer(ident='n1.4', result=None, refused=StaleVersion('m'))
    """
    if text.startswith("u"):
        code, _, body = text[1:].partition("\n")
        envelope = jsontext.loads(body)
        return RoomUpdate(
            code,
            envelope["h"],
            envelope["s"],
            [Message(*fields) for fields in envelope["m"]],
            envelope.get("a", []),
            envelope.get("n", ""),
        )
    data = jsontext.loads(text)
    kind = data.get("k") if isinstance(data, dict) else None
    if kind == "req":
        intent = intent_from(data["op"], data["args"])
        return Forward(data["id"], data["from"], data["code"], intent, Caller(*data["caller"]))
    if kind == "rep":
        reason = data.get("error")
        if reason is None:
            return ForwardAnswer(data["id"], data.get("result"))
        refused = refusal(reason["code"], reason["message"], retry_after=reason.get("retry_after"))
        return ForwardAnswer(data["id"], refused=refused)
    raise BadMessage(f"not a node message: {text[:40]!r}")
