"""Games on a Redis Cluster: three nodes over a local cluster of three primaries and
three replicas (real processes), a primary SIGKILLed mid-game, a slot moved mid-game.

docs/DEPLOY.md ("On a Redis Cluster") reports the figures these tests print.
"""

from __future__ import annotations

import json
import threading
import time
from collections.abc import Iterator
from pathlib import Path
from typing import Any

import pytest

from snakes.server.backends.redis_keys import RedisKeys
from tests.redis.conftest import Cluster
from tests.redis.local_cluster import LocalCluster
from tests.server.online_helpers import Player, close_all, create_room, join
from tests.support.client import GameClient, Message
from tests.support.server import ServerProcess

pytestmark = [pytest.mark.processes, pytest.mark.slow]

PREFIX = "snakes-cluster:"
GOES_ON_SECONDS = 15.0
"""How long a game may stall while a replica takes over (docs/DEPLOY.md)."""


@pytest.fixture
def cluster(tmp_path: Path) -> Iterator[LocalCluster]:
    with LocalCluster(tmp_path / "redis") as started:
        yield started


@pytest.fixture
def nodes(tmp_path: Path, cluster: LocalCluster) -> Iterator[list[ServerProcess]]:
    with Cluster(tmp_path, cluster.url, PREFIX, 3) as started:
        yield started


def _seat_across(nodes: list[ServerProcess]) -> tuple[str, list[Player]]:
    """A room created through node 0; player i joins and plays through node i."""
    code, host = create_room(nodes[0], exact_finish=False)
    players = [host]
    for index, node in enumerate(nodes[1:], start=1):
        players.append(join(node, code, f"P{index + 1}", ["blue", "green"][index - 1]))
    host.client.send({"type": "start"})
    for player in players:
        player.client.wait_for(lambda m: (m.get("room") or {}).get("phase") == "playing")
    return code, players


def _acknowledged(players: list[Player]) -> dict[int, list[Message]]:
    """Every change a player was told of, by the room's version it led to."""
    told: dict[int, list[Message]] = {}
    for player in players:
        for message in player.client.received:
            if message["type"] == "update" and message["events"] and message["room"]["version"]:
                told.setdefault(message["room"]["version"], message["events"])
    return told


def _roll_on(players: list[Player], seconds: float = GOES_ON_SECONDS) -> float:
    """The player whose turn it is rolls until the roll is acknowledged (a stall while
    the cluster mends is answered with an error, and the roll is tried again); the
    seconds it took. Every player is then caught up to it."""
    began = time.monotonic()
    while True:
        assert time.monotonic() - began < seconds, "no roll was acknowledged in time"
        latest = max(players, key=lambda p: p.client.version).client
        room = latest.room
        assert room is not None
        mover = players[room["turn"]]
        version = latest.version
        try:
            answer = mover.client.roll(mover.seat, version)
        except TimeoutError:
            continue
        if answer["type"] == "update":
            took = time.monotonic() - began
            version = answer["room"]["version"]
            for player in players:
                if player.client.version < version:
                    # An update, or the room sent afresh (a welcome) when this player's
                    # node heard its room's channel again after a primary's failover.
                    player.client.wait_for(
                        lambda m, v=version: (
                            m["type"] in ("update", "welcome") and m["room"]["version"] >= v
                        )
                    )
            return took
        # A refusal while the cluster mends (or a stale roll's welcome): read on, ask again.
        assert answer["type"] in ("error", "welcome"), answer
        if answer["type"] == "error":
            assert answer["code"] in ("unavailable", "busy", "outcome_unknown"), answer
            time.sleep(0.05)


def _stored(cluster: LocalCluster, code: str) -> list[dict[str, Any]]:
    """The game's actions as the cluster holds them."""
    client = cluster.client()
    try:
        logged = client.lrange(RedisKeys(PREFIX, cluster=True).actions(code), 0, -1)
    finally:
        client.close()
    return [json.loads(action) for action in logged]


def _all_there(
    node: ServerProcess, cluster: LocalCluster, code: str, players: list[Player]
) -> None:
    """Every change a player was told of is in the store, once, in its place."""
    told = _acknowledged(players)
    stored = _stored(cluster, code)
    room = node.get(f"/api/rooms/{code}")
    assert [action["seq"] for action in stored] == list(range(1, room["version"] + 1))
    assert told and max(told) <= room["version"]
    # A change told and then lost would have its version told again with other events.
    for player in players:
        for message in player.client.received:
            if message["type"] == "update" and message["events"] and message["room"]["version"]:
                assert told[message["room"]["version"]] == message["events"], "a fork"
    for player in players:
        versions = [
            m["room"]["version"]
            for m in player.client.received
            if m["type"] == "update" and m["events"]
        ]
        assert versions == sorted(versions), "a change was told out of order"


