"""A handler knows time and chance only through its context (docs/ARCHITECTURE.md: a
handler is a function of the room, the intent and the context). The same room, intents
and context give the same rooms and the same messages, to the byte: a seat order, a
fair-dice seed and a countdown's deadline all come from the context."""

from __future__ import annotations

import random
from collections.abc import MutableSequence
from typing import Any

from snakes.server.rooms import lifecycle, lobby, turns
from snakes.server.rooms.model import COLOURS, Mode, Room, Seat
from snakes.server.rooms.work import Context
from tests.rooms.helpers import (
    CLASSIC,
    CODE,
    SETTINGS,
    caller,
    dice,
    handle,
    joining,
    present,
    secret_of,
)


class SeededChance:
    """A replayable source of chance, for this test only."""

    def __init__(self, seed: int) -> None:
        self._random = random.Random(seed)

    def shuffle(self, items: MutableSequence[Any]) -> None:
        self._random.shuffle(items)

    def server_seed(self) -> bytes:
        return self._random.randbytes(32)


def _holder(room: Room, seat: int) -> int:
    """The first-seated number of whoever holds ``seat`` now (seats were shuffled)."""
    digest = room.seats[seat].secret_hash
    return next(n for n in range(6) if caller(n).secret_hash == digest)


def _play(chance: SeededChance, now: float, wall: float) -> list[str]:
    """An online room of six (720 seat orders): created, joined, started with its seats
    shuffled, then played for twelve rolls on scripted dice. Every message's text, in
    order."""
    players = present(*range(6))

    def ctx(offset: int) -> Context:
        return Context(
            now=now + offset,
            wall=wall + offset,
            presence=players,
            settings=SETTINGS,
            dice=dice(3),
            chance=chance,
        )

    step = lifecycle.create(
        CODE, Mode.ONLINE, [Seat("Host", COLOURS[0])], CLASSIC, ctx(0),
        secret=secret_of(0), shuffle=False, countdown_seconds=20,
    )  # fmt: skip
    texts = [m.body for m in step.work.messages]
    room = step.room
    steps: list[Any] = [*map(joining, range(1, 6)), lambda s: lobby.start(s, caller(0), True)]
    for offset, handler in enumerate(steps, start=1):
        step, _ = handle(room, ctx(offset), handler)
        texts += [m.body for m in step.work.messages]
        room = step.room
    for offset in range(len(steps) + 1, len(steps) + 13):
        assert room.game is not None and room.game.turn is not None
        seat, version = room.game.turn, room.version
        roller = caller(_holder(room, seat))
        step, _ = handle(
            room, ctx(offset), lambda s, c=roller, n=seat, v=version: turns.roll(s, c, n, v)
        )
        texts += [m.body for m in step.work.messages]
        room = step.room
    return texts


def test_the_same_context_gives_the_same_room_to_the_byte() -> None:
    first = _play(SeededChance(7), now=1_000.0, wall=1_700_000_000.0)
    again = _play(SeededChance(7), now=1_000.0, wall=1_700_000_000.0)
    assert first == again
    assert any('"deadline_ms"' in text for text in first)


def test_a_different_chance_or_clock_shows_in_the_messages() -> None:
    """The context is really what decides: the test above cannot pass by ignoring it."""
    base = _play(SeededChance(7), now=1_000.0, wall=1_700_000_000.0)
    assert _play(SeededChance(8), now=1_000.0, wall=1_700_000_000.0) != base
    assert _play(SeededChance(7), now=1_000.0, wall=1_700_000_500.0) != base
