"""Refusals: every request the server refuses raises one of these, a type per stable code.

A refusal's class says what went wrong, and its ``code`` is what the client is told
(PROTOCOL.md, "Error codes"): code that branches on a refusal tests its type, never the
text of its code. A refusal that crosses between nodes travels as its code and message,
and :func:`refusal` makes it the same type again on the other side.
"""

from __future__ import annotations

import asyncio
from typing import ClassVar


class ProtocolError(Exception):
    """A request refused before or outside the engine; ``code`` goes to the client."""

    code: str = "refused"
    """Stable, for the client to branch on (each subclass has its own)."""

    REFUSALS: ClassVar[dict[str, type[ProtocolError]]] = {}
    """Every refusal's type, by its code."""

    def __init__(self, message: str, *, retry_after: float | None = None) -> None:
        super().__init__(message)
        self.message = message
        self.retry_after = retry_after
        """For a limit's refusal: seconds until trying again may succeed (Retry-After)."""

    def __init_subclass__(cls) -> None:
        super().__init_subclass__()
        if "code" in cls.__dict__:
            ProtocolError.REFUSALS.setdefault(cls.code, cls)


def refusal(code: str, message: str, *, retry_after: float | None = None) -> ProtocolError:
    """The refusal of this code, as its own type (read back from another node, the
    compute worker or the engine).

    >>> type(refusal("stale_version", "seen before")).__name__
    'StaleVersion'
    >>> refusal("from_a_newer_node", "x").code  # kept as it is
    'from_a_newer_node'
    """
    kind = ProtocolError.REFUSALS.get(code)
    if kind is not None:
        return kind(message, retry_after=retry_after)
    error = ProtocolError(message, retry_after=retry_after)
    error.code = code
    return error


# ---- what a message is -------------------------------------------------------------------


class BadMessage(ProtocolError):
    code = "bad_message"


class UnknownType(ProtocolError):
    code = "unknown_type"


class BadRequest(ProtocolError):
    """An HTTP request's query or body is not what the route takes."""

    code = "bad_request"


class NotFound(ProtocolError):
    code = "not_found"


class MethodNotAllowed(ProtocolError):
    code = "method_not_allowed"


# ---- who may do it -------------------------------------------------------------------


class NotInRoom(ProtocolError):
    code = "not_in_room"


class Spectator(ProtocolError):
    code = "spectator"


class NotYourSeat(ProtocolError):
    code = "not_your_seat"


class NotHost(ProtocolError):
    code = "not_host"


class BadSecret(ProtocolError):
    code = "bad_secret"


class TooManyViewers(ProtocolError):
    code = "too_many_viewers"


# ---- when it may be done ---------------------------------------------------------------


class StaleVersion(ProtocolError):
    """The intent names a state of the room that is not the room's: never applied."""

    code = "stale_version"


class NotStarted(ProtocolError):
    code = "not_started"


class AlreadyStarted(ProtocolError):
    code = "already_started"


class GameOver(ProtocolError):
    code = "game_over"


class NotYourTurn(ProtocolError):
    code = "not_your_turn"


class NotAllowed(ProtocolError):
    code = "not_allowed"


class ReactionsOff(ProtocolError):
    code = "reactions_off"


# ---- what it asks for ------------------------------------------------------------------


class InvalidSeats(ProtocolError):
    code = "invalid_seats"


class InvalidColour(ProtocolError):
    code = "invalid_colour"


class ColourTaken(ProtocolError):
    code = "colour_taken"


class InvalidName(ProtocolError):
    code = "invalid_name"


class NameTaken(ProtocolError):
    code = "name_taken"


class InvalidRules(ProtocolError):
    code = "invalid_rules"


class InvalidBoard(ProtocolError):
    code = "invalid_board"


class RoomFull(ProtocolError):
    code = "room_full"


class RoomNotFound(ProtocolError):
    code = "room_not_found"


class RecordNotFound(ProtocolError):
    code = "record_not_found"


class BadRecord(ProtocolError):
    code = "bad_record"


# ---- how much, and whether the server can --------------------------------------------------


class RateLimited(ProtocolError):
    code = "rate_limited"


class TooManyReactions(ProtocolError):
    code = "too_many_reactions"


class Busy(ProtocolError):
    """The server (or this connection's queue) is full now: try again in a moment."""

    code = "busy"


class Unavailable(ProtocolError):
    """The game store is unreachable: nothing changed."""

    code = "unavailable"


class NotOwning(ProtocolError):
    """Between nodes: the node asked to apply an intent does not own its room (any more)."""

    code = "not_owner"


class Internal(ProtocolError):
    """The server failed; nothing changed (never a traceback)."""

    code = "internal"


class OutcomeUnknown(ProtocolError):
    """The intent went out and its answer was lost: it may have been applied or not.

    ``verdict`` (when the intent has an id) resolves once the store answers again: True,
    it was applied (its update shows it); False, it was not and never will be, so the
    same intent may be sent again; None, the store never answered."""

    code = "outcome_unknown"

    def __init__(
        self,
        message: str = "the game store stopped answering while this was on its way: it may "
        "have been applied or not; you will be told once the store is back",
        *,
        retry_after: float | None = None,
        verdict: asyncio.Future[bool | None] | None = None,
    ) -> None:
        super().__init__(message, retry_after=retry_after)
        self.verdict = verdict


def unavailable() -> Unavailable:
    return Unavailable("the game store is unreachable; try again in a moment")
