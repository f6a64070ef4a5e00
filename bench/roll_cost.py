"""Server-side CPU per roll, without sockets: the runtime, handlers, engine, views, store.

One process: ``--rooms`` online rooms of ``--seats`` seated sessions (in-memory
outboxes, no network). Each roll is a real intent through ``RoomRuntime.intent``
(the room's queue, a pure handler, the commit, an update queued for every seat).

- ``--backend sqlite`` (default): one node, a SQLite file in a temporary folder.
- ``--backend redis --nodes 2``: two runtimes in this one process sharing a Redis, with
  each room's players split over both (the owner applies; the other node forwards).
  CPU then counts this process (both nodes) and ``redis-server`` (read from /proc).

It prints microseconds of CPU per roll, overall and at the 10th and the 500th action of
a game (games are kept long with a die that shows only 1s and 2s, so that every game
reaches 500 actions), and with ``--profile`` the top of a cProfile.

    python bench/roll_cost.py
    python bench/roll_cost.py --backend redis --nodes 2
    python bench/roll_cost.py --rooms 300 --rolls 5000 --profile
    python bench/roll_cost.py --profile --parts
"""

from __future__ import annotations

import argparse
import asyncio
import cProfile
import os
import pstats
import random
import secrets
import shlex
import subprocess
import sys
import tempfile
import time
from pathlib import Path
from typing import Any

import redis
from snakes.engine import JUNGLE, Finish, Rules
from snakes.server.app import build_runtime
from snakes.server.clock import SystemClock, WallClock
from snakes.server.rooms.intents import Rematch, Roll, Start
from snakes.server.rooms.model import Mode, Phase, Room, Seat
from snakes.server.runtime.runtime import RoomRuntime
from snakes.server.settings import Settings
from snakes.testing.sessions import RecordingSession

COLOURS = ["red", "blue", "green", "yellow", "purple", "orange"]
WINDOW = 5
PARTS: list[tuple[str, tuple[tuple[str, str], ...]]] = [
    ("handler (rules, engine, view, encoding)", (("rooms/work.py", "run_handler"),)),
    ("  engine: the move", (("engine/game.py", "roll"), ("engine/game.py", "apply"))),
    ("  room view", (("rooms/updates.py", "view"),)),
    ("  live odds", (("rooms/views.py", "_odds"),)),
    ("SQLite write (group commit)", (("backends/sqlite.py", "write_many"),)),
    ("delivery to connections", (("runtime/hub.py", "deliver"),)),
    ("JSON encoding, everywhere", (("server/jsontext.py", "dumps"), ("json/__init__.py", "dumps"))),
]
"""What ``--parts`` reports: a label, and the functions whose cumulative time it is
(file path ending, function name; the first that the profile holds counts)."""
"""Rolls within this many actions of 10 (or 500) count toward that figure."""


class LongGames:
    """A die that shows 1 or 2: games last long enough to measure late actions."""

    def __init__(self) -> None:
        self._random = random.Random(1)

    def next_roll(self, room: Room, faces: int) -> int:
        return self._random.randint(1, 2)


def _change(runtime: RoomRuntime, code: str) -> int:
    """The room's ``change`` as its owner holds it: what a start names."""
    room = runtime.current(code)
    assert room is not None
    return room.change


def _redis_cpu_seconds() -> float:
    """User + system CPU of the machine's redis-server processes, from /proc."""
    total = 0.0
    ticks = os.sysconf("SC_CLK_TCK")
    found = subprocess.run(
        ["pgrep", "-x", "redis-server"], check=False, capture_output=True, text=True
    )
    for pid in found.stdout.split():
        fields = Path(f"/proc/{pid}/stat").read_text().rsplit(")", 1)[1].split()
        total += (int(fields[11]) + int(fields[12])) / ticks
    return total


