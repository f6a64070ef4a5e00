"""Operability: health and readiness, metrics, JSON logs, graceful shutdown, clean-up."""

from __future__ import annotations

import json
import time
import urllib.request
from pathlib import Path
from typing import Any

import pytest
from websockets.exceptions import ConnectionClosed

from tests.redis.private_redis import PrivateRedis
from tests.server.online_helpers import close_all, table
from tests.support.client import GameClient
from tests.support.server import TEST_FLAGS, ServerProcess, running_server


def _metrics(server: ServerProcess) -> dict[str, float]:
    with urllib.request.urlopen(server.url + "/metrics", timeout=10) as response:
        assert response.headers["content-type"].startswith("text/plain")
        text = response.read().decode()
    values = {}
    for line in text.splitlines():
        if line and not line.startswith("#"):
            name, _, value = line.rpartition(" ")
            values[name] = float(value)
    return values


STATS_TOKEN = "heap-figures-for-this-test"
STATS_FLAGS = ("--debug-stats-token", STATS_TOKEN, "--debug-stats-interval", "0")


def _stats(server: ServerProcess, query: str = "") -> dict[str, Any]:
    """``/debug/stats``, with its token, a walk of the heap every call."""
    status, body, _ = server.raw(
        "/debug/stats" + query, headers={"Authorization": f"Bearer {STATS_TOKEN}"}
    )
    assert status == 200, (status, body)
    found: dict[str, Any] = json.loads(body)
    return found


def _wait(predicate: object, seconds: float = 10.0) -> None:
    deadline = time.monotonic() + seconds
    while not predicate():  # type: ignore[operator]
        if time.monotonic() > deadline:
            raise AssertionError("timed out waiting")
        time.sleep(0.05)


def test_readyz_answers_once_the_store_does(server: ServerProcess) -> None:
    status, body = server.request("GET", "/readyz")
    assert (status, body) == (200, {"status": "ready"})
    assert server.get("/healthz")["status"] == "ok"


def test_readyz_is_503_while_redis_is_down_and_ready_again_after(tmp_path: Path) -> None:
    with PrivateRedis(tmp_path / "redis") as private:
        node = ServerProcess(tmp_path / "node", *TEST_FLAGS, "--redis", private.url)
        node.start()
        try:
            assert node.request("GET", "/readyz")[0] == 200
            private.stop()
            status, body = node.request("GET", "/readyz")
            assert (status, body) == (503, {"status": "unavailable"})
            assert node.get("/healthz")["status"] == "ok"  # alive, just not ready
            private.start()
            _wait(lambda: node.request("GET", "/readyz")[0] == 200)
        finally:
            node.kill()


def test_metrics_count_rooms_connections_rolls_latency_and_errors(server: ServerProcess) -> None:
    _, players = table(server, 2)
    players[0].client.send({"type": "start"})
    for player in players:
        player.catch_up()
    server.script_dice(3)
    assert players[0].roll()["type"] == "update"
    players[1].client.send({"type": "roll", "seat": 0, "version": 1})
    assert players[1].client.wait_type("error")["code"] == "not_your_seat"
    players[1].client.send_raw("not json")
    assert players[1].client.wait_type("error")["code"] == "bad_message"

    values = _metrics(server)
    assert values["snakes_rooms"] == 1
    assert values["snakes_connections"] == 2
    assert values["snakes_rolls_total"] == 1
    assert values['snakes_intent_seconds_count{type="roll"}'] == 2
    assert values['snakes_intent_seconds_bucket{le="+Inf",type="roll"}'] == 2
    assert values['snakes_errors_total{code="not_your_seat"}'] == 1
    assert values['snakes_errors_total{code="bad_message"}'] == 1
    close_all(players)


def test_json_logs_are_one_object_a_line(tmp_path: Path) -> None:
    with running_server(tmp_path / "data", *TEST_FLAGS, "--log-format", "json") as server:
        server.post("/api/rooms", {"mode": "pass", "seats": [
            {"name": "Ana", "colour": "red"}, {"name": "Ben", "colour": "blue"}]})  # fmt: skip
        server.stop()
    lines = [line for line in server.log().splitlines() if line.strip()]
    assert len(lines) >= 5
    entries = [json.loads(line) for line in lines]  # every line parses
    assert all({"time", "level", "logger", "message"} <= set(e) for e in entries)
    messages = " | ".join(e["message"] for e in entries)
    assert "is running at" in messages and "created (pass, 2 seats)" in messages
    # Access lines are off by default: a busy server would log every connection.
    assert not any(e["logger"] == "uvicorn.access" for e in entries)


