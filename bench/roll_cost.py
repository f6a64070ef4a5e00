"""Server-side CPU per roll, without sockets: the room manager, engine, views and store.

A single process: ``--rooms`` online rooms of four seated sessions (in-memory outboxes,
no network), a SQLite store in a temporary folder; each roll is a real intent through
``RoomManager.intent`` (lock, handler, commit to SQLite, an update queued for four
sessions). Prints microseconds of CPU per roll, and with ``--profile`` the top of a
cProfile. It is what bench/load.py's server does per roll, minus the WebSocket I/O.

    python bench/roll_cost.py
    python bench/roll_cost.py --rooms 300 --rolls 5000 --profile
"""

from __future__ import annotations

import argparse
import asyncio
import cProfile
import pstats
import shlex
import sys
import tempfile
import time
from pathlib import Path

from snakes.engine import Rules, SecureDice
from snakes.server.backends.local import LocalBackend
from snakes.server.backends.sqlite import SQLiteStore
from snakes.server.clock import SystemClock
from snakes.server.rooms.model import Mode, Phase, Seat
from snakes.server.runtime.manager import RoomManager
from snakes.server.runtime.session import Session
from snakes.server.settings import Settings


async def _run(rooms: int, rolls: int, profile: bool) -> None:
    folder = Path(tempfile.mkdtemp(prefix="snakes-roll-cost-"))
    settings = Settings(data_dir=folder, countdown_default=60)
    backend = LocalBackend(SQLiteStore.in_folder(folder), SystemClock())
    manager = RoomManager(settings, backend, SecureDice())
    await manager.start()
    tables: list[tuple[str, list[Session]]] = []
    for _ in range(rooms):
        room, secret = await manager.create(
            Mode.ONLINE, [Seat("Host", "red")], Rules(), shuffle=False, countdown_seconds=60
        )
        secrets = [secret]
        for index, colour in enumerate(["blue", "green", "yellow"]):
            secrets.append((await manager.join(room.code, f"P{index}", colour))[2])
        sessions = []
        for held in secrets:
            session = Session()
            await manager.hello(session, room.code, held)
            sessions.append(session)
        await manager.intent(sessions[0], lambda s, r: manager.start_game(s, r, False))
        tables.append((room.code, sessions))

    def drain() -> None:
        for _, sessions in tables:
            for session in sessions:
                while not session.outbox.empty():
                    session.outbox.get_nowait()

    async def roll(count: int) -> None:
        for i in range(count):
            code, sessions = tables[i % len(tables)]
            room = manager.rooms[code]
            if room.phase is Phase.OVER:
                await manager.intent(sessions[0], manager.rematch)
                room = manager.rooms[code]
            assert room.game is not None and room.game.turn is not None
            seat, version = room.game.turn, room.version
            await manager.intent(
                sessions[seat], lambda s, r, t=seat, v=version: manager.roll(s, r, t, v)
            )
            if i % 200 == 0:
                drain()

    await roll(500)  # warm up
    drain()
    started = time.process_time()
    await roll(rolls)
    plain = (time.process_time() - started) / rolls
    print(f"{rolls} rolls over {rooms} rooms: {plain * 1e6:.0f} µs of CPU per roll")
    if profile:
        profiler = cProfile.Profile()
        profiler.enable()
        await roll(rolls)
        profiler.disable()
        pstats.Stats(profiler).sort_stats("tottime").print_stats(20)
    await manager.stop()


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    parser.add_argument("--rooms", type=int, default=300)
    parser.add_argument("--rolls", type=int, default=5000)
    parser.add_argument("--profile", action="store_true")
    args = parser.parse_args()
    print(f"$ python {shlex.join(sys.argv)}")
    asyncio.run(_run(args.rooms, args.rolls, args.profile))


if __name__ == "__main__":
    main()
