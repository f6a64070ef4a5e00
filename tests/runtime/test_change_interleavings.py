"""One applied action per change, over random interleavings of intents and hand-overs.

Two nodes hold one online lobby: two runtimes on one SQLite file (each takes itself for
the owner; the store's revision check decides), or two runtimes on one real Redis (a
hand-over moves the room's lease to the other node while the first still holds its old
value). Random batches of host intents, each naming the ``change`` its node's viewer was
shown (or an older one), run at once on either node, and each commit yields to the
event loop a random number of times, so that intents queue behind a room's lock while
the room is let go. Whatever the order:

- each ``change`` is named by at most one applied intent, and the applied ones named
  every change in turn (one applied action per version);
- the stored room is what those intents, applied in that order, make (never a fork,
  never a lost update);
- no two intents of one node ever commit to one room at the same time.
"""

from __future__ import annotations

import asyncio
import secrets
from collections.abc import AsyncIterator, Callable
from contextlib import asynccontextmanager
from dataclasses import dataclass, field
from pathlib import Path
from typing import Any

import pytest
from hypothesis import HealthCheck, example, given, settings
from hypothesis import strategies as st

from snakes.engine import JUNGLE, Rules
from snakes.server.backends.local import LocalBackend
from snakes.server.backends.redis_backend import RedisBackend
from snakes.server.backends.sqlite import SQLiteLog
from snakes.server.clock import ManualClock
from snakes.server.rooms.dice import ServerDice
from snakes.server.rooms.errors import ProtocolError
from snakes.server.rooms.messages import intent_from
from snakes.server.rooms.model import Mode, Room, Seat
from snakes.server.rooms.work import Work
from snakes.server.runtime.hub import Hub
from snakes.server.runtime.owners import LocalOwners
from snakes.server.runtime.runtime import RoomRuntime
from snakes.testing.hooks import ScriptableDice
from tests.support.inprocess import FAST, Viewer, run

NAMES = ["Robo", "Zed", "Kit", "Max", "Lou"]
COLOURS = ["blue", "green", "yellow", "purple", "orange"]


@dataclass
class Overlaps:
    """Commits in flight per (node, room): more than one at once is a broken queue."""

    yields: list[int] = field(default_factory=lambda: [0])
    in_flight: dict[tuple[int, str], int] = field(default_factory=dict)
    worst: int = 0

    async def around(self, node: int, code: str, commit: Callable[[], Any]) -> Any:
        key = (node, code)
        self.in_flight[key] = self.in_flight.get(key, 0) + 1
        self.worst = max(self.worst, self.in_flight[key])
        try:
            for _ in range(self.yields[0]):
                await asyncio.sleep(0)  # another intent may run here, if the queue lets it
            return await commit()
        finally:
            self.in_flight[key] -= 1


class WatchedLocal(LocalBackend):
    def __init__(self, log: SQLiteLog, clock: ManualClock, node: int, o: Overlaps):
        super().__init__(log, clock)
        self.node, self.overlaps = node, o

    async def commit(
        self, room: Room, work: Work, *, created: bool = False, request: str = ""
    ) -> bool:
        parent = super().commit
        answer: bool = await self.overlaps.around(
            self.node, room.code, lambda: parent(room, work, created=created, request=request)
        )
        return answer


class WatchedRedis(RedisBackend):
    node_number = 0
    overlaps = Overlaps()

    async def commit(
        self, room: Room, work: Work, *, created: bool = False, request: str = ""
    ) -> bool:
        parent = super().commit
        answer: bool = await self.overlaps.around(
            self.node_number,
            room.code,
            lambda: parent(room, work, created=created, request=request),
        )
        return answer


@dataclass
class Node:
    runtime: RoomRuntime
    host: Viewer
    hand_over: Callable[[str], Any] | None = None


@asynccontextmanager
async def _running(runtimes: list[RoomRuntime]) -> AsyncIterator[None]:
    """Start every runtime; stop them all at the end."""
    for runtime in runtimes:
        await runtime.start()
    try:
        yield
    finally:
        for runtime in runtimes:
            await runtime.stop()