def test_access_log_is_one_flag_away(tmp_path: Path) -> None:
    with running_server(tmp_path / "data", *TEST_FLAGS, "--access-log") as server:
        server.get("/healthz")
        with GameClient(server.ws_url) as client:
            client.send({"type": "ping"})
            client.wait_type("pong")
        server.stop()
    log = server.log()
    assert '"GET /healthz HTTP/1.1" 200' in log
    assert '"WebSocket /ws" [accepted]' in log


def test_sigterm_closes_players_with_1012_and_a_restart_resumes_the_game(
    server: ServerProcess,
) -> None:
    code, players = table(server, 3)
    players[0].client.send({"type": "start"})
    for player in players:
        player.catch_up()
    server.script_dice(4, 2, 5)
    for player in players:
        assert player.roll()["type"] == "update"
    before = server.get(f"/api/rooms/{code}")
    assert before["version"] == 3

    server.stop()  # SIGTERM, players still connected
    for player in players:
        with pytest.raises(ConnectionClosed) as closed:
            for _ in range(50):
                player.client.recv(timeout=5)
        assert closed.value.rcvd is not None and closed.value.rcvd.code == 1012
    close_all(players)
    # uvicorn finishes its shutdown (the lifespan stops the rooms), then exits by the
    # signal it was sent, so a supervisor sees a SIGTERM exit.
    assert "Application shutdown complete" in server.log()

    server.start()
    after = server.get(f"/api/rooms/{code}")
    assert after["version"] == 3
    assert [s["square"] for s in after["seats"]] == [s["square"] for s in before["seats"]]
    assert after["turn"] == before["turn"] == 0
    back = []
    for player in players:
        client = GameClient(server.ws_url)
        assert client.hello(code, player.secret)["type"] == "welcome"
        back.append(client)
    server.script_dice(1)
    answer = back[0].roll(0)
    assert answer["type"] == "update" and answer["room"]["version"] == 4
    for client in back:
        client.close()


@pytest.mark.parametrize("ending", ["finished", "abandoned"])
def test_a_finished_or_expired_room_leaves_no_timers_or_tasks_behind(
    tmp_path: Path, ending: str
) -> None:
    with running_server(tmp_path / "data", *TEST_FLAGS, *STATS_FLAGS) as server:
        # Warm up once (first connection, first room) so lazily made tasks are counted.
        with GameClient(server.ws_url) as client:
            client.send({"type": "ping"})
            client.wait_type("pong")
        _wait(lambda: _stats(server)["connections"] == 0)
        baseline = _stats(server)
        assert baseline["rooms"] == baseline["timers"] == baseline["room_queues"] == 0

        code, players = table(server, 2)
        players[0].client.send({"type": "start"})
        for player in players:
            player.catch_up()
        busy = _stats(server)
        assert busy["rooms"] == 1 and busy["timers"] >= 1 and busy["connections"] == 2
        # A connection holds no task of its own (its messages are written straight to
        # its socket): two players add none.
        assert busy["tasks"] == baseline["tasks"]
        if ending == "finished":
            players[1].client.send({"type": "leave", "seat": 1})  # Classic: Ana wins at once
            players[0].client.wait_for(lambda m: m["type"] == "update" and m["room"]["over"])
        close_all(players)
        _wait(lambda: _stats(server)["connections"] == 0)
        server.advance(31 * 60)  # past the idle time: the room expires
        _wait(lambda: _stats(server)["rooms"] == 0)

        after = _stats(server)
        assert after["timers"] == 0 and after["room_queues"] == 0
        assert after["tasks"] == baseline["tasks"]
        assert server.get("/healthz") == {"status": "ok", "rooms": 0, "connections": 0, "timers": 0}
        status, _ = server.request("GET", f"/api/rooms/{code}")
        assert status == 404
        if ending == "finished":
            record = server.get(f"/api/rooms/{code}/record")  # the record outlives the room
            assert len(record["actions"]) == 1


def test_closed_connections_and_requests_leave_no_garbage_cycles_of_ours(tmp_path: Path) -> None:
    """What a closed connection or a finished request leaves must be freed at once.

    The server collects the oldest generation rarely (``tune_gc``): anything that
    reference counting cannot free waits minutes and grows the process meanwhile. A
    full collection with the collector keeping what it finds names what was in cycles.
    """
    with running_server(tmp_path / "data", *TEST_FLAGS, *STATS_FLAGS) as server:
        _stats(server, "?garbage=1")  # start from no garbage at all
        for _ in range(5):
            code, players = table(server, 2)
            players[0].client.send({"type": "start"})
            for player in players:
                player.catch_up()
            close_all(players)
            server.get(f"/api/rooms/{code}")
        _wait(lambda: _stats(server)["connections"] == 0)
        found = dict(_stats(server, "?garbage=200")["gc_garbage"])
        ours = {kind: n for kind, n in found.items() if kind.startswith(("snakes.", "anyio."))}
        assert ours == {}, f"left in reference cycles: {ours}"