async def _run(args: argparse.Namespace) -> None:  # noqa: PLR0915  (one benchmark, read top to bottom)
    folder = Path(tempfile.mkdtemp(prefix="snakes-roll-cost-"))
    prefix = f"snakes-bench-{secrets.token_hex(3)}:"
    runtimes: list[RoomRuntime] = []
    for node in range(args.nodes):
        settings = Settings(
            data_dir=folder / f"node{node}",
            countdown_default=60,
            commit_window=args.commit_window / 1000,
            redis_window=args.commit_window / 1000,
            redis_url=args.redis if args.backend == "redis" else None,
            redis_prefix=prefix,
        )
        clock = WallClock() if args.backend == "redis" else SystemClock()
        runtime = build_runtime(settings, clock, LongGames())
        await runtime.start()
        runtimes.append(runtime)
    rules = Rules(finish=Finish.LAST_ONE_STANDING)
    tables: list[tuple[str, list[tuple[RoomRuntime, RecordingSession]]]] = []
    for _ in range(args.rooms):
        owner = runtimes[0]
        created = await owner.create(
            Mode.ONLINE, [Seat("Host", "red")], rules, shuffle=False, countdown_seconds=60,
            board=JUNGLE,
        )  # fmt: skip
        held = [created.secret]
        for index, colour in enumerate(COLOURS[1 : args.seats]):
            held.append((await owner.join(created.code, f"P{index}", colour))[2])
        seated = []
        for index, secret in enumerate(held):
            runtime = runtimes[index % len(runtimes)]
            session = RecordingSession()
            await runtime.hello(session, created.code, secret)
            seated.append((runtime, session))
        await seated[0][0].intent(seated[0][1], Start(_change(owner, created.code)))
        tables.append((created.code, seated))

    def drain() -> None:
        for _, seated in tables:
            for _, session in seated:
                session.outbox.clear()

    at: dict[int, list[float]] = {10: [], 500: []}

    async def roll(count: int) -> None:
        for i in range(count):
            code, seated = tables[i % len(tables)]
            room = runtimes[0].current(code)
            assert room is not None
            if room.phase is Phase.OVER:
                for runtime, session in seated:  # a proposal: everyone agrees
                    await runtime.intent(session, Rematch(room.change))
                room = runtimes[0].current(code)
                assert room is not None
            assert room.game is not None and room.game.turn is not None
            seat, version = room.game.turn, room.version
            runtime, session = seated[seat]
            started = time.process_time()
            await runtime.intent(session, Roll(seat, version))
            spent = time.process_time() - started
            for mark, samples in at.items():
                if abs(len(room.actions) + 1 - mark) <= WINDOW:
                    samples.append(spent)
            if i % 200 == 0:
                drain()

    await roll(300)  # warm up
    drain()
    at = {10: [], 500: []}
    redis_before = _redis_cpu_seconds() if args.backend == "redis" else 0.0
    started = time.process_time()
    await roll(args.rolls)
    spent = time.process_time() - started
    redis_spent = (_redis_cpu_seconds() - redis_before) if args.backend == "redis" else 0.0
    what = f"{args.backend}, {args.nodes} node(s), {args.rooms} rooms of {args.seats}"
    print(f"{args.rolls} rolls ({what}):")
    print(f"  this process: {spent / args.rolls * 1e6:.0f} µs of CPU per roll")
    if args.backend == "redis":
        print(f"  redis-server: {redis_spent / args.rolls * 1e6:.0f} µs of CPU per roll")
        total = (spent + redis_spent) / args.rolls * 1e6
        print(f"  together:     {total:.0f} µs of CPU per roll")
    for mark, samples in at.items():
        if samples:
            mean = sum(samples) / len(samples) * 1e6
            print(f"  at action {mark:>3}: {mean:.0f} µs per roll ({len(samples)} rolls)")
    if args.profile:
        profiler = cProfile.Profile(time.process_time)
        profiler.enable()
        await roll(args.rolls)
        profiler.disable()
        stats = pstats.Stats(profiler).sort_stats(os.environ.get("SORT", "tottime"))
        if args.parts:
            _print_parts(stats, args.rolls)
        else:
            stats.print_stats(int(os.environ.get("TOP", "20")))
        if os.environ.get("CALLERS"):
            stats.print_callers(os.environ["CALLERS"])
    for runtime in runtimes:
        await runtime.stop()
    if args.backend == "redis":
        client = redis.Redis.from_url(args.redis)
        keys = list(client.scan_iter(match=f"{prefix}*", count=1000))
        if keys:
            client.delete(*keys)
        client.close()


def _print_parts(stats: pstats.Stats, rolls: int) -> None:
    """Cumulative CPU per roll of each part of ``PARTS``, as µs and as a share."""
    table: dict[tuple[str, int, str], Any] = stats.stats  # type: ignore[attr-defined]
    total = stats.total_tt  # type: ignore[attr-defined]
    print(f"  profiled: {total / rolls * 1e6:.0f} µs per roll (the profiler adds its own)")
    for label, functions in PARTS:
        for ending, name in functions:
            found = [v[3] for k, v in table.items() if k[0].endswith(ending) and k[2] == name]
            if found:
                spent = sum(found)
                print(f"  {label:<42} {spent / rolls * 1e6:6.0f} µs  {spent / total:6.1%}")
                break
        else:
            print(f"  {label:<42}      -")


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    parser.add_argument("--rooms", type=int, default=20)
    parser.add_argument("--seats", type=int, default=6)
    parser.add_argument("--rolls", type=int, default=20000)
    parser.add_argument("--backend", choices=["sqlite", "redis"], default="sqlite")
    parser.add_argument("--nodes", type=int, default=1)
    parser.add_argument("--redis", default="redis://127.0.0.1:6379/0")
    parser.add_argument(
        "--commit-window",
        type=float,
        default=0.0,
        help="ms, for the SQLite and the Redis window; rolls here come one at a time, so "
        "a window only adds waiting",
    )
    parser.add_argument("--profile", action="store_true")
    parser.add_argument(
        "--parts", action="store_true", help="with --profile: CPU per roll by part of a roll"
    )
    args = parser.parse_args()
    print(f"$ python {shlex.join(sys.argv)}")
    asyncio.run(_run(args))


if __name__ == "__main__":
    main()
