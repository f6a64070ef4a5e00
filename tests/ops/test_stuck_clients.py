"""Clients that stop reading are cut off within a bound, while the others play on.

Real processes and real sockets: each stuck client is a raw WebSocket with a small
receive buffer that says hello to a room as a spectator and never reads again. Two
players keep rolling in that room, so updates back up behind every stuck client.
"""

from __future__ import annotations

import time
from collections.abc import Callable
from pathlib import Path

import pytest

from tests.server.online_helpers import Player, close_all, start, table
from tests.support.client import Message
from tests.support.server import TEST_FLAGS, ServerProcess, running_server
from tests.support.stuck import StuckReader

STUCK = 20
BOUND_SECONDS = 30.0
OUTBOX_BOUND_SECONDS = BOUND_SECONDS
"""The outbox fills once the socket's buffers are full (the server keeps its send buffer
at 64 KB): about 300 rolls at this pace, 4 s on a quiet machine."""
# Both tests measure how soon real time cuts stuck clients off and how fast the players'
# rolls are answered meanwhile: they run alone, after the parallel tests.
pytestmark = pytest.mark.serial

PLAYERS = 6
PER_PLAYER_GAP = 1 / 30
"""A player's rolls are spaced like a held-down key: under the 40 a second limit."""


def _answer_to(version: int) -> Callable[[Message], bool]:
    """An error, or an update past ``version``."""
    return lambda m: (
        m["type"] == "error" or (m["type"] == "update" and m["room"]["version"] > version)
    )


def _play(players: list[Player], until: float, gap: float = PER_PLAYER_GAP) -> tuple[int, float]:
    """Roll for whoever's turn it is until ``until``: rolls made, slowest answer (s)."""
    rolls, slowest = 0, 0.0
    latest = players[0].client.room or {}
    last_sent: dict[int, float] = {}
    while time.monotonic() < until:
        if latest.get("phase") == "over":
            for player in players:  # a rematch starts once every player agreed
                player.client.send({"type": "rematch"})
            latest = players[0].client.wait_for(
                lambda m: m["type"] == "update" and m["room"]["phase"] == "playing"
            )["room"]
            continue
        seat = latest["turn"]
        roller = next(p for p in players if p.seat == seat)
        version = latest["version"]
        pause = last_sent.get(seat, 0.0) + gap - time.monotonic()
        if pause > 0:
            time.sleep(pause)
        started = last_sent[seat] = time.monotonic()
        roller.client.send({"type": "roll", "seat": seat, "version": version})
        answer = roller.client.wait_for(_answer_to(version))
        assert answer["type"] == "update", answer
        slowest = max(slowest, time.monotonic() - started)
        latest = answer["room"]
        rolls += 1
        for other in players:  # the others read as they go, as browsers do
            if other is not roller:
                other.client.wait_for(_answer_to(latest["version"] - 1))
    return rolls, slowest


def _connections(server: ServerProcess) -> int:
    return int(server.get("/healthz")["connections"])


def _held(server: ServerProcess) -> tuple[int, int]:
    """Descriptors and resident memory (KB) of the server process now."""
    assert server.process is not None
    pid = server.process.pid
    fds = len(list(Path(f"/proc/{pid}/fd").iterdir()))
    status = Path(f"/proc/{pid}/status").read_text()
    rss = next(int(line.split()[1]) for line in status.splitlines() if line.startswith("VmRSS"))
    return fds, rss


def _drop_stuck_readers(
    server: ServerProcess, bound: float = BOUND_SECONDS, gap: float = PER_PLAYER_GAP
) -> tuple[float, int, float]:
    """Seat two players, add the stuck readers, play: seconds until all were dropped."""
    code, players = table(server, PLAYERS)
    try:
        start(players)
        stuck = [StuckReader(server.port, code) for _ in range(STUCK)]
        deadline = time.monotonic() + 10
        while _connections(server) < PLAYERS + STUCK and time.monotonic() < deadline:
            time.sleep(0.05)
        assert _connections(server) == PLAYERS + STUCK
        began = time.monotonic()
        total_rolls, slowest = 0, 0.0
        peak = _held(server)
        while time.monotonic() - began < bound + 5:
            rolls, slow = _play(players, time.monotonic() + 0.5, gap)
            total_rolls, slowest = total_rolls + rolls, max(slowest, slow)
            held = _held(server)
            peak = (max(peak[0], held[0]), max(peak[1], held[1]))
            if _connections(server) == PLAYERS:
                break
        took = time.monotonic() - began
        left = _connections(server) - PLAYERS
        for reader in stuck:
            reader.close()
        assert left == 0, f"{left} stuck readers still connected after {took:.1f} s"
        # The players played on all along, and still do.
        assert total_rolls > 0
        rolls, slow = _play(players, time.monotonic() + 1)
        assert rolls > 0
        after = _held(server)
        print(f"server at most {peak[0]} fds, {peak[1]} KB; after the drop {after[0]} fds")
        return took, total_rolls, max(slowest, slow)
    finally:
        close_all(players)


def test_stuck_readers_are_dropped_by_the_keepalive_while_a_player_plays(tmp_path: Path) -> None:
    """The keepalive (here 2 s) cuts off clients that take nothing: ping unanswered, or a
    send that waited the whole keepalive time. The table rolls about 30 times a second:
    enough to fill a stuck client's socket buffers in a few seconds, too few to fill its
    outbox (256 updates) before the keepalive acts, so that only the keepalive is tried."""
    with running_server(tmp_path / "data", *TEST_FLAGS, "--keepalive", "2") as server:
        took, rolls, slowest = _drop_stuck_readers(server, gap=PLAYERS / 30)
        assert took < 3 * 2 + 2, f"dropped after {took:.1f} s"
        assert slowest < 2.0, f"a roll took {slowest:.2f} s"
        assert "Traceback" not in server.log()
        print(f"keepalive: {STUCK} stuck readers dropped in {took:.1f} s; {rolls} rolls meanwhile")


def test_stuck_readers_are_dropped_when_their_outbox_is_full(tmp_path: Path) -> None:
    """With a keepalive longer than the test, only the outbox limit (256 unsent updates)
    can cut a stuck client off: SEND_QUEUE_LIMIT = 10**9 turns this red."""
    with running_server(tmp_path / "data", *TEST_FLAGS, "--keepalive", "600") as server:
        took, rolls, slowest = _drop_stuck_readers(server, OUTBOX_BOUND_SECONDS)
        assert took < OUTBOX_BOUND_SECONDS
        assert slowest < 2.0, f"a roll took {slowest:.2f} s"
        assert "Traceback" not in server.log()
        print(f"outbox: {STUCK} stuck readers dropped in {took:.1f} s; {rolls} rolls meanwhile")