@asynccontextmanager
async def sqlite_nodes(folder: Path, overlaps: Overlaps) -> AsyncIterator[list[RoomRuntime]]:
    clock = ManualClock()
    runtimes = []
    for index in range(2):
        hub = Hub(0.0)
        backend = WatchedLocal(SQLiteLog.in_folder(folder), clock, index, overlaps)
        dice = ScriptableDice(ServerDice())
        runtimes.append(RoomRuntime(FAST, backend, dice, hub, LocalOwners()))
    async with _running(runtimes):
        yield runtimes


@asynccontextmanager
async def redis_nodes(
    url: str, prefix: str, overlaps: Overlaps
) -> AsyncIterator[list[RoomRuntime]]:
    clock = ManualClock()
    runtimes = []
    for index in range(2):
        hub = Hub(0.0)
        backend = WatchedRedis(url, hub, prefix=prefix, clock=clock)
        backend.node_number, backend.overlaps = index, overlaps
        dice = ScriptableDice(ServerDice())
        runtimes.append(RoomRuntime(FAST, backend, dice, hub, backend.owners))
    async with _running(runtimes):
        yield runtimes


Intent = tuple[int, str, dict[str, Any], int]
"""(node, operation, its arguments, how far behind the node's view its change is)."""


@st.composite
def intents(draw: st.DrawFn) -> Intent:
    node = draw(st.integers(0, 1))
    kind = draw(st.sampled_from(["add_ai", "add_ai", "remove", "remove", "rules", "reactions"]))
    args: dict[str, Any] = {}
    if kind == "add_ai":
        pick = draw(st.integers(0, len(NAMES) - 1))
        args = {"name": NAMES[pick], "colour": COLOURS[pick]}
    elif kind == "remove":
        args = {"seat": draw(st.integers(1, 3))}
    elif kind == "rules":
        args = {
            "rules": Rules().to_data(),
            "countdown_seconds": draw(st.sampled_from([15, 30, 45])),
            "board": None,
        }
    else:
        args = {"on": draw(st.booleans())}
    behind = draw(st.sampled_from([0, 0, 0, 1]))  # mostly what the node's viewer saw
    return node, kind, args, behind


STEPS = st.lists(
    st.one_of(
        st.lists(intents(), min_size=1, max_size=4),  # a batch, all at once
        st.sampled_from([0, 1]),  # the room's lease goes to this node (Redis)
    ),
    min_size=3,
    max_size=12,
)


async def _lobby(nodes: list[RoomRuntime]) -> tuple[str, list[Node]]:
    created = await nodes[0].create(
        Mode.ONLINE, [Seat("Host", "red")], Rules(), shuffle=False,
        countdown_seconds=20, board=JUNGLE,
    )  # fmt: skip
    code = created.code
    await nodes[0].join(code, "Ann", "blue")
    placed = []
    for runtime in nodes:
        host = Viewer(runtime)
        await host.hello(code, created.secret)
        placed.append(Node(runtime, host))
    return code, placed


Applied = tuple[int, str, dict[str, Any]]


async def _play(
    nodes: list[Node],
    code: str,
    steps: list[Any],
    yields: list[int],
    hand_over: Callable[[int], Any],
) -> list[Applied]:
    applied: list[Applied] = []

    async def one(intent: Intent) -> None:
        index, kind, args, behind = intent
        node = nodes[index]
        seen = node.host._shown()
        assert seen is not None
        change = max(0, seen["change"] - behind)
        try:
            if not await node.runtime.intent(
                node.host.session, intent_from(kind, {**args, "change": change})
            ):
                return  # stale: its sender was shown the room again
        except ProtocolError:
            return
        applied.append((change, kind, args))

    for number, step in enumerate(steps):
        yields[0] = number % 4
        if isinstance(step, int):
            await hand_over(step)
            continue
        await asyncio.gather(*(one(i) for i in step))
    return applied


