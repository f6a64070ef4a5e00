"""Connection limits under real floods: one address cannot take the server from others.

Real processes on loopback. The attacker talks from 127.0.0.1, the real player from
127.0.0.2 (loopback too). The server runs with a low descriptor limit (RLIMIT_NOFILE)
so that running out of descriptors takes a few hundred sockets, not tens of thousands.
"""

from __future__ import annotations

import contextlib
import http.client
import json
import socket
import time
from collections.abc import Callable, Iterator
from contextlib import contextmanager
from pathlib import Path
from typing import Any

import pytest

from tests.support.client import GameClient
from tests.support.quick_game import first_seat_wins_quickly
from tests.support.server import TEST_FLAGS, ServerProcess, running_server

PLAYER = "127.0.0.2"
PEOPLE = [{"name": "Ana", "colour": "red"}, {"name": "Ben", "colour": "blue"}]
FILES = 256


def _request(
    server: ServerProcess, method: str, path: str, body: Any = None, source: str = PLAYER
) -> tuple[int, Any]:
    connection = http.client.HTTPConnection(
        "127.0.0.1", server.port, timeout=10, source_address=(source, 0)
    )
    try:
        data = None if body is None else json.dumps(body).encode()
        connection.request(method, path, body=data, headers={"Content-Type": "application/json"})
        response = connection.getresponse()
        return response.status, json.loads(response.read() or b"null")
    finally:
        connection.close()


@contextmanager
def _player(server: ServerProcess) -> Iterator[tuple[GameClient, dict[str, Any]]]:
    """A pass & play table on its own device, from the player's own address."""
    status, created = _request(server, "POST", "/api/rooms", {"mode": "pass", "seats": PEOPLE})
    assert status == 201, created
    client = GameClient(server.ws_url, source=PLAYER)
    try:
        assert client.hello(created["code"], created["secret"])["type"] == "welcome"
        yield client, created
    finally:
        client.close()


def _rolls(client: GameClient, count: int) -> float:
    """Roll ``count`` times for whoever's turn it is; the slowest answer, in seconds."""
    slowest = 0.0
    for _ in range(count):
        room = client.room or {}
        if room.get("phase") == "over":
            client.send({"type": "rematch"})
            client.wait_for(lambda m: m["type"] == "update" and m["room"]["phase"] == "playing")
            continue
        started = time.monotonic()
        answer = client.roll(room["turn"])
        assert answer["type"] == "update", answer
        slowest = max(slowest, time.monotonic() - started)
    return slowest


def _descriptors(server: ServerProcess) -> int:
    assert server.process is not None
    return len(list(Path(f"/proc/{server.process.pid}/fd").iterdir()))


def _rss_kb(server: ServerProcess) -> int:
    assert server.process is not None
    status = Path(f"/proc/{server.process.pid}/status").read_text()
    return next(int(line.split()[1]) for line in status.splitlines() if line.startswith("VmRSS"))


def _flood(server: ServerProcess, count: int) -> list[socket.socket]:
    """``count`` connections from 127.0.0.1, each with the start of a request head."""
    socks = []
    for _ in range(count):
        sock = socket.socket()
        sock.settimeout(5)
        try:
            sock.connect(("127.0.0.1", server.port))
            sock.sendall(b"GET /healthz HTTP/1.1\r\nHost: 127.0.0.1\r\n")
        except OSError:
            sock.close()
            continue
        socks.append(sock)
    return socks


def _closed_by_server(sock: socket.socket) -> bool:
    sock.setblocking(False)
    try:
        while True:
            data = sock.recv(65536)
            if not data:
                return True
    except BlockingIOError:
        return False
    except OSError:
        return True


