"""Reactions over real WebSockets: the messages and refusals as a device gets them, each
checked against the published JSON Schema (the limits themselves: tests/runtime)."""

from __future__ import annotations

import json
import urllib.request

import jsonschema_rs

from tests.server.online_helpers import close_all, create_room, join
from tests.support.client import GameClient
from tests.support.server import ServerProcess


def test_a_reaction_and_its_refusals_as_a_device_gets_them(server: ServerProcess) -> None:
    with urllib.request.urlopen(f"{server.url}/api/protocol.json", timeout=10) as answer:
        schema = json.load(answer)
    server_side = jsonschema_rs.validator_for(schema["server"])
    code, host = create_room(server)
    guest = join(server, code, "Gus", "blue")
    watcher = GameClient(server.ws_url)
    try:
        watcher.hello(code)
        host.client.send({"type": "start"})
        for client in (host.client, guest.client, watcher):
            client.wait_for(lambda m: m["type"] == "update" and m["room"]["phase"] == "playing")
        seen = []
        host.client.send({"type": "react", "seat": 0, "reaction": "clap"})
        for client in (host.client, guest.client, watcher):
            seen.append(client.wait_type("reaction"))
        assert seen[1] == {
            "type": "reaction",
            "seat": 0,
            "reaction": "clap",
            "you": {"seats": [1], "host": False, "spectator": False},
        }
        # The server's clock is the test's: it has not moved, so the wait is a whole second.
        host.client.send({"type": "react", "seat": 0, "reaction": "wow", "ref": "again"})
        too_soon = host.client.wait_type("error")
        assert too_soon["code"] == "too_many_reactions"
        assert too_soon["retry_after"] == 1.0 and too_soon["ref"] == "again"
        watcher.send({"type": "react", "seat": 0, "reaction": "clap"})
        assert watcher.wait_type("error")["code"] == "spectator"
        guest.client.send({"type": "react", "seat": 1, "reaction": "hello there"})
        bad = guest.client.wait_type("error")
        assert bad["code"] == "bad_message" and "retry_after" not in bad
        host.client.send({"type": "reactions", "on": False})
        switched = guest.client.wait_type("update")
        assert switched["events"] == [{"type": "reactions_changed", "on": False}]
        guest.client.send({"type": "react", "seat": 1, "reaction": "wave"})
        off = guest.client.wait_type("error")
        assert off["code"] == "reactions_off"
        for message in [*seen, too_soon, bad, switched, off]:
            errors = [e.message for e in server_side.iter_errors(message)]
            assert errors == [], (message, errors)
        assert server.get(f"/api/rooms/{code}")["version"] == 0
    finally:
        watcher.close()
        close_all([host, guest])