def _model(start: Room, applied: list[Applied]) -> tuple[list[str], int, bool, int]:
    """Seats, countdown, reactions and ``change`` after the applied intents, in order of
    the changes they named; each must have named the change the room was at."""
    seats = [s.name for s in start.seats]
    countdown, reactions, change = start.countdown_seconds, start.reactions, start.change
    # A host's switch to what it already is changes nothing, at the change it named; of
    # the intents that named one change, such switches came first (after the one that
    # moved the room on they would have been stale; and a node holding an older copy of
    # the room may find its switch already so, and answer it untold), whatever order the
    # list holds them in.
    for at in sorted({a[0] for a in applied}):
        moved = [
            (named, kind, args)
            for named, kind, args in applied
            if named == at and not (kind == "reactions" and args["on"] == reactions)
        ]
        assert len(moved) <= 1, (at, applied)  # one applied action per change
        for named, kind, args in moved:
            assert named == change, (named, change, applied)
            if kind == "add_ai":
                seats.append(args["name"])
            elif kind == "remove":
                del seats[args["seat"]]
            elif kind == "rules":
                countdown = args["countdown_seconds"]
            else:
                reactions = args["on"]
            change += 1
    return seats, countdown, reactions, change


async def _check(
    nodes: list[Node],
    code: str,
    start: Room,
    applied: list[Applied],
    load: Callable[[], Any],
    overlaps: Overlaps,
) -> None:
    named = [a[0] for a in applied if a[1] != "reactions"]
    assert len(named) == len(set(named)), applied  # one applied action per change
    stored: Room = await load()
    seats, countdown, reactions, change = _model(start, applied)
    assert [s.name for s in stored.seats] == seats
    assert (stored.countdown_seconds, stored.reactions, stored.change) == (
        countdown,
        reactions,
        change,
    )
    assert overlaps.worst == 1, "two intents of one node committed to one room at once"


SWITCHES = [
    [(0, "reactions", {"on": False}, 0), (0, "reactions", {"on": True}, 0)],
    [(1, "reactions", {"on": True}, 0), (0, "reactions", {"on": False}, 0)],
    1,
    [(0, "reactions", {"on": True}, 0), (1, "add_ai", {"name": NAMES[0], "colour": COLOURS[0]}, 0)],
]
"""Switches to what the room already has beside one that changes it, all naming the same
change: the model once read them in the list's order, not the order they were applied."""

SETTINGS = settings(
    max_examples=25,
    deadline=None,
    suppress_health_check=[HealthCheck.too_slow, HealthCheck.function_scoped_fixture],
)


@SETTINGS
@given(steps=STEPS)
@example(steps=SWITCHES)
def test_one_applied_action_per_change_with_the_sqlite_store(
    tmp_path: Path, steps: list[Any]
) -> None:
    async def scenario() -> None:
        overlaps = Overlaps()
        folder = tmp_path / secrets.token_hex(4)
        async with sqlite_nodes(folder, overlaps) as runtimes:
            code, nodes = await _lobby(runtimes)
            log = SQLiteLog.in_folder(folder)
            try:
                start = log.load_room(code)
                assert start is not None

                async def nothing(_: int) -> None:
                    """Both nodes take themselves for the owner: the store decides."""

                applied = await _play(nodes, code, steps, overlaps.yields, nothing)
                await _check(
                    nodes, code, start, applied, lambda: _async(log.load_room(code)), overlaps
                )
            finally:
                log.close()

    run(scenario())


async def _async(value: Any) -> Any:
    return value


@pytest.mark.usefixtures("redis_url")
@SETTINGS
@given(steps=STEPS)
@example(steps=SWITCHES)
def test_one_applied_action_per_change_with_the_redis_store(
    redis_url: str, prefix: str, steps: list[Any]
) -> None:
    async def scenario() -> None:
        overlaps = Overlaps()
        async with redis_nodes(redis_url, prefix, overlaps) as runtimes:
            code, nodes = await _lobby(runtimes)
            backend = runtimes[0].backend
            start = await backend.log.load(code)
            assert start is not None

            async def hand_over(to: int) -> None:
                owner = runtimes[to].backend.owners  # type: ignore[attr-defined]
                await owner.link.redis.set(f"{prefix}room:{{{code}}}:owner", owner.node)

            applied = await _play(nodes, code, steps, overlaps.yields, hand_over)
            await _check(nodes, code, start, applied, lambda: backend.log.load(code), overlaps)

    run(scenario())