@pytest.mark.serial  # how fast the player's rolls are answered during the flood
def test_a_descriptor_flood_and_slowloris_from_one_address_leave_others_playing(
    tmp_path: Path,
) -> None:
    # A long header timeout: here only the per-address cap can keep the flood in bounds.
    flags = (*TEST_FLAGS, "--max-connections-per-address", "32", "--header-timeout", "60")
    with running_server(tmp_path / "data", *flags, files=FILES) as server:
        idle_fds, idle_rss = _descriptors(server), _rss_kb(server)
        # The game ends during the flood and its rematch is asked for there too (a
        # rematch first reads the room over HTTP, from the player's own address).
        server.script_dice(*first_seat_wins_quickly(len(PEOPLE)))
        with _player(server) as (client, _):
            assert _rolls(client, 3) < 2
            socks = _flood(server, 2 * FILES)  # twice as many as the server has descriptors
            try:
                # accept() takes what is queued in bursts (up to the descriptor limit,
                # then a 1 s pause); the ones over the cap are closed at once.
                began = time.monotonic()
                while _descriptors(server) >= idle_fds + 32 + 8 and time.monotonic() < began + 5:
                    time.sleep(0.1)
                settled = time.monotonic() - began
                held_fds, held_rss = _descriptors(server), _rss_kb(server)
                assert held_fds < idle_fds + 32 + 8, held_fds
                # The real player, on another address, plays on; a new one can start.
                slowest = _rolls(client, 20)
                assert slowest < 2, slowest
                with _player(server) as (other, _):
                    assert _rolls(other, 3) < 2
                # The flood trickles on (slowloris); the player still plays.
                for sock in socks:
                    with contextlib.suppress(OSError):
                        sock.send(b"X-a: b\r\n")
                assert _rolls(client, 5) < 2
                assert _descriptors(server) < idle_fds + 32 + 8
            finally:
                for sock in socks:
                    sock.close()
        log = server.log()
        assert "Traceback" not in log
        refusals = [line for line in log.splitlines() if "refused a connection" in line]
        assert 1 <= len(refusals) <= 3, refusals  # one line per interval, not one per socket
        print(
            f"flood of {2 * FILES}: server {idle_fds}->{held_fds} fds, "
            f"{idle_rss}->{held_rss} KB, settled in {settled:.1f} s; slowest roll {slowest:.3f} s"
        )


def test_a_slow_request_head_is_cut_off_after_the_header_timeout(tmp_path: Path) -> None:
    flags = (*TEST_FLAGS, "--header-timeout", "1.5")
    with running_server(tmp_path / "data", *flags) as server:
        socks = _flood(server, 30)
        try:
            assert len(socks) == 30
            time.sleep(0.5)
            assert not any(_closed_by_server(sock) for sock in socks)  # not yet
            deadline = time.monotonic() + 5
            while time.monotonic() < deadline and not all(map(_closed_by_server, socks)):
                time.sleep(0.2)
            assert all(_closed_by_server(sock) for sock in socks)
            # An idle keep-alive connection waits for its next request head no longer.
            sock = socket.create_connection(("127.0.0.1", server.port), 5)
            sock.sendall(b"GET /healthz HTTP/1.1\r\nHost: 127.0.0.1\r\n\r\nGET /heal")
            time.sleep(3)
            assert _closed_by_server(sock)
            sock.close()
        finally:
            for sock in socks:
                sock.close()
        assert server.get("/healthz")["status"] == "ok"
        assert "Traceback" not in server.log()


@pytest.mark.parametrize("loop", ["asyncio", "uvloop"])
def test_running_out_of_descriptors_is_one_quiet_line_not_a_traceback_per_socket(
    tmp_path: Path, loop: str
) -> None:
    # No caps: the descriptors really run out and accept() fails, again and again.
    flags = (*TEST_FLAGS, "--max-connections", "100000", "--header-timeout", "60")
    flags += ("--loop", loop)
    with running_server(tmp_path / "data", *flags, files=128) as server:
        socks = _flood(server, 300)
        try:
            time.sleep(3)
        finally:
            for sock in socks:
                sock.close()
        deadline = time.monotonic() + 10
        while time.monotonic() < deadline:
            try:
                assert server.get("/healthz")["status"] == "ok"
                break
            except OSError:
                time.sleep(0.5)
        log = server.log()
        assert "Traceback" not in log
        lines = [line for line in log.splitlines() if "Too many open files" in line]
        if loop == "asyncio":
            assert 1 <= len(lines) <= 3, lines
        else:
            # libuv keeps a descriptor in reserve and closes what it cannot accept, without
            # a word: nothing reaches the log but the store's one line a second.
            assert lines == []
            assert len(log.splitlines()) < 30


def test_the_whole_server_has_a_connection_cap(tmp_path: Path) -> None:
    flags = (*TEST_FLAGS, "--max-connections", "20")
    with running_server(tmp_path / "data", *flags) as server:
        socks = _flood(server, 20)
        try:
            # The server counts a connection once it has accepted it: the 20 are taken
            # in their own time on a busy machine, and then the 21st is refused.
            status, body = _until_answered(server, lambda status: status == 503)
            assert (status, body["error"]["code"]) == (503, "busy")
        finally:
            for sock in socks:
                sock.close()
        assert _until_answered(server, lambda status: status == 200)[0] == 200


def _until_answered(
    server: ServerProcess, wanted: Callable[[int], bool], seconds: float = 60.0
) -> tuple[int, Any]:
    """GET /healthz until its status is the wanted one (``seconds`` ends a hang)."""
    deadline = time.monotonic() + seconds
    while True:
        status, body = _request(server, "GET", "/healthz")
        if wanted(status) or time.monotonic() > deadline:
            return status, body
        time.sleep(0.05)


