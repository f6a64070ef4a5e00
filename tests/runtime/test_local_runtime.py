"""The runtime in this process, on the memory log or a real SQLite file, with a manual clock.

How to play: "In online rooms, everyone rolls from their own device — the room waits
for the current player, and if someone stalls or disconnects, their turn is skipped
after the countdown so nobody is stuck waiting; no roll is ever made on their behalf."
"""

from __future__ import annotations

import asyncio
import sqlite3
from dataclasses import replace
from pathlib import Path
from typing import Any

import pytest

from snakes.engine import JUNGLE, Rules
from snakes.server.backends.sqlite import SQLiteLog
from snakes.server.rooms.errors import ProtocolError
from snakes.server.rooms.model import Mode, Seat
from tests.support.inprocess import FAST, Table, Viewer, run, settle, until


def _refuse_writes(action: int, *_: object) -> int:
    return sqlite3.SQLITE_DENY if action in _WRITES else sqlite3.SQLITE_OK


_WRITES = {sqlite3.SQLITE_INSERT, sqlite3.SQLITE_UPDATE, sqlite3.SQLITE_DELETE}


def _fill(log: SQLiteLog) -> None:
    """SQLite itself refuses every write from now on (its authorizer), as a full disk
    would; the process-level test fills a real tmpfs (tests/faults/)."""
    log._db.set_authorizer(_refuse_writes)


def _free(log: SQLiteLog) -> None:
    log._db.set_authorizer(None)


def test_a_roll_is_stored_then_every_seat_is_told() -> None:
    async def scenario() -> None:
        async with Table() as table:
            code, (host, ben) = await table.online(2)
            table.script(3)
            await host.roll(0)
            for viewer in (host, ben):
                update = viewer.inbox()[-1]
                assert [e["type"] for e in update["events"]][:2] == ["rolled", "moved"]
                assert update["room"]["turn"] == 1 and update["room"]["seats"][0]["square"] == 3
            assert table.current(code).version == 1
            assert [a for _, _, a in table.log.action_log(code)] == [  # type: ignore[attr-defined]
                {"type": "roll", "seat": 0, "value": 3}
            ]

    run(scenario())


def test_a_failed_write_changes_nothing_and_the_same_roll_works_once_the_store_is_back(
    tmp_path: Path,
) -> None:
    async def scenario() -> None:
        log = SQLiteLog.in_folder(tmp_path)
        async with Table(log) as table:
            code, (host, ben) = await table.online(2)
            before = table.current(code)
            shown = host.room["version"]
            _fill(log)
            table.script(4)
            with pytest.raises(ProtocolError) as refused:
                await host.roll(0)
            assert refused.value.code == "unavailable"
            assert table.current(code) is before  # the current room was never touched
            assert before.version == shown and before.game is not None
            assert before.game.positions == (0, 0)
            assert host.inbox() == [] and ben.inbox() == []  # nobody was told anything
            _free(log)
            table.script(4)
            await host.roll(0)  # the same intent, at the same version
            assert table.current(code).version == shown + 1
            assert log.action_log(code) == [(1, 1, {"type": "roll", "seat": 0, "value": 4})]
        reopened = SQLiteLog.in_folder(tmp_path)
        room = reopened.load_room(code)
        assert room is not None and room.version == 1 and room.game is not None
        assert room.game.positions == (14, 0)  # 4 is a ladder's foot: 4 -> 14
        reopened.close()

    run(scenario())


def test_the_last_action_and_the_record_are_stored_together_or_not_at_all(
    tmp_path: Path,
) -> None:
    async def scenario() -> None:
        log = SQLiteLog.in_folder(tmp_path)
        async with Table(log) as table:
            code, (_host, ben) = await table.online(2)
            _fill(log)
            with pytest.raises(ProtocolError):
                await ben.send("leave", seat=1)
            assert await log.load_record(code, None) is None
            assert log.action_log(code) == []
            _free(log)
            await ben.send("leave", seat=1)  # Classic: host wins
            assert table.current(code).phase.value == "over"
            assert await log.load_record(code, None) is not None
            assert [a["type"] for _, _, a in log.action_log(code)] == ["leave"]

    run(scenario())


