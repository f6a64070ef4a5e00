"""Seat names: at least one visible character, and no look-alikes at one table."""

from __future__ import annotations

import pytest

from snakes.server.rooms.model import clean_name as reexported
from snakes.server.rooms.names import clean_name, skeleton
from tests.server.online_helpers import create_room
from tests.support.server import ServerProcess

INVISIBLE = ["\u3164" * 3, "\u2800" * 2, "\u0301" * 20, "\u115f\u1160", "\u3000\u2800", "\ufe0f"]


@pytest.mark.parametrize("name", INVISIBLE)
def test_a_name_that_shows_nothing_is_refused(name: str) -> None:
    with pytest.raises(ValueError, match="visible"):
        clean_name(name)


def test_names_of_every_script_still_pass() -> None:
    for name in [
        "Ana",
        "Zoë 🐍",
        "Nguyễn",
        "राम",
        "李小龍",
        "Ωμέγα",
        "\uff26\uff55\uff4c\uff4c",
        "a" + "\u0301" * 4,
    ]:
        assert clean_name(name) == clean_name(name)
    with pytest.raises(ValueError, match="marks"):
        clean_name("a" + "\u0301" * 6)  # NFC folds the first into á
    assert reexported is clean_name


def test_look_alikes_share_a_skeleton() -> None:
    assert skeleton("Host") == skeleton("H\u043est") == skeleton("HOST") == skeleton("\uff28ost")
    assert skeleton("paypal") == skeleton("p\u0430yp\u0430l")  # Cyrillic a
    assert skeleton("Ana") != skeleton("Ann")
    assert skeleton("Zoë") != skeleton("Zoe")


def test_the_http_api_refuses_invisible_and_look_alike_names(server: ServerProcess) -> None:
    for name in INVISIBLE[:3]:
        status, body = server.request(
            "POST", "/api/rooms", {"mode": "online", "seats": [{"name": name, "colour": "red"}]}
        )
        assert status == 422 and "visible" in body["error"]["message"], name
    code, host = create_room(server, name="Host")
    try:
        for name in ("H\u043est", "host", " HOST "):
            status, body = server.request(
                "POST", f"/api/rooms/{code}/join", {"name": name, "colour": "blue"}
            )
            assert (status, body["error"]["code"]) == (409, "name_taken"), name
        assert (
            server.request("POST", f"/api/rooms/{code}/join", {"name": "Ghost", "colour": "blue"})[
                0
            ]
            == 201
        )
        # The host's AI seats follow the same rule.
        host.client.send({"type": "add_ai", "name": "Gh\u043est", "colour": "green"})
        assert host.client.wait_type("error")["code"] == "name_taken"
        host.client.send({"type": "add_ai", "name": "\u3164\u3164", "colour": "green"})
        assert host.client.wait_type("error")["code"] == "invalid_name"
        status, body = server.request(
            "POST",
            "/api/rooms",
            {
                "mode": "pass",
                "seats": [{"name": "Ana", "colour": "red"}, {"name": "ANA", "colour": "blue"}],
            },
        )
        assert (status, body["error"]["code"]) == (409, "name_taken")
        assert [s["name"] for s in server.get(f"/api/rooms/{code}")["seats"]] == ["Host", "Ghost"]
    finally:
        host.client.close()
