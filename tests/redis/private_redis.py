"""A Redis server of a test's own, on a free port, to stop and start at will."""

from __future__ import annotations

import shutil
import subprocess
import time
from pathlib import Path

import redis
from tests.support.server import free_port


class PrivateRedis:
    def __init__(self, folder: Path, *, persistent: bool = False) -> None:
        self.folder = folder
        self.persistent = persistent
        """With append-only persistence (fsync always), as production runs it."""
        self.port = free_port()
        self.process: subprocess.Popen[bytes] | None = None

    @property
    def url(self) -> str:
        return f"redis://127.0.0.1:{self.port}/0"

    def start(self) -> None:
        binary = shutil.which("redis-server")
        if binary is None:
            raise RuntimeError("redis-server is not installed")
        self.folder.mkdir(parents=True, exist_ok=True)
        self.process = subprocess.Popen(
            [binary, "--port", str(self.port), "--bind", "127.0.0.1", "--save", "",
             "--appendonly", "yes" if self.persistent else "no", "--appendfsync", "always",
             "--dir", str(self.folder)],
            stdout=subprocess.DEVNULL,
            stderr=subprocess.DEVNULL,
        )  # fmt: skip
        client = redis.Redis(port=self.port, socket_connect_timeout=0.2)
        for _ in range(100):
            try:
                if client.ping():
                    client.close()
                    return
            except redis.RedisError:
                time.sleep(0.05)
        raise RuntimeError("private redis did not start")

    def stop(self) -> None:
        if self.process is not None and self.process.poll() is None:
            self.process.kill()
            self.process.wait()

    def wait_a_moment(self) -> None:
        time.sleep(0.05)

    def __enter__(self) -> PrivateRedis:
        self.start()
        return self

    def __exit__(self, *_: object) -> None:
        self.stop()
