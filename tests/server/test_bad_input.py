"""Bad input of any kind gets a clear, typed error; nothing changes; the server keeps running.

PRODUCT.md, Always: "Bad input of any kind gets a clear, typed error and changes
nothing; the server keeps running; no stack trace reaches a user."
"""

from __future__ import annotations

from collections.abc import Iterator

import pytest
from websockets.exceptions import ConnectionClosed

from tests.support.client import GameClient
from tests.support.server import TEST_FLAGS, ServerProcess, running_server

PEOPLE = [{"name": "Ana", "colour": "red"}, {"name": "Ben", "colour": "blue"}]


@pytest.fixture(scope="module")
def shared(tmp_path_factory: pytest.TempPathFactory) -> Iterator[ServerProcess]:
    """One server for the whole file: every bad input must leave it running, unchanged."""
    with running_server(tmp_path_factory.mktemp("bad-input") / "data", *TEST_FLAGS) as process:
        yield process


@pytest.mark.parametrize(
    ("raw", "code"),
    [
        ("not json", "bad_message"),
        ("[1, 2]", "bad_message"),
        ('{"type": "fly"}', "unknown_type"),
        ('{"no": "type"}', "unknown_type"),
        ('{"type": "roll", "seat": "0", "version": 0}', "bad_message"),
        ('{"type": "roll", "seat": 0, "version": 1e99}', "bad_message"),
        ('{"type": "roll", "seat": 99, "version": 0}', "bad_message"),
        ('{"type": "roll", "seat": 0, "version": 0, "value": 6}', "bad_message"),
        ('{"type": "roll", "seat": true, "version": 0}', "bad_message"),
        ('{"type": "hello", "room": 7}', "bad_message"),
        ('{"type": "hello", "room": "ZZZZZZ"}', "room_not_found"),
        ('{"type": "roll", "seat": 0, "version": 0}', "not_in_room"),
    ],
)
def test_malformed_messages_get_typed_errors(shared: ServerProcess, raw: str, code: str) -> None:
    rooms = shared.get("/healthz")["rooms"]
    with GameClient(shared.ws_url) as client:
        client.send_raw(raw)
        error = client.wait_type("error")
        assert error["code"] == code
        assert "Traceback" not in error["message"]
        client.send({"type": "ping"})
        assert client.wait_type("pong") == {"type": "pong"}
    assert shared.get("/healthz")["rooms"] == rooms


def test_a_client_never_chooses_its_die(shared: ServerProcess) -> None:
    created = shared.post("/api/rooms", {"mode": "pass", "seats": PEOPLE})
    with GameClient(shared.ws_url) as device:
        device.hello(created["code"], created["secret"])
        device.send({"type": "roll", "seat": 0, "version": 0, "value": 6})
        assert device.wait_type("error")["code"] == "bad_message"
        assert shared.get(f"/api/rooms/{created['code']}")["version"] == 0


def test_an_oversized_message_closes_the_connection_with_1009(shared: ServerProcess) -> None:
    with GameClient(shared.ws_url) as client:
        client.send_raw('{"type": "ping", "ref": "' + "x" * 10_000 + '"}')
        with pytest.raises(ConnectionClosed) as closed:
            client.recv()
        assert closed.value.rcvd is not None and closed.value.rcvd.code == 1009
    assert shared.get("/healthz")["status"] == "ok"


def test_a_flood_closes_the_connection_with_1008_but_holding_space_does_not(
    shared: ServerProcess,
) -> None:
    with GameClient(shared.ws_url) as steady:
        # A held-down key repeats about 30 times a second: never limited.
        for _ in range(60):
            steady.send({"type": "ping"})
        for _ in range(60):
            steady.wait_type("pong")
    with GameClient(shared.ws_url) as flood:
        with pytest.raises(ConnectionClosed) as closed:
            for _ in range(1000):
                flood.send({"type": "ping"})
            for _ in range(1000):
                flood.recv()
        assert closed.value.rcvd is not None and closed.value.rcvd.code == 1008


def test_names_are_checked_and_kept_as_text(shared: ServerProcess) -> None:
    script = '<img src=x onerror="alert(1)">'
    seats = [{"name": script[:20], "colour": "red"}, {"name": "Ben\u0007", "colour": "blue"}]
    status, body = shared.request("POST", "/api/rooms", {"mode": "pass", "seats": seats})
    assert status == 422 and "control characters" in body["error"]["message"]
    seats[1]["name"] = "  Zoë 🐍  "
    created = shared.post("/api/rooms", {"mode": "pass", "seats": seats})
    view = shared.get(f"/api/rooms/{created['code']}")
    assert [s["name"] for s in view["seats"]] == [script[:20], "Zoë 🐍"]


