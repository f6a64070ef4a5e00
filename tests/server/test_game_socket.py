"""The game's WebSocket as the RFC has it: handshake, fragments, pings, closing.

A real server process; a conforming client (``websockets``) for what clients do, and a
raw socket for what only a broken or hostile client does. RFC 6455 is the reference:
a server answers pings, assembles fragmented messages, returns a client's close code,
and closes with 1002 on a protocol error, 1009 on a message too big.
"""

from __future__ import annotations

import base64
import os
import socket
import struct
import time
from collections.abc import Iterator

import pytest

from tests.server.online_helpers import table
from tests.support.client import GameClient
from tests.support.server import TEST_FLAGS, ServerProcess, running_server

KEEPALIVE = 1.0


@pytest.fixture(scope="module")
def shared(tmp_path_factory: pytest.TempPathFactory) -> Iterator[ServerProcess]:
    folder = tmp_path_factory.mktemp("game-socket") / "data"
    with running_server(folder, *TEST_FLAGS, "--keepalive", str(KEEPALIVE)) as process:
        yield process


class RawSocket:
    """A WebSocket spoken byte by byte: frames exactly as a test writes them."""

    def __init__(self, port: int, path: str = "/ws", version: str = "13", key: str = "") -> None:
        self.sock = socket.create_connection(("127.0.0.1", port), timeout=10)
        key = key or base64.b64encode(os.urandom(16)).decode()
        self.sock.sendall(
            (
                f"GET {path} HTTP/1.1\r\nHost: 127.0.0.1:{port}\r\nUpgrade: websocket\r\n"
                f"Connection: Upgrade\r\nSec-WebSocket-Key: {key}\r\n"
                f"Sec-WebSocket-Version: {version}\r\n\r\n"
            ).encode()
        )
        self.head = b""
        while b"\r\n\r\n" not in self.head:
            chunk = self.sock.recv(1)
            if not chunk:
                break
            self.head += chunk
        self.status = int(self.head.split(b" ", 2)[1]) if self.head else 0

    def send(self, opcode: int, payload: bytes, *, fin: bool = True, mask: bool = True) -> None:
        head = bytes([(0x80 if fin else 0) | opcode])
        key = os.urandom(4) if mask else b""
        flag = 0x80 if mask else 0
        if len(payload) < 126:
            head += bytes([flag | len(payload)])
        else:
            head += bytes([flag | 126]) + struct.pack("!H", len(payload))
        body = bytes(b ^ key[i % 4] for i, b in enumerate(payload)) if mask else payload
        self.sock.sendall(head + key + body)

    def _exact(self, n: int) -> bytes:
        data = b""
        while len(data) < n:
            chunk = self.sock.recv(n - len(data))
            if not chunk:
                raise ConnectionError("closed")
            data += chunk
        return data

    def read(self) -> tuple[int, bytes]:
        """The next frame the server sends: (opcode, payload)."""
        first, second = self._exact(2)
        length = second & 0x7F
        if length == 126:
            length = struct.unpack("!H", self._exact(2))[0]
        elif length == 127:
            length = struct.unpack("!Q", self._exact(8))[0]
        return first & 0x0F, self._exact(length)

    def close_code(self) -> int:
        """Read until the server's close frame, answer it as a client must; its code."""
        while True:
            opcode, payload = self.read()
            if opcode == 0x8:
                self.send(0x8, payload[:2])
                return int.from_bytes(payload[:2], "big")

    def closed(self, within: float) -> bool:
        """Does the server end the connection within ``within`` seconds?"""
        self.sock.settimeout(within)
        try:
            while self.sock.recv(4096):
                pass
        except TimeoutError:
            return False
        except OSError:
            return True
        return True

    def close(self) -> None:
        self.sock.close()


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


def test_a_client_that_answers_no_ping_is_cut_off(shared: ServerProcess) -> None:
    raw = RawSocket(shared.port)
    try:
        started = time.monotonic()
        assert raw.closed(within=6 * KEEPALIVE)
        assert time.monotonic() - started >= KEEPALIVE
    finally:
        raw.close()


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