def test_a_store_outage_skips_nobody_and_the_countdown_restarts_in_full(tmp_path: Path) -> None:
    async def scenario() -> None:
        log = SQLiteLog.in_folder(tmp_path)
        async with Table(log) as table:
            code, (host, ben) = await table.online(2, countdown=10)
            _fill(log)
            table.script(4)
            with pytest.raises(ProtocolError):
                await host.roll(0)  # the store is down; the runtime now knows it
            table.clock.advance(30)  # far past the host's countdown
            await settle()
            assert table.current(code).game.missed == (0, 0)  # type: ignore[union-attr]
            host.inbox()
            ben.inbox()
            shown = len(host.received), len(ben.received)
            _free(log)

            def both_told() -> bool:  # the store is probed twice a second, in real time
                host.inbox()
                ben.inbox()
                return len(host.received) > shown[0] and len(ben.received) > shown[1]

            await until(both_told)
            await settle()
            room = host.room
            assert room["turn"] == 0 and room["seats"][0]["missed"] == 0
            assert room["countdown"]["remaining_ms"] == 10_000  # in full, shown to everyone
            assert ben.room["countdown"]["remaining_ms"] == 10_000

    run(scenario())


def test_the_countdown_skips_a_stalled_player_and_never_rolls_for_them() -> None:
    async def scenario() -> None:
        async with Table() as table:
            _code, (_host, ben) = await table.online(2, countdown=10)
            table.clock.advance(10.01)
            await settle()
            update = ben.inbox()[-1]
            assert update["events"][0] == {
                "type": "skipped", "seat": 0, "bonus_lost": False, "missed": 1
            }  # fmt: skip
            assert update["room"]["seats"][0]["square"] == 0 and update["room"]["turn"] == 1

    run(scenario())


def test_a_spectator_joining_sends_nothing_to_anyone_else() -> None:
    async def scenario() -> None:
        async with Table(settings=replace(FAST, max_spectators=200)) as table:
            code, (host, ben) = await table.online(2)
            watchers = []
            for _ in range(200):
                watcher = Viewer(table.runtime)
                await table.runtime.hello(watcher.session, code, None)
                watchers.append(watcher)
            assert host.inbox() == [] and ben.inbox() == []
            assert all(len(w.inbox()) == 1 for w in watchers)  # each gets its welcome only
            assert watchers[0].received[0]["type"] == "welcome"
            assert watchers[0].received[0]["you"] == {"seats": [], "host": False, "spectator": True}

    run(scenario())


def test_a_player_coming_back_sees_the_running_countdown_in_the_welcome(tmp_path: Path) -> None:
    async def first_life() -> str:
        async with Table(SQLiteLog.in_folder(tmp_path)) as table:
            code, _ = await table.online(2, countdown=10)
            return code

    async def second_life(code: str) -> dict[str, Any]:
        async with Table(SQLiteLog.in_folder(tmp_path)) as table:
            back = Viewer(table.runtime)
            room = table.runtime  # the restart put every countdown back in full
            secret = None
            del room, secret
            await table.runtime.hello(back.session, code, None)
            return back.inbox()[0]

    code = run(first_life())
    welcome = run(second_life(code))
    assert welcome["type"] == "welcome"
    countdown = welcome["room"]["countdown"]
    assert countdown is not None and countdown["remaining_ms"] == 10_000 and countdown["seat"] == 0


def test_an_unknown_room_is_refused_with_a_typed_error() -> None:
    async def scenario() -> None:
        async with Table() as table:
            viewer = Viewer(table.runtime)
            for code in ("ZZZZZZ", "not a code"):
                with pytest.raises(ProtocolError) as refused:
                    await table.runtime.hello(viewer.session, code, None)
                assert refused.value.code == "room_not_found"
            assert table.runtime.queue_count == 0 and table.runtime.room_count == 0

    run(scenario())


