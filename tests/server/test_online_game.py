"""One whole online game against a real server process, over HTTP and real WebSockets.

The room logic is tested in process (tests/rooms, tests/runtime); this is the one game
that goes through every layer a player's device does: the HTTP API, the WebSocket
endpoint, the runtime, the SQLite store and the record download.

How to play, "Playing with others": "In online rooms, everyone rolls from their own
device — the room waits for the current player, and if someone stalls or disconnects,
their turn is skipped after the countdown so nobody is stuck waiting; no roll is ever
made on their behalf."
"""

from __future__ import annotations

import hashlib
import json

from snakes.fair import verify_record
from tests.server.online_helpers import close_all, create_room, join
from tests.support.client import GameClient
from tests.support.server import ServerProcess

MAX_ROLLS = 3000


def test_a_whole_online_game_is_played_over_websockets_and_its_record_verifies(
    server: ServerProcess,
) -> None:
    """PRODUCT.md: "Others join with either, choosing a name and a free colour. The lobby
    shows the seats live." and Verify: "recomputes a game's rolls in the browser, so
    that checking needs no trust in the server"."""
    code, host = create_room(server, exact_finish=False)
    # The code is read case-insensitively over HTTP; the invite link has a QR code.
    looked_up = server.get(f"/api/rooms/{code[:3].lower()}-{code[3:].lower()}")
    assert looked_up["code"] == code and looked_up["phase"] == "lobby"
    status, svg, headers = server.raw(f"/api/rooms/{code}/qr.svg")
    assert status == 200 and headers["content-type"] == "image/svg+xml"
    assert svg.startswith(b"<svg")
    status, body = server.request(
        "POST", f"/api/rooms/{code}/join", {"name": "Copycat", "colour": "red"}
    )
    assert status == 409 and body["error"]["code"] == "colour_taken"
    ben = join(server, code, "Ben", "blue")
    joined = host.client.wait_for(lambda m: m["type"] == "update" and bool(m["events"]))
    assert joined["events"] == [{"type": "joined", "seat": 1}]
    lobby = host.client.room
    assert lobby is not None
    commitment = lobby["fair"]["commitment"]
    host.client.send({"type": "seed", "seed": "a1" * 16})
    ben.client.send({"type": "seed", "seed": "b2" * 16})
    host.client.wait_for(lambda m: m.get("room", {}).get("fair", {}).get("seeds_received") == 2)
    host.client.send({"type": "start"})
    for player in (host, ben):
        player.client.wait_for(lambda m: m.get("room", {}).get("phase") == "playing")
    with GameClient(server.ws_url) as watcher:
        assert watcher.hello(code)["you"]["spectator"] is True
        players = [host, ben]
        for _ in range(MAX_ROLLS):
            room = host.client.room
            assert room is not None
            if room["over"]:
                break
            players[room["turn"]].roll()
            host.catch_up()
        finished = watcher.wait_for(lambda m: m["type"] == "update" and m["room"]["over"])
    record = server.get(f"/api/rooms/{code}/record")
    assert len(record["actions"]) == finished["room"]["version"]
    revealed = bytes.fromhex(record["fair"]["server_seed"])
    assert hashlib.sha256(revealed).hexdigest() == commitment
    assert verify_record(record).ok
    # No message to anyone carried a seat's secret.
    for player in players:
        for message in player.client.received:
            assert all(p.secret not in json.dumps(message) for p in players)
    close_all(players)


def test_a_server_on_port_zero_invites_to_the_port_it_really_has(server: ServerProcess) -> None:
    """`--port 0` picks a free port; the invite link and the announced address name it."""
    created = server.post(
        "/api/rooms", {"mode": "online", "seats": [{"name": "Ava", "colour": "red"}]}
    )
    room = server.get(f"/api/rooms/{created['code']}")
    assert server.port != 0
    assert room["invite_url"] == f"http://127.0.0.1:{server.port}/r/{created['code']}"
    assert f"is running at http://localhost:{server.port} " in server.log()
