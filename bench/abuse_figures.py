"""Figures for docs/SECURITY.md: what each flood costs a server with the default limits.

Starts real ``snakes serve`` processes on loopback ports (default limits, apart from the
test clock), floods each one from this machine and prints what the server held. Every
flood is bounded and stops by itself.

    python bench/abuse_figures.py
"""

from __future__ import annotations

import contextlib
import json
import socket
import sys
import tempfile
import time
import urllib.error
import urllib.request
from pathlib import Path

ROOT = Path(__file__).resolve().parents[1]
sys.path.insert(0, str(ROOT))

from tests.support.client import GameClient  # noqa: E402
from tests.support.server import ServerProcess, running_server  # noqa: E402

FLAGS = ("--test-hooks", "--ai-delay", "0.05", "--animation-scale", "0")
PEOPLE = [{"name": "Ana", "colour": "red"}, {"name": "Ben", "colour": "blue"}]


def held(server: ServerProcess) -> tuple[int, int]:
    """Descriptors, and resident memory in KB, of the server process."""
    assert server.process is not None
    pid = server.process.pid
    status = Path(f"/proc/{pid}/status").read_text()
    rss = next(int(line.split()[1]) for line in status.splitlines() if line.startswith("VmRSS"))
    return len(list(Path(f"/proc/{pid}/fd").iterdir())), rss


def post(server: ServerProcess, path: str, body: object, forwarded: str | None = None) -> int:
    headers = {"Content-Type": "application/json"}
    if forwarded:
        headers["X-Forwarded-For"] = forwarded
    request = urllib.request.Request(
        server.url + path, json.dumps(body).encode(), headers=headers, method="POST"
    )
    try:
        with urllib.request.urlopen(request, timeout=10) as response:
            return int(response.status)
    except urllib.error.HTTPError as error:
        return int(error.code)


def room_flood(folder: Path) -> None:
    with running_server(folder / "rooms", *FLAGS) as server:
        before = held(server)
        started = time.monotonic()
        body = {"mode": "ai", "seats": [PEOPLE[0], {**PEOPLE[1], "kind": "ai"}]}
        answers = [post(server, "/api/rooms", body) for _ in range(2000)]
        took = time.monotonic() - started
        after = held(server)
        print(
            f"room flood, 2,000 POST /api/rooms from one address in {took:.1f} s: "
            f"{answers.count(201)} created, {answers.count(429)} refused (429); "
            f"server {before[0]}->{after[0]} fds, {before[1]}->{after[1]} KB"
        )


def body_flood(folder: Path) -> None:
    with running_server(folder / "body", *FLAGS) as server:
        before = held(server)
        sock = socket.create_connection(("127.0.0.1", server.port), 10)
        sock.sendall(
            b"POST /api/rooms HTTP/1.1\r\nHost: x\r\nContent-Type: application/json\r\n"
            b"Transfer-Encoding: chunked\r\n\r\n"
        )
        chunk = b"x" * 65536
        sent = 0
        with contextlib.suppress(OSError):
            while sent < 150 * 1024 * 1024:
                sock.sendall(b"%x\r\n%s\r\n" % (len(chunk), chunk))
                sent += len(chunk)
        answer = sock.recv(100).split(b"\r\n")[0].decode()
        sock.close()
        after = held(server)
        print(
            f"150 MB streamed body: {answer!r} after {sent // 1024} KB were taken; "
            f"server {before[1]}->{after[1]} KB"
        )


def guess_flood(folder: Path) -> None:
    flags = (*FLAGS, "--trusted-proxy", "127.0.0.1")
    with running_server(folder / "guess", *flags) as server:
        started = time.monotonic()
        answers = []
        for i in range(6000):
            address = f"198.51.{(i % 200) // 100}.{i % 100 + 1}"
            request = urllib.request.Request(
                f"{server.url}/api/rooms/AAAA{i % 1000:03d}"[:-1],
                headers={"X-Forwarded-For": address},
            )
            try:
                with urllib.request.urlopen(request, timeout=10) as response:
                    answers.append(response.status)
            except urllib.error.HTTPError as error:
                answers.append(error.code)
        took = time.monotonic() - started
        print(
            f"guessing, 6,000 lookups from 200 addresses in {took:.1f} s: "
            f"{answers.count(404)} answered (misses), {answers.count(429)} refused (429)"
        )


def slowloris(folder: Path) -> None:
    with running_server(folder / "slow", *FLAGS, files=1024) as server:
        created = server.post("/api/rooms", {"mode": "pass", "seats": PEOPLE})
        before = held(server)
        socks = []
        for _ in range(1100):
            sock = socket.socket()
            with contextlib.suppress(OSError):
                sock.connect(("127.0.0.1", server.port))
                sock.sendall(b"GET / HTTP/1.1\r\nHost: x\r\n")
            socks.append(sock)
        time.sleep(2)
        during = held(server)
        with GameClient(server.ws_url, source="127.0.0.2") as player:
            started = time.monotonic()
            welcome = player.hello(created["code"], created["secret"])
            answer = player.roll(0)
            took = time.monotonic() - started
        time.sleep(10)
        after = held(server)
        for sock in socks:
            sock.close()
        print(
            f"slowloris, 1,100 unfinished requests from one address (1,024 descriptors): "
            f"server {before[0]}->{during[0]} fds, {before[1]}->{during[1]} KB; a player on "
            f"another address: {welcome['type']}, {answer['type']} in {took:.2f} s; "
            f"after the header timeout {after[0]} fds"
        )


def main() -> None:
    with tempfile.TemporaryDirectory() as folder:
        for flood in (room_flood, body_flood, guess_flood, slowloris):
            flood(Path(folder))


if __name__ == "__main__":
    main()
