"""Play with AI and Pass & Play against a real server process, over real WebSockets."""

from __future__ import annotations

from pathlib import Path

from tests.support.client import GameClient
from tests.support.server import TEST_FLAGS, ServerProcess, running_server

PEOPLE = [
    {"name": "Ana", "colour": "red"},
    {"name": "Ben", "colour": "blue"},
    {"name": "Cy", "colour": "green"},
]


def _pass_and_play(server: ServerProcess, **extra: object) -> dict[str, object]:
    created: dict[str, object] = server.post(
        "/api/rooms", {"mode": "pass", "seats": PEOPLE, **extra}
    )
    return created


def test_a_pass_and_play_device_holds_every_seat_and_rolls_for_whoever_is_up(
    server: ServerProcess,
) -> None:
    created = _pass_and_play(server)
    assert created["seats"] == [0, 1, 2]
    with GameClient(server.ws_url) as device:
        welcome = device.hello(str(created["code"]), str(created["secret"]))
        assert welcome["type"] == "welcome"
        assert welcome["you"] == {"seats": [0, 1, 2], "host": False, "spectator": False}
        assert welcome["room"]["phase"] == "playing"
        server.script_dice(1)
        update = device.roll(0)
        kinds = [e["type"] for e in update["events"]]
        # How to play, "Good to know": a roll of 1 from square 0 lands on 1 and climbs to 38.
        assert kinds == ["rolled", "moved", "climbed", "turn_passed"]
        assert update["room"]["seats"][0]["square"] == 38
        assert update["room"]["turn"] == 1
        assert update["room"]["version"] == 1


def test_a_repeated_roll_with_an_old_version_is_refused_not_applied_twice(
    server: ServerProcess,
) -> None:
    created = _pass_and_play(server)
    with GameClient(server.ws_url) as device:
        device.hello(str(created["code"]), str(created["secret"]))
        server.script_dice(3, 3)
        device.roll(0, version=0)
        error = device.roll(1, version=0)
        assert error["type"] == "error" and error["code"] == "stale_version"
        assert device.room is not None and device.room["seats"][1]["square"] == 0


def test_rolling_for_a_seat_whose_turn_it_is_not_is_a_typed_error(server: ServerProcess) -> None:
    created = _pass_and_play(server)
    with GameClient(server.ws_url) as device:
        device.hello(str(created["code"]), str(created["secret"]))
        error = device.roll(2)
        assert error["code"] == "not_your_turn"


def test_ai_seats_roll_by_themselves_after_a_pause(server: ServerProcess) -> None:
    created = server.post(
        "/api/rooms",
        {
            "mode": "ai",
            "seats": [
                {"name": "Ana", "colour": "red"},
                {"name": "Robo", "colour": "blue", "kind": "ai"},
            ],
        },
    )
    with GameClient(server.ws_url) as device:
        device.hello(str(created["code"]), str(created["secret"]))
        server.script_dice(2, 4)
        device.roll(0)
        rolled_at = device.version
        # The AI waits for its pause on the server's clock; nothing happens until it passes.
        # Ask the server (not the device's copy, which only changes when a message comes).
        server.advance(0.01)
        room = server.get(f"/api/rooms/{created['code']}")
        assert room["turn"] == 1 and room["version"] == rolled_at
        assert room["seats"][1]["square"] == 0
        server.advance(1.0)
        update = device.wait_for(lambda m: m["type"] == "update" and bool(m["events"]))
        assert update["events"][0] == {"type": "rolled", "seat": 1, "value": 4, "bonus": False}
        assert update["room"]["turn"] == 0


def test_a_game_survives_a_server_restart_at_the_same_move(tmp_path: Path) -> None:
    with running_server(tmp_path / "data", *TEST_FLAGS) as server:
        created = _pass_and_play(server)
        with GameClient(server.ws_url) as device:
            device.hello(str(created["code"]), str(created["secret"]))
            server.script_dice(5, 6, 2)
            device.roll(0)
            device.roll(1)
            device.roll(1)
            before = device.room
        server.kill()
        server.start()
        with GameClient(server.ws_url) as device:
            welcome = device.hello(str(created["code"]), str(created["secret"]))
            after = welcome["room"]
        assert before is not None
        assert after["version"] == before["version"] == 3
        assert [s["square"] for s in after["seats"]] == [5, 8, 0]
        assert after["turn"] == before["turn"] == 2


def test_skip_to_results_plays_the_remaining_ai_turns_for_real(server: ServerProcess) -> None:
    seats = [{"name": "Ana", "colour": "red"}] + [
        {"name": f"Bot {n}", "colour": c, "kind": "ai"}
        for n, c in enumerate(["blue", "green", "yellow"], start=1)
    ]
    created = server.post(
        "/api/rooms",
        {"mode": "ai", "seats": seats, "rules": {"finish": "last-one-standing"}},
    )
    with GameClient(server.ws_url) as device:
        device.hello(str(created["code"]), str(created["secret"]))
        error = device.send({"type": "finish_ai"}) or device.wait_type("error")
        assert error["code"] == "not_allowed"  # Ana is still racing
        device.send({"type": "leave", "seat": 0})
        device.wait_for(lambda m: m["type"] == "update" and m["room"]["only_ai_racing"])
        device.send({"type": "finish_ai"})
        done = device.wait_for(lambda m: m["type"] == "update" and m["room"]["over"])
        assert done["instant"] is True
        results = done["room"]["results"]
        assert [r["status"] for r in results] == ["finished", "finished", "finished", "left"]
        rolled = [e for e in done["events"] if e["type"] == "rolled"]
        assert rolled and all(1 <= e["value"] <= 6 for e in rolled)
        record = server.get(f"/api/rooms/{created['code']}/record")
        assert len(record["actions"]) == done["room"]["version"]


def test_play_again_passes_the_first_turn_to_the_next_seat(server: ServerProcess) -> None:
    created = server.post(
        "/api/rooms", {"mode": "pass", "seats": PEOPLE[:2], "rules": {"exact_finish": False}}
    )
    with GameClient(server.ws_url) as device:
        device.hello(str(created["code"]), str(created["secret"]))
        device.send({"type": "leave", "seat": 1})
        over = device.wait_for(lambda m: m["type"] == "update" and m["room"]["over"])
        assert over["room"]["winner"] == 0
        device.send({"type": "rematch"})
        again = device.wait_for(lambda m: m["type"] == "update" and m["room"]["phase"] == "playing")
        assert again["room"]["turn"] == 1
        assert again["room"]["game_number"] == 2
        assert [s["square"] for s in again["room"]["seats"]] == [0, 0]


def test_bad_requests_get_typed_errors_and_change_nothing(server: ServerProcess) -> None:
    status, body = server.request("POST", "/api/rooms", {"mode": "pass", "seats": PEOPLE[:1]})
    assert status == 400 and body["error"]["code"] == "invalid_seats"
    same = [{"name": "A", "colour": "red"}, {"name": "B", "colour": "red"}]
    status, body = server.request("POST", "/api/rooms", {"mode": "pass", "seats": same})
    assert status == 409 and body["error"]["code"] == "colour_taken"
    status, body = server.request("POST", "/api/rooms", {"mode": "chess", "seats": PEOPLE})
    assert status == 422 and body["error"]["code"] == "bad_request"
    status, body = server.request("GET", "/api/rooms/ZZZZZZ")
    assert status == 404 and body["error"]["code"] == "room_not_found"
    assert server.get("/healthz")["rooms"] == 0
