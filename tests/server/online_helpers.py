"""Helpers for online-room tests: a host and players, each on their own connection."""

from __future__ import annotations

from dataclasses import dataclass

from tests.support.client import GameClient, Message
from tests.support.server import ServerProcess

COLOURS = ["red", "blue", "green", "yellow", "purple", "orange"]


@dataclass
class Player:
    name: str
    seat: int
    secret: str
    client: GameClient
    server: ServerProcess
    code: str

    def catch_up(self) -> None:
        """Read until this client has seen the room at the server's current version."""
        version = self.server.get(f"/api/rooms/{self.code}")["version"]
        if self.client.room is None or self.client.room["version"] < version:
            self.client.wait_for(
                lambda m: m["type"] == "update" and m["room"]["version"] >= version
            )

    def roll(self) -> Message:
        self.catch_up()
        return self.client.roll(self.seat)


def create_room(
    server: ServerProcess, name: str = "Host", colour: str = "red", **rules: object
) -> tuple[str, Player]:
    body: dict[str, object] = {"mode": "online", "seats": [{"name": name, "colour": colour}]}
    countdown = rules.pop("countdown_seconds", None)
    if countdown is not None:
        body["countdown_seconds"] = countdown
    if rules:
        body["rules"] = rules
    created = server.post("/api/rooms", body)
    client = GameClient(server.ws_url)
    client.hello(created["code"], created["secret"])
    return created["code"], Player(name, 0, created["secret"], client, server, created["code"])


def join(server: ServerProcess, code: str, name: str, colour: str) -> Player:
    joined = server.post(f"/api/rooms/{code}/join", {"name": name, "colour": colour})
    client = GameClient(server.ws_url)
    client.hello(joined["code"], joined["secret"])
    return Player(name, joined["seats"][0], joined["secret"], client, server, joined["code"])


def table(server: ServerProcess, players: int, **rules: object) -> tuple[str, list[Player]]:
    """An online room with ``players`` seated and connected, not started yet."""
    code, host = create_room(server, **rules)
    seated = [host]
    for index in range(1, players):
        seated.append(join(server, code, f"P{index + 1}", COLOURS[index]))
    return code, seated


def close_all(players: list[Player]) -> None:
    for player in players:
        player.client.close()


def start(players: list[Player]) -> None:
    """The host starts the game; every player sees it playing."""
    players[0].client.send({"type": "start"})
    for player in players:
        player.client.wait_for(lambda m: m["type"] == "update" and m["room"]["phase"] == "playing")
