"""Redis stalls (SIGSTOP) for 8 s in the middle of a countdown: nobody is skipped, marked
away or disconnected, and nothing is abandoned. PRODUCT.md: "If the server restarts, an
interrupted countdown starts again in full: nobody is skipped for the server's downtime."

Real node processes on real wall clocks (the stall is real time). The room is owned by
node A; both players sit on node B.
"""

from __future__ import annotations

import os
import signal
import time
from pathlib import Path

from tests.redis.private_redis import PrivateRedis
from tests.server.online_helpers import Player, join
from tests.support.client import GameClient, Message
from tests.support.server import ServerProcess

FLAGS = ("--animation-scale", "0", "--countdown-min", "10", "--idle-minutes", "0.5")


def _seen(messages: list[Message], kind: str) -> bool:
    return any(
        m["type"] == "update" and any(e["type"] == kind for e in m["events"]) for m in messages
    )


def _drain(player: Player) -> None:
    while True:
        try:
            player.client.recv(0.2)
        except TimeoutError:
            return


def test_an_eight_second_redis_stall_mid_countdown_skips_and_abandons_nobody(
    tmp_path: Path,
) -> None:
    with PrivateRedis(tmp_path / "redis") as private:
        flags = (*FLAGS, "--redis", private.url, "--redis-prefix", "stall:")
        node_a = ServerProcess(tmp_path / "a", *flags)
        node_b = ServerProcess(tmp_path / "b", *flags)
        node_a.start()
        node_b.start()
        players: list[Player] = []
        try:
            body = {"mode": "online", "seats": [{"name": "Ava", "colour": "red"}]}
            created = node_a.post("/api/rooms", {**body, "countdown_seconds": 10})
            code = created["code"]
            ava_client = GameClient(node_b.ws_url)
            ava_client.hello(code, created["secret"])
            ava = Player("Ava", 0, created["secret"], ava_client, node_b, code)
            ben = join(node_b, code, "Ben", "blue")
            players = [ava, ben]
            ava.client.send({"type": "start"})
            for player in players:
                player.client.wait_for(lambda m: m.get("room", {}).get("phase") == "playing")
            assert private.process is not None
            time.sleep(1.0)  # Ava's 10 s countdown is running
            os.kill(private.process.pid, signal.SIGSTOP)
            time.sleep(8.0)
            os.kill(private.process.pid, signal.SIGCONT)
            time.sleep(5.0)  # past the old deadline, and past every stale heartbeat
            for player in players:
                _drain(player)
                assert not _seen(player.client.received, "skipped")
                assert not _seen(player.client.received, "game_ended")
                room = player.client.room
                assert room is not None and room["phase"] == "playing" and room["turn"] == 0
                assert all(s["connected"] for s in room["seats"]), [
                    (m["type"], m.get("events"), [s["connected"] for s in m["room"]["seats"]])
                    for m in player.client.received
                    if "room" in m
                ]
                assert not any(s["away"] for s in room["seats"])
                countdown = room["countdown"]
                assert countdown is not None and countdown["remaining_ms"] > 3_000
            assert ava.client.roll(0)["type"] == "update"  # and the game goes on
        finally:
            for player in players:
                player.client.close()
            node_a.kill()
            node_b.kill()
