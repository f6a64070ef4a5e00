"""Nothing a player did is lost: SIGKILL the server mid-game and start it again."""

from __future__ import annotations

import sqlite3
from pathlib import Path

import pytest
from websockets.exceptions import ConnectionClosed

from tests.server.online_helpers import close_all, table
from tests.support.client import GameClient
from tests.support.server import TEST_FLAGS, running_server


def test_an_online_game_goes_on_at_its_last_move_after_sigkill(tmp_path: Path) -> None:
    with running_server(tmp_path / "data", *TEST_FLAGS) as server:
        code, players = table(server, 3)
        players[0].client.send({"type": "start"})
        for player in players:
            player.catch_up()
        server.script_dice(6, 2, 3, 1)
        players[0].roll()
        players[0].roll()
        players[1].roll()
        server.advance(7)  # part of Cy's countdown has run
        before = server.get(f"/api/rooms/{code}")
        assert before["version"] == 3 and before["turn"] == 2

        server.kill()
        for player in players:
            # The server vanished: every client sees its connection drop.
            with pytest.raises(ConnectionClosed):
                for _ in range(50):
                    player.client.recv(timeout=5)
        close_all(players)
        server.start()

        after = server.get(f"/api/rooms/{code}")
        assert after["version"] == 3
        assert (
            [s["square"] for s in after["seats"]]
            == [s["square"] for s in before["seats"]]
            == [8, 3, 0]
        )
        assert after["turn"] == 2
        # Nobody is back yet: the countdown waits rather than skipping Cy for downtime.
        assert after["countdown"]["paused"] is True
        server.advance(600)
        assert server.get(f"/api/rooms/{code}")["version"] == 3

        back = []
        for player in players:
            client = GameClient(server.ws_url)
            welcome = client.hello(code, player.secret)
            assert welcome["you"]["seats"] == [player.seat]
            back.append(client)
        # The interrupted countdown starts again in full.
        assert back[2].room is not None
        assert back[2].room["countdown"]["remaining_ms"] == 20_000
        server.script_dice(4)
        back[2].send({"type": "roll", "seat": 2, "version": 3})
        update = back[2].wait_for(lambda m: m["type"] == "update" and bool(m["events"]))
        assert update["room"]["version"] == 4
        assert update["room"]["seats"][2]["square"] == 4 + 10  # 4 is a ladder to 14
        for client in back:
            client.close()

    # The action log is gapless: one row per version, none lost, none repeated.
    with sqlite3.connect(tmp_path / "data" / "snakes.db") as db:
        seqs = [seq for (seq,) in db.execute("SELECT seq FROM actions WHERE code = ?", (code,))]
    assert seqs == [1, 2, 3, 4]
