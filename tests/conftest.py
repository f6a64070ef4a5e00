"""Fixtures shared by every test folder."""

from __future__ import annotations

from collections.abc import Iterator
from pathlib import Path

import pytest

from tests.support.server import TEST_FLAGS, ServerProcess, running_server


@pytest.fixture
def server(tmp_path: Path) -> Iterator[ServerProcess]:
    """A real server process with a manual clock and scriptable dice."""
    with running_server(tmp_path / "data", *TEST_FLAGS) as process:
        yield process


from tests.support.redis_fixtures import prefix, redis_url  # noqa: E402  (shared fixtures)

__all__ = ["prefix", "redis_url", "server"]
