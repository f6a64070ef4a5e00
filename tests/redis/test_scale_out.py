"""Several server processes sharing rooms through Redis (real processes, real Redis)."""

from __future__ import annotations

import contextlib
import threading
import time
from collections.abc import Callable
from pathlib import Path

import pytest
from websockets.exceptions import ConnectionClosed

import redis
from tests.redis.conftest import Cluster
from tests.redis.private_redis import PrivateRedis
from tests.server.online_helpers import Player, close_all, create_room, join
from tests.support.client import GameClient, Message
from tests.support.server import ServerProcess

MAX_ROLLS = 3000


def _seat_across(nodes: list[ServerProcess], **rules: object) -> tuple[str, list[Player]]:
    """A room created through node 0; player i joins and plays through node i."""
    code, host = create_room(nodes[0], **rules)
    players = [host]
    for index, node in enumerate(nodes[1:], start=1):
        players.append(join(node, code, f"P{index + 1}", ["blue", "green", "yellow"][index - 1]))
    host.client.send({"type": "start"})
    for player in players:
        player.catch_up()
        player.client.wait_for(lambda m: m.get("room", {}).get("phase") == "playing")
    return code, players


def _event_log(client: GameClient) -> list[tuple[int, Message]]:
    """The game's events as this client saw them, by the version each led to."""
    seen: dict[int, list[Message]] = {}
    for message in client.received:
        if message["type"] == "update" and message["events"] and message["room"]["version"]:
            seen.setdefault(message["room"]["version"], message["events"])
    return [(v, e) for v in sorted(seen) for e in seen[v]]


def _eventually(check: Callable[[], bool], seconds: float = 15.0) -> None:
    deadline = time.monotonic() + seconds
    while not check():
        assert time.monotonic() < deadline, "the condition never came true"
        time.sleep(0.05)


def test_players_on_three_nodes_play_one_game_with_one_order_of_events(
    nodes: list[ServerProcess],
) -> None:
    code, players = _seat_across(nodes, exact_finish=False)
    for _ in range(MAX_ROLLS):
        room = players[0].client.room
        assert room is not None
        if room["over"]:
            break
        mover = players[room["turn"]]
        answer = mover.roll()
        assert answer["type"] == "update", answer
        players[0].catch_up()
    for player in players:
        player.catch_up()
    logs = [_event_log(p.client) for p in players]
    assert logs[0] and logs[0] == logs[1] == logs[2]
    final = players[0].client.room
    assert final is not None and final["over"] and final["winner"] is not None
    record = nodes[2].get(f"/api/rooms/{code}/record")
    assert len(record["actions"]) == final["version"]
    close_all(players)


def _refusals(refs: tuple[str, ...], since: list[int], *clients: GameClient) -> list[Message]:
    """Every refusal of an intent sent with one of ``refs`` once at least one has come (5
    s at most): an error naming it, or a welcome (a stale intent's answer) that a client
    was sent after it had read ``since`` messages."""
    deadline = time.monotonic() + 5
    while time.monotonic() < deadline:
        for client in clients:
            with contextlib.suppress(TimeoutError):
                client.recv(timeout=0.02)
        found = [
            m
            for c, start in zip(clients, since, strict=True)
            for m in c.received[start:]
            if m.get("ref") in refs or m["type"] == "welcome"
        ]
        if found:
            return found
    return []


def test_two_rolls_at_two_nodes_at_once_apply_exactly_once(
    nodes: list[ServerProcess], redis_url: str, prefix: str
) -> None:
    code, players = _seat_across(nodes[:2])
    host, ben = players
    # The host also has a second tab open on node 1: one seat, two nodes, same moment.
    twin = Player("Host", 0, host.secret, GameClient(nodes[1].ws_url), nodes[1], code)
    twin.client.hello(code, host.secret)
    races = 0
    while races < 20:
        for player in (host, ben, twin):
            player.catch_up()
        version = host.client.version
        assert host.client.room is not None
        if host.client.room["over"]:
            break
        if host.client.room["turn"] == 1:
            ben.roll()
            continue
        since = [len(host.client.received), len(twin.client.received)]
        barrier = threading.Barrier(2)

        def send(player: Player, ref: str, barrier: threading.Barrier, version: int) -> None:
            barrier.wait()
            player.client.send({"type": "roll", "seat": 0, "version": version, "ref": ref})

        threads = [
            threading.Thread(target=send, args=(p, ref, barrier, version))
            for p, ref in ((host, "first"), (twin, "second"))
        ]
        for thread in threads:
            thread.start()
        for thread in threads:
            thread.join()
        # Exactly one of the two is refused as stale, whichever node it reached.
        refusals = _refusals(("first", "second"), since, host.client, twin.client)
        # The loser is refused as stale (a welcome, the room as it is now) — or, when the
        # winner's roll ended the game, as coming after the end. Never applied.
        assert len(refusals) == 1, refusals
        assert refusals[0]["type"] == "welcome" or refusals[0]["code"] == "game_over"
        assert nodes[0].get(f"/api/rooms/{code}")["version"] == version + 1
        for player in (host, twin):
            player.client.received = [m for m in player.client.received if "ref" not in m]
        races += 1
    assert races == 20 or host.client.room["over"]
    ben.catch_up()
    store = redis.Redis.from_url(redis_url, decode_responses=True)
    stored = store.llen(f"{prefix}room:{{{code}}}:actions")
    store.close()
    assert stored == ben.client.version  # the log is gapless: one action per version
    logs = [_event_log(p.client) for p in (host, ben, twin)]
    assert logs[0] == logs[1] == logs[2]
    close_all([*players, twin])


