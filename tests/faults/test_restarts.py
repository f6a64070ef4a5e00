"""Twenty restarts (SIGKILL) of a server mid-countdown: after each, the first player back
sees the running countdown in the welcome, in full, and is never skipped unseen.

PRODUCT.md: "If the server restarts, an interrupted countdown starts again in full:
nobody is skipped for the server's downtime." and "Reconnecting: a per-seat secret …
brings a player … back to their seat, with the whole state and the remaining countdown."
"""

from __future__ import annotations

from pathlib import Path

import pytest

from tests.server.online_helpers import close_all, start, table
from tests.support.client import GameClient
from tests.support.server import TEST_FLAGS, ServerProcess

RESTARTS = 20


# Twenty SIGKILLs and starts of a real server: minutes on a busy machine. The limit is a
# hang guard, not a speed check.
@pytest.mark.timeout(900)
def test_after_each_of_twenty_restarts_the_first_player_back_sees_the_countdown(
    tmp_path: Path,
) -> None:
    server = ServerProcess(tmp_path / "data", *TEST_FLAGS)
    server.start()
    try:
        code, players = table(server, 2, countdown_seconds=10)
        start(players)
        secrets = [p.secret for p in players]
        close_all(players)
        for restart in range(RESTARTS):
            server.kill()
            server.start()
            first = restart % 2  # each seat in turn is the first one back
            with GameClient(server.ws_url) as back:
                welcome = back.hello(code, secrets[first])
                countdown = welcome["room"]["countdown"]
                assert countdown is not None, f"restart {restart}: no countdown"
                assert countdown["remaining_ms"] == 10_000
                server.advance(5)  # half the countdown: nothing may happen yet
                server.advance(0)
                skipped = [
                    m for m in back.received if m["type"] == "update" and m["events"]
                ]  # fmt: skip
                assert skipped == [], f"restart {restart}: {skipped}"
                assert back.room is not None and back.room["seats"][0]["missed"] == 0
    finally:
        server.kill()
