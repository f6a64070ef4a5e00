"""Abuse limits that concern where a client comes from: Origin, and room-code guessing."""

from __future__ import annotations

import http.client
import json
import socket
import urllib.error
import urllib.request
from collections import Counter
from pathlib import Path
from typing import Any

import pytest
from websockets.exceptions import InvalidStatus
from websockets.sync.client import connect

from tests.support.client import GameClient
from tests.support.server import TEST_FLAGS, ServerProcess, running_server

PEOPLE = [{"name": "Ana", "colour": "red"}, {"name": "Ben", "colour": "blue"}]


def _open(server: ServerProcess, origin: str | None, host: str | None = None) -> None:
    """Open the game socket; ``host`` names the server as a browser would (the Host header)."""
    headers = {"Origin": origin} if origin else {}
    url = server.ws_url if host is None else f"ws://{host}/ws"
    sock = socket.create_connection(("127.0.0.1", server.port), timeout=10)
    with connect(url, sock=sock, additional_headers=headers, open_timeout=10) as ws:
        ws.send('{"type":"ping"}')
        assert json.loads(ws.recv(timeout=10)) == {"type": "pong"}


def test_a_cross_site_page_cannot_open_the_game_socket(tmp_path: Path) -> None:
    public = "https://snakes.example.org"
    with running_server(tmp_path / "data", *TEST_FLAGS, "--public-url", public) as server:
        for origin in ("https://evil.example", "null", f"http://127.0.0.1:{server.port + 1}"):
            with pytest.raises(InvalidStatus) as refused:
                _open(server, origin)
            assert refused.value.response.status_code == 403, origin
        _open(server, None)  # programs send no Origin: no cross-site threat
        _open(server, f"http://127.0.0.1:{server.port}")  # the site the request came to
        _open(server, public)  # the public address, behind a proxy
        assert server.get("/healthz")["status"] == "ok"
    assert "refused a WebSocket from origin 'https://evil.example'" in server.log()


def test_dns_rebinding_cannot_open_the_game_socket(tmp_path: Path) -> None:
    """A page whose name was rebound to this server sends its own name as Host and Origin."""
    public = "https://snakes.example.org"
    flags = (*TEST_FLAGS, "--public-url", public, "--allowed-host", "snakes.lan")
    for extra in ((), flags):
        with running_server(tmp_path / f"data{len(extra)}", *(extra or TEST_FLAGS)) as server:
            for name in ("evil.example", "snakes.example.org.evil.example"):
                host = f"{name}:{server.port}"
                with pytest.raises(InvalidStatus) as refused:
                    _open(server, f"http://{host}", host)
                assert refused.value.response.status_code == 403, host
            _open(server, f"http://localhost:{server.port}", f"localhost:{server.port}")
            if extra:
                lan = f"snakes.lan:{server.port}"
                _open(server, f"http://{lan}", lan)  # named with --allowed-host


def _get(server: ServerProcess, path: str, forwarded: str | None = None) -> tuple[int, Any]:
    headers = {"X-Forwarded-For": forwarded} if forwarded else {}
    request = urllib.request.Request(server.url + path, headers=headers)
    try:
        with urllib.request.urlopen(request, timeout=10) as response:
            return response.status, json.loads(response.read())
    except urllib.error.HTTPError as error:
        return error.code, json.loads(error.read())


def test_guessing_room_codes_is_limited_per_address_on_every_door(tmp_path: Path) -> None:
    with running_server(tmp_path / "data", *TEST_FLAGS, "--lookup-limit", "5") as server:
        created = server.post("/api/rooms", {"mode": "online", "seats": PEOPLE[:1]})
        real = created["code"]
        for guess in ("AAAAAA", "BBBBBB", "CCCCCC"):
            assert _get(server, f"/api/rooms/{guess}")[0] == 404
        status, _ = server.request("POST", "/api/rooms/DDDDDD/join", PEOPLE[1])
        assert status == 404
        with GameClient(server.ws_url) as client:
            assert client.hello("EEEEEE")["code"] == "room_not_found"  # the fifth miss
            # Out of guesses: every lookup is refused now, even of a real room, so a
            # guesser learns nothing more; a made-up secret tells nothing either.
            assert client.hello(real)["code"] == "rate_limited"
            assert client.hello(real, "x" * 32)["code"] == "rate_limited"
            assert client.hello("FFFFFF", "x" * 32)["code"] == "rate_limited"
            # The seat's own secret is no guess: the player on the same address gets in.
            assert client.hello(real, created["secret"])["type"] == "welcome"
        status, body = _get(server, f"/api/rooms/{real}")
        assert (status, body["error"]["code"]) == (429, "rate_limited")
        status, body = server.request("POST", f"/api/rooms/{real}/join", PEOPLE[1])
        assert (status, body["error"]["code"]) == (429, "rate_limited")
        assert _get(server, f"/api/rooms/{real}/record")[0] == 429
        # Creating a room is no lookup, and other endpoints still answer.
        assert server.request("POST", "/api/rooms", {"mode": "pass", "seats": PEOPLE})[0] == 201
        assert server.get("/healthz")["status"] == "ok"


