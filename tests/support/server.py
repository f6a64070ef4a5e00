"""A real ``snakes serve`` process on a free loopback port, for integration tests."""

from __future__ import annotations

import itertools
import json
import os
import re
import resource
import signal
import socket
import subprocess
import sys
import time
import urllib.error
import urllib.request
from collections.abc import Iterator
from contextlib import contextmanager
from pathlib import Path
from typing import Any, BinaryIO

STARTUP_SECONDS = 120.0
"""Not a wait: the server is ready when it answers, however long its start takes on a
busy machine. This only ends a test whose server never would answer."""
_RUNNING_AT = re.compile(r"is running at http://[^:\s]+:(\d+)")
_LOG_NUMBERS = itertools.count(1)


def free_port() -> int:
    with socket.socket() as sock:
        sock.bind(("127.0.0.1", 0))
        return int(sock.getsockname()[1])


class ServerProcess:
    """One server process; ``restart`` and ``kill`` keep its port and data folder."""

    def __init__(
        self, data_dir: Path, *extra: str, port: int | None = None, files: int | None = None
    ) -> None:
        self.data_dir = data_dir
        self.extra = extra
        self.files = files
        """A descriptor limit (RLIMIT_NOFILE) for the server, to run out of them cheaply."""
        # The server binds port 0 and says which port it got, so no other socket can
        # take the port between a test choosing it and the server binding it (a port
        # chosen here and bound later is a race that parallel tests lose now and then).
        # A restart keeps the port it got. Workers bind one port beside each other, and a
        # server with a public address announces that one, so those are given a port.
        given = "--workers" in extra or "--public-url" in extra
        self.port = port or (free_port() if given else 0)
        self.process: subprocess.Popen[bytes] | None = None
        self._log_file: BinaryIO | None = None
        self.log_path = data_dir / f"server-{os.getpid()}-{next(_LOG_NUMBERS)}.log"

    @property
    def url(self) -> str:
        return f"http://127.0.0.1:{self.port}"

    @property
    def ws_url(self) -> str:
        return f"ws://127.0.0.1:{self.port}/ws"

    def start(self) -> None:
        self.data_dir.mkdir(parents=True, exist_ok=True)
        command = [
            sys.executable, "-m", "snakes", "serve",
            "--host", "127.0.0.1", "--port", str(self.port), "--data", str(self.data_dir),
            *self.extra,
        ]  # fmt: skip
        self._close_log()
        self._log_file = self.log_path.open("ab")
        env = {**os.environ, "PYTHONUNBUFFERED": "1"}
        files = self.files

        def limit() -> None:
            if files is not None:
                resource.setrlimit(resource.RLIMIT_NOFILE, (files, files))

        self.process = subprocess.Popen(
            command,
            stdout=self._log_file,
            stderr=subprocess.STDOUT,
            env=env,
            preexec_fn=limit if files is not None else None,  # noqa: PLW1509 - setrlimit only
        )
        deadline = time.monotonic() + STARTUP_SECONDS
        log_start = self.log_path.stat().st_size
        while time.monotonic() < deadline:
            if self.process.poll() is not None:
                self._close_log()
                raise RuntimeError(f"server exited at start:\n{self.log()}")
            if self.port == 0:
                self._read_bound_port(log_start)
                if self.port == 0:
                    time.sleep(0.05)
                    continue
            try:
                self.get("/healthz")
                return
            except (OSError, urllib.error.URLError):
                time.sleep(0.05)
        # Nothing of it is left behind: a process or log file left open would be
        # reported (ResourceWarning, an error here) in whichever test runs next.
        self.kill()
        raise RuntimeError(f"server did not start in {STARTUP_SECONDS} s:\n{self.log()}")

    def _read_bound_port(self, log_start: int) -> None:
        """The port the server announced (it was started on port 0), once it has."""
        with self.log_path.open("rb") as log:
            log.seek(log_start)
            found = _RUNNING_AT.search(log.read().decode(errors="replace"))
        if found:
            self.port = int(found.group(1))

    def _close_log(self) -> None:
        if self._log_file is not None:
            self._log_file.close()
            self._log_file = None

    def log(self) -> str:
        return self.log_path.read_text(errors="replace") if self.log_path.exists() else ""

    def stop(self) -> None:
        """SIGTERM, as an operator would."""
        if self.process and self.process.poll() is None:
            self.process.send_signal(signal.SIGTERM)
            try:
                self.process.wait(10)
            except subprocess.TimeoutExpired:
                self.process.kill()
                self.process.wait()
        self._close_log()

    def kill(self) -> None:
        """SIGKILL: no shutdown code runs."""
        if self.process and self.process.poll() is None:
            self.process.kill()
            self.process.wait()
        self._close_log()

    def restart(self) -> None:
        self.stop()
        self.start()

    def request(self, method: str, path: str, body: Any = None) -> tuple[int, Any]:
        data = None if body is None else json.dumps(body).encode()
        request = urllib.request.Request(
            self.url + path, data=data, method=method, headers={"Content-Type": "application/json"}
        )
        try:
            with urllib.request.urlopen(request, timeout=10) as response:
                return response.status, json.loads(response.read() or b"null")
        except urllib.error.HTTPError as error:
            return error.code, json.loads(error.read() or b"null")

    def raw(
        self, path: str, headers: dict[str, str] | None = None
    ) -> tuple[int, bytes, dict[str, str]]:
        """GET without decoding: status, body and headers."""
        request = urllib.request.Request(self.url + path, headers=headers or {})
        try:
            with urllib.request.urlopen(request, timeout=10) as response:
                return response.status, response.read(), dict(response.headers)
        except urllib.error.HTTPError as error:
            return error.code, error.read(), dict(error.headers)

    def get(self, path: str) -> Any:
        status, body = self.request("GET", path)
        if status >= 400:
            raise AssertionError(f"GET {path} -> {status} {body}")
        return body

    def post(self, path: str, body: Any) -> Any:
        status, answer = self.request("POST", path, body)
        if status >= 400:
            raise AssertionError(f"POST {path} -> {status} {answer}")
        return answer

    def advance(self, seconds: float) -> None:
        """Move the server's manual clock (needs --test-hooks)."""
        self.post("/_test/clock", {"seconds": seconds})

    def script_dice(self, *values: int) -> None:
        """Queue the next die values (needs --test-hooks)."""
        self.post("/_test/dice", {"values": list(values)})


@contextmanager
def running_server(
    data_dir: Path, *extra: str, files: int | None = None
) -> Iterator[ServerProcess]:
    server = ServerProcess(data_dir, *extra, files=files)
    server.start()
    try:
        yield server
    finally:
        server.kill()


TEST_FLAGS = (
    "--test-hooks", "--ai-delay", "0.05", "--animation-scale", "0",
    "--room-limit", "0", "--room-limit-hour", "0", "--room-limit-total", "0",
    "--max-connections-per-address", "0",
)  # fmt: skip
"""Fast AI, no animation allowance, a manual clock and scriptable dice. Every test talks
from 127.0.0.1, so the per-address budgets for rooms and connections are off; the tests
of those limits give them again after these flags (the last value of a flag wins)."""
