"""What a handler is given and what it gives back.

A handler is a function of the room value, the intent and a :class:`Context` (the time,
who is connected, the settings, the dice). It never changes the room it was given: it
works on a :class:`Step`, whose ``room`` is a draft, and returns the draft as the next
room value together with the :class:`Work` that must be stored and sent before that
value becomes current. :func:`run_handler` is that contract in one place.
"""

from __future__ import annotations

import math
import random
from collections.abc import Callable, MutableSequence
from dataclasses import dataclass, field
from typing import Any, Protocol, TypeVar

from snakes.engine import Action
from snakes.fair import new_server_seed
from snakes.server.rooms import messages
from snakes.server.rooms.messages import Caller as Caller  # noqa: PLC0414 - re-exported
from snakes.server.rooms.messages import Message as Message  # noqa: PLC0414 - re-exported
from snakes.server.rooms.model import Room
from snakes.server.settings import Settings

T = TypeVar("T")


@dataclass
class PendingUpdate:
    """An update a change will send: its parts, written as text once the change is done
    (a change that publishes twice sends one update with both steps' events)."""

    events: list[dict[str, Any]]
    instant: bool
    skip: str
    room: dict[str, Any]
    slot: Message
    """Its place among the change's messages until it is written."""


@dataclass
class Work:
    """What one handler's change requires, stored together or not at all."""

    new_game: bool = False
    """The room's action log starts again (a start or a rematch)."""
    actions: list[Action] = field(default_factory=list)
    record: tuple[int, str] | None = None
    """(game number, record JSON) when this change ended a game."""
    messages: list[Message] = field(default_factory=list)
    timers: dict[str, float | None] = field(default_factory=dict)
    """Timers to set (a due time) or cancel (None)."""
    delete: bool = False
    """The room's live state is released (its records stay)."""
    changed: bool = False
    """The room's stored row changes (a lobby edit, a timer, a touch)."""
    answers: list[str] = field(default_factory=list)
    """Forwarded intents this change answers, told with its messages (see Caller)."""

    @property
    def empty(self) -> bool:
        return not (self.changed or self.actions or self.messages or self.timers or self.delete)

    @property
    def durable(self) -> bool:
        """Whether the store must be written, or only messages sent."""
        return bool(self.changed or self.actions or self.timers or self.delete or self.record)


@dataclass(frozen=True)
class Presence:
    """Who is connected to a room, across every node."""

    secrets: frozenset[str] = frozenset()
    """Secret digests of connected seat holders."""
    viewers: int = 0
    spectators: int = 0
    """Connections that hold no seat."""
    odds: bool = False
    """Some connection shows the live odds: only then are they worked out."""


class RoomDice(Protocol):
    """Where a room's next die value comes from (the room's fair seeds, or a secure die)."""

    def next_roll(self, room: Room, faces: int) -> int: ...


class Chance(Protocol):
    """Where a handler's randomness comes from, besides the dice: seat orders and the
    fair dice's server seeds."""

    def shuffle(self, items: MutableSequence[Any]) -> None: ...

    def server_seed(self) -> bytes: ...


class SecureChance:
    """The operating system's secure source: nobody can predict an order or a seed."""

    def __init__(self) -> None:
        self._random = random.SystemRandom()

    def shuffle(self, items: MutableSequence[Any]) -> None:
        self._random.shuffle(items)

    def server_seed(self) -> bytes:
        return new_server_seed()


SECURE = SecureChance()


@dataclass(frozen=True)
class Context:
    """Everything a handler may know besides the room and the intent."""

    now: float
    """The room clock (monotonic in one process, wall-clock time shared through Redis)."""
    wall: float
    """Seconds since the epoch, for stored times (expiry counts from them)."""
    presence: Presence
    settings: Settings
    dice: RoomDice
    chance: Chance = SECURE
    """Seat orders and server seeds: a test gives a seeded one to replay a room exactly."""
    store_back_at: float = -math.inf
    """Room-clock time the store was last reachable again after an outage: a countdown
    that was running then starts again in full instead of skipping anyone."""

    @property
    def public_url(self) -> str:
        settings = self.settings
        return settings.public_url or f"http://{settings.host}:{settings.port}"


class Step:
    """One handler's change in progress: a draft of the room, and the work it needs."""

    def __init__(self, room: Room, ctx: Context | None) -> None:
        self.room = room.draft()
        self.ctx: Context = ctx  # type: ignore[assignment]  # None only in the doctest
        self.work = Work()
        self.rolls = 0
        """Dice this change rolled (for the node's counters)."""
        self.counted = False
        """The room's ``change`` was bumped for this step (once, however many updates)."""
        self.updates: list[PendingUpdate] = []
        """Updates published and not yet written (see :meth:`finish`)."""

    def finish(self) -> None:
        """Write each update this change publishes as text, once, in its place."""
        written = self.work.messages
        for update in self.updates:
            text = messages.update(update.events, update.instant, update.room)
            place = next(i for i, m in enumerate(written) if m is update.slot)
            written[place] = Message(text, skip=update.skip)
        self.updates = []

    def connected_seats(self) -> set[int]:
        digests = self.ctx.presence.secrets
        return {
            i for i, s in enumerate(self.room.seats) if s.secret_hash and s.secret_hash in digests
        }

    def touch(self) -> None:
        self.room.touched_at = self.ctx.wall
        self.work.changed = True


def run_handler(room: Room, ctx: Context | None, handler: Callable[[Step], T]) -> tuple[Step, T]:
    """Run a handler on a draft of ``room``; ``room`` itself is never changed.

    >>> from snakes.engine import Rules
    >>> from snakes.server.rooms.model import Mode, Room
    >>> room = Room(code="ABCDEF", mode=Mode.PASS, rules=Rules(), seats=[])
    >>> step, _ = run_handler(room, None, lambda step: step.room.seats.append("x"))
    >>> room.seats, step.room.seats
    ([], ['x'])
    """
    step = Step(room, ctx)
    result = handler(step)
    step.finish()
    return step, result