def test_pages_carry_a_strict_content_security_policy(shared: ServerProcess) -> None:
    status, _, headers = shared.raw("/")
    assert status == 200
    policy = headers["content-security-policy"]
    assert "script-src 'self'" in policy and "unsafe-inline" not in policy
    assert headers["x-content-type-options"] == "nosniff"


def test_bad_requests_get_typed_errors_and_change_nothing(shared: ServerProcess) -> None:
    rooms = shared.get("/healthz")["rooms"]
    status, body = shared.request("POST", "/api/rooms", {"mode": "pass", "seats": PEOPLE[:1]})
    assert status == 400 and body["error"]["code"] == "invalid_seats"
    same = [{"name": "A", "colour": "red"}, {"name": "B", "colour": "red"}]
    status, body = shared.request("POST", "/api/rooms", {"mode": "pass", "seats": same})
    assert status == 409 and body["error"]["code"] == "colour_taken"
    status, body = shared.request("POST", "/api/rooms", {"mode": "chess", "seats": PEOPLE})
    assert status == 422 and body["error"]["code"] == "bad_request"
    status, body = shared.request(
        "POST", "/api/rooms", {"mode": "online", "seats": PEOPLE[:1], "countdown_seconds": 61}
    )
    assert status == 400 and body["error"]["code"] == "invalid_rules"
    status, body = shared.request(
        "POST", "/api/rooms", {"mode": "pass", "seats": PEOPLE, "board": "nowhere"}
    )
    assert status == 400 and body["error"]["code"] == "invalid_board"
    status, body = shared.request("GET", "/api/rooms/ZZZZZZ")
    assert status == 404 and body["error"]["code"] == "room_not_found"
    assert shared.get("/healthz")["rooms"] == rooms


@pytest.mark.parametrize("depth", [33, 900, 1000, 100_000 // 2])
def test_deeply_nested_json_is_a_bad_message_not_a_crash(shared: ServerProcess, depth: int) -> None:
    with GameClient(shared.ws_url) as client:
        # A hundred thousand levels do not fit in one message: 1009 before parsing.
        text = "[" * depth + "]" * depth
        client.send_raw(text)
        if len(text) > 4096:
            with pytest.raises(ConnectionClosed) as closed:
                client.recv()
            assert closed.value.rcvd is not None and closed.value.rcvd.code == 1009
            return
        error = client.wait_type("error")
        assert error["code"] == "bad_message", error
        client.send({"type": "ping"})
        assert client.wait_type("pong") == {"type": "pong"}
    assert "Traceback" not in shared.log() and "RecursionError" not in shared.log()


def test_a_binary_frame_closes_with_1003_and_invalid_utf8_with_1007(shared: ServerProcess) -> None:
    with GameClient(shared.ws_url) as client:
        client.send_raw(b'{"type": "ping"}')
        with pytest.raises(ConnectionClosed) as closed:
            client.recv()
        assert closed.value.rcvd is not None and closed.value.rcvd.code == 1003
    with GameClient(shared.ws_url) as client:
        client.connection.send(b'{"type": "\xff\xfe"}', text=True)
        with pytest.raises(ConnectionClosed) as closed:
            client.recv()
        assert closed.value.rcvd is not None and closed.value.rcvd.code == 1007
    assert shared.get("/healthz")["status"] == "ok"
    assert "Traceback" not in shared.log() and "KeyError" not in shared.log()


def test_the_api_docs_page_loads_only_its_own_scripts(shared: ServerProcess) -> None:
    status, body, headers = shared.raw("/docs")
    assert status == 200
    page = body.decode()
    assert "https://" not in page and "<script>" not in page  # no CDN, no inline script
    assert "unsafe-inline" not in headers["content-security-policy"]
    for asset in (
        "/docs/assets/swagger-ui-bundle.js",
        "/docs/assets/swagger-ui.css",
        "/docs/init.js",
    ):
        assert asset in page
        status, content, _ = shared.raw(asset)
        assert status == 200 and len(content) > 100, asset
