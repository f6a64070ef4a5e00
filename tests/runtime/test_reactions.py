"""Reactions at the table, through the runtime in process: who may send one, the limits,
the host's switch, and that a reaction is never a game action.

The brief: "Any seated player (not a spectator) sends one from a small tray ... Reactions
are not game actions: they never bump the version, are not stored in the record, and
are rate-limited (1 a second and 10 a minute per seat, with a typed refusal). ... The
host can turn reactions off for the room."
"""

from __future__ import annotations

import json
import sqlite3
from pathlib import Path
from typing import Any

import pytest

from snakes.engine import JUNGLE, Rules
from snakes.server.rooms.errors import ProtocolError
from snakes.server.rooms.model import Mode, Seat
from snakes.server.rooms.reactions import PER_MINUTE, REACTIONS
from tests.support.inprocess import Table, Viewer, in_folder, run, settle


def reactions_of(viewer: Viewer) -> list[dict[str, Any]]:
    return [m for m in viewer.inbox() if m["type"] == "reaction"]


async def refused(viewer: Viewer, **args: Any) -> ProtocolError:
    with pytest.raises(ProtocolError) as caught:
        await viewer.send("react", **args)
    return caught.value


def test_a_reaction_reaches_every_device_in_the_room_the_sender_too() -> None:
    async def scenario() -> None:
        async with Table() as table:
            code, (host, ben, cy) = await table.online(3)
            watcher = await table.watch(code)
            watcher.inbox()
            await ben.send("react", seat=1, reaction="laugh")
            for viewer in (host, ben, cy, watcher):
                (seen,) = reactions_of(viewer)
                assert {k: seen[k] for k in ("seat", "reaction")} == {
                    "seat": 1,
                    "reaction": "laugh",
                }
            assert reactions_of(host) == []  # one message each, nothing more
            # Each device is told who it is, as with every message.
            assert ben.received[-1]["you"] == {"seats": [1], "host": False, "spectator": False}
            assert set(REACTIONS) == {
                "clap", "laugh", "wow", "scream", "snake", "ladder", "party", "wave"
            }  # fmt: skip

    run(scenario())


def test_one_reaction_a_second_per_seat_with_the_wait_in_the_refusal() -> None:
    async def scenario() -> None:
        async with Table() as table:
            _, (host, ben) = await table.online(2)
            await host.send("react", seat=0, reaction="clap")
            too_soon = await refused(host, seat=0, reaction="wow")
            assert too_soon.code == "too_many_reactions"
            assert too_soon.retry_after == 1.0
            table.clock.advance(0.6)
            again = await refused(host, seat=0, reaction="wow")
            assert again.retry_after == pytest.approx(0.4)
            # Another seat has its own limit.
            await ben.send("react", seat=1, reaction="wave")
            # A refused reaction is sent to nobody.
            assert [m["reaction"] for m in reactions_of(ben)] == ["clap", "wave"]
            table.clock.advance(0.4)
            await host.send("react", seat=0, reaction="wow")
            assert [m["reaction"] for m in reactions_of(ben)] == ["wow"]

    run(scenario())


def test_ten_reactions_a_minute_per_seat() -> None:
    async def scenario() -> None:
        async with Table() as table:
            _, (host, ben) = await table.online(2)
            for _ in range(PER_MINUTE):
                await host.send("react", seat=0, reaction="party")
                table.clock.advance(1.0)
            # Ten in the last ten seconds: the eleventh waits until the first is a
            # minute old.
            full = await refused(host, seat=0, reaction="party")
            assert full.code == "too_many_reactions"
            assert full.retry_after == pytest.approx(50.0)
            assert "10 reactions a minute" in full.message
            table.clock.advance(49.9)
            assert (await refused(host, seat=0, reaction="party")).retry_after == pytest.approx(0.1)
            table.clock.advance(0.1)
            await host.send("react", seat=0, reaction="party")
            assert len(reactions_of(ben)) == PER_MINUTE + 1

    run(scenario())


def test_spectators_others_seats_and_leavers_cannot_react() -> None:
    async def scenario() -> None:
        async with Table() as table:
            code, (host, ben, cy) = await table.online(3)
            watcher = await table.watch(code)
            assert (await refused(watcher, seat=0, reaction="clap")).code == "spectator"
            assert (await refused(ben, seat=0, reaction="clap")).code == "not_your_seat"
            assert (await refused(ben, seat=1, reaction="shrug")).code == "bad_message"
            await cy.send("leave", seat=2)
            assert (await refused(cy, seat=2, reaction="clap")).code == "spectator"
            await settle()
            assert all(reactions_of(v) == [] for v in (host, ben, watcher))

    run(scenario())


