"""Every intent a room's owner applies, as a typed value, and the handler each one runs.

A player's intents (``roll``, ``leave``, ``start``, …) and the server's own operations
(``connect``, ``drop``, ``fire``, …) are frozen dataclasses. :func:`handle` is the one
place that says what each does to a room: a ``match`` over the types, like a reducer,
with the typed intent itself in every branch.

A player's intent is also its message on the wire: pydantic validates a client's message
straight into it (``transport/protocol.py``), and between nodes an intent travels as its
``kind`` and its fields, read back by the same types (``messages.py``).
"""

from __future__ import annotations

from dataclasses import dataclass
from typing import Annotated, Any, ClassVar, assert_never

from annotated_types import Ge, Le, MaxLen, MinLen

from snakes.engine import Rules
from snakes.server.rooms import lifecycle, lobby, reactions, turns
from snakes.server.rooms.access import check_change, check_member
from snakes.server.rooms.boards import board_named
from snakes.server.rooms.model import Colour
from snakes.server.rooms.reactions import Reaction
from snakes.server.rooms.updates import view
from snakes.server.rooms.work import Caller, Presence, Step

WIRE: dict[str, Any] = {"extra": "forbid", "strict": True, "use_attribute_docstrings": True}
"""How an intent is read from JSON (pydantic's config, as a plain dict): every field of
its type and bound, nothing more, and no coercion ("1" is not a seat)."""

# ---- the server's own operations -----------------------------------------------------


@dataclass(frozen=True)
class Connect:
    """A connection says hello: it joins the room's members, and is welcomed."""

    __pydantic_config__: ClassVar[dict[str, Any]] = WIRE
    kind: ClassVar[str] = "connect"
    key: str
    """The connection's key among the room's members (its node and its id)."""
    odds: bool = False
    """It shows the live odds: they are worked out while it is here."""


@dataclass(frozen=True)
class Drop:
    """A connection went."""

    __pydantic_config__: ClassVar[dict[str, Any]] = WIRE
    kind: ClassVar[str] = "drop"
    key: str


@dataclass(frozen=True)
class Join:
    """A new player takes a free seat in an online lobby (through the HTTP API)."""

    __pydantic_config__: ClassVar[dict[str, Any]] = WIRE
    kind: ClassVar[str] = "join"
    name: str
    colour: str
    secret_hash: str


@dataclass(frozen=True)
class View:
    """The room's public view (what a spectator sees); changes nothing."""

    __pydantic_config__: ClassVar[dict[str, Any]] = WIRE
    kind: ClassVar[str] = "view"


@dataclass(frozen=True)
class Fire:
    """A timer came due."""

    __pydantic_config__: ClassVar[dict[str, Any]] = WIRE
    kind: ClassVar[str] = "fire"
    name: str
    due: float
    """When it was due: the handler runs no earlier (a node whose clock reads a little
    behind the node that claimed the timer must not start the next countdown in the
    past)."""


@dataclass(frozen=True)
class Restart:
    """The store is back after an outage: the countdown starts again in full."""

    __pydantic_config__: ClassVar[dict[str, Any]] = WIRE
    kind: ClassVar[str] = "restart"


@dataclass(frozen=True)
class Resync:
    """These connections may have missed messages: show them the room again."""

    __pydantic_config__: ClassVar[dict[str, Any]] = WIRE
    kind: ClassVar[str] = "resync"
    connections: tuple[str, ...]


# ---- players' intents --------------------------------------------------------------------
# Each is also its message on the wire: a client's ``{"type": kind, ...fields}`` is
# validated straight into it (``transport/protocol.py``), so the types and bounds below
# are the protocol's, and its JSON Schema is made from them.

SeatIndex = Annotated[int, Ge(0), Le(5)]
Count = Annotated[int, Ge(0), Le(2**31)]
"""A room's ``version`` or ``change``, as its sender last saw it."""


@dataclass(frozen=True)
class Roll:
    __pydantic_config__: ClassVar[dict[str, Any]] = WIRE
    kind: ClassVar[str] = "roll"
    seat: SeatIndex
    version: Count
    """The room's ``version`` its sender saw: a roll sent twice is refused."""


@dataclass(frozen=True)
class Leave:
    __pydantic_config__: ClassVar[dict[str, Any]] = WIRE
    kind: ClassVar[str] = "leave"
    change: Count
    """The room's ``change`` its sender saw, as in every intent below that has one: a
    stale or repeated intent is refused whatever it asks, so a seat never means another
    player and nothing happens twice."""
    seat: SeatIndex


@dataclass(frozen=True)
class Start:
    __pydantic_config__: ClassVar[dict[str, Any]] = WIRE
    kind: ClassVar[str] = "start"
    change: Count
    shuffle: bool = False


@dataclass(frozen=True)
class SetRules:
    __pydantic_config__: ClassVar[dict[str, Any]] = WIRE
    kind: ClassVar[str] = "rules"
    change: Count
    rules: Rules
    countdown_seconds: Annotated[int, Ge(1), Le(600)] | None = None
    """The online turn countdown; None keeps the room's."""
    board: Annotated[str, MinLen(1), MaxLen(40)] | None = None
    """A board's name; None keeps the room's."""


