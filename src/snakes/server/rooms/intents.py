"""Every intent a room's owner applies, as a typed value, and the handler each one runs.

A player's intents (``roll``, ``leave``, ``start``, …) and the server's own operations
(``connect``, ``drop``, ``fire``, …) are frozen dataclasses. :func:`handle` is the one
place that says what each does to a room: a ``match`` over the types, like a reducer,
with the typed intent itself in every branch.

An intent crosses between nodes as its ``kind`` and its fields as JSON-ready arguments
(:func:`intent_args`, :func:`intent_from`): what travels is data, never a function.
"""

from __future__ import annotations

from dataclasses import dataclass, fields
from typing import Any, ClassVar, assert_never

from snakes.engine import Rules
from snakes.server.boards import board_named
from snakes.server.rooms import lifecycle, lobby, reactions, turns
from snakes.server.rooms.access import check_change, check_member
from snakes.server.rooms.errors import ProtocolError
from snakes.server.rooms.updates import view
from snakes.server.rooms.work import Caller, Presence, Step

# ---- the server's own operations -----------------------------------------------------


@dataclass(frozen=True)
class Connect:
    """A connection says hello: it joins the room's members, and is welcomed."""

    kind: ClassVar[str] = "connect"
    key: str
    """The connection's key among the room's members (its node and its id)."""
    odds: bool = False
    """It shows the live odds: they are worked out while it is here."""


@dataclass(frozen=True)
class Drop:
    """A connection went."""

    kind: ClassVar[str] = "drop"
    key: str


@dataclass(frozen=True)
class Join:
    """A new player takes a free seat in an online lobby (through the HTTP API)."""

    kind: ClassVar[str] = "join"
    name: str
    colour: str
    secret_hash: str


@dataclass(frozen=True)
class View:
    """The room's public view (what a spectator sees); changes nothing."""

    kind: ClassVar[str] = "view"


@dataclass(frozen=True)
class Fire:
    """A timer came due."""

    kind: ClassVar[str] = "fire"
    name: str
    due: float
    """When it was due: the handler runs no earlier (a node whose clock reads a little
    behind the node that claimed the timer must not start the next countdown in the
    past)."""


@dataclass(frozen=True)
class Restart:
    """The store is back after an outage: the countdown starts again in full."""

    kind: ClassVar[str] = "restart"


@dataclass(frozen=True)
class Resync:
    """These connections may have missed messages: show them the room again."""

    kind: ClassVar[str] = "resync"
    connections: tuple[str, ...]


# ---- players' intents --------------------------------------------------------------------


@dataclass(frozen=True)
class Roll:
    kind: ClassVar[str] = "roll"
    seat: int
    version: int
    """The room's ``version`` its sender saw: a roll sent twice is refused."""


@dataclass(frozen=True)
class Leave:
    kind: ClassVar[str] = "leave"
    change: int
    """The room's ``change`` its sender saw, as in every intent below that has one: a
    stale or repeated intent is refused whatever it asks, so a seat never means another
    player and nothing happens twice."""
    seat: int


@dataclass(frozen=True)
class Start:
    kind: ClassVar[str] = "start"
    change: int
    shuffle: bool = False


@dataclass(frozen=True)
class SetRules:
    kind: ClassVar[str] = "rules"
    change: int
    rules: Rules
    countdown: int | None = None
    board: str | None = None
    """A board's name; None keeps the room's."""


@dataclass(frozen=True)
class Seed:
    """A device's share of the fair dice's seed, for the commitment it saw."""

    kind: ClassVar[str] = "seed"
    seed: str
    commitment: str


@dataclass(frozen=True)
class AddAi:
    kind: ClassVar[str] = "add_ai"
    change: int
    name: str
    colour: str


@dataclass(frozen=True)
class Remove:
    kind: ClassVar[str] = "remove"
    change: int
    seat: int


@dataclass(frozen=True)
class Rematch:
    kind: ClassVar[str] = "rematch"
    change: int
    start: bool = False
    """The host starts the rematch now, with the players who agreed."""


@dataclass(frozen=True)
class FinishAi:
    kind: ClassVar[str] = "finish_ai"
    change: int


@dataclass(frozen=True)
class React:
    """A reaction: never a game action, no store write, no version."""

    kind: ClassVar[str] = "react"
    seat: int
    reaction: str


@dataclass(frozen=True)
class SetReactions:
    """The host's switch for the room's reactions (a stored room setting)."""

    kind: ClassVar[str] = "reactions"
    change: int
    on: bool


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
        case SetRules(change=change, rules=rules, countdown=countdown, board=board):
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


def intent_args(intent: Intent) -> dict[str, Any]:
    """An intent's fields as JSON-ready arguments (what is forwarded to a room's owner)."""
    args = {f.name: getattr(intent, f.name) for f in fields(intent)}
    if isinstance(intent, SetRules):
        args["rules"] = intent.rules.to_data()
    elif isinstance(intent, Resync):
        args["connections"] = list(intent.connections)
    return args


def intent_from(kind: str, args: dict[str, Any]) -> Intent:
    """The intent of this kind with these arguments (:func:`intent_args` read back).

    >>> intent_from("roll", {"seat": 1, "version": 7})
    Roll(seat=1, version=7)
    >>> intent_from("rules", intent_args(SetRules(3, Rules()))) == SetRules(3, Rules())
    True
    """
    cls = INTENTS.get(kind)
    if cls is None:
        raise ProtocolError("unknown_type", f"unknown intent {kind[:40]!r}")
    if cls is SetRules:
        args = {**args, "rules": Rules.from_data(args["rules"])}
    elif cls is Resync:
        args = {**args, "connections": tuple(args["connections"])}
    try:
        return cls(**args)
    except TypeError:
        raise ProtocolError("bad_message", f"{kind}: unexpected arguments") from None
