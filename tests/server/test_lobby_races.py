"""Lobby races against a real server, with real WebSocket clients, 200 rounds each.

In a lobby [Host, Ann, Bob, Cat], Ann leaves and the host removes seat 2 (Bob) a
moment later, from the list it was shown before Ann's leave: the remove names the
room's ``change`` it saw, so it is refused and Cat stays. A remove sent twice (a double
click) removes one player. Whatever the order the two land in, the right player goes,
once, and the intent that lost is told ``stale_version`` with the room as it is now.
"""

from __future__ import annotations

from collections import Counter
from collections.abc import Callable

from tests.server.online_helpers import COLOURS
from tests.support.client import GameClient, Message
from tests.support.server import ServerProcess

ROUNDS = 200
NAMES = ["Host", "Ann", "Bob", "Cat"]


def _lobby(server: ServerProcess) -> tuple[str, GameClient, GameClient]:
    """[Host, Ann, Bob, Cat], the host and Ann connected and shown all four."""
    body = {"mode": "online", "seats": [{"name": "Host", "colour": COLOURS[0]}]}
    created = server.post("/api/rooms", body)
    code = created["code"]
    secrets = [created["secret"]]
    for index, name in enumerate(NAMES[1:], start=1):
        joined = server.post(f"/api/rooms/{code}/join", {"name": name, "colour": COLOURS[index]})
        secrets.append(joined["secret"])
    host, ann = GameClient(server.ws_url), GameClient(server.ws_url)
    assert host.hello(code, secrets[0])["type"] == "welcome"
    assert ann.hello(code, secrets[1])["type"] == "welcome"
    assert [s["name"] for s in host.room["seats"]] == NAMES  # type: ignore[index]
    return code, host, ann


def _got(client: GameClient, accept: Callable[[Message], bool]) -> Message:
    """The first message that passes ``accept``: read already, or the next one that does."""
    found = next((m for m in client.received if accept(m)), None)
    return found if found is not None else client.wait_for(accept)


def _names(server: ServerProcess, code: str) -> list[str]:
    return [s["name"] for s in server.get(f"/api/rooms/{code}")["seats"]]


def test_a_remove_racing_a_leave_removes_the_right_player_once(server: ServerProcess) -> None:
    outcomes: Counter[str] = Counter()
    for round_ in range(ROUNDS):
        code, host, ann = _lobby(server)
        seen = host.room["change"]  # type: ignore[index]
        with host, ann:
            ann.send({"type": "leave", "seat": 1, "change": seen})
            if round_ % 2 == 0:
                # The leave lands first: the host's click was made on the older list.
                ann.wait_for(lambda m: m["type"] == "update")
            host.send({"type": "remove", "seat": 2, "change": seen, "ref": "rm"})
            host.wait_for(lambda m: m.get("ref") == "rm" or m["type"] == "update")
            names = _names(server, code)
            assert "Cat" in names and len(names) == 3, (round_, names)
            if names == ["Host", "Bob", "Cat"]:  # the leave won: the remove was stale
                outcomes["leave first"] += 1
                error = _got(host, lambda m: m["type"] == "error")
                assert error["code"] == "stale_version" and error["ref"] == "rm"
                first = host.received[0]
                fresh = _got(host, lambda m: m["type"] == "welcome" and m is not first)  # noqa: B023
                assert [s["name"] for s in fresh["room"]["seats"]] == ["Host", "Bob", "Cat"]
            else:  # the remove won: Ann's leave named a state that was gone
                assert names == ["Host", "Ann", "Cat"], (round_, names)
                outcomes["remove first"] += 1
                assert _got(ann, lambda m: m["type"] == "error")["code"] == "stale_version"
    assert outcomes["leave first"] >= ROUNDS // 2, outcomes


def test_a_remove_sent_twice_removes_one_player(server: ServerProcess) -> None:
    for round_ in range(ROUNDS):
        code, host, ann = _lobby(server)
        seen = host.room["change"]  # type: ignore[index]
        with host, ann:
            host.send({"type": "remove", "seat": 2, "change": seen, "ref": "first"})
            host.send({"type": "remove", "seat": 2, "change": seen, "ref": "second"})
            error = _got(host, lambda m: m["type"] == "error")
            assert (error["code"], error["ref"]) == ("stale_version", "second"), (round_, error)
            assert _names(server, code) == ["Host", "Ann", "Cat"], round_
            updates = [m for m in host.received if m["type"] == "update"]
            assert len(updates) <= 1  # only the first was applied
