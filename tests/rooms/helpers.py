"""Rooms, contexts and callers for the pure handlers; no runtime, no store, no clock.

:func:`handle` is the one way these tests run a handler: through :func:`run_handler`,
checking every time that the room it was given is exactly as it was before.
"""

from __future__ import annotations

import copy
import json
from collections import deque
from collections.abc import Callable
from dataclasses import fields
from typing import Any, TypeVar

import pytest

from snakes.engine import Rules
from snakes.server.codes import hash_secret
from snakes.server.rooms import lifecycle, lobby
from snakes.server.rooms.dice import ServerDice
from snakes.server.rooms.errors import ProtocolError
from snakes.server.rooms.model import COLOURS, Mode, Room, Seat
from snakes.server.rooms.work import Caller, Context, Presence, RoomDice, Step, run_handler
from snakes.server.settings import Settings
from snakes.testing.hooks import ScriptableDice

T = TypeVar("T")

SETTINGS = Settings(ai_delay=0.05, animation_scale=0.0)
NOW = 1_000.0
WALL = 1_700_000_000.0
CODE = "K7Q2MX"
NOBODY = Presence()
CLASSIC = Rules()


def secret_of(seat: int) -> str:
    return f"secret-of-seat-{seat}-" + "x" * 20


def caller(seat: int) -> Caller:
    """The connection of whoever holds ``seat``'s secret (seat numbers as first seated)."""
    return Caller(f"connection-{seat}", hash_secret(secret_of(seat)))


SPECTATOR = Caller("connection-spectator", "")


def dice(*values: int) -> ScriptableDice:
    scripted = ScriptableDice(ServerDice())
    scripted.queued = deque(values)
    return scripted


def context(
    presence: Presence = NOBODY,
    *,
    now: float = NOW,
    rolls: RoomDice | None = None,
    settings: Settings = SETTINGS,
) -> Context:
    return Context(now=now, wall=WALL, presence=presence, settings=settings, dice=rolls or dice())


def present(*seats: int, viewers: int | None = None) -> Presence:
    """These seats' holders connected (and ``viewers`` connections in all)."""
    digests = frozenset(caller(s).secret_hash for s in seats)
    return Presence(digests, len(seats) if viewers is None else viewers)


FROZEN = ("rules", "board", "game", "turn_clock")
"""Fields whose values are frozen (the engine's and the timer's): kept by identity."""


def snapshot(room: Room) -> dict[str, Any]:
    """Every field of ``room``, its lists and dicts deep-copied (not via ``Room.draft``)."""
    return {
        f.name: getattr(room, f.name) if f.name in FROZEN else copy.deepcopy(getattr(room, f.name))
        for f in fields(room)
    }


def assert_unchanged(room: Room, before: dict[str, Any]) -> None:
    after = {f.name: getattr(room, f.name) for f in fields(room)}
    changed = [name for name in after if after[name] != before[name]]
    moved = [name for name in FROZEN if after[name] is not before[name]]
    assert not changed and not moved, f"the handler changed the room it was given: {changed}"


def handle(room: Room, ctx: Context, handler: Callable[[Step], T]) -> tuple[Step, T]:
    """Run ``handler`` on a draft of ``room``; the room itself must come back untouched."""
    before = snapshot(room)
    stored = json.dumps(room.to_data(), sort_keys=True)
    step, result = run_handler(room, ctx, handler)
    assert_unchanged(room, before)
    assert json.dumps(room.to_data(), sort_keys=True) == stored
    assert step.room is not room
    return step, result


def refused(room: Room, ctx: Context, handler: Callable[[Step], object]) -> str:
    """The code of the refusal ``handler`` raises (the room untouched all the same)."""
    before = snapshot(room)
    with pytest.raises(ProtocolError) as error:
        run_handler(room, ctx, handler)
    assert_unchanged(room, before)
    return error.value.code


def updates(step: Step) -> list[dict[str, Any]]:
    return [
        json.loads(m.body) for m in step.work.messages if json.loads(m.body)["type"] == "update"
    ]


def events(step: Step) -> list[dict[str, Any]]:
    return [e for u in updates(step) for e in u["events"]]


def local(
    mode: Mode = Mode.PASS,
    seats: list[Seat] | None = None,
    rules: Rules = CLASSIC,
    presence: Presence | None = None,
) -> Room:
    """A local game in progress; one secret (seat 0's) holds every human seat."""
    if seats is None:
        seats = [Seat("Ana", "red"), Seat("Ben", "blue"), Seat("Cy", "green")]
    step = lifecycle.create(
        CODE, mode, seats, rules, context(presence or present(0)),
        secret=secret_of(0), shuffle=False, countdown_seconds=None,
    )  # fmt: skip
    return step.room


def online_lobby(
    players: int = 2, rules: Rules = CLASSIC, countdown: int | None = None, ai: int = 0
) -> Room:
    """An online lobby: the host in seat 0, then ``players - 1`` people, then ``ai`` AI seats."""
    step = lifecycle.create(
        CODE, Mode.ONLINE, [Seat("Host", COLOURS[0])], rules, context(),
        secret=secret_of(0), shuffle=False, countdown_seconds=countdown,
    )  # fmt: skip
    room = step.room
    for seat in range(1, players):
        step, _ = handle(room, context(), joining(seat))
        room = step.room
    for seat in range(players, players + ai):
        step, _ = handle(room, context(), adding_ai(seat))
        room = step.room
    return room


def joining(seat: int) -> Callable[[Step], int]:
    """Seat ``seat``'s player joins the lobby (named P2, P3, ... in the seat's colour)."""
    return lambda s: lobby.join(s, f"P{seat + 1}", COLOURS[seat], caller(seat).secret_hash)


def adding_ai(seat: int) -> Callable[[Step], None]:
    return lambda s: lobby.add_ai(s, caller(0), f"Bot {seat}", COLOURS[seat])


def online_game(
    players: int = 2, rules: Rules = CLASSIC, countdown: int | None = None, ai: int = 0
) -> Room:
    """An online game just started, every seat's holder connected."""
    room = online_lobby(players, rules, countdown, ai)
    step, _ = handle(
        room, context(present(*range(players))), lambda s: lobby.start(s, caller(0), False)
    )
    return step.room