def test_a_node_killed_mid_game_loses_nothing_and_its_players_carry_on_elsewhere(
    nodes: list[ServerProcess],
) -> None:
    code, players = _seat_across(nodes[:2])
    host, ben = players
    for _ in range(4):
        room = host.client.room
        assert room is not None
        players[room["turn"]].roll()
        host.catch_up()
        ben.catch_up()
    before = ben.client.version
    nodes[1].kill()  # Ben's node
    with pytest.raises(ConnectionClosed):
        for _ in range(50):
            ben.client.recv(timeout=5)
    # Ben's browser reconnects to the node the load balancer offers next.
    ben.client = GameClient(nodes[0].ws_url)
    welcome = ben.client.hello(code, ben.secret)
    assert welcome["room"]["version"] == before
    assert welcome["you"]["seats"] == [1]
    ben.server = nodes[0]
    for _ in range(4):
        room = host.client.room
        assert room is not None
        players[room["turn"]].roll()
        host.catch_up()
        ben.catch_up()
    assert host.client.version == before + 4
    close_all(players)


def test_a_countdown_due_on_a_killed_node_still_fires(nodes: list[ServerProcess]) -> None:
    _code, players = _seat_across(nodes[:2])
    host, ben = players
    nodes[0].script_dice(3)
    host.roll()  # committed through node 0; Ben's countdown is now running
    ben.catch_up()
    nodes[0].kill()
    nodes[1].advance(20)
    update = ben.client.wait_for(
        lambda m: (
            m["type"] == "update" and bool(m["events"]) and m["events"][0]["type"] == "skipped"
        )
    )
    assert update["events"][0] == {"type": "skipped", "seat": 1, "bonus_lost": False, "missed": 1}
    assert update["room"]["seats"][1]["square"] == 0
    ben.client.close()


def test_without_redis_intents_get_a_clear_error_and_the_node_recovers_by_itself(
    tmp_path: Path, redis_url: str
) -> None:
    with (
        PrivateRedis(tmp_path / "redis") as private,
        Cluster(tmp_path, private.url, "snakes-test:", 1) as (node,),
    ):
        code, host = create_room(node)
        private.stop()
        status, body = node.request(
            "POST", "/api/rooms", {"mode": "online", "seats": [{"name": "H", "colour": "red"}]}
        )
        assert status == 503 and body["error"]["code"] == "unavailable"
        host.client.send({"type": "rules", "rules": {"finish": "classic"}})
        assert host.client.wait_type("error")["code"] == "unavailable"
        assert node.get("/healthz")["status"] == "ok"  # no crash loop
        _eventually(lambda: "Redis unreachable" in node.log())
        private.start()
        for _ in range(600):  # up to 30 s on a busy machine
            status, body = node.request(
                "POST", "/api/rooms", {"mode": "online", "seats": [{"name": "H", "colour": "red"}]}
            )
            if status == 201:
                break
            private.wait_a_moment()
        assert status == 201
        again, host2 = create_room(node)
        assert host2.client.room is not None, host2.client.received
        assert host2.client.room["code"] == again
        host.client.close()
        host2.client.close()
        del code


def test_after_every_node_was_down_an_interrupted_countdown_starts_again_in_full(
    nodes: list[ServerProcess],
) -> None:
    code, players = _seat_across(nodes[:2])
    host, ben = players
    nodes[0].script_dice(3)
    host.roll()
    ben.catch_up()
    for node in nodes:
        node.kill()
    close_all(players)
    nodes[2].start()
    nodes[2].advance(120)  # the whole table was down far longer than the countdown
    with GameClient(nodes[2].ws_url) as back:
        welcome = back.hello(code, ben.secret)
        for _ in range(40):  # let the node's timer poll find the overdue countdown
            if welcome["room"]["countdown"]["remaining_ms"] == 20_000:
                break
            nodes[2].advance(0)
            welcome = back.hello(code, ben.secret)
        room = welcome["room"]
        assert room["version"] == 1 and room["turn"] == 1
        assert room["countdown"]["remaining_ms"] == 20_000
        assert room["seats"][1]["missed"] == 0
