"""nginx in front of three nodes, with the site file docs/DEPLOY.md shows: a node killed
mid-game, and every player back in their seat through nginx with nothing lost.

Real processes: Debian's nginx running ``deploy/nginx/snakes.conf`` as it is (included
by a small nginx.conf of the test's own, ``tests/support/nginx.py``), three ``snakes
serve --redis`` nodes on the machine's Redis under a prefix of the test's own, and four
players on real WebSockets through nginx's port, each sending the ``Origin`` a browser
sends and opening ``/ws?room=CODE`` as the page does.
"""

from __future__ import annotations

import json
import time
from collections.abc import Callable, Iterator
from dataclasses import dataclass, field
from pathlib import Path

import pytest
from websockets.exceptions import ConnectionClosed, InvalidStatus

import redis
from tests.support.client import GameClient, Message
from tests.support.nginx import Nginx
from tests.support.server import TEST_FLAGS, ServerProcess

COLOURS = ["red", "blue", "green", "yellow"]
ROLLS_BEFORE = 8
ROLLS_AFTER = 8
BACK_WITHIN = 30.0
"""Not a wait: a hang guard. The players are back when they are; DEPLOY.md quotes what
was measured."""


def _until(check: Callable[[], bool], what: str, seconds: float = BACK_WITHIN) -> None:
    deadline = time.monotonic() + seconds
    while not check():
        assert time.monotonic() < deadline, f"never: {what}"
        time.sleep(0.05)


@dataclass
class Player:
    name: str
    seat: int
    secret: str
    client: GameClient
    rolls: list[Message] = field(default_factory=list)
    """The updates that answered this player's rolls: each one acknowledged."""


@dataclass
class Table:
    nginx: Nginx
    nodes: list[ServerProcess]
    store: redis.Redis
    prefix: str
    code: str = ""
    players: list[Player] = field(default_factory=list)

    def key(self, part: str = "") -> str:
        return f"{self.prefix}room:{{{self.code}}}{part}"

    def owner(self) -> str:
        return (self.store.get(self.key(":owner")) or b"").decode()  # type: ignore[union-attr]

    def sockets_on(self) -> list[str]:
        """The node of each connection the room's presence holds ("node/connection")."""
        keys = self.store.hkeys(self.key(":presence"))
        return sorted(k.decode().split("/")[0] for k in keys)  # type: ignore[union-attr]

    def log(self) -> list[Message]:
        raw = self.store.lrange(self.key(":actions"), 0, -1)
        return [json.loads(item) for item in raw]

    def connect(self, secret: str) -> tuple[GameClient, Message]:
        """A player's socket through nginx, and the answer to their hello."""
        client = GameClient(self.nginx.ws_url(self.code), origin=self.nginx.origin)
        return client, client.hello(self.code, secret)


@pytest.fixture
def table(tmp_path: Path, redis_url: str, prefix: str) -> Iterator[Table]:
    # nginx is the proxy whose X-Forwarded-For names each player, as DEPLOY.md's nodes.
    redis_flags = ("--redis", redis_url, "--redis-prefix", prefix)
    flags = (*TEST_FLAGS, *redis_flags, "--trusted-proxy", "127.0.0.1")
    nodes = [ServerProcess(tmp_path / f"node{i}", *flags) for i in range(3)]
    store = redis.Redis.from_url(redis_url)
    try:
        for node in nodes:
            node.start()
        with Nginx(tmp_path / "nginx", nodes) as nginx:
            yield Table(nginx, nodes, store, prefix)
    finally:
        for node in nodes:
            node.kill()
        store.close()


def _node_named(table: Table, name: str) -> ServerProcess:
    return next(node for node in table.nodes if node.get("/healthz")["node"] == name)


def _seat_a_room_on_one_node(table: Table) -> ServerProcess:
    """A room of four created and joined through nginx, every player connected.

    The worst node to lose holds both the room (its owner: the node that created it)
    and every player's socket (where ``hash $arg_room`` sends them). Rooms are created
    through nginx, round-robin, until one is owned by the node its code hashes to; that
    node is returned.
    """
    nginx = table.nginx
    for _ in range(60):
        created = nginx.post(
            "/api/rooms", {"mode": "online", "seats": [{"name": "P1", "colour": "red"}]}
        )
        table.code = created["code"]
        # /healthz?room=CODE goes where /ws?room=CODE does: the node the code hashes to.
        hashed = nginx.get(f"/healthz?room={table.code}")["node"]
        if table.owner() == hashed:
            break
    else:
        raise AssertionError("no room in 60 was created on the node its code hashes to")
    client, welcome = table.connect(created["secret"])
    assert welcome["type"] == "welcome", welcome
    table.players = [Player("P1", 0, created["secret"], client)]
    for index in range(1, 4):
        joined = nginx.post(
            f"/api/rooms/{table.code}/join", {"name": f"P{index + 1}", "colour": COLOURS[index]}
        )
        client, welcome = table.connect(joined["secret"])
        assert welcome["you"]["seats"] == joined["seats"] == [index], welcome
        table.players.append(Player(f"P{index + 1}", index, joined["secret"], client))
    # Every player's socket is on that one node: what the hash line is for.
    _until(lambda: len(table.sockets_on()) == 4, "four sockets in the room's presence")
    on = table.sockets_on()
    assert on == [hashed] * 4, f"the room's sockets are not all on {hashed}: {on}"
    return _node_named(table, hashed)


