"""The game's WebSocket as the RFC has it: handshake, fragments, pings, closing.

A real server process; a conforming client (``websockets``) for what clients do, and a
raw socket for what only a broken or hostile client does. RFC 6455 is the reference:
a server answers pings, assembles fragmented messages, returns a client's close code,
and closes with 1002 on a protocol error, 1009 on a message too big.
"""

from __future__ import annotations

import select
import time
from collections.abc import Iterator
from pathlib import Path

import pytest

from tests.server.online_helpers import table
from tests.support.client import GameClient
from tests.support.rawsocket import RawSocket
from tests.support.server import TEST_FLAGS, ServerProcess, running_server

KEEPALIVE = 1.0


@pytest.fixture(scope="module")
def shared(tmp_path_factory: pytest.TempPathFactory) -> Iterator[ServerProcess]:
    folder = tmp_path_factory.mktemp("game-socket") / "data"
    with running_server(folder, *TEST_FLAGS, "--keepalive", str(KEEPALIVE)) as process:
        yield process


def test_a_fragmented_message_is_put_together(shared: ServerProcess) -> None:
    code, players = table(shared, 2)
    with GameClient(shared.ws_url) as client:
        # websockets sends an iterable as one message in several frames.
        client.connection.send(iter(['{"type": "hel', f'lo", "room": "{code}"', "}"]))
        assert client.wait_type("welcome")["room"]["code"] == code
    for player in players:
        player.client.close()


def test_pings_are_answered_and_a_close_gets_its_code_back(shared: ServerProcess) -> None:
    with GameClient(shared.ws_url) as client:
        assert client.connection.ping(b"are you there").wait(5)
        client.connection.close(4321, "see you")
        assert client.connection.protocol.close_rcvd is not None
        assert client.connection.protocol.close_rcvd.code == 4321


def test_a_silent_client_is_pinged_and_kept_while_it_answers(shared: ServerProcess) -> None:
    raw = RawSocket(shared.port)
    try:
        assert raw.status == 101
        for _ in range(3):
            opcode, payload = raw.read()  # nothing sent, nothing heard: a ping comes
            assert opcode == 0x9
            raw.send(0xA, payload)
        raw.send(0x1, b'{"type": "ping"}')
        while raw.read() != (0x1, b'{"type":"pong"}'):
            pass
    finally:
        raw.close()


@pytest.mark.serial  # times the server's keepalive to a quarter of a second
def test_a_silent_client_is_dropped_within_twice_the_keepalive(tmp_path: Path) -> None:
    """PROTOCOL.md: a client silent for ``--keepalive`` seconds is pinged, and one silent
    for twice that is dropped (30 s at the default 15), never later. The server sweeps
    its sockets every keepalive/8; four clients a quarter of a second apart meet every
    phase of a sweep, so a sweep that rounds the wrong way shows in one of them."""
    keepalive = 2.0
    with running_server(tmp_path / "data", *TEST_FLAGS, "--keepalive", str(keepalive)) as server:
        clients: list[tuple[RawSocket, float]] = []
        for _ in range(4):
            raw = RawSocket(server.port)
            assert raw.status == 101
            clients.append((raw, time.monotonic()))  # the last thing it sent: its request
            raw.sock.setblocking(False)
            time.sleep(keepalive / 8)  # to spread the clients over the sweeps' phases
        pinged: dict[int, float] = {}
        dropped: dict[int, float] = {}
        try:
            while len(dropped) < len(clients):
                ready, _, _ = select.select([r.sock for r, _ in clients], [], [], 3 * keepalive)
                assert ready, "nobody was dropped"
                now = time.monotonic()
                for index, (raw, since) in enumerate(clients):
                    if raw.sock not in ready or index in dropped:
                        continue
                    try:
                        data = raw.sock.recv(4096)
                    except OSError:
                        data = b""
                    if not data:
                        dropped[index] = now - since
                    elif data[0] == 0x89:  # a ping: never answered
                        pinged.setdefault(index, now - since)
        finally:
            for raw, _ in clients:
                raw.close()
    period = keepalive / 8
    slack = 0.25  # a loaded machine's lateness in timers and threads
    wrong = {i: t for i, t in dropped.items() if not 2 * keepalive - period - 0.05 <= t}
    wrong |= {i: t for i, t in dropped.items() if t > 2 * keepalive + slack}
    assert not wrong, f"dropped after {wrong} s of silence, not within {2 * keepalive} s"
    assert len(pinged) == len(clients), pinged
    late = {
        i: t for i, t in pinged.items() if not keepalive - 0.05 <= t <= keepalive + period + slack
    }
    assert not late, f"pinged after {late} s of silence, not {keepalive} s"
    assert "dropped a WebSocket that sent nothing" in server.log()


@pytest.mark.parametrize(
    ("frames", "code"),
    [
        ([(0x1, b'{"type": "ping"}', True, False)], 1002),  # unmasked
        ([(0x0, b"{}", True, True)], 1002),  # a continuation with nothing begun
        ([(0x1, b"{", False, True), (0x1, b"}", True, True)], 1002),  # a message in a message
        ([(0x1, b"x" * 3000, False, True), (0x0, b"x" * 3000, True, True)], 1009),
        ([(0x1, b"\xff\xfe", True, True)], 1007),
        ([(0x2, b"\x00", True, True)], 1003),
        ([(0x8, b"\x03\xe8\xff", True, True)], 1007),  # a close reason that is not UTF-8
    ],
    ids=["unmasked", "stray-continuation", "nested", "too-large", "utf8", "binary", "reason"],
)
def test_protocol_errors_close_with_their_codes(
    shared: ServerProcess, frames: list[tuple[int, bytes, bool, bool]], code: int
) -> None:
    raw = RawSocket(shared.port)
    try:
        for opcode, payload, fin, mask in frames:
            raw.send(opcode, payload, fin=fin, mask=mask)
        assert raw.close_code() == code
        assert raw.closed(within=1)  # our close frame answered: the server closes at once
    finally:
        raw.close()
    with GameClient(shared.ws_url) as client:  # and the server serves the next one
        client.send({"type": "ping"})
        client.wait_type("pong")


@pytest.mark.parametrize(
    ("path", "version", "key", "status"),
    [
        ("/elsewhere", "13", "", 404),
        ("/ws", "8", "", 426),
        ("/ws", "13", "bm90IDE2IGJ5dGVz", 400),  # "not 16 bytes"
    ],
)
def test_the_handshake_refuses_what_is_not_the_game_socket(
    shared: ServerProcess, path: str, version: str, key: str, status: int
) -> None:
    raw = RawSocket(shared.port, path, version, key)
    try:
        assert raw.status == status
        if status == 426:
            assert b"sec-websocket-version: 13" in raw.head.lower()
    finally:
        raw.close()


def test_a_client_that_goes_mid_frame_leaves_no_trace(shared: ServerProcess) -> None:
    raw = RawSocket(shared.port)
    raw.sock.sendall(b"\x81\xfe\x10")  # half a frame's header, then gone
    raw.close()
    with GameClient(shared.ws_url) as client:
        client.send({"type": "ping"})
        client.wait_type("pong")
    assert "Traceback" not in shared.log()
