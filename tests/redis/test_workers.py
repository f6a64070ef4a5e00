"""``snakes serve --workers 2``: two worker processes behind one port, sharing rooms
through Redis; a worker killed is started again; SIGTERM stops them all.

Real processes, a real Redis, real sockets.
"""

from __future__ import annotations

import http.client
import json
import os
import signal
import subprocess
import sys
import time
from pathlib import Path

from tests.server.online_helpers import close_all, start, table
from tests.support.server import ServerProcess

FLAGS = ("--ai-delay", "0.05", "--animation-scale", "0", "--room-limit", "0")
FLAGS += ("--room-limit-hour", "0", "--room-limit-total", "0")


def _children(pid: int) -> set[int]:
    found = subprocess.run(
        ["pgrep", "-P", str(pid)], check=False, capture_output=True, text=True
    ).stdout.split()
    return {int(child) for child in found}


def _node_answering(server: ServerProcess) -> str:
    """The node that answers /healthz over a fresh connection (the kernel picks one)."""
    connection = http.client.HTTPConnection("127.0.0.1", server.port, timeout=5)
    try:
        connection.request("GET", "/healthz")
        return str(json.loads(connection.getresponse().read())["node"])
    finally:
        connection.close()


def _until_nodes_answer(server: ServerProcess, count: int, seconds: float = 120.0) -> set[str]:
    """Fresh connections until ``count`` different nodes have answered.

    The supervisor announces the port once one worker answers; the others may still be
    starting, so the test waits for every worker to be listening, not for a time.
    """
    seen: set[str] = set()
    deadline = time.monotonic() + seconds
    while len(seen) < count:
        assert time.monotonic() < deadline, f"only {sorted(seen)} answered:\n{server.log()}"
        try:
            seen.add(_node_answering(server))
        except OSError:  # a worker killed mid-request; the next connection finds another
            continue
    return seen


def _gone(pid: int) -> bool:
    """The process has ended (a zombie nobody reaped yet counts as ended)."""
    try:
        return Path(f"/proc/{pid}/stat").read_text().rsplit(")", 1)[1].split()[0] == "Z"
    except FileNotFoundError:
        return True


def _until(check: object, seconds: float = 120.0) -> None:
    deadline = time.monotonic() + seconds
    while not check():  # type: ignore[operator]
        assert time.monotonic() < deadline, "it never happened"
        time.sleep(0.1)


def _two_workers(tmp_path: Path, redis_url: str, prefix: str) -> ServerProcess:
    """``snakes serve --workers 2`` started; it answers once a worker does."""
    server = ServerProcess(
        tmp_path, *FLAGS, "--workers", "2", "--redis", redis_url, "--redis-prefix", prefix
    )
    server.start()
    return server


def test_two_workers_share_one_port_and_every_room(
    tmp_path: Path, redis_url: str, prefix: str
) -> None:
    server = _two_workers(tmp_path, redis_url, prefix)
    try:
        assert server.process is not None
        workers = _children(server.process.pid)
        assert len(workers) == 2, server.log()
        first_nodes = _until_nodes_answer(server, 2)  # connections reach both workers
        # Four players whose connections land where the kernel puts them play one game.
        _code, players = table(server, 4)
        start(players)
        for _ in range(8):
            room = players[0].client.room
            assert room is not None
            mover = players[room["turn"]]
            assert mover.roll()["type"] == "update"
            for player in players:
                player.catch_up()
        versions = {p.client.room["version"] for p in players if p.client.room}
        assert len(versions) == 1  # every player sees the same room
        close_all(players)

        # A worker killed outright is replaced; the port answers throughout.
        victim = min(workers)
        os.kill(victim, signal.SIGKILL)
        _until(lambda: len(_children(server.process.pid) - {victim}) == 2)  # type: ignore[union-attr]
        # The replacement answers beside the survivor, under a node name of its own.
        assert _until_nodes_answer(server, 2) != first_nodes
        assert "exited with status -9; starting another" in server.log()

        # SIGTERM to the supervisor stops every worker, and the supervisor exits 0.
        workers = _children(server.process.pid)
        server.process.send_signal(signal.SIGTERM)
        assert server.process.wait(120) == 0
        for pid in workers:
            _until(lambda pid=pid: _gone(pid))  # type: ignore[misc]
    finally:
        server.kill()


def test_a_killed_supervisor_takes_its_workers_with_it(
    tmp_path: Path, redis_url: str, prefix: str
) -> None:
    server = _two_workers(tmp_path, redis_url, prefix)
    assert server.process is not None
    workers = _children(server.process.pid)
    assert len(workers) == 2
    server.kill()  # SIGKILL: the supervisor runs no code
    for pid in workers:
        _until(lambda pid=pid: _gone(pid))  # type: ignore[misc]


def test_more_than_one_worker_needs_redis(tmp_path: Path) -> None:
    command = [sys.executable, "-m", "snakes", "serve", "--workers", "2", "--port", "0"]
    command += ["--data", str(tmp_path)]
    result = subprocess.run(command, capture_output=True, text=True, timeout=60, check=False)
    assert result.returncode == 2
    assert "--workers above 1 needs --redis" in result.stderr
    assert "Traceback" not in result.stderr


def test_workers_must_be_a_number_or_auto(tmp_path: Path) -> None:
    command = [sys.executable, "-m", "snakes", "serve", "--workers", "many"]
    command += ["--data", str(tmp_path)]
    result = subprocess.run(command, capture_output=True, text=True, timeout=60, check=False)
    assert result.returncode == 2
    assert "neither a number of workers" in result.stderr
