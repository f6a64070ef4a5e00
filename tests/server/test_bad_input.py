"""Bad input of any kind gets a clear, typed error; nothing changes; the server keeps running."""

from __future__ import annotations

import pytest
from websockets.exceptions import ConnectionClosed

from tests.support.client import GameClient
from tests.support.server import ServerProcess

PEOPLE = [{"name": "Ana", "colour": "red"}, {"name": "Ben", "colour": "blue"}]


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
def test_malformed_messages_get_typed_errors(server: ServerProcess, raw: str, code: str) -> None:
    with GameClient(server.ws_url) as client:
        client.send_raw(raw)
        error = client.wait_type("error")
        assert error["code"] == code
        assert "Traceback" not in error["message"]
        client.send({"type": "ping"})
        assert client.wait_type("pong") == {"type": "pong"}


def test_a_client_never_chooses_its_die(server: ServerProcess) -> None:
    created = server.post("/api/rooms", {"mode": "pass", "seats": PEOPLE})
    with GameClient(server.ws_url) as device:
        device.hello(created["code"], created["secret"])
        device.send({"type": "roll", "seat": 0, "version": 0, "value": 6})
        assert device.wait_type("error")["code"] == "bad_message"
        assert server.get(f"/api/rooms/{created['code']}")["version"] == 0


def test_an_oversized_message_closes_the_connection_with_1009(server: ServerProcess) -> None:
    with GameClient(server.ws_url) as client:
        client.send_raw('{"type": "ping", "ref": "' + "x" * 10_000 + '"}')
        with pytest.raises(ConnectionClosed) as closed:
            client.recv()
        assert closed.value.rcvd is not None and closed.value.rcvd.code == 1009
    assert server.get("/healthz")["status"] == "ok"


def test_a_flood_closes_the_connection_with_1008_but_holding_space_does_not(
    server: ServerProcess,
) -> None:
    with GameClient(server.ws_url) as steady:
        # A held-down key repeats about 30 times a second: never limited.
        for _ in range(60):
            steady.send({"type": "ping"})
        for _ in range(60):
            steady.wait_type("pong")
    with GameClient(server.ws_url) as flood:
        with pytest.raises(ConnectionClosed) as closed:
            for _ in range(1000):
                flood.send({"type": "ping"})
            for _ in range(1000):
                flood.recv()
        assert closed.value.rcvd is not None and closed.value.rcvd.code == 1008


def test_names_are_checked_and_kept_as_text(server: ServerProcess) -> None:
    script = '<img src=x onerror="alert(1)">'
    seats = [{"name": script[:20], "colour": "red"}, {"name": "Ben\u0007", "colour": "blue"}]
    status, body = server.request("POST", "/api/rooms", {"mode": "pass", "seats": seats})
    assert status == 422 and "control characters" in body["error"]["message"]
    seats[1]["name"] = "  Zoë 🐍  "
    created = server.post("/api/rooms", {"mode": "pass", "seats": seats})
    view = server.get(f"/api/rooms/{created['code']}")
    assert [s["name"] for s in view["seats"]] == [script[:20], "Zoë 🐍"]


def test_pages_carry_a_strict_content_security_policy(server: ServerProcess) -> None:
    status, _, headers = server.raw("/")
    assert status == 200
    policy = headers["content-security-policy"]
    assert "script-src 'self'" in policy and "unsafe-inline" not in policy
    assert headers["x-content-type-options"] == "nosniff"


@pytest.mark.parametrize("depth", [33, 900, 1000, 100_000 // 2])
def test_deeply_nested_json_is_a_bad_message_not_a_crash(server: ServerProcess, depth: int) -> None:
    with GameClient(server.ws_url) as client:
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
    assert "Traceback" not in server.log() and "RecursionError" not in server.log()


def test_a_binary_frame_closes_with_1003_and_invalid_utf8_with_1007(server: ServerProcess) -> None:
    with GameClient(server.ws_url) as client:
        client.send_raw(b'{"type": "ping"}')
        with pytest.raises(ConnectionClosed) as closed:
            client.recv()
        assert closed.value.rcvd is not None and closed.value.rcvd.code == 1003
    with GameClient(server.ws_url) as client:
        client.connection.send(b'{"type": "\xff\xfe"}', text=True)
        with pytest.raises(ConnectionClosed) as closed:
            client.recv()
        assert closed.value.rcvd is not None and closed.value.rcvd.code == 1007
    assert server.get("/healthz")["status"] == "ok"
    assert "Traceback" not in server.log() and "KeyError" not in server.log()


def test_the_api_docs_page_loads_only_its_own_scripts(server: ServerProcess) -> None:
    status, body, headers = server.raw("/docs")
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
        status, content, _ = server.raw(asset)
        assert status == 200 and len(content) > 100, asset
