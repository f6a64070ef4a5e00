"""A runtime in this process: the memory or SQLite log, a manual clock, scripted dice.

Sessions are the runtime's own connection objects; what the server would send them is
read from their outboxes. No sockets, no sleeps: time moves with ``clock.advance``.
"""

from __future__ import annotations

import asyncio
import json
from collections import deque
from collections.abc import Callable, Coroutine
from concurrent.futures import ThreadPoolExecutor
from dataclasses import dataclass, field
from pathlib import Path
from typing import Any, TypeVar

from snakes.engine import JUNGLE, Rules
from snakes.server.backends.local import LocalBackend, LocalLog
from snakes.server.backends.memory import MemoryLog
from snakes.server.clock import ManualClock
from snakes.server.rooms.dice import ServerDice
from snakes.server.rooms.intents import Roll
from snakes.server.rooms.messages import intent_from
from snakes.server.rooms.model import Mode, Room, Seat
from snakes.server.rooms.work import RoomDice
from snakes.server.runtime.hub import Hub
from snakes.server.runtime.owners import LocalOwners
from snakes.server.runtime.runtime import RoomRuntime
from snakes.server.settings import Settings
from snakes.server.transport import ws
from snakes.testing.hooks import ScriptableDice
from snakes.testing.sessions import RecordingSession
from tests.support.client import seen
from tests.support.presence import with_presence

T = TypeVar("T")


def seen_args(name: str, args: dict[str, Any], room: dict[str, Any] | None) -> dict[str, Any]:
    """An intent's arguments with what its sender saw filled in, as the page sends them."""
    message = seen({"type": name, **args}, room)
    return {k: v for k, v in message.items() if k != "type"}


FAST = Settings(ai_delay=0.05, animation_scale=0.0)
CLASSIC = Rules()


async def socket_message(payload: bytes, session: Any, runtime: RoomRuntime) -> None:
    """One message as the game's WebSocket takes it when nothing of its connection waits:
    parsed and validated as it comes (a ping answered there), then applied, and any
    refusal answered with an ``error`` (``transport/ws.py``: ``receive``, ``apply``)."""
    incoming = ws.receive(payload, session, asyncio.get_running_loop().time())
    if incoming is not None:
        await ws.apply(incoming, session, runtime)


async def settle() -> None:
    """Let every task that can run, run (timers after a clock move, deliveries)."""
    for _ in range(20):
        await asyncio.sleep(0)


async def until(check: Callable[[], bool], seconds: float = 60.0) -> None:
    """Let the loop run until ``check()`` holds: for what happens on real time (a store
    probe, a thread's write). ``seconds`` only ends a test that would hang."""
    deadline = asyncio.get_running_loop().time() + seconds
    while not check():
        assert asyncio.get_running_loop().time() < deadline, "it never happened"
        await asyncio.sleep(0.01)


@dataclass
class Viewer:
    """One connection to a room and what it has been sent."""

    runtime: RoomRuntime
    session: RecordingSession = field(default_factory=RecordingSession)
    received: list[dict[str, Any]] = field(default_factory=list)
    secret: str | None = None
    """The seat secret this viewer said hello with (None: a spectator)."""
    bytes_received: int = 0

    def inbox(self) -> list[dict[str, Any]]:
        """Messages sent since the last look."""
        fresh = []
        outbox = self.session.outbox
        while outbox:
            payload = outbox.popleft()
            self.bytes_received += len(payload)
            fresh.append(json.loads(payload))
        self.received += fresh
        return fresh

    @property
    def room(self) -> dict[str, Any]:
        """The room as this viewer was last shown it (presence messages applied)."""
        self.inbox()
        at = next(i for i in range(len(self.received) - 1, -1, -1) if "room" in self.received[i])
        room: dict[str, Any] = self.received[at]["room"]
        for message in self.received[at + 1 :]:
            if message["type"] == "presence":
                room = with_presence(room, message)
        return room

    @property
    def you(self) -> dict[str, Any]:
        self.inbox()
        last = next(m for m in reversed(self.received) if "you" in m)
        you: dict[str, Any] = last["you"]
        return you

    async def roll(self, seat: int) -> None:
        await self.runtime.intent(self.session, Roll(seat, self.room["version"]))

    async def send(self, name: str, **args: Any) -> None:
        """An intent, as the WebSocket endpoint would pass it on (naming the ``change``
        of the room this viewer was last shown, unless given)."""
        intent = intent_from(name, seen_args(name, args, self._shown()))
        await self.runtime.intent(self.session, intent)

    def _shown(self) -> dict[str, Any] | None:
        """The room as last shown, without taking anything from the inbox."""
        pending = [json.loads(p) for p in self.session.outbox]
        shown = [m["room"] for m in [*self.received, *pending] if "room" in m]
        return shown[-1] if shown else None

    async def hello(self, code: str, secret: str | None = None) -> dict[str, Any]:
        """Say hello to a room; the answer is the welcome."""
        self.secret = secret
        await self.runtime.hello(self.session, code, secret)
        return next(m for m in self.inbox() if m["type"] == "welcome")

    async def leave(self) -> None:
        """The connection goes (a closed tab, a lost network)."""
        await self.runtime.disconnect(self.session)


