"""A full disk mid-game: rolls are refused and change nothing; once there is room again
the same players roll on; a SIGKILL and a restart then load every room exactly as its
players last saw it, with a gapless log.

The data folder is a small tmpfs of the test's own (the test runs as root, as CI does),
and a filler file fills it.
"""

from __future__ import annotations

import contextlib
import errno
import os
import sqlite3
import subprocess
from collections.abc import Iterator
from pathlib import Path

import pytest

from tests.server.online_helpers import table
from tests.support.client import GameClient
from tests.support.server import TEST_FLAGS, ServerProcess


@contextlib.contextmanager
def small_disk(folder: Path, size: str = "4m") -> Iterator[Path]:
    folder.mkdir(parents=True)
    mounted = subprocess.run(
        ["mount", "-t", "tmpfs", "-o", f"size={size}", "tmpfs", str(folder)],
        check=False,
        capture_output=True,
        text=True,
    )
    if mounted.returncode != 0:
        message = f"cannot mount a tmpfs here: {mounted.stderr.strip()}"
        if os.environ.get("CI") == "true":
            pytest.fail(message)
        pytest.skip(message)
    try:
        yield folder
    finally:
        subprocess.run(["umount", "-l", str(folder)], check=False)


def fill(folder: Path) -> Path:
    """Write a filler file until the disk is full."""
    filler = folder / "filler"
    descriptor = os.open(filler, os.O_WRONLY | os.O_CREAT)
    try:
        while True:
            os.write(descriptor, b"\0" * 4096)
    except OSError as error:
        assert error.errno == errno.ENOSPC
    finally:
        os.close(descriptor)
    return filler


def _log(data: Path, code: str) -> list[int]:
    db = sqlite3.connect(data / "snakes.db")
    try:
        return [
            seq
            for (seq,) in db.execute("SELECT seq FROM actions WHERE code = ? ORDER BY seq", (code,))
        ]
    finally:
        db.close()


def _empty_write_ahead_log(data: Path) -> None:
    """Copy the write-ahead log into the database and cut it to nothing."""
    db = sqlite3.connect(data / "snakes.db", timeout=10)
    try:
        busy, _, _ = db.execute("PRAGMA wal_checkpoint(TRUNCATE)").fetchone()
        assert busy == 0, "the server kept the log busy"
    finally:
        db.close()
    assert (data / "snakes.db-wal").stat().st_size == 0


def test_a_full_disk_refuses_rolls_changes_nothing_and_the_game_goes_on(tmp_path: Path) -> None:
    with small_disk(tmp_path / "disk") as data:
        server = ServerProcess(data, *TEST_FLAGS)
        server.log_path = tmp_path / "server.log"  # the log must not fill the disk itself
        server.start()
        try:
            code, players = table(server, 2)
            players[0].client.send({"type": "start"})
            for player in players:
                player.catch_up()
            for turn in range(6):
                seat = turn % 2
                server.script_dice(2)
                assert players[seat].roll()["type"] == "update"
                for player in players:
                    player.catch_up()
            # SQLite asks the disk for more only when a change outgrows the space its
            # write-ahead log already holds: a log that a checkpoint copied out is
            # written over from its start, and such a change is stored and shown like
            # any other. So the log is emptied first (a checkpoint from a connection of
            # the test's own, as any SQLite client may run), then the disk filled: the
            # very next change needs space the disk no longer has.
            _empty_write_ahead_log(data)
            filler = fill(data)
            shown = players[1].client.room
            assert shown is not None
            seat = shown["turn"]
            server.script_dice(1)
            answer = players[seat].roll()
            assert answer["type"] == "error", answer
            assert answer["code"] == "unavailable", answer
            other = players[1 - seat].client
            with contextlib.suppress(TimeoutError):
                while True:  # nobody was shown a move (a countdown restarted by a
                    # recovery between two failing writes may be)
                    message = other.recv(timeout=1)
                    assert message["type"] != "update" or not message["events"], message
            assert other.room is not None
            assert (other.room["version"], other.room["turn"]) == (shown["version"], seat)
            assert [s["square"] for s in other.room["seats"]] == [
                s["square"] for s in shown["seats"]
            ]
            filler.unlink()
            for _ in range(4):  # the same players roll on, the refused roll first
                now = players[0].client.room
                assert now is not None
                turn = now["turn"]
                server.script_dice(1)
                for _ in range(20):  # the store is probed twice a second after an outage
                    answer = players[turn].roll()
                    if answer["type"] == "update":
                        break
                    # stale (the room moved on): a welcome alone answers it
                    assert answer["type"] == "welcome" or answer["code"] == "unavailable"
                    players[turn].catch_up()
                assert answer["type"] == "update"
                for player in players:
                    player.catch_up()
            last = players[0].client.room
            assert last is not None and last["version"] == shown["version"] + 4
            server.kill()
            server.start()
            with GameClient(server.ws_url) as back:
                welcome = back.hello(code, players[0].secret)
            room = welcome["room"]
            assert room["version"] == last["version"]
            assert [s["square"] for s in room["seats"]] == [s["square"] for s in last["seats"]]
            assert _log(data, code) == list(range(1, last["version"] + 1))  # gapless
        finally:
            server.kill()