@dataclass(frozen=True)
class Seed:
    """A device's share of the fair dice's seed, for the commitment it saw."""

    __pydantic_config__: ClassVar[dict[str, Any]] = WIRE
    kind: ClassVar[str] = "seed"
    seed: Annotated[str, MaxLen(128)]
    commitment: Annotated[str, MinLen(64), MaxLen(64)]
    """The commitment (``room.fair.commitment``) the seed is for: one per device and game."""


@dataclass(frozen=True)
class AddAi:
    __pydantic_config__: ClassVar[dict[str, Any]] = WIRE
    kind: ClassVar[str] = "add_ai"
    change: Count
    name: Annotated[str, MinLen(1), MaxLen(80)]
    colour: Colour


@dataclass(frozen=True)
class Remove:
    __pydantic_config__: ClassVar[dict[str, Any]] = WIRE
    kind: ClassVar[str] = "remove"
    change: Count
    seat: SeatIndex


@dataclass(frozen=True)
class Rematch:
    __pydantic_config__: ClassVar[dict[str, Any]] = WIRE
    kind: ClassVar[str] = "rematch"
    change: Count
    start: bool = False
    """The host starts the rematch now, with the players who agreed."""


@dataclass(frozen=True)
class FinishAi:
    __pydantic_config__: ClassVar[dict[str, Any]] = WIRE
    kind: ClassVar[str] = "finish_ai"
    change: Count


@dataclass(frozen=True)
class React:
    """A reaction: never a game action, no store write, no version."""

    __pydantic_config__: ClassVar[dict[str, Any]] = WIRE
    kind: ClassVar[str] = "react"
    seat: SeatIndex
    reaction: Reaction
    """One of the fixed reactions, by id: no free text."""


@dataclass(frozen=True)
class SetReactions:
    """The host's switch for the room's reactions (a stored room setting)."""

    __pydantic_config__: ClassVar[dict[str, Any]] = WIRE
    kind: ClassVar[str] = "reactions"
    change: Count
    on: bool
    """The host turns reactions on or off for the room."""


PLAYERS_INTENTS = (
    Roll, Leave, Start, SetRules, Seed, AddAi, Remove, Rematch, FinishAi, React, SetReactions,
)  # fmt: skip
"""The intents a client sends: each is a message type of the protocol."""


Intent = (
    Connect | Drop | Join | View | Fire | Restart | Resync
    | Roll | Leave | Start | SetRules | Seed | AddAi | Remove | Rematch | FinishAi
    | React | SetReactions
)  # fmt: skip

INTENTS: dict[str, type[Intent]] = {
    cls.kind: cls
    for cls in (
        Connect, Drop, Join, View, Fire, Restart, Resync,
        Roll, Leave, Start, SetRules, Seed, AddAi, Remove, Rematch, FinishAi,
        React, SetReactions,
    )
}  # fmt: skip
"""Every intent by its kind."""


def handle(step: Step, intent: Intent, caller: Caller, before: Presence) -> Any:
    """Apply one intent to a room's draft (``step``); ``before``: who was connected
    before this intent (a connect's welcome and a drop's message compare with it)."""
    room = step.room
    match intent:
        case Connect():
            return lifecycle.connect(step, caller, before)
        case Drop():
            return lifecycle.drop(step, before)
        case Join(name=name, colour=colour, secret_hash=secret_hash):
            return lobby.join(step, name, colour, secret_hash)
        case View():
            return view(step)
        case Fire(name=name, due=due):
            return lifecycle.fire(step, name, due)
        case Restart():
            return lifecycle.restart_countdown(step)
        case Resync(connections=connections):
            return lifecycle.welcome_again(step, list(connections))
        case Roll(seat=seat, version=version):
            return turns.roll(step, caller, seat, version)
        case Leave(change=change, seat=seat):
            check_change(room, change)
            return lobby.leave(step, caller, seat)
        case Start(change=change, shuffle=shuffle):
            check_change(room, change)
            return lobby.start(step, caller, shuffle)
        case SetRules(change=change, rules=rules, countdown_seconds=countdown, board=board):
            check_change(room, change)
            chosen = None if board is None else board_named(board)
            return lobby.set_rules(step, caller, rules, countdown, chosen)
        case Seed(seed=seed, commitment=commitment):
            return lobby.seed(step, caller, seed, commitment)
        case AddAi(change=change, name=name, colour=colour):
            check_change(room, change)
            return lobby.add_ai(step, caller, name, colour)
        case Remove(change=change, seat=seat):
            check_change(room, change)
            return lobby.remove(step, caller, seat)
        case Rematch(change=change, start=start):
            # An online player's "Play again" only says yes to a proposal: saying it
            # again, or after another's, changes nothing, so it is taken whatever the
            # room's change. A local one starts the next game, and the host's start
            # decides on what the host saw: those must be as their sender saw the room.
            if room.is_local or start:
                check_change(room, change)
            return lobby.rematch(step, caller, start)
        case FinishAi(change=change):
            check_change(room, change)
            check_member(room, caller)
            return turns.finish_ai(step)
        case React(seat=seat, reaction=reaction):
            return reactions.react(step, caller, seat, reaction)
        case SetReactions(change=change, on=on):
            check_change(room, change)
            return reactions.set_reactions(step, caller, on)
        case _:
            assert_never(intent)