def test_a_guesser_behind_the_players_nat_does_not_lock_the_player_out(tmp_path: Path) -> None:
    with running_server(tmp_path / "data", *TEST_FLAGS, "--lookup-limit", "3") as server:
        created = server.post("/api/rooms", {"mode": "online", "seats": PEOPLE[:1]})
        guesser = GameClient(server.ws_url)
        try:
            answers = [guesser.hello(f"{c * 6}", "y" * 40)["code"] for c in "ABCDEFGH"]
            assert answers[:3] == ["room_not_found"] * 3 and set(answers[3:]) == {"rate_limited"}
            # A wrong secret for the real room is a miss as well, and tells nothing.
            assert guesser.hello(created["code"], "y" * 40)["code"] == "rate_limited"
            for _ in range(3):  # the player reloads, again and again
                with GameClient(server.ws_url) as player:
                    welcome = player.hello(created["code"], created["secret"])
                    assert welcome["type"] == "welcome", welcome
                    assert welcome["you"]["seats"] == [0]
        finally:
            guesser.close()


def test_guessing_is_limited_per_ipv6_64_per_network_and_overall(tmp_path: Path) -> None:
    flags = (*TEST_FLAGS, "--trusted-proxy", "127.0.0.1", "--lookup-limit", "2")
    limits = ("--lookup-limit-network", "3", "--lookup-limit-total", "3")
    with running_server(tmp_path / "v6", *flags, *limits) as server:
        # Two addresses of one /64 share one budget...
        assert _get(server, "/api/rooms/AAAAAA", "2001:db8:0:1::1")[0] == 404
        assert _get(server, "/api/rooms/AAAAAA", "2001:db8:0:1::2")[0] == 404
        assert _get(server, "/api/rooms/AAAAAA", "2001:db8:0:1:ffff::3")[0] == 429
        # ... another /64 has its own, but shares its /48's ...
        assert _get(server, "/api/rooms/AAAAAA", "2001:db8:0:2::1")[0] == 404
        status, body = _get(server, "/api/rooms/AAAAAA", "2001:db8:0:3::1")
        assert (status, "your network" in body["error"]["message"]) == (429, True)
        # ... and those three misses used up everyone's budget for a while (a token
        # back every 20 s): now an address may miss once, and is refused after that.
        assert _get(server, "/api/rooms/AAAAAA", "198.51.100.10")[0] == 404
        status, body = _get(server, "/api/rooms/AAAAAA", "198.51.100.10")
        assert (status, "yours among them" in body["error"]["message"]) == (429, True)


def _http(
    server: ServerProcess, source: str, method: str, path: str, body: Any = None
) -> tuple[int, Any]:
    """A request from a local address of its own (all of 127.0.0.0/8 is this machine)."""
    connection = http.client.HTTPConnection(
        "127.0.0.1", server.port, timeout=10, source_address=(source, 0)
    )
    try:
        payload = None if body is None else json.dumps(body).encode()
        headers = {} if body is None else {"Content-Type": "application/json"}
        connection.request(method, path, payload, headers)
        response = connection.getresponse()
        return response.status, json.loads(response.read())
    finally:
        connection.close()


def test_others_misses_never_lock_out_a_real_rooms_players_or_spectators(tmp_path: Path) -> None:
    """21 addresses, each on a network of its own, try 30 wrong codes each; then someone
    from another address looks up a real room, joins it, and watches it. Everyone's
    budget here is 2 a minute, so it stays spent for the whole test (ten minutes)."""
    limits = ("--lookup-limit", "30", "--lookup-limit-total", "2")
    with running_server(tmp_path / "data", *TEST_FLAGS, *limits) as server:
        real = server.post("/api/rooms", {"mode": "online", "seats": PEOPLE[:1]})["code"]
        answers = Counter(
            _http(server, f"127.0.{i}.1", "GET", f"/api/rooms/{chr(65 + i) * 6}")[0]
            for i in range(1, 22)
            for _ in range(30)
        )
        # Two misses spend everyone's budget; then each address misses once, and is refused.
        assert answers == {404: 2 + 21, 429: 21 * 30 - 23}, answers
        newcomer = "127.0.50.1"
        status, view = _http(server, newcomer, "GET", f"/api/rooms/{real}")
        assert status == 200 and view["code"] == real
        status, joined = _http(server, newcomer, "POST", f"/api/rooms/{real}/join", PEOPLE[1])
        assert status == 201, joined
        with GameClient(server.ws_url, source="127.0.51.1") as spectator:
            welcome = spectator.hello(real)
            assert welcome["type"] == "welcome" and welcome["you"]["seats"] == [], welcome
        # Everyone's budget is still spent: the same newcomer's miss is its last for a
        # minute, and then even the real room is refused to it.
        assert _http(server, newcomer, "GET", "/api/rooms/ZZZZZZ")[0] == 404
        status, body = _http(server, newcomer, "GET", f"/api/rooms/{real}")
        assert (status, body["error"]["code"]) == (429, "rate_limited")


