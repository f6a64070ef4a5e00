"""Fixtures shared by every test folder, and the ``processes`` mark.

``make test-fast`` runs what is left without ``processes``: the tests that run in this
process alone (engine, rooms, the runtime on its memory backends, analysis, docs,
doctests). A test is marked when it lives in a folder whose tests start servers,
browsers or Redis nodes, or when it uses a fixture that starts one.

Hypothesis profiles (docs/TESTING.md, "A property test never asserts what its draws
reached"): with ``CI`` set, hypothesis loads its own ``ci`` profile (the same draws every
run of one tree, no example database). ``--hypothesis-profile=explore`` draws afresh with
no database, as a fresh clone does; ``--hypothesis-profile=fixed`` runs only the
explicit examples, the cases each property test must cover.
"""

from __future__ import annotations

from collections.abc import Iterator
from pathlib import Path

import pytest
from hypothesis import Phase, settings

from tests.support.server import TEST_FLAGS, ServerProcess, running_server

settings.register_profile("explore", derandomize=False, database=None)
settings.register_profile("fixed", phases=[Phase.explicit])

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


def pytest_configure() -> None:
    # As the server does: numpy's BLAS on one thread, or the in-process analysis tests'
    # small matrix products crawl while the other test processes keep the cores busy.
    from snakes.analysis import use_one_blas_thread

    use_one_blas_thread()
