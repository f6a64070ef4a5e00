"""Floods of frames on one socket never keep another player waiting.

One real server. A second connection (the prober) sends a JSON ``ping`` every 30 ms,
under the message rate limit, and times each ``pong``, reading the server's memory
(RSS, from /proc) as it goes. Meanwhile one connection sends, in as few writes as it
can:

- 40,000 empty continuation frames after a message's first fragment;
- 20,000 one-byte fragments of one message;
- 1,000,000 pings (6 MB), never reading a pong.

Every frame counts toward the connection's frame budget (160 at once, 80 a second), so
each flood is closed with 1008 after its first slice of frames; the prober's pongs all
come within 50 ms, and the server grows by less than 32 MB.
"""

from __future__ import annotations

import contextlib
import json
import socket
import threading
import time
from collections.abc import Iterator

import pytest

from tests.support.rawsocket import OP_CLOSE, OP_CONT, OP_PING, OP_TEXT, RawSocket, frame
from tests.support.server import TEST_FLAGS, ServerProcess, running_server

pytestmark = pytest.mark.serial  # times another player's pongs during the flood

PROBE_EVERY = 0.03
"""Seconds between the prober's pings: 33 a second, under the limit of 40."""
ANSWER_WITHIN = 0.050
GROWTH_LIMIT = 32 * 1024 * 1024
KEY = b"\x11\x22\x33\x44"
CHUNK = 256 * 1024


def rss(pid: int) -> int:
    """The process's resident memory in bytes."""
    with open(f"/proc/{pid}/status") as status:
        for line in status:
            if line.startswith("VmRSS:"):
                return int(line.split()[1]) * 1024
    raise AssertionError("no VmRSS")


class Prober(threading.Thread):
    """Another player: a JSON ping every ``PROBE_EVERY`` s, how long each pong took, and
    the server's RSS after each."""

    def __init__(self, server: ServerProcess) -> None:
        super().__init__(daemon=True)
        assert server.process is not None
        self.pid = server.process.pid
        self.raw = RawSocket(server.port)
        assert self.raw.status == 101
        self.answers: list[float] = []
        self.memory: list[int] = []
        self.failure: BaseException | None = None
        self.halt = threading.Event()

    def run(self) -> None:
        try:
            while not self.halt.is_set():
                started = time.perf_counter()
                self.raw.send(OP_TEXT, b'{"type": "ping"}')
                while True:
                    opcode, payload = self.raw.read()
                    if opcode == OP_TEXT and json.loads(payload)["type"] == "pong":
                        break
                took = time.perf_counter() - started
                self.answers.append(took)
                self.memory.append(rss(self.pid))
                self.halt.wait(max(0.0, PROBE_EVERY - took))
        except BaseException as error:  # the test reports it
            self.failure = error

    def wait_for_answers(self, count: int) -> None:
        target = len(self.answers) + count
        deadline = time.monotonic() + 10
        while len(self.answers) < target and self.failure is None:
            assert time.monotonic() < deadline, "the prober got no answers"
            time.sleep(0.005)

    def stop(self) -> None:
        self.halt.set()
        self.join(10)
        self.raw.close()
        if self.failure is not None:
            raise self.failure


@pytest.fixture(scope="module")
def server(tmp_path_factory: pytest.TempPathFactory) -> Iterator[ServerProcess]:
    folder = tmp_path_factory.mktemp("floods") / "data"
    with running_server(folder, *TEST_FLAGS) as process:
        yield process


def empty_continuations() -> Iterator[bytes]:
    yield frame(OP_TEXT, b'{"type": "ping"}', fin=False, key=KEY)
    empty = frame(OP_CONT, b"", fin=False, key=KEY)
    yield empty * 40_000
    yield frame(OP_CONT, b"", key=KEY)


def one_byte_fragments() -> Iterator[bytes]:
    yield frame(OP_TEXT, b" ", fin=False, key=KEY)
    yield frame(OP_CONT, b" ", fin=False, key=KEY) * 19_998
    yield frame(OP_CONT, b" ", key=KEY)


def unread_pings() -> Iterator[bytes]:
    ping = frame(OP_PING, b"", key=KEY)
    per_chunk = CHUNK // len(ping)
    left = 1_000_000
    while left:
        count = min(per_chunk, left)
        yield ping * count
        left -= count


FLOODS = {
    "40,000 empty continuation frames": empty_continuations,
    "20,000 one-byte fragments": one_byte_fragments,
    "1,000,000 pings, no pong read": unread_pings,
}


def _close_code(raw: RawSocket) -> int | None:
    """The code of the server's close frame, reading past the pongs (None: none came)."""
    raw.sock.settimeout(10)
    with contextlib.suppress(ConnectionError, OSError):
        while True:
            opcode, payload = raw.read()
            if opcode == OP_CLOSE:
                return int.from_bytes(payload[:2], "big")
    return None


@pytest.mark.parametrize("flood", sorted(FLOODS))
def test_a_flood_on_one_socket_never_keeps_another_player_waiting(
    server: ServerProcess, flood: str
) -> None:
    prober = Prober(server)
    prober.start()
    try:
        prober.wait_for_answers(5)
        assert server.process is not None
        before = rss(server.process.pid)
        # A small receive buffer: the pongs back up into the server at once.
        flooder = RawSocket(server.port, rcvbuf=4096)
        assert flooder.status == 101
        sent = 0
        with contextlib.suppress(ConnectionError, OSError):  # closed under the flood
            for chunk in FLOODS[flood]():
                flooder.sock.sendall(chunk)
                sent += len(chunk)
        code = _close_code(flooder)
        with contextlib.suppress(OSError):
            flooder.sock.shutdown(socket.SHUT_WR)
        flooder.close()
        prober.wait_for_answers(10)  # and after the flood, as before it
    finally:
        prober.stop()
    slowest = max(prober.answers)
    grown = max(prober.memory) - before
    print(
        f"{flood}: {sent:,} bytes sent, closed with {code}; {len(prober.answers)} pongs, "
        f"slowest {slowest * 1000:.1f} ms; RSS +{grown / 2**20:.1f} MiB"
    )
    assert slowest < ANSWER_WITHIN, f"a pong took {slowest * 1000:.0f} ms"
    assert grown < GROWTH_LIMIT, f"the server grew by {grown / 2**20:.0f} MiB"
    assert code == 1008
    assert "Traceback" not in server.log()
