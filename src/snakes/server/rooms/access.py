"""Who may do what in a room: members, seat holders, the host; and the phase an intent needs."""

from __future__ import annotations

from snakes.engine import GameState
from snakes.server.rooms.errors import (
    AlreadyStarted,
    GameOver,
    NotHost,
    NotStarted,
    NotYourSeat,
    Spectator,
    StaleVersion,
)
from snakes.server.rooms.model import Phase, Room
from snakes.server.rooms.work import Caller


def held(room: Room, secret_hash: str) -> frozenset[int]:
    """The seats a secret digest holds in this room."""
    if not secret_hash:
        return frozenset()
    return frozenset(i for i, s in enumerate(room.seats) if s.secret_hash == secret_hash)


def check_member(room: Room, caller: Caller) -> None:
    if not held(room, caller.secret_hash):
        raise Spectator("spectators watch; they do not play")


def check_seat(room: Room, caller: Caller, seat: int) -> None:
    check_member(room, caller)
    if seat not in held(room, caller.secret_hash):
        raise NotYourSeat(f"you do not hold seat {seat}")


def check_host(room: Room, caller: Caller) -> None:
    check_member(room, caller)
    if room.host is None or room.host not in held(room, caller.secret_hash):
        raise NotHost("only the host can do that")


def check_change(room: Room, change: int) -> None:
    """An intent names the room's ``change`` its sender last saw: one sent against an
    older state, or sent again, is refused (never applied twice, never to a seat that
    has moved)."""
    if change != room.change:
        raise StaleVersion(f"that was sent at change {change}; the room is at {room.change}")


def playing(room: Room) -> GameState:
    """The game in progress, or the refusal that says why there is none."""
    if room.phase is Phase.LOBBY or room.game is None:
        raise NotStarted("the game has not started")
    if room.phase is Phase.OVER:
        raise GameOver("the game is over")
    return room.game


def check_lobby(room: Room, message: str) -> None:
    if room.phase is not Phase.LOBBY:
        raise AlreadyStarted(message)