def test_sqlite_errors_never_escape_the_store_unwrapped(tmp_path: Path) -> None:
    log = SQLiteLog.in_folder(tmp_path)
    _fill(log)
    with pytest.raises(sqlite3.Error):
        log._db.execute("BEGIN IMMEDIATE")
        log._db.execute("INSERT INTO health (id, probed_at) VALUES (2, 0)")
        log._db.execute("COMMIT")
    if log._db.in_transaction:
        log._db.execute("ROLLBACK")
    assert run(log.probe()) is False
    _free(log)
    assert run(log.probe()) is True
    log.close()


def test_rooms_that_commit_together_share_one_transaction_and_each_waits_for_it(
    tmp_path: Path,
) -> None:
    async def scenario() -> None:
        log = SQLiteLog.in_folder(tmp_path)
        async with Table(log) as table:
            tables = [await table.online(2) for _ in range(8)]
            group = table.runtime.backend.group  # type: ignore[attr-defined]
            before = group.transactions
            table.script(*([3] * 8))
            await asyncio.gather(*(players[0].roll(0) for _, players in tables))
            assert group.transactions == before + 1  # eight rolls, one transaction
            for code, players in tables:
                assert log.action_log(code) == [(1, 1, {"type": "roll", "seat": 0, "value": 3})]
                assert players[1].inbox()[-1]["room"]["version"] == 1  # told after it
            _fill(log)
            table.script(*([2] * 8))
            answers = await asyncio.gather(
                *(players[1].roll(1) for _, players in tables), return_exceptions=True
            )
            assert all(isinstance(a, ProtocolError) and a.code == "unavailable" for a in answers)
            assert all(len(log.action_log(code)) == 1 for code, _ in tables)

    run(scenario())


def test_a_hello_that_could_not_be_stored_leaves_who_is_here_as_it_was(tmp_path: Path) -> None:
    """Presence is a value, like the room: a hello refused with ``unavailable`` does not
    count its connection. Were it counted, the local game would not pause when the one
    device that really shows it goes (PRODUCT.md: "Local games … pause while no device
    shows them")."""

    async def scenario() -> None:
        log = SQLiteLog.in_folder(tmp_path)
        async with Table(log) as table:
            created = await table.runtime.create(
                Mode.PASS, [Seat("Ana", "red"), Seat("Ben", "blue")], Rules(), shuffle=False,
                countdown_seconds=None, board=JUNGLE,
            )  # fmt: skip
            _fill(log)  # the first hello marks the game opened: a write, refused
            with pytest.raises(ProtocolError) as refused:
                await table.watch(created.code, created.secret)
            assert refused.value.code == "unavailable"
            _free(log)
            device = await table.watch(created.code, created.secret)
            assert device.room["phase"] == "playing"
            await device.leave()
            assert table.runtime.current(created.code) is None  # paused: nobody shows it
            assert table.runtime.queue_count == 0  # nothing of it is held any more

    run(scenario())


def test_a_connection_that_went_stays_gone_though_its_drop_could_not_be_stored(
    tmp_path: Path,
) -> None:
    """The one presence change kept when its commit fails: a closed connection is not
    here, whatever the store says. Ben's drop would pause the countdown (a write, refused
    here); he is still shown disconnected afterwards, never as a phantom that holds up
    the game."""

    async def scenario() -> None:
        log = SQLiteLog.in_folder(tmp_path)
        async with Table(log) as table:
            code, (host, ben) = await table.online(2)
            await host.leave()
            _fill(log)
            await ben.leave()  # refused by the store: logged, and the connection is gone
            _free(log)
            watcher = await table.watch(code)
            assert [s["connected"] for s in watcher.room["seats"]] == [False, False]

    run(scenario())
