"""Redis for the scale-out tests: the machine's Redis, a key prefix of our own, cleaned up.

Under CI=true a missing Redis fails these tests; elsewhere they are skipped, saying so.
"""

from __future__ import annotations

from collections.abc import Iterator
from pathlib import Path

import pytest

from tests.support.server import ServerProcess

NODE_FLAGS = ("--test-hooks", "--ai-delay", "0.05", "--animation-scale", "0")


class Cluster:
    """Several node processes sharing one Redis prefix."""

    def __init__(self, tmp_path: Path, redis_url: str, prefix: str, count: int) -> None:
        self.nodes = [
            ServerProcess(
                tmp_path / f"node{i}", *NODE_FLAGS, "--redis", redis_url, "--redis-prefix", prefix
            )
            for i in range(count)
        ]

    def __enter__(self) -> list[ServerProcess]:
        for node in self.nodes:
            node.start()
        return self.nodes

    def __exit__(self, *_: object) -> None:
        for node in self.nodes:
            node.kill()


@pytest.fixture
def nodes(tmp_path: Path, redis_url: str, prefix: str) -> Iterator[list[ServerProcess]]:
    with Cluster(tmp_path, redis_url, prefix, 3) as started:
        yield started