def test_players_on_three_nodes_play_a_whole_game_on_a_cluster(
    nodes: list[ServerProcess], cluster: LocalCluster
) -> None:
    code, players = _seat_across(nodes)
    for _ in range(3000):
        room = players[0].client.room
        assert room is not None
        if room["over"]:
            break
        _roll_on(players)
    final = players[0].client.room
    assert final is not None and final["over"]
    _all_there(nodes[2], cluster, code, players)
    # The room's keys are in its bucket's slot, its timers in its bucket's own set: no
    # key holds every room.
    keys = RedisKeys(PREFIX, cluster=True)
    client = cluster.client()
    try:
        assert client.exists(keys.room(code), keys.actions(code))
        assert client.keyslot(keys.room(code)) == client.keyslot(keys.timers(code))
        assert not client.exists(f"{PREFIX}timers")
    finally:
        client.close()
    close_all(players)


def test_a_primary_killed_mid_game_loses_no_acknowledged_roll(
    nodes: list[ServerProcess], cluster: LocalCluster
) -> None:
    code, players = _seat_across(nodes)
    for _ in range(6):
        _roll_on(players)
    told_before = max(_acknowledged(players))
    primary = cluster.primary_of(RedisKeys(PREFIX, cluster=True).room(code))
    killed_at = time.monotonic()
    cluster.kill(primary)
    went_on = _roll_on(players)  # the first roll acknowledged after the kill
    # The first change after the kill comes right after the last one told before it:
    # none of those was lost with the primary.
    assert min(v for v in _acknowledged(players) if v > told_before) == told_before + 1
    cluster.wait_until_served(RedisKeys(PREFIX, cluster=True).room(code), primary)
    served = time.monotonic() - killed_at
    for _ in range(6):
        _roll_on(players)
    _all_there(nodes[1], cluster, code, players)
    stored = _stored(cluster, code)
    assert len(stored) >= told_before + 7
    print(
        f"\nfailover: a roll acknowledged {went_on:.2f} s after the primary's SIGKILL (its"
        f" replica served the slot by {served:.2f} s); {told_before} changes told before it,"
        f" {len(stored)} stored after, every one found once"
    )
    close_all(players)


def test_the_slots_of_live_rooms_moved_mid_game_lose_double_and_stall_nothing(
    nodes: list[ServerProcess], cluster: LocalCluster
) -> None:
    code, players = _seat_across(nodes)
    room_key = RedisKeys(PREFIX, cluster=True).room(code)
    source = cluster.primary_of(room_key)
    target = next(p for p in cluster.ports if p != source and p in _primaries(cluster))
    for _ in range(4):
        _roll_on(players)
    moving = threading.Thread(target=cluster.reshard, args=(16384 // 3 + 1, source, target))
    began = time.monotonic()
    moving.start()
    rolls = 0
    slowest = 0.0
    while moving.is_alive() or rolls < 4:
        room = players[0].client.room
        assert room is not None
        if room["over"]:
            break
        slowest = max(slowest, _roll_on(players))
        rolls += 1
    moving.join()
    took = time.monotonic() - began
    assert cluster.primary_of(room_key) == target, "the room's slot did not move"
    for _ in range(4):
        room = players[0].client.room
        assert room is not None
        if room["over"]:
            break
        _roll_on(players)
    _all_there(nodes[0], cluster, code, players)
    print(
        f"\nreshard: {rolls} rolls while a primary's slots moved ({took:.1f} s);"
        f" the slowest took {slowest * 1000:.0f} ms"
    )
    close_all(players)


def _primaries(cluster: LocalCluster) -> set[int]:
    client = cluster.client()
    try:
        return {int(node.port) for node in client.get_primaries()}
    finally:
        client.close()


def test_a_node_reconnecting_client_keeps_its_seat(nodes: list[ServerProcess]) -> None:
    """A player whose node is killed carries on through another, on the cluster."""
    code, players = _seat_across(nodes)
    for _ in range(3):
        _roll_on(players)
    before = max(p.client.version for p in players)
    nodes[1].kill()
    moved = players[1]
    moved.client = GameClient(nodes[0].ws_url)
    welcome = moved.client.hello(code, moved.secret)
    assert welcome["room"]["version"] == before
    assert welcome["you"]["seats"] == [1]
    moved.server = nodes[0]
    for _ in range(3):
        _roll_on(players)
    close_all(players)
