"""Fixtures shared by every test folder, and the ``processes`` mark.

``make test-fast`` runs what is left without ``processes``: the tests that run in this
process alone (engine, rooms, the runtime on its memory backends, analysis, docs,
doctests). A test is marked when it lives in a folder whose tests start servers,
browsers or Redis nodes, or when it uses a fixture that starts one.
"""

from __future__ import annotations

from collections.abc import Iterator
from pathlib import Path

import pytest

from tests.support.server import TEST_FLAGS, ServerProcess, running_server

# Folders whose every test starts a server, a browser or a Redis of its own.
_PROCESS_FOLDERS = frozenset(
    {"browser", "cli", "faults", "fuzz", "js", "ops", "redis", "server", "story"}
)
# Fixtures that start a process, or that reach the machine's Redis.
_PROCESS_FIXTURES = frozenset(
    {"server", "web_server", "hooks_server", "browser", "page", "hooks_page", "nodes", "redis_url"}
)


def pytest_collection_modifyitems(items: list[pytest.Item]) -> None:
    tests = Path(__file__).parent
    for item in items:
        folder = item.path.relative_to(tests).parts[0] if item.path.is_relative_to(tests) else ""
        fixtures = set(getattr(item, "fixturenames", ()))
        if folder in _PROCESS_FOLDERS or fixtures & _PROCESS_FIXTURES:
            item.add_marker(pytest.mark.processes)


@pytest.fixture
def server(tmp_path: Path) -> Iterator[ServerProcess]:
    """A real server process with a manual clock and scriptable dice."""
    with running_server(tmp_path / "data", *TEST_FLAGS) as process:
        yield process


from tests.support.redis_fixtures import prefix, redis_url  # noqa: E402  (shared fixtures)

__all__ = ["prefix", "redis_url", "server"]
