"""Play with AI and Pass & Play through the runtime: one device, the room clock, SQLite.

PRODUCT.md, Pass & Play: "2–6 people share one device. The glowing seat card names
whose turn it is; one Roll button rolls for that seat."
"""  # noqa: RUF002

from __future__ import annotations

from pathlib import Path
from typing import Any

import pytest

from snakes.engine import JUNGLE, Rules
from snakes.server.backends.sqlite import SQLiteLog
from snakes.server.boards import board_named
from snakes.server.rooms.errors import ProtocolError
from snakes.server.rooms.model import Kind, Mode, Seat
from snakes.server.runtime.runtime import Created
from tests.support.inprocess import Table, Viewer, run, settle

PEOPLE = [Seat("Ana", "red"), Seat("Ben", "blue"), Seat("Cy", "green")]


async def create(table: Table, mode: Mode, seats: list[Seat], board: str = "jungle") -> Created:
    return await table.runtime.create(
        mode, seats, Rules(), shuffle=False, countdown_seconds=None, board=board_named(board)
    )


def test_a_pass_and_play_device_holds_every_seat_and_rolls_for_whoever_is_up() -> None:
    """PRODUCT.md: "one Roll button rolls for that seat" and "A roll of 1 from square 0
    lands on 1 and climbs to 38."."""

    async def scenario() -> None:
        async with Table() as table:
            created = await create(table, Mode.PASS, PEOPLE)
            assert created.seats == [0, 1, 2]
            device = Viewer(table.runtime)
            welcome = await device.hello(created.code, created.secret)
            assert welcome["you"] == {"seats": [0, 1, 2], "host": False, "spectator": False}
            assert welcome["room"]["phase"] == "playing"
            table.script(1)
            await device.roll(0)
            (update,) = device.inbox()
            kinds = [e["type"] for e in update["events"]]
            assert kinds == ["rolled", "moved", "climbed", "turn_passed"]
            assert update["room"]["seats"][0]["square"] == 38
            assert update["room"]["turn"] == 1 and update["room"]["version"] == 1

    run(scenario())


def test_ai_seats_roll_by_themselves_after_a_pause() -> None:
    """PRODUCT.md, Play with AI: "AI seats roll by themselves after a short, natural
    pause, with the same dice as everyone."."""

    async def scenario() -> None:
        async with Table() as table:
            seats = [Seat("Ana", "red"), Seat("Robo", "blue", Kind.AI)]
            created = await create(table, Mode.AI, seats)
            device = Viewer(table.runtime)
            await device.hello(created.code, created.secret)
            table.script(2, 4)
            await device.roll(0)
            device.inbox()
            # The AI waits for its pause on the server's clock; nothing happens until it
            # passes. Asked of the server, not of what the device last saw.
            table.clock.advance(0.01)
            await settle()
            room = table.current(created.code)
            assert room.version == 1 and room.game is not None and room.game.turn == 1
            assert device.inbox() == []
            table.clock.advance(1.0)
            await settle()
            room = table.current(created.code)
            assert room.version == 2 and room.game is not None and room.game.turn == 0
            (update,) = device.inbox()
            assert update["events"][0] == {"type": "rolled", "seat": 1, "value": 4, "bonus": False}
            assert update["room"]["turn"] == 0

    run(scenario())


def test_a_game_survives_a_server_restart_at_the_same_move(tmp_path: Path) -> None:
    """PRODUCT.md: "Nothing a player did is lost: a restart or a crash of the server
    resumes every game at its last move."."""

    async def first_life() -> tuple[Created, dict[str, Any]]:
        async with Table(SQLiteLog.in_folder(tmp_path)) as table:
            created = await create(table, Mode.PASS, PEOPLE)
            device = Viewer(table.runtime)
            await device.hello(created.code, created.secret)
            table.script(5, 6, 2)
            await device.roll(0)
            await device.roll(1)
            await device.roll(1)
            return created, device.room

    async def second_life(created: Created) -> dict[str, Any]:
        async with Table(SQLiteLog.in_folder(tmp_path)) as table:
            device = Viewer(table.runtime)
            welcome = await device.hello(created.code, created.secret)
            assert welcome["you"]["seats"] == [0, 1, 2]
            room: dict[str, Any] = welcome["room"]
            return room

    created, before = run(first_life())
    after = run(second_life(created))
    assert after["version"] == before["version"] == 3
    assert [s["square"] for s in after["seats"]] == [5, 8, 0]
    assert after["turn"] == before["turn"] == 2


def test_a_local_game_nobody_shows_is_let_go_and_resumes_from_the_store() -> None:
    """PRODUCT.md: "Local games (both modes above) pause while no device shows them, and
    are kept: Home offers "Resume game"."."""

    async def scenario() -> None:
        async with Table() as table:
            created = await create(table, Mode.PASS, PEOPLE[:2])
            device = await table.watch(created.code, created.secret)
            table.script(3)
            await device.roll(0)
            await device.leave()
            assert table.runtime.current(created.code) is None  # paused: only stored
            again = await table.watch(created.code, created.secret)
            assert again.room["version"] == 1 and again.room["seats"][0]["square"] == 3

    run(scenario())


def test_a_room_can_be_played_on_a_shipped_board() -> None:
    """PRODUCT.md: "Other boards are data and are validated"."""

    async def scenario() -> None:
        async with Table() as table:
            created = await create(table, Mode.PASS, PEOPLE[:2], board="short")
            view = await table.runtime.view(created.code)
            assert view["board"]["name"] == "short" and view["board"] != JUNGLE.to_data()
            with pytest.raises(ProtocolError) as unknown:
                board_named("nowhere")
            assert unknown.value.code == "invalid_board"

    run(scenario())
