"""A room's stored row is written whole now and then; its live part with every change.

Whatever was written last (the whole row, or only the live part over an older row), a
room read back from the SQLite file is the room its players were last shown: the same
version, squares, turn, timers and countdown. And a long game does not rewrite its whole
row with every roll ("No intent replays a game from its start"; cost flat in game length).
"""

from __future__ import annotations

import json
import sqlite3
from pathlib import Path

from snakes.engine import Rules
from snakes.server.backends.rows import SNAPSHOT_EVERY
from snakes.server.backends.sqlite import SQLiteLog
from snakes.server.rooms.intents import Roll
from snakes.server.rooms.model import Room
from tests.support.inprocess import Table, in_folder, run

# A long race: every roll a 1 or a 2, no bonus sixes, no exact finish to wait for.
LONG = Rules(six_again=False)


def _same(stored: Room, current: Room) -> None:
    assert stored.version == current.version
    assert stored.rev == current.rev
    assert stored.game == current.game
    assert stored.actions == current.actions
    assert stored.rolls == current.rolls
    assert stored.timers == current.timers
    assert stored.turn_clock == current.turn_clock
    assert stored.touched_at == current.touched_at
    assert stored.settings_key() == current.settings_key()


def _row_version(folder: Path, code: str) -> tuple[int, int]:
    """(the version the whole row was written at, the live part's version)."""
    with sqlite3.connect(folder / SQLiteLog.FILE_NAME) as db:
        data, live = db.execute("SELECT data, live FROM rooms WHERE code = ?", (code,)).fetchone()
    row = json.loads(data)["version"]
    return row, json.loads(live)["version"] if live else row


def test_a_room_reads_back_as_shown_after_every_roll_of_a_long_game(tmp_path: Path) -> None:
    folder = tmp_path / "data"

    async def scenario() -> None:
        async with Table(in_folder(folder)) as table:
            code, players = await table.online(3, rules=LONG)
            row_versions = set()
            for turn in range(3 * SNAPSHOT_EVERY):
                table.script(1 + turn % 2)
                room = table.current(code)
                assert room.game is not None and room.game.turn is not None
                await players[room.game.turn].roll(room.game.turn)
                current = table.current(code)
                reader = SQLiteLog.in_folder(folder)  # what a restart would read
                try:
                    stored = reader.load_room(code)
                finally:
                    reader.close()
                assert stored is not None
                _same(stored, current)
                row, live = _row_version(folder, code)
                assert live == current.version
                assert 0 <= live - row < SNAPSHOT_EVERY
                row_versions.add(row)
            # The whole row went in about once per SNAPSHOT_EVERY rolls, not every time.
            assert 3 <= len(row_versions) <= 4

    run(scenario())


def test_a_change_of_anything_but_the_game_writes_the_whole_row(tmp_path: Path) -> None:
    folder = tmp_path / "data"

    async def scenario() -> None:
        async with Table(in_folder(folder)) as table:
            code, (host, _) = await table.online(2, rules=LONG)
            table.script(1)
            await host.roll(0)
            before = _row_version(folder, code)
            await host.send("reactions", on=False)  # a room setting, mid-game
            after = _row_version(folder, code)
            assert after[0] == after[1] == table.current(code).version
            assert before[0] <= after[0]
            reader = SQLiteLog.in_folder(folder)
            try:
                stored = reader.load_room(code)
            finally:
                reader.close()
            assert stored is not None and stored.reactions is False
            _same(stored, table.current(code))

    run(scenario())


def test_with_redis_a_room_reads_back_as_shown_after_every_roll(
    redis_url: str, prefix: str
) -> None:
    """The same plan with Redis: the room's hash holds the row and the live part, and a
    node that loads it (a takeover) gets the room its players were shown."""
    from tests.runtime.test_redis_runtime import nodes, seated

    async def scenario() -> None:
        async with nodes(redis_url, prefix) as (a, b):
            code, ava, ben = await seated(a, b)
            players = {0: ava, 1: ben}
            for turn in range(2 * SNAPSHOT_EVERY + 5):
                a.dice.queued.append(1 + turn % 2)  # type: ignore[attr-defined]
                room = a.current(code)
                assert room is not None and room.game is not None
                seat = room.game.turn
                assert seat is not None
                await b.intent(players[seat].session, Roll(seat, room.version))
                current = a.current(code)
                assert current is not None
                stored = await b.backend.log.load(code)  # what a node taking over reads
                assert stored is not None
                _same(stored, current)

    run(scenario())