def test_forwarded_addresses_count_only_from_a_trusted_proxy(tmp_path: Path) -> None:
    flags = (*TEST_FLAGS, "--lookup-limit", "2")
    with running_server(tmp_path / "trusted", *flags, "--trusted-proxy", "127.0.0.1") as server:
        # Behind a trusted proxy each player's own address has its own budget.
        for _ in range(2):
            assert _get(server, "/api/rooms/AAAAAA", "198.51.100.1")[0] == 404
        assert _get(server, "/api/rooms/AAAAAA", "198.51.100.1")[0] == 429
        assert _get(server, "/api/rooms/AAAAAA", "198.51.100.2")[0] == 404
        # The game's socket reads the same header from the same proxy.
        assert _ws_guess(server, "198.51.100.1") == "rate_limited"
        assert _ws_guess(server, "198.51.100.3") == "room_not_found"
    with running_server(tmp_path / "direct", *flags) as server:
        # Without --trusted-proxy the header is ignored: a guesser cannot claim to be
        # many people, every guess counts against the peer's own address.
        assert _get(server, "/api/rooms/AAAAAA", "198.51.100.1")[0] == 404
        assert _get(server, "/api/rooms/AAAAAA", "198.51.100.2")[0] == 404
        assert _get(server, "/api/rooms/AAAAAA", "198.51.100.3")[0] == 429
        assert _ws_guess(server, "198.51.100.4") == "rate_limited"
    with running_server(tmp_path / "other", *flags, "--trusted-proxy", "127.0.0.2") as server:
        # A proxy is trusted, but not this peer: its header is ignored on every door.
        assert _get(server, "/api/rooms/AAAAAA", "198.51.100.1")[0] == 404
        assert _get(server, "/api/rooms/AAAAAA", "198.51.100.2")[0] == 404
        assert _ws_guess(server, "198.51.100.3") == "rate_limited"


def _ws_guess(server: ServerProcess, forwarded: str) -> str:
    """One room-code guess on the game's socket, said to come from ``forwarded``."""
    headers = {"X-Forwarded-For": forwarded}
    with connect(server.ws_url, additional_headers=headers, open_timeout=10) as ws:
        ws.send(json.dumps({"type": "hello", "room": "BBBBBB"}))
        answer = json.loads(ws.recv(timeout=10))
    assert answer["type"] == "error", answer
    return str(answer["code"])


def _create(server: ServerProcess, address: str) -> tuple[int, Any, str | None]:
    body = json.dumps({"mode": "ai", "seats": [PEOPLE[0], {**PEOPLE[1], "kind": "ai"}]}).encode()
    request = urllib.request.Request(
        server.url + "/api/rooms",
        data=body,
        method="POST",
        headers={"Content-Type": "application/json", "X-Forwarded-For": address},
    )
    try:
        with urllib.request.urlopen(request, timeout=10) as response:
            return response.status, json.loads(response.read()), None
    except urllib.error.HTTPError as error:
        return error.code, json.loads(error.read()), error.headers.get("Retry-After")


@pytest.mark.parametrize(
    ("flags", "same_address", "retry_at_least"),
    [
        (("--room-limit", "3"), True, 1),  # per address, a minute
        (("--room-limit-hour", "3"), True, 600),  # per address, an hour
        (("--room-limit-total", "3"), False, 1),  # everyone, a minute
        (("--max-rooms", "3"), False, 1),  # rooms held at once
    ],
    ids=["per-minute", "per-hour", "total", "max-rooms"],
)
def test_creating_rooms_is_budgeted(
    tmp_path: Path, flags: tuple[str, ...], same_address: bool, retry_at_least: int
) -> None:
    with running_server(
        tmp_path / "data", *TEST_FLAGS, "--trusted-proxy", "127.0.0.1", *flags
    ) as server:
        addresses = ["198.51.100.1" if same_address else f"198.51.100.{i + 1}" for i in range(3)]
        for address in addresses:
            assert _create(server, address)[0] == 201
        status, body, retry = _create(server, addresses[-1] if same_address else "198.51.100.99")
        assert (status, body["error"]["code"]) == (429, "rate_limited"), body
        assert retry is not None and int(retry) >= retry_at_least
        if same_address:  # another address has its own budget
            assert _create(server, "203.0.113.5")[0] == 201
            # An IPv6 host's whole /64 is one address.
            for host in ("2001:db8:7::1", "2001:db8:7::2", "2001:db8:7::3"):
                assert _create(server, host)[0] == 201
            assert _create(server, "2001:db8:7::4:5")[0] == 429
        assert server.get("/healthz")["status"] == "ok"
