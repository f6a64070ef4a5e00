"""GET /api/rooms/{code}/story against a real server: the engine's replay of the record."""

from __future__ import annotations

import json

from snakes.analysis.story import game_story
from snakes.engine.record import GameRecord
from tests.support.client import GameClient
from tests.support.server import ServerProcess

ROLLS = [6, 6, 5, 3, 6, 5, 2, 6, 6, 3]
"""Ana: 6, 6, 5 (17); Ben 3; Ana 6, 5: 28 -> 84; Ben 2; Ana 6, 6, 3: 99 -> 27."""


def test_the_story_of_a_finished_game_is_its_record_replayed_with_exact_odds(
    server: ServerProcess,
) -> None:
    created = server.post(
        "/api/rooms",
        {
            "mode": "pass",
            "seats": [{"name": "Ana", "colour": "red"}, {"name": "Ben", "colour": "blue"}],
        },
    )
    code = str(created["code"])
    status, error = server.request("GET", f"/api/rooms/{code}/story")
    assert status == 404 and error["error"]["code"] == "record_not_found"
    with GameClient(server.ws_url) as device:
        device.hello(code, str(created["secret"]))
        server.script_dice(*ROLLS)
        for _ in ROLLS:
            assert device.room is not None
            device.roll(int(device.room["turn"]))
        device.send({"type": "leave", "seat": 1})
        device.wait_for(lambda m: m["type"] == "update" and m["room"]["over"])
    story = server.get(f"/api/rooms/{code.lower()}/story")
    record = GameRecord.from_data(server.get(f"/api/rooms/{code}/record"))
    expected = game_story(record)
    assert story["code"] == code and story["kind"] == "win" and story["over"] is True
    assert [s["name"] for s in story["seats"]] == ["Ana", "Ben"]
    assert story["board"]["ladders"] and story["rules"]["finish"] == "classic"
    assert len(story["steps"]) == len(record.actions) + 1 == len(ROLLS) + 2
    for got, step in zip(story["steps"], expected.steps, strict=True):
        assert got["positions"] == list(step.positions)
        assert got["odds"] == [round(p, 4) for p in step.odds]
        assert got["events"] == json.loads(json.dumps([e.to_data() for e in step.events]))
    assert story["steps"][-1]["odds"] == [1.0, 0.0]  # Ben left: Ana wins
    key = {(m["start"], m["end"]) for m in story["moments"] if m["key"]}
    assert key == {(28, 84), (99, 27)}
    assert server.get(f"/api/rooms/{code}/story?game=1") == {**story, "game": 1}
    status, error = server.request("GET", f"/api/rooms/{code}/story?game=2")
    assert status == 404
    status, error = server.request("GET", f"/api/rooms/{code}/story?game=0")
    assert status == 422


def test_the_service_worker_manifest_and_shell_are_served_for_the_whole_site(
    server: ServerProcess,
) -> None:
    status, body, raw = server.raw("/sw.js")
    headers = {k.lower(): v for k, v in raw.items()}
    assert status == 200 and headers["content-type"].startswith("text/javascript")
    assert headers["service-worker-allowed"] == "/" and b"/api/" in body
    status, body, raw = server.raw("/manifest.webmanifest")
    headers = {k.lower(): v for k, v in raw.items()}
    assert status == 200 and headers["content-type"] == "application/manifest+json"
    shell = server.get("/shell.json")
    main = f"/static/v{shell['version']}/js/main.js"  # the page asks for versioned URLs
    assert "/" in shell["files"] and main in shell["files"]
    assert "/static/offline.html" in shell["files"]
    assert not [f for f in shell["files"] if f.startswith(("/api", "/ws"))]
    assert len(shell["version"]) == 16