def _everyone_sees(table: Table, version: int) -> None:
    for player in table.players:
        room = player.client.room
        if room is None or room["version"] < version:
            player.client.wait_for(lambda m: "room" in m and m["room"]["version"] >= version)


def _play(table: Table, rolls: int) -> None:
    """``rolls`` rolls, each by the player whose turn it is, each acknowledged by an
    update that every player then sees. A roll refused while a room changes hands
    (``busy``, ``unavailable``) is sent again, as the page does."""
    for _ in range(rolls):
        room = table.players[0].client.room
        assert room is not None and not room["over"], room
        mover = table.players[room["turn"]]
        deadline = time.monotonic() + BACK_WITHIN
        while True:
            answer = mover.client.roll(mover.seat)
            if answer["type"] == "update":
                break
            assert answer["type"] == "error" and answer["code"] in ("busy", "unavailable"), answer
            assert time.monotonic() < deadline, f"no roll went through: {answer}"
            time.sleep(0.1)
        assert answer["room"]["version"] == room["version"] + 1, (room, answer)
        mover.rolls.append(answer)
        _everyone_sees(table, answer["room"]["version"])


def _game_state(room: Message) -> Message:
    """What a player must find again: the squares, the turn, the version. (Who is
    connected right now, the countdown's clock and ``change`` are not the game.)"""
    seats = [
        {k: seat[k] for k in ("index", "name", "colour", "square", "status", "place")}
        for seat in room["seats"]
    ]
    return {
        "seats": seats,
        **{k: room[k] for k in ("phase", "turn", "version", "bonus", "over", "standings")},
    }


def _closed(client: GameClient) -> bool:
    """Read what is left on the socket; True once nginx has closed it."""
    try:
        client.recv(0.05)
    except TimeoutError:
        return False
    except ConnectionClosed:
        return True
    return False


def _reconnect(table: Table, player: Player) -> Message:
    """As the page does: a new socket through nginx and a hello with the seat's secret,
    tried again until it is welcomed (nginx may answer 502 while no node is left to try,
    and a node may answer ``unavailable`` while the room changes hands)."""
    deadline = time.monotonic() + BACK_WITHIN
    while True:
        try:
            client, answer = table.connect(player.secret)
        except (OSError, InvalidStatus) as error:
            answer = {"type": "refused", "error": repr(error)}
        else:
            if answer["type"] == "welcome":
                player.client.close()  # the socket nginx closed
                player.client = client
                return answer
            client.close()
        assert answer.get("code") in (None, "busy", "unavailable"), answer
        assert time.monotonic() < deadline, f"{player.name} never got back: {answer}"
        time.sleep(0.1)


def test_a_node_killed_mid_game_behind_nginx_every_player_back_in_their_seat(
    table: Table,
) -> None:
    doomed = _seat_a_room_on_one_node(table)
    doomed_name = table.owner()
    table.players[0].client.send({"type": "start"})
    for player in table.players:
        player.client.wait_for(lambda m: m.get("room", {}).get("phase") == "playing")
    _play(table, ROLLS_BEFORE)
    before = table.players[0].client.room
    assert before is not None and before["version"] == ROLLS_BEFORE
    log_before = table.log()
    acknowledged = [a for p in table.players for a in p.rolls]
    assert len(acknowledged) == ROLLS_BEFORE

    doomed.kill()  # SIGKILL: the node that owned the room and held every socket
    killed_at = time.monotonic()
    # nginx closes each player's socket when its node's side goes; each player sees it.
    _until(lambda: all(_closed(p.client) for p in table.players), "every socket closed")
    welcomes = [_reconnect(table, player) for player in table.players]
    back = time.monotonic() - killed_at

    for player, welcome in zip(table.players, welcomes, strict=True):
        # In their own seat, not watching: the secret brought each one back.
        assert welcome["you"]["seats"] == [player.seat], (player.name, welcome["you"])
        assert not welcome["you"]["spectator"]
        # The same game: every square, the turn, the version.
        assert _game_state(welcome["room"]) == _game_state(before), player.name
    # Every acknowledged roll is in the room's log, as it was answered.
    assert table.log() == log_before
    for update in acknowledged:
        rolled = next(e for e in update["events"] if e["type"] == "rolled")
        action = log_before[update["room"]["version"] - 1]
        assert (action["seq"], action["seat"], action["value"]) == (
            update["room"]["version"],
            rolled["seat"],
            rolled["value"],
        )
    # Together again, on one live node: the next node on the ring.
    live = [node.get("/healthz")["node"] for node in table.nodes if node is not doomed]
    _until(
        lambda: [n for n in table.sockets_on() if n != doomed_name] in ([n] * 4 for n in live),
        "the four sockets together on one live node",
    )

    # The game goes on: the room is taken over from the dead owner at the next roll.
    _play(table, 1)
    goes_on = time.monotonic() - killed_at
    _play(table, ROLLS_AFTER - 1)
    after = table.players[0].client.room
    assert after is not None and after["version"] == ROLLS_BEFORE + ROLLS_AFTER
    assert table.owner() in live
    log = table.log()
    assert [a["seq"] for a in log] == list(range(1, ROLLS_BEFORE + ROLLS_AFTER + 1))
    assert log[:ROLLS_BEFORE] == log_before
    for player in table.players:
        assert player.client.room is not None
        assert _game_state(player.client.room) == _game_state(after), player.name
        player.client.close()
    print(f"players back {back:.2f} s after the kill; next roll applied at {goes_on:.2f} s")
