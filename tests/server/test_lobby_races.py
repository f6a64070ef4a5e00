"""Lobby races against a real server, with real WebSocket clients, 200 rounds each.

In a lobby [Host, Ann, Bob, Cat], Ann leaves and the host removes seat 2 (Bob) a
moment later, from the list it was shown before Ann's leave: the remove names the
room's ``change`` it saw, so it is refused and Cat stays. A remove sent twice (a double
click) removes one player. Whatever the order the two land in, the right player goes,
once, and the intent that lost is answered by a welcome alone, the room as it is now
(it was stale: no error comes with it).
"""

from __future__ import annotations

from collections import Counter

from tests.server.online_helpers import COLOURS
from tests.support.client import GameClient
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
            host_since, ann_since = len(host.received), len(ann.received)
            host.send({"type": "remove", "seat": 2, "change": seen, "ref": "rm"})
            first = host.received[0]
            host.wait_for(lambda m: m is not first and m["type"] in ("update", "welcome"))  # noqa: B023
            names = _names(server, code)
            assert "Cat" in names and len(names) == 3, (round_, names)
            if names == ["Host", "Bob", "Cat"]:  # the leave won: the remove was stale
                outcomes["leave first"] += 1
                fresh = host.shown_again(host_since)
                assert [s["name"] for s in fresh["room"]["seats"]] == ["Host", "Bob", "Cat"]
            else:  # the remove won: Ann's leave named a state that was gone
                assert names == ["Host", "Ann", "Cat"], (round_, names)
                outcomes["remove first"] += 1
                ann.shown_again(ann_since)
    assert outcomes["leave first"] >= ROUNDS // 2, outcomes


def test_a_remove_sent_twice_removes_one_player(server: ServerProcess) -> None:
    for round_ in range(ROUNDS):
        code, host, ann = _lobby(server)
        seen = host.room["change"]  # type: ignore[index]
        with host, ann:
            since = len(host.received)
            host.send({"type": "remove", "seat": 2, "change": seen, "ref": "first"})
            host.send({"type": "remove", "seat": 2, "change": seen, "ref": "second"})
            host.shown_again(since)
            assert _names(server, code) == ["Host", "Ann", "Cat"], round_
            updates = [m for m in host.received if m["type"] == "update"]
            assert len(updates) <= 1  # only the first was applied
