"""``snakes serve --workers N``: N server processes on one machine behind one port.

Each worker is a whole ``snakes serve`` process and a node of its own: it binds the
port with ``SO_REUSEPORT``, so the kernel spreads new connections over the workers, and
the workers share rooms through Redis as nodes on separate machines do (one owner per
room; a worker that gets an intent for a room another owns forwards it). A player's
room is therefore whole whichever worker their connection lands on.

This process only supervises: it starts the workers, starts a worker again when one
dies (a crash, an out-of-memory kill), and on SIGTERM or Ctrl+C stops them all.
"""

from __future__ import annotations

import os
import signal
import socket
import subprocess
import sys
import time
import urllib.request
from collections.abc import Callable
from types import FrameType
from typing import Any

RESTART_PAUSE = 1.0
"""Seconds before a worker that died is started again."""
QUICK_EXIT = 5.0
"""A worker that exits this soon after it started failed to start."""
QUICK_EXITS_ALLOWED = 3
"""Failed starts in a row after which the supervisor gives up (bad settings, say)."""
STOP_SECONDS = 15.0
"""How long stopping workers may take before they are killed."""

SUPERVISOR_ENV = "SNAKES_SUPERVISOR"
"""The supervisor's process id, in a worker's environment."""
WORKER_FLAG = "--worker"
"""The hidden flag a worker is started with: bind with SO_REUSEPORT, announce nothing."""


def worker_count(value: str) -> int:
    """``N`` or ``auto`` (one per core)."""
    if value == "auto":
        return max(1, os.cpu_count() or 1)
    count = int(value)
    if count < 1:
        raise ValueError("at least one worker")
    return count


def reuse_port_socket(host: str, port: int) -> socket.socket:
    """A listening socket that other processes may bind to the same port as well."""
    family = socket.AF_INET6 if ":" in host else socket.AF_INET
    sock = socket.socket(family, socket.SOCK_STREAM)
    sock.setsockopt(socket.SOL_SOCKET, socket.SO_REUSEADDR, 1)
    sock.setsockopt(socket.SOL_SOCKET, socket.SO_REUSEPORT, 1)
    sock.bind((host, port))
    sock.listen(2048)
    return sock


def follow_supervisor(server: Any) -> None:
    """In a worker: stop (as on SIGTERM) once the supervisor is gone, even if it was
    killed outright, so that no worker is left holding the port."""
    supervisor = int(os.environ.get(SUPERVISOR_ENV, os.getppid()))
    while os.getppid() == supervisor:  # a supervisor that died before we looked counts
        time.sleep(1.0)
    server.should_exit = True


def worker_arguments(argv: list[str], port: int) -> list[str]:
    """The ``snakes serve`` arguments of one worker: this command's, on a fixed port,
    without ``--workers`` and ``--open``."""
    arguments: list[str] = []
    skip = False
    for argument in argv:
        if skip:
            skip = False
        elif argument == "--workers":
            skip = True
        elif argument.startswith("--workers=") or argument == "--open":
            continue
        else:
            arguments.append(argument)
    return [*arguments, "--port", str(port), WORKER_FLAG]


class Supervisor:
    def __init__(self, count: int, host: str, port: int, argv: list[str]) -> None:
        self.count = count
        self.host = host
        # The port is taken here first, so that "0" means one free port for all workers;
        # this socket joins the port's group but never accepts (it does not listen).
        self._reserved = socket.socket(
            socket.AF_INET6 if ":" in host else socket.AF_INET, socket.SOCK_STREAM
        )
        self._reserved.setsockopt(socket.SOL_SOCKET, socket.SO_REUSEADDR, 1)
        self._reserved.setsockopt(socket.SOL_SOCKET, socket.SO_REUSEPORT, 1)
        self._reserved.bind((host, port))
        self.port = int(self._reserved.getsockname()[1])
        self.command = [sys.executable, "-m", "snakes", "serve", *worker_arguments(argv, self.port)]
        self.workers: list[tuple[subprocess.Popen[bytes], float]] = []
        self._stopping = False

    def _start_one(self) -> tuple[subprocess.Popen[bytes], float]:
        env = {**os.environ, "SNAKES_WORKERS": "1", SUPERVISOR_ENV: str(os.getpid())}
        return subprocess.Popen(self.command, env=env), time.monotonic()

    def _stop(self, signum: int, frame: FrameType | None) -> None:
        self._stopping = True

    def wait_until_serving(self, timeout: float = 30.0) -> bool:
        """True once a worker answers on the port."""
        host = "127.0.0.1" if self.host in ("0.0.0.0", "") else self.host
        host = f"[{host}]" if ":" in host else host
        deadline = time.monotonic() + timeout
        while time.monotonic() < deadline and not self._stopping:
            try:
                with urllib.request.urlopen(f"http://{host}:{self.port}/healthz", timeout=1):
                    return True
            except OSError:
                time.sleep(0.1)
        return False

    def run(self, announce: Callable[[int], None]) -> int:
        signal.signal(signal.SIGTERM, self._stop)
        signal.signal(signal.SIGINT, self._stop)
        self.workers = [self._start_one() for _ in range(self.count)]
        if self.wait_until_serving():
            announce(self.port)
        quick_exits = 0
        while not self._stopping:
            time.sleep(0.2)
            for index, (process, started) in enumerate(self.workers):
                code = process.poll()
                if code is None or self._stopping:
                    continue
                quick_exits = quick_exits + 1 if time.monotonic() - started < QUICK_EXIT else 0
                if quick_exits >= QUICK_EXITS_ALLOWED:
                    print(
                        f"workers keep exiting at start (last with status {code}); stopping",
                        file=sys.stderr,
                    )
                    self._stopping = True
                    break
                print(
                    f"worker {process.pid} exited with status {code}; starting another",
                    file=sys.stderr,
                )
                time.sleep(RESTART_PAUSE)
                self.workers[index] = self._start_one()
        return self._stop_all(1 if quick_exits >= QUICK_EXITS_ALLOWED else 0)

    def _stop_all(self, status: int) -> int:
        for process, _ in self.workers:
            if process.poll() is None:
                process.send_signal(signal.SIGTERM)
        deadline = time.monotonic() + STOP_SECONDS
        for process, _ in self.workers:
            try:
                process.wait(max(0.1, deadline - time.monotonic()))
            except subprocess.TimeoutExpired:
                process.kill()
                process.wait()
        self._reserved.close()
        return status