def _response(sock: socket.socket) -> bytes:
    """A whole HTTP response: its head, then as much body as its Content-Length says."""
    data = b""
    while b"\r\n\r\n" not in data:
        chunk = sock.recv(4096)
        if not chunk:
            return data
        data += chunk
    head, body = data.split(b"\r\n\r\n", 1)
    length = next(
        int(line.split(b":", 1)[1])
        for line in head.split(b"\r\n")
        if line.lower().startswith(b"content-length:")
    )
    while len(body) < length:
        chunk = sock.recv(4096)
        if not chunk:
            break
        body += chunk
    return head + b"\r\n\r\n" + body


def test_a_large_body_is_refused_with_413_before_it_is_read(tmp_path: Path) -> None:
    with running_server(tmp_path / "data", *TEST_FLAGS) as server:
        rss = _rss_kb(server)
        # Content-Length says 150 MB: refused at once, without sending a byte of it.
        sock = socket.create_connection(("127.0.0.1", server.port), 10)
        sock.sendall(
            b"POST /api/rooms HTTP/1.1\r\nHost: 127.0.0.1\r\nContent-Type: application/json\r\n"
            b"Content-Length: 157286400\r\n\r\n"
        )
        answer = _response(sock)
        assert answer.startswith(b"HTTP/1.1 413"), answer
        sock.close()
        # No Content-Length (chunked): counted as it streams, refused past 64 KB.
        sock = socket.create_connection(("127.0.0.1", server.port), 10)
        sock.sendall(
            b"POST /api/rooms HTTP/1.1\r\nHost: 127.0.0.1\r\nContent-Type: application/json\r\n"
            b"Transfer-Encoding: chunked\r\n\r\n"
        )
        chunk = b"x" * 16384
        with contextlib.suppress(OSError):  # the server hangs up after its answer
            for _ in range(64):  # 1 MB offered
                sock.sendall(b"%x\r\n%s\r\n" % (len(chunk), chunk))
        answer = _response(sock)
        assert answer.startswith(b"HTTP/1.1 413"), answer
        sock.close()
        assert json.loads(answer.split(b"\r\n\r\n", 1)[1])["error"]["code"] == "too_large"
        assert _rss_kb(server) < rss + 20_000
        assert server.post("/api/rooms", {"mode": "pass", "seats": PEOPLE})["code"]


def _head(path: str, size: int, *, upgrade: bool = False) -> bytes:
    """A request head of exactly ``size`` bytes, padded with one long header."""
    lines = f"GET {path} HTTP/1.1\r\nHost: 127.0.0.1\r\n"
    if upgrade:
        lines += (
            "Upgrade: websocket\r\nConnection: Upgrade\r\nSec-WebSocket-Version: 13\r\n"
            "Sec-WebSocket-Key: dGhlIHNhbXBsZSBub25jZQ==\r\n"
        )
    padding = size - len(lines) - len("X-Pad: \r\n\r\n")
    head = f"{lines}X-Pad: {'p' * padding}\r\n\r\n".encode()
    assert len(head) == size
    return head


@pytest.mark.parametrize(
    ("size", "pieces", "upgrade", "status"),
    [
        (16 * 1024, 1, False, 200),
        (16 * 1024, 1, True, 101),
        (16 * 1024 + 1, 1, False, 400),
        (60 * 1024, 1, False, 400),
        (60 * 1024, 60, False, 400),
        (60 * 1024, 1, True, 400),
    ],
    ids=["16K", "16K-upgrade", "16K+1", "60K", "60K-in-pieces", "60K-upgrade"],
)
def test_a_request_head_is_at_most_16_kb_whole_or_in_pieces(
    limits_server: ServerProcess, size: int, pieces: int, upgrade: bool, status: int
) -> None:
    """SECURITY.md: a request head over 16 KB is refused with 400. h11 counts only a head
    that is still unfinished; one that arrives whole in one read is measured too."""
    head = _head("/ws" if upgrade else "/healthz", size, upgrade=upgrade)
    sock = socket.create_connection(("127.0.0.1", limits_server.port), 10)
    try:
        step = -(-len(head) // pieces)
        with contextlib.suppress(OSError):  # a refused head may be cut off mid-way
            for start in range(0, len(head), step):
                sock.sendall(head[start : start + step])
        answer = b""
        while b"\r\n" not in answer:
            chunk = sock.recv(4096)
            if not chunk:
                break
            answer += chunk
        assert answer.startswith(f"HTTP/1.1 {status} ".encode()), answer[:200]
    finally:
        sock.close()
    assert limits_server.get("/healthz")["status"] == "ok"


@pytest.fixture(scope="module")
def limits_server(tmp_path_factory: pytest.TempPathFactory) -> Iterator[ServerProcess]:
    with running_server(tmp_path_factory.mktemp("heads") / "data", *TEST_FLAGS) as server:
        yield server