def test_reactions_are_for_online_rooms() -> None:
    async def scenario() -> None:
        async with Table() as table:
            created = await table.runtime.create(
                Mode.PASS, [Seat("Ana", "red"), Seat("Ben", "blue")], Rules(),
                shuffle=False, countdown_seconds=None, board=JUNGLE,
            )  # fmt: skip
            device = await table.watch(created.code, created.secret)
            assert device.room["reactions"] is False
            assert (await refused(device, seat=0, reaction="clap")).code == "not_allowed"

    run(scenario())


def test_the_host_turns_reactions_off_and_on_for_the_room() -> None:
    async def scenario() -> None:
        async with Table() as table:
            code, (host, ben) = await table.online(2)
            assert ben.room["reactions"] is True
            with pytest.raises(ProtocolError) as not_host:
                await ben.send("reactions", on=False)
            assert not_host.value.code == "not_host"
            version = table.current(code).version
            await host.send("reactions", on=False)
            (update,) = [m for m in ben.inbox() if m["type"] == "update"]
            assert update["events"] == [{"type": "reactions_changed", "on": False}]
            assert update["room"]["reactions"] is False
            assert table.current(code).version == version  # a setting, not a game action
            off = await refused(ben, seat=1, reaction="clap")
            assert off.code == "reactions_off"
            assert (await refused(host, seat=0, reaction="clap")).code == "reactions_off"
            assert reactions_of(host) == []
            await host.send("reactions", on=True)
            await ben.send("react", seat=1, reaction="clap")
            assert [m["reaction"] for m in reactions_of(host)] == ["clap"]

    run(scenario())


# A short game with nothing left to chance: no exact finish, no bonus sixes.
# Host: 1 -> 38 (ladder), 39, 45, 51 -> 67 (ladder), 71 -> 91 (ladder), 94, 100.
PATH = (1, 1, 6, 6, 4, 3, 6)


def _stored(folder: Path) -> tuple[int, list[str], list[str]]:
    """The SQLite file's own view: actions logged, every room row, every record."""
    with sqlite3.connect(folder / "snakes.db") as db:
        (actions,) = db.execute("SELECT COUNT(*) FROM actions").fetchone()
        rows = [f"{r[0]}|{r[1]}" for r in db.execute("SELECT data, live FROM rooms")]
        records = [r[0] for r in db.execute("SELECT record FROM records")]
    return actions, rows, records


def test_a_reaction_is_never_a_game_action_and_a_restart_shows_no_trace(tmp_path: Path) -> None:
    folder = tmp_path / "data"
    rules = Rules(exact_finish=False, six_again=False)

    async def play() -> tuple[str, list[str]]:
        async with Table(in_folder(folder)) as table:
            code, (host, ben) = await table.online(2, rules=rules)
            before = table.current(code)
            stored_before = _stored(folder)
            await host.send("react", seat=0, reaction="snake")
            table.clock.advance(1.0)
            await ben.send("react", seat=1, reaction="ladder")
            after = table.current(code)
            # Not the version, not even the store's revision: nothing was written.
            assert (after.version, after.rev) == (before.version, before.rev)
            assert after.actions == before.actions == []
            assert _stored(folder) == stored_before
            for value in PATH:
                table.script(value, 1)
                await host.roll(0)
                if table.current(code).game.over:  # type: ignore[union-attr]
                    break
                table.clock.advance(1.0)
                await host.send("react", seat=0, reaction="party")
                await ben.roll(1)
                await ben.send("react", seat=1, reaction="wow")
            room = table.current(code)
            assert room.phase.value == "over"
            # Every logged action is a roll: the version counts them and nothing else.
            assert room.version == len(room.actions) == 2 * len(PATH) - 1
            record = await table.runtime.record(code, None)
            assert record is not None
            return code, table.secrets[code]

    code, secrets = run(play())
    actions, rows, records = _stored(folder)
    assert actions == 2 * len(PATH) - 1
    for text in [*rows, *records]:
        # Neither a reaction nor the limits' memory is stored ("reactions" is the
        # host's switch); "party" and "wow" occur nowhere else.
        for word in ('"reaction"', "reacted", "party", "wow"):
            assert word not in text, word
    (record,) = records
    assert {a["type"] for a in json.loads(record)["actions"]} == {"roll"}

    async def again() -> None:
        async with Table(in_folder(folder)) as table:
            back = Viewer(table.runtime)
            welcome = await back.hello(code, secrets[0])
            assert welcome["room"]["version"] == 2 * len(PATH) - 1
            await settle()
            assert [m["type"] for m in back.inbox()] == []
            assert all(m["type"] != "reaction" for m in back.received)

    run(again())
