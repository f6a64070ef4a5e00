"""Provably fair dice in online rooms, boards to pick from, live odds and AI seats online."""

from __future__ import annotations

import hashlib
import json

from snakes.fair import verify_record
from tests.server.online_helpers import close_all, create_room, join
from tests.support.client import GameClient
from tests.support.server import ServerProcess

MAX_ROLLS = 3000


def test_an_online_game_rolls_from_committed_seeds_and_its_record_verifies(
    server: ServerProcess,
) -> None:
    code, host = create_room(server, exact_finish=False)
    ben = join(server, code, "Ben", "blue")
    lobby = host.client.room
    assert lobby is not None
    commitment = lobby["fair"]["commitment"]
    assert lobby["fair"]["accepting_seeds"] is True
    # Each device sends a seed of its own after seeing the commitment.
    host.client.send({"type": "seed", "seed": "a1" * 16})
    ben.client.send({"type": "seed", "seed": "b2" * 16})
    host.client.wait_for(lambda m: m.get("room", {}).get("fair", {}).get("seeds_received") == 2)
    host.client.send({"type": "start"})
    for player in (host, ben):
        player.catch_up()
        player.client.wait_for(lambda m: m.get("room", {}).get("phase") == "playing")
    playing = host.client.room
    assert playing is not None
    assert playing["fair"]["commitment"] == commitment
    assert playing["fair"]["client_seeds"] == ["a1" * 16, "b2" * 16]
    assert "server_seed" not in json.dumps(playing)  # never before the end
    players = [host, ben]
    for _ in range(MAX_ROLLS):
        room = host.client.room
        assert room is not None
        if room["over"]:
            break
        players[room["turn"]].roll()
        host.catch_up()
    record = server.get(f"/api/rooms/{code}/record")
    revealed = bytes.fromhex(record["fair"]["server_seed"])
    assert hashlib.sha256(revealed).hexdigest() == commitment
    assert verify_record(record).ok
    # A changed roll is caught and named.
    rolls = [i for i, a in enumerate(record["actions"]) if a["type"] == "roll"]
    action = record["actions"][rolls[0]]
    action["value"] = action["value"] % 6 + 1
    report = verify_record(record)
    assert not report.ok and report.first_tampered is not None
    # The next game has a new commitment of its own, taking new seeds.
    after = host.client.room
    assert after is not None and after["fair"]["commitment"] != commitment
    close_all(players)


def test_seeds_are_refused_once_the_game_has_started(server: ServerProcess) -> None:
    code, host = create_room(server)
    ben = join(server, code, "Ben", "blue")
    host.client.send({"type": "start"})
    host.client.wait_for(lambda m: m.get("room", {}).get("phase") == "playing")
    host.client.send({"type": "seed", "seed": "late"})
    assert host.client.wait_type("error")["code"] == "already_started"
    close_all([host, ben])


def test_local_games_have_no_seeds_to_send(server: ServerProcess) -> None:
    seats = [{"name": "Ana", "colour": "red"}, {"name": "Ben", "colour": "blue"}]
    created = server.post("/api/rooms", {"mode": "pass", "seats": seats})
    assert server.get(f"/api/rooms/{created['code']}")["fair"] is None


def test_the_host_can_add_an_ai_seat_that_rolls_by_itself(server: ServerProcess) -> None:
    _, host = create_room(server)
    host.client.send({"type": "add_ai", "name": "Robo", "colour": "green"})
    update = host.client.wait_for(lambda m: m["type"] == "update" and len(m["room"]["seats"]) == 2)
    assert update["room"]["seats"][1]["kind"] == "ai"
    host.client.send({"type": "add_ai", "name": "Copy", "colour": "green"})
    assert host.client.wait_type("error")["code"] == "colour_taken"
    host.client.send({"type": "start"})
    host.client.wait_for(lambda m: m.get("room", {}).get("phase") == "playing")
    server.script_dice(3)  # not a six: the turn passes to the AI seat
    host.roll()
    host.catch_up()
    server.advance(1)
    moved = host.client.wait_for(
        lambda m: m["type"] == "update" and bool(m["events"]) and m["events"][0]["seat"] == 1
    )
    assert moved["events"][0]["type"] == "rolled"
    host.client.close()


def test_a_room_can_be_played_on_a_shipped_board(server: ServerProcess) -> None:
    boards = server.get("/api/boards")
    names = [b["name"] for b in boards]
    assert names[0] == "jungle" and "short" in names
    short = next(b for b in boards if b["name"] == "short")
    assert short["mean_turns"] < next(b for b in boards if b["name"] == "jungle")["mean_turns"]
    seats = [{"name": "Ana", "colour": "red"}, {"name": "Ben", "colour": "blue"}]
    created = server.post("/api/rooms", {"mode": "pass", "seats": seats, "board": "short"})
    view = server.get(f"/api/rooms/{created['code']}")
    assert view["board"]["name"] == "short"
    status, body = server.request(
        "POST", "/api/rooms", {"mode": "pass", "seats": seats, "board": "nowhere"}
    )
    assert status == 400 and body["error"]["code"] == "invalid_board"
    content = server.get("/api/content?board=short")
    assert content["board"]["name"] == "short"


def test_the_view_carries_live_odds_that_follow_the_game(server: ServerProcess) -> None:
    seats = [{"name": "Ana", "colour": "red"}, {"name": "Ben", "colour": "blue"}]
    created = server.post("/api/rooms", {"mode": "pass", "seats": seats})
    before = server.get(f"/api/rooms/{created['code']}")["odds"]
    assert before["kind"] == "win" and abs(sum(before["values"]) - 1) < 1e-3
    assert before["values"][0] > before["values"][1]  # rolling first is an edge
    with GameClient(server.ws_url) as device:
        device.hello(created["code"], created["secret"])
        server.script_dice(3, 1)  # Ana 3; Ben 1 climbs 1 -> 38
        device.roll(0)
        after = device.roll(1)["room"]["odds"]
    assert after["values"][1] > 0.5 > after["values"][0]