class Table:
    """A runtime with its log, clock and dice (the server's, or ``dice``, unless a test
    queued the next values), and helpers to seat players.

    Presence messages go out at once (``presence_window`` 0): a test reads what each
    change sends without waiting; the coalescing has tests of its own."""

    def __init__(
        self,
        room_log: LocalLog | None = None,
        settings: Settings = FAST,
        *,
        presence_window: float = 0.0,
        dice: RoomDice | None = None,
    ) -> None:
        self.clock = ManualClock()
        self.log: LocalLog = room_log or MemoryLog()
        self.dice = ScriptableDice(dice or ServerDice())
        self.hub = Hub(presence_window)
        backend = LocalBackend(self.log, self.clock)
        self.runtime = RoomRuntime(settings, backend, self.dice, self.hub, LocalOwners())
        self.secrets: dict[str, list[str]] = {}
        """Each online room's seat secrets, by seat."""

    def script(self, *values: int) -> None:
        self.dice.queued = deque(values)

    async def __aenter__(self) -> Table:
        await self.runtime.start()
        return self

    async def __aexit__(self, *_: object) -> None:
        await self.runtime.stop()

    def current(self, code: str) -> Room:
        room = self.runtime.current(code)
        assert room is not None
        return room

    async def lobby(
        self, players: int, *, countdown: int = 20, rules: Rules = CLASSIC
    ) -> tuple[str, list[Viewer]]:
        """An online lobby with ``players`` seated and connected (Host, P1, P2, ...)."""
        created = await self.runtime.create(
            Mode.ONLINE, [Seat("Host", "red")], rules, shuffle=False,
            countdown_seconds=countdown, board=JUNGLE,
        )  # fmt: skip
        secrets = [created.secret]
        for index, colour in enumerate(["blue", "green", "yellow", "purple"][: players - 1]):
            secrets.append((await self.runtime.join(created.code, f"P{index + 1}", colour))[2])
        self.secrets[created.code] = secrets
        viewers = []
        for secret in secrets:
            viewer = Viewer(self.runtime)
            await viewer.hello(created.code, secret)
            viewers.append(viewer)
        for viewer in viewers:
            viewer.inbox()
        return created.code, viewers

    async def online(
        self, players: int, *, countdown: int = 20, rules: Rules = CLASSIC
    ) -> tuple[str, list[Viewer]]:
        """An online room with ``players`` seated and connected, started."""
        code, viewers = await self.lobby(players, countdown=countdown, rules=rules)
        await viewers[0].send("start", shuffle=False)
        for viewer in viewers:
            viewer.inbox()
        return code, viewers

    async def watch(self, code: str, secret: str | None = None) -> Viewer:
        """A new connection to the room (a spectator unless it brings a seat's secret)."""
        viewer = Viewer(self.runtime)
        await viewer.hello(code, secret)
        return viewer


def in_folder(folder: Path) -> LocalLog:
    from snakes.server.backends.sqlite import SQLiteLog

    return SQLiteLog.in_folder(folder)


def run(coroutine: Coroutine[Any, Any, T]) -> T:
    """Run a scenario on an event loop of its own, in a thread of its own.

    The browser tests' Playwright keeps an event loop running in the main thread for the
    whole session, and ``asyncio.run`` refuses to start inside a running loop.
    """
    with ThreadPoolExecutor(max_workers=1) as pool:
        return pool.submit(asyncio.run, coroutine).result()
