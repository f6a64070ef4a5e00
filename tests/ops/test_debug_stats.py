"""``/debug/stats`` answers only the operator, and walks the heap at most once in a while.

Switched on, it was open to anyone, and each call walked the whole heap, every player
waiting meanwhile (docs/SECURITY.md has what that costs).
"""

from __future__ import annotations

import json
import subprocess
import sys
from pathlib import Path
from typing import Any

from tests.support.server import TEST_FLAGS, ServerProcess, running_server

TOKEN = "a-token-for-the-operator-only"


def _ask(server: ServerProcess, query: str = "", token: str | None = TOKEN) -> tuple[int, Any]:
    headers = {} if token is None else {"Authorization": f"Bearer {token}"}
    status, body, _ = server.raw("/debug/stats" + query, headers=headers)
    return status, json.loads(body)


def test_debug_stats_answers_only_requests_that_carry_its_token(tmp_path: Path) -> None:
    flags = (*TEST_FLAGS, "--debug-stats-token", TOKEN)
    with running_server(tmp_path / "on", *flags) as server:
        unknown = server.raw("/debug/nothing-here")
        assert unknown[0] == 404
        for token in (None, "", TOKEN[:-1], TOKEN + "x", TOKEN.upper(), f"{TOKEN},{TOKEN}"):
            status, body = _ask(server, "?types=5", token)
            # Answered as any unknown path, before a parameter is read: nothing tells
            # that the path is there.
            assert (status, body) == (404, json.loads(unknown[1])), token
        status, _, _ = server.raw("/debug/stats", headers={"Authorization": TOKEN})
        assert status == 404  # the token, but not as a bearer token
        status, body = _ask(server)
        assert status == 200 and body["connections"] == 0 and body["gc_tracked"] > 0
    with running_server(tmp_path / "off", *TEST_FLAGS) as server:
        assert _ask(server)[0] == 404  # no token given at start: no such path


def test_a_short_token_is_refused_at_start(tmp_path: Path) -> None:
    command = [
        sys.executable, "-m", "snakes", "serve", "--port", "0", "--data", str(tmp_path),
        "--debug-stats-token", "short",
    ]  # fmt: skip
    done = subprocess.run(command, capture_output=True, text=True, timeout=60, check=False)
    assert done.returncode == 2 and "at least 16 characters" in done.stderr, done.stderr


def test_the_heap_is_walked_at_most_once_an_interval(tmp_path: Path) -> None:
    flags = (*TEST_FLAGS, "--debug-stats-token", TOKEN, "--debug-stats-interval", "3600")
    with running_server(tmp_path / "data", *flags) as server:
        first = _ask(server)[1]
        assert first["heap_walks"] == 1
        for _ in range(30):
            status, body = _ask(server)
            # The cheap figures are fresh each time; the heap's count is the last one.
            assert status == 200 and body["heap_walks"] == 1, body
            assert body["gc_tracked"] == first["gc_tracked"]
        for query in ("?types=5", "?collect=true", "?garbage=5", "?growth=5"):
            status, _, headers = server.raw(
                "/debug/stats" + query, headers={"Authorization": f"Bearer {TOKEN}"}
            )
            assert status == 429 and 3500 < int(headers["retry-after"]) <= 3600, query
        assert _ask(server)[1]["heap_walks"] == 1
    flags = (*TEST_FLAGS, "--debug-stats-token", TOKEN, "--debug-stats-interval", "0")
    with running_server(tmp_path / "every", *flags) as server:
        walks = [_ask(server, "?types=3")[1]["heap_walks"] for _ in range(3)]
        assert walks == [1, 2, 3]
