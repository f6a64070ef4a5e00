"""Every operation a room's owner applies, by name, with JSON-ready arguments.

The same names serve intents from this process's connections and intents forwarded
by other nodes, so what travels between nodes is a name, plain arguments and the
caller, never a function.
"""

from __future__ import annotations

from collections.abc import Callable
from dataclasses import dataclass
from typing import Any

from snakes.engine import Rules
from snakes.server.boards import board_named
from snakes.server.rooms import lifecycle, lobby, reactions, turns
from snakes.server.rooms.access import check_change, check_member
from snakes.server.rooms.updates import view
from snakes.server.rooms.work import Caller, Presence, Step

Handler = Callable[[Step, Caller, Presence, dict[str, Any]], Any]
Members = dict[str, str]
"""A room's connections: key -> what it holds, the seat secret's digest ('' for none),
with ``|odds`` after it when that connection shows the live odds (see ``member``)."""


def member(secret_hash: str, odds: bool) -> str:
    return f"{secret_hash}|odds" if odds else secret_hash


Undo = Callable[[], None]


def nothing() -> None:
    """No presence to put back."""


def no_presence(members: Members, args: dict[str, Any], caller: Caller) -> Undo:
    return nothing


def _arrive(members: Members, args: dict[str, Any], caller: Caller) -> Undo:
    key = args["key"]
    members[key] = member(caller.secret_hash, bool(args.get("odds")))

    def undo() -> None:
        members.pop(key, None)

    return undo


def _depart(members: Members, args: dict[str, Any], caller: Caller) -> Undo:
    # A connection that went stays gone even if the change cannot be stored now.
    members.pop(args["key"], None)
    return nothing


@dataclass(frozen=True)
class Operation:
    handler: Handler
    presence: Callable[[Members, dict[str, Any], Caller], Undo] = no_presence
    at_due: bool = False
    """A timer: its handler runs no earlier than the time it was due (a node whose clock
    reads a little behind the node that claimed the timer must not start the next
    countdown in the past)."""


def _finish_ai(step: Step, caller: Caller, _: Presence, args: dict[str, Any]) -> None:
    check_member(step.room, caller)
    turns.finish_ai(step)


def _rules(step: Step, caller: Caller, _: Presence, args: dict[str, Any]) -> None:
    board = None if args.get("board") is None else board_named(args["board"])
    lobby.set_rules(step, caller, Rules.from_data(args["rules"]), args.get("countdown"), board)


def _seen(handler: Handler) -> Handler:
    """A player's intent that changes the room: first, the room must be as its sender saw
    it (``change``), else it is refused as stale whatever it asks."""

    def checked(step: Step, caller: Caller, before: Presence, args: dict[str, Any]) -> Any:
        check_change(step.room, args["change"])
        return handler(step, caller, before, args)

    return checked


def _rematch(step: Step, caller: Caller, _: Presence, args: dict[str, Any]) -> None:
    """An online player's "Play again" only says yes to a proposal: saying it again, or
    after another's, changes nothing, so it is taken whatever the room's ``change``. A
    local one starts the next game, and the host's start decides on what the host saw:
    those must be as their sender saw the room."""
    start = bool(args.get("start", False))
    if step.room.is_local or start:
        check_change(step.room, args["change"])
    lobby.rematch(step, caller, start)


OPERATIONS: dict[str, Operation] = {
    # the room's life
    "connect": Operation(lambda s, c, b, a: lifecycle.connect(s, c, b), _arrive),
    "drop": Operation(lambda s, c, b, a: lifecycle.drop(s, b), _depart),
    "join": Operation(lambda s, c, b, a: lobby.join(s, a["name"], a["colour"], a["secret_hash"])),
    "view": Operation(lambda s, c, b, a: view(s)),
    "fire": Operation(lambda s, c, b, a: lifecycle.fire(s, a["name"], a["due"]), at_due=True),
    "restart": Operation(lambda s, c, b, a: lifecycle.restart_countdown(s)),
    "resync": Operation(lambda s, c, b, a: lifecycle.welcome_again(s, a["connections"])),
    # players' intents
    "roll": Operation(lambda s, c, b, a: turns.roll(s, c, a["seat"], a["version"])),
    "leave": Operation(_seen(lambda s, c, b, a: lobby.leave(s, c, a["seat"]))),
    "start": Operation(_seen(lambda s, c, b, a: lobby.start(s, c, a["shuffle"]))),
    "rules": Operation(_seen(_rules)),
    "seed": Operation(lambda s, c, b, a: lobby.seed(s, c, a["seed"], a["commitment"])),
    "add_ai": Operation(_seen(lambda s, c, b, a: lobby.add_ai(s, c, a["name"], a["colour"]))),
    "remove": Operation(_seen(lambda s, c, b, a: lobby.remove(s, c, a["seat"]))),
    "rematch": Operation(_rematch),
    "finish_ai": Operation(_seen(_finish_ai)),
    # never a game action: no store write, no version
    "react": Operation(lambda s, c, b, a: reactions.react(s, c, a["seat"], a["reaction"])),
    # the host's switch for the room's reactions (a stored room setting)
    "reactions": Operation(_seen(lambda s, c, b, a: reactions.set_reactions(s, c, a["on"]))),
}
