"""SQLite's write-ahead log stays short while rooms roll without a pause.

The checkpoints run in a thread of their own, on real time: the test shortens their
interval and the log length that starts the log again, and plays on the real file.
"""

from __future__ import annotations

from pathlib import Path

from snakes.engine import Rules
from snakes.server.backends.sqlite import SQLiteLog
from tests.support.inprocess import Table, run

PAGE = 4096
ROLLS = 800


def test_the_log_starts_again_while_rooms_roll_without_a_pause(tmp_path: Path) -> None:
    """A passive checkpoint never finds a moment when the whole log is copied and no
    commit has added to it since: without a restart SQLite appends to the log for as
    long as the server runs (a gigabyte a minute at 10,000 players), and the log's index
    in shared memory grows in the server's memory with it."""
    log = SQLiteLog(tmp_path / SQLiteLog.FILE_NAME, checkpoint_every=0.02, restart_after_frames=200)
    wal = log.path.with_name(log.path.name + "-wal")
    grown: list[int] = []

    async def scenario() -> None:
        async with Table(log) as table:
            rooms = [await table.online(4, rules=Rules(six_again=False)) for _ in range(8)]
            rolls = 0
            while rolls < ROLLS:
                for code, players in rooms:
                    table.script(1 + rolls % 2)  # short steps: no game ends
                    room = table.current(code)
                    assert room.game is not None and room.game.turn is not None
                    await players[room.game.turn].roll(room.game.turn)
                    rolls += 1
            grown.append(rolls)
            grown.append(wal.stat().st_size)

    run(scenario())
    rolls, size = grown
    # Each roll's commit appends about four pages (its action, the index, the room's
    # row): unbounded, the log holds them all, 13 MB. Started again after 200 pages,
    # it holds those and what came while they were copied: 0.8-3.2 MB on a quiet
    # machine, and 4.3 MB seen with both cores busy, when the checkpoint thread waits
    # its turn longer. Half of the unbounded log tells the two apart whatever the load.
    unbounded = ROLLS * 4 * PAGE
    assert size < unbounded / 2, (rolls, size)
