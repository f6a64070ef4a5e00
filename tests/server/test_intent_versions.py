"""Every intent kind, sent stale and then twice, against a real server over WebSockets.

Each intent that changes a room names what its sender saw: ``change`` (or a roll's
``version``, a seed's ``commitment``). One made against an older state is refused with
``stale_version``, and the same one sent twice (a double click, a retry) is applied
once: the second is refused. A refusal as stale is a welcome alone: the sender is shown
the room as it is now, with no error and no reconnect.
"""

from __future__ import annotations

from collections.abc import Callable
from typing import Any

import pytest

from tests.server.online_helpers import Player, close_all, start, table
from tests.support.client import GameClient, Message
from tests.support.server import ServerProcess

Prepared = tuple[list[GameClient], GameClient, Message]
"""(every client to close, the one that sends, the intent without what it saw)."""


def _lobby(server: ServerProcess, players: int) -> tuple[str, list[Player]]:
    code, seated = table(server, players)
    for player in seated:
        player.client.catch_up()
    return code, seated


def _playing(server: ServerProcess, players: int) -> tuple[str, list[Player]]:
    code, seated = _lobby(server, players)
    start(seated)
    return code, seated


def _over(server: ServerProcess) -> tuple[str, list[GameClient]]:
    """A Pass & Play game, over: Ben left (Classic: Ana wins at once)."""
    seats = [{"name": "Ana", "colour": "red"}, {"name": "Ben", "colour": "blue"}]
    created = server.post("/api/rooms", {"mode": "pass", "seats": seats})
    client = GameClient(server.ws_url)
    client.hello(created["code"], created["secret"])
    client.send({"type": "leave", "seat": 1})
    client.wait_for(lambda m: m.get("room", {}).get("phase") == "over")
    return created["code"], [client]


def _only_ai_racing(server: ServerProcess) -> tuple[str, list[GameClient]]:
    """A Play with AI game whose one person left: "Skip to results" is offered."""
    seats = [
        {"name": "Ana", "colour": "red"},
        {"name": "Robo", "colour": "blue", "kind": "ai"},
        {"name": "Bolt", "colour": "green", "kind": "ai"},
    ]
    created = server.post("/api/rooms", {"mode": "ai", "seats": seats})
    client = GameClient(server.ws_url)
    client.hello(created["code"], created["secret"])
    client.send({"type": "leave", "seat": 0})
    client.wait_for(lambda m: m.get("room", {}).get("only_ai_racing") is True)
    return created["code"], [client]


def _clients(players: list[Player]) -> list[GameClient]:
    return [p.client for p in players]


def start_intent(server: ServerProcess) -> tuple[str, Prepared]:
    code, p = _lobby(server, 2)
    return code, (_clients(p), p[0].client, {"type": "start"})


def rules_intent(server: ServerProcess) -> tuple[str, Prepared]:
    code, p = _lobby(server, 2)
    rules = {"type": "rules", "rules": {"finish": "classic"}, "countdown_seconds": 30}
    return code, (_clients(p), p[0].client, rules)


def add_ai_intent(server: ServerProcess) -> tuple[str, Prepared]:
    code, p = _lobby(server, 2)
    return code, (_clients(p), p[0].client, {"type": "add_ai", "name": "Robo", "colour": "green"})


def remove_intent(server: ServerProcess) -> tuple[str, Prepared]:
    code, p = _lobby(server, 3)
    return code, (_clients(p), p[0].client, {"type": "remove", "seat": 1})


def leave_intent(server: ServerProcess) -> tuple[str, Prepared]:
    code, p = _playing(server, 3)
    return code, (_clients(p), p[2].client, {"type": "leave", "seat": 2})


def reactions_intent(server: ServerProcess) -> tuple[str, Prepared]:
    code, p = _playing(server, 2)
    return code, (_clients(p), p[0].client, {"type": "reactions", "on": False})


def rematch_intent(server: ServerProcess) -> tuple[str, Prepared]:
    code, clients = _over(server)
    return code, (clients, clients[0], {"type": "rematch"})


def finish_ai_intent(server: ServerProcess) -> tuple[str, Prepared]:
    code, clients = _only_ai_racing(server)
    return code, (clients, clients[0], {"type": "finish_ai"})


CHANGING: list[Callable[[ServerProcess], tuple[str, Prepared]]] = [
    start_intent,
    rules_intent,
    add_ai_intent,
    remove_intent,
    leave_intent,
    reactions_intent,
    rematch_intent,
    finish_ai_intent,
]


def _refused(client: GameClient, since: int) -> None:
    """The intent sent when the client had read ``since`` messages was refused as stale:
    its sender was shown the room as it is now (a welcome), and nothing else."""
    client.shown_again(since)


def _view(server: ServerProcess, code: str) -> dict[str, Any]:
    view: dict[str, Any] = server.get(f"/api/rooms/{code}")
    return view


@pytest.mark.parametrize("prepare", CHANGING, ids=lambda f: f.__name__)
def test_an_intent_sent_stale_or_twice_is_refused_and_applied_once(
    server: ServerProcess, prepare: Callable[[ServerProcess], tuple[str, Prepared]]
) -> None:
    code, (clients, sender, intent) = prepare(server)
    try:
        sender.catch_up()
        seen = _view(server, code)["change"]
        assert sender.room is not None and sender.room["change"] == seen
        if seen > 0:
            since = len(sender.received)
            sender.send({**intent, "change": seen - 1, "ref": "stale"})
            _refused(sender, since)
            assert _view(server, code)["change"] == seen  # nothing was applied
        since = len(sender.received)
        sender.send({**intent, "change": seen, "ref": "first"})
        sender.send({**intent, "change": seen, "ref": "again"})
        _refused(sender, since)
        assert not [m for m in sender.received if m.get("ref") == "first"]  # it was applied
        assert _view(server, code)["change"] == seen + 1  # once
    finally:
        for client in clients:
            client.close()


def test_a_roll_sent_stale_or_twice_is_refused_and_applied_once(server: ServerProcess) -> None:
    code, players = _playing(server, 2)
    try:
        host = players[0].client
        host.catch_up()
        server.script_dice(3, 4)
        since = len(host.received)
        host.send({"type": "roll", "seat": 0, "version": 0, "ref": "first"})
        host.send({"type": "roll", "seat": 0, "version": 0, "ref": "again"})
        _refused(host, since)
        view = _view(server, code)
        assert view["version"] == 1 and view["seats"][0]["square"] == 3
        guest = players[1].client
        guest.catch_up()
        since = len(guest.received)
        guest.send({"type": "roll", "seat": 1, "version": 0, "ref": "stale"})
        _refused(guest, since)
        assert _view(server, code)["version"] == 1
    finally:
        close_all(players)


def test_a_seed_sent_for_another_game_or_twice_is_refused_and_kept_once(
    server: ServerProcess,
) -> None:
    code, players = _lobby(server, 2)
    try:
        host = players[0].client
        commitment = _view(server, code)["fair"]["commitment"]
        since = len(host.received)
        host.send({"type": "seed", "seed": "a1" * 16, "commitment": "0" * 64, "ref": "stale"})
        _refused(host, since)
        since = len(host.received)
        host.send({"type": "seed", "seed": "a1" * 16, "commitment": commitment, "ref": "first"})
        host.send({"type": "seed", "seed": "b2" * 16, "commitment": commitment, "ref": "again"})
        _refused(host, since)
        assert _view(server, code)["fair"]["seeds_received"] == 1
    finally:
        close_all(players)
