"""What one connection or one client can cost the server: bounded, whatever it sends.

A hello repeated by a connection already in the room, a crowd of spectators, and local
games created but never opened must not grow the work or the store without bound.
"""

from __future__ import annotations

import asyncio
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


def _sent(viewers: list[Viewer]) -> tuple[int, int]:
    """Messages and bytes the viewers were sent since the last look."""
    before = sum(v.bytes_received for v in viewers)
    count = sum(len(v.inbox()) for v in viewers)
    return count, sum(v.bytes_received for v in viewers) - before


def test_what_a_hello_and_a_spectator_join_send_the_others_at_200_spectators() -> None:
    """No amplification: a spectator joining sends nothing to anyone else; a seat coming
    back (or going) sends each other connection one small presence message, not the
    room. ``pytest -s`` prints the figures SECURITY.md quotes."""

    async def scenario() -> None:
        async with Table(settings=replace(FAST, max_spectators=200)) as table:
            code, (host, ben) = await table.online(2)
            watchers: list[Viewer] = []
            joins = []
            for _ in range(200):
                others = [host, ben, *watchers]
                watcher = Viewer(table.runtime)
                await watcher.hello(code)
                joins.append(_sent(others))
                watchers.append(watcher)
            assert set(joins) == {(0, 0)}  # each join: its own welcome, nothing to others
            others = [host, *watchers]
            await ben.leave()
            gone = _sent(others)
            back = Viewer(table.runtime)
            welcome = await back.hello(code, table.secrets[code][1])
            came_back = _sent(others)
            assert gone[0] == came_back[0] == len(others)  # one message each
            assert all(m["type"] == "presence" for v in others for m in v.received[-2:])
            per_message = came_back[1] / came_back[0]
            whole_room = back.bytes_received
            assert per_message * 4 < whole_room
            assert host.room["seats"][1]["connected"] is True
            assert welcome["room"]["seats"][1]["connected"] is True
            print(
                f"\n200 spectators: the 200th spectator's join sends {joins[-1][0]} messages "
                f"to the 201 connections already there (its welcome of {whole_room} bytes "
                f"is the only one); a "
                f"seat's reconnect sends {came_back[0]} presence messages of "
                f"{per_message:.0f} bytes ({came_back[1]} bytes in all)"
            )

    run(scenario())


def test_presence_changes_are_coalesced_into_one_message_per_window() -> None:
    """A player whose connection comes and goes fifty times (a flapping network, or a
    client saying hello over and over) costs each other viewer at most one presence
    message per window, and the last one shows the seat as it ends up."""
    window = 0.05

    async def scenario() -> None:
        async with Table(presence_window=window) as table:
            code, (host, ben) = await table.online(2)
            watcher = await table.watch(code)
            await asyncio.sleep(window * 3)  # the seating's own window is over
            host.inbox()
            sent_before = table.hub.presence_sent
            for _ in range(50):
                await ben.leave()
                await ben.hello(code, table.secrets[code][1])
            early = [m["type"] for m in host.inbox()]
            assert early == ["presence"]  # the first at once; the rest are held
            await asyncio.sleep(window * 3)  # the window ends (real time: it is the hub's)
            late = host.inbox()
            assert [m["type"] for m in late] == ["presence"]
            assert late[0]["connected"] == [True, True]
            assert [m["type"] for m in watcher.inbox()] == ["presence", "presence"]
            assert table.hub.presence_sent - sent_before == 2
            # An update to the room drops a held presence message: it says all of it.
            await ben.leave()
            await ben.hello(code, table.secrets[code][1])
            table.script(3)
            await host.roll(0)
            await asyncio.sleep(window * 3)
            shown = [m["type"] for m in watcher.inbox()]
            assert shown in (["update"], ["presence", "update"]), shown
            assert watcher.room["seats"][1]["connected"] is True

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
