"""What one connection or one client can cost the server: bounded, whatever it sends.

A hello repeated by a connection already in the room, a crowd of spectators, and local
games created but never opened must not grow the work or the store without bound.
"""

from __future__ import annotations

import time
from dataclasses import replace
from pathlib import Path

import pytest

from snakes.engine import JUNGLE, Rules
from snakes.server.backends.sqlite import SQLiteLog
from snakes.server.rooms.errors import ProtocolError
from snakes.server.rooms.model import Kind, Mode, Seat
from tests.support.inprocess import FAST, Table, Viewer, run


def test_a_hello_again_from_a_connection_already_in_the_room_tells_only_that_connection() -> None:
    async def scenario() -> None:
        async with Table() as table:
            code, (host, ben) = await table.online(2)
            for _ in range(50):
                await table.runtime.hello(ben.session, code, table.secrets[code][1])
            assert host.inbox() == []  # nobody else hears of it
            assert [m["type"] for m in ben.inbox()] == ["welcome"] * 50

    run(scenario())


def test_spectators_beyond_the_room_limit_are_refused_with_a_clear_error() -> None:
    async def scenario() -> None:
        async with Table(settings=replace(FAST, max_spectators=3)) as table:
            code, (host, _) = await table.online(2)
            for _ in range(3):
                await table.runtime.hello(Viewer(table.runtime).session, code, None)
            with pytest.raises(ProtocolError) as refused:
                await table.runtime.hello(Viewer(table.runtime).session, code, None)
            assert refused.value.code == "too_many_viewers"
            assert host.inbox() == []  # spectators coming and going cost the players nothing

    run(scenario())


def test_local_games_no_device_opened_are_dropped_soon_and_opened_ones_are_kept(
    tmp_path: Path,
) -> None:
    async def scenario() -> None:
        log = SQLiteLog.in_folder(tmp_path)
        async with Table(log, settings=replace(FAST, unopened_seconds=0.0)) as table:
            seats = [Seat("Me", "red"), Seat("Bot", "blue", Kind.AI)]
            created = [
                await table.runtime.create(
                    Mode.AI, seats, Rules(), shuffle=False, countdown_seconds=None, board=JUNGLE
                )
                for _ in range(20)
            ]
            opened = created[0]
            viewer = Viewer(table.runtime)
            await table.runtime.hello(viewer.session, opened.code, opened.secret)
            await table.runtime.disconnect(viewer.session)
            time.sleep(0.01)
            dropped = await table.runtime.purge()
            assert dropped == 19
            assert log.room_codes(online=False) == [opened.code]

    run(scenario())
