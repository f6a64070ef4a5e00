"""The page's own room (js/local-room.js, run by Node) against the server's runtime.

PRODUCT.md: "Local games ... Their rules are the engine's, proven equal by a differential
test", and ARCHITECTURE: "The local room speaks the server's messages, checked against
the same schema and the same constants."

The same seeded game is played step by step in both: a server room of the same mode
(its runtime in this process, on a hand-moved clock, with the settings' real pacing)
and the page's room, fed the same client messages and the same dice. At every step
they must send the same messages (the same events and the same room view, the room's
code and invite link aside), every local message must fit the committed schema
(docs/protocol.schema.json), and an AI seat must be due to roll after the same pause:
the page takes the server's pacing from /api/config.
"""

from __future__ import annotations

import json
import random
import subprocess
from collections.abc import Iterator
from dataclasses import dataclass
from typing import Any

import jsonschema_rs
import pytest

from snakes.engine import Rules
from snakes.server import jsontext
from snakes.server.boards import board_named
from snakes.server.rooms.model import Kind, Mode, Room, Seat
from snakes.server.settings import Settings
from snakes.server.transport.config import game_config
from tests.js.node import NODE, ROOT, require_node
from tests.support.inprocess import Table, Viewer, run, settle, socket_message

DRIVER = ROOT / "tests" / "js" / "support" / "local-room-driver.mjs"
SCHEMA = json.loads((ROOT / "docs" / "protocol.schema.json").read_text(encoding="utf-8"))
PACED = Settings(ai_delay=0.9, animation_scale=1.0)
"""The server's default pacing: an AI seat's pause is worth comparing only when it is
not zero."""
MAX_STEPS = 600


class Draws:
    """Dice from draws made in advance: roll i is 1 + draws[i] mod faces, on both sides."""

    def __init__(self, draws: list[int]) -> None:
        self.draws = list(draws)

    def next_roll(self, room: Room, faces: int) -> int:
        return 1 + self.draws.pop(0) % faces


class PageRoom:
    """The page's room in a Node process: commands in, what it delivered out."""

    def __init__(self) -> None:
        self.process = subprocess.Popen(
            [str(NODE), str(DRIVER)],
            stdin=subprocess.PIPE,
            stdout=subprocess.PIPE,
            text=True,
        )
        self.timer: float | None = None

    def command(self, cmd: str, **fields: Any) -> list[dict[str, Any]]:
        assert self.process.stdin is not None and self.process.stdout is not None
        self.process.stdin.write(json.dumps({"cmd": cmd, **fields}) + "\n")
        self.process.stdin.flush()
        answer = json.loads(self.process.stdout.readline())
        assert "failed" not in answer, answer.get("failed")
        self.timer = answer["timer"]
        messages: list[dict[str, Any]] = answer["messages"]
        return messages

    def close(self) -> None:
        self.process.kill()
        self.process.wait()
        for pipe in (self.process.stdin, self.process.stdout):
            if pipe is not None:
                pipe.close()


@dataclass
class Game:
    """One seeded game to play on both sides, and what to do when a person is up."""

    mode: Mode
    seats: list[tuple[str, str, Kind]]
    finish: str
    board: str
    seed: int
    leave_at: int | None = None
    """The step at which the person whose turn it is leaves (Pass & Play), if any."""
    rematch: bool = True
    skips: bool = False
    """Only AI seats are left racing at some point: "Skip to results" is pressed then."""


ANA, BEN, CY = ("Ana", "red", Kind.HUMAN), ("Ben", "blue", Kind.HUMAN), ("Cy", "green", Kind.HUMAN)
ROBO, BOT, ZED = ("Robo", "purple", Kind.AI), ("Bot", "orange", Kind.AI), ("Zed", "yellow", Kind.AI)
GAMES = {
    "ai-classic": Game(Mode.AI, [ANA, ROBO, BOT], "classic", "jungle", 1),
    "ai-last-one-standing": Game(
        Mode.AI, [ANA, ROBO, BOT, ZED], "last-one-standing", "short", 7, skips=True
    ),
    "pass-with-a-leaver": Game(
        Mode.PASS, [ANA, BEN, CY, ROBO], "last-one-standing", "ladders-galore", 3, leave_at=9
    ),
}


def comparable(message: dict[str, Any]) -> dict[str, Any]:
    """A message without what must differ: the room's code and its invite link, and an
    error's words (its code is what a client reads)."""
    if message["type"] == "error":
        return {k: v for k, v in message.items() if k != "message"}
    if "room" not in message:
        return message
    room = {k: v for k, v in message["room"].items() if k not in ("code", "invite_url")}
    return {**message, "room": room}


@pytest.fixture
def page_room() -> Iterator[PageRoom]:
    require_node()
    room = PageRoom()
    yield room
    room.close()


@dataclass
class Sides:
    """The server's room (its runtime, and the device's connection to it) and the page's."""

    table: Table
    code: str
    device: Viewer
    page: PageRoom
    taken: list[str]

    async def both(self, message: dict[str, Any], step: str) -> None:
        """One client message to both rooms: the same answers, and the same AI pause."""
        self.device.inbox()
        await socket_message(
            jsontext.dumps(message).encode(), self.device.session, self.table.runtime
        )
        await settle()
        same(self.device.inbox(), self.page.command("send", message=message), step)
        same_pause(self.table, self.code, self.page, step)
        self.taken.append(step)

    async def ai_turn(self, step: str) -> None:
        """The AI seat's pause runs out on both sides: the same update."""
        pause = self.table.current(self.code).timers["ai"] - self.table.clock.now()
        self.device.inbox()
        self.table.clock.advance(pause)
        await settle()
        same(self.device.inbox(), self.page.command("fire"), step)
        same_pause(self.table, self.code, self.page, f"after {step}")
        self.taken.append("ai")

    async def person_turn(self, room: dict[str, Any], game: Game, number: int) -> None:
        turn, version, change = room["turn"], room["version"], room["change"]
        if game.leave_at == number:
            await self.both({"type": "leave", "seat": turn, "change": change}, "leave")
            return
        if "stale roll" not in self.taken and version > 0:
            await self.both({"type": "roll", "seat": turn, "version": version - 1}, "stale roll")
        await self.both({"type": "roll", "seat": turn, "version": version}, "roll")


async def open_both(table: Table, game: Game, page: PageRoom, draws: list[int]) -> Sides:
    """The same game opened on both sides, and the device's welcome from each."""
    seats = [Seat(name, colour, kind) for name, colour, kind in game.seats]
    rules = Rules.from_data({"finish": game.finish})
    created = await table.runtime.create(
        game.mode, seats, rules, shuffle=False, countdown_seconds=None,
        board=board_named(game.board),
    )  # fmt: skip
    page.command(
        "open",
        game={
            "code": "0LOCAL",
            "mode": game.mode.value,
            "seats": [{"name": s.name, "colour": s.colour, "kind": s.kind.value} for s in seats],
            "rules": rules.to_data(),
            "board": board_named(game.board).to_data(),
        },
        pacing=game_config(PACED).pacing.model_dump(),
        draws=draws,
    )
    device = Viewer(table.runtime)
    await device.hello(created.code, created.secret)
    same(device.received, page.command("hello"), "welcome")
    same_pause(table, created.code, page, "welcome")
    return Sides(table, created.code, device, page, [])


async def play(game: Game, page: PageRoom) -> list[str]:
    """Play ``game`` on both sides; every step's messages and AI pause must agree. The
    kinds of step taken, for the test to check what it covered."""
    draws = random.Random(game.seed).choices(range(60), k=20_000)
    async with Table(settings=PACED, dice=Draws(draws)) as table:
        sides = await open_both(table, game, page, draws)
        rematched = False
        for number in range(MAX_STEPS):
            room = sides.device.room
            if room["over"]:
                if not game.rematch or rematched:
                    return sides.taken
                version, change = room["version"], room["change"]
                await sides.both(
                    {"type": "roll", "seat": 0, "version": version}, "roll after the end"
                )
                await sides.both({"type": "rematch", "change": change}, "rematch")
                rematched = True
            elif room["seats"][room["turn"]]["kind"] == "human":
                await sides.person_turn(room, game, number)
            elif room["only_ai_racing"] and "finish_ai" not in sides.taken:
                change = room["change"]
                await sides.both({"type": "finish_ai", "change": change - 1}, "stale finish_ai")
                await sides.both({"type": "finish_ai", "change": change}, "finish_ai")
            else:
                await sides.ai_turn(f"the AI turn at step {number}")
    raise AssertionError(f"no end after {MAX_STEPS} steps")


def same(server: list[dict[str, Any]], page: list[dict[str, Any]], step: str) -> None:
    checker = jsonschema_rs.validator_for(SCHEMA["server"])
    for message in page:
        errors = [f"{e.instance_path}: {e.message}" for e in checker.iter_errors(message)]
        assert not errors, (step, "the page's room sent a message off the schema", errors)
    assert [comparable(m) for m in page] == [comparable(m) for m in server], step


def same_pause(table: Table, code: str, page: PageRoom, step: str) -> None:
    """The AI seat whose turn it is rolls after the same pause on both sides (none when a
    person is up or the game is over)."""
    due = table.current(code).timers.get("ai")
    server = None if due is None else round((due - table.clock.now()) * 1000, 6)
    local = None if page.timer is None else round(page.timer, 6)
    assert local == server, (step, "AI pause in ms: page, server", local, server)


@pytest.mark.parametrize("name", sorted(GAMES))
def test_the_page_room_sends_what_the_server_sends_step_by_step(
    name: str, page_room: PageRoom
) -> None:
    taken = run(play(GAMES[name], page_room))
    assert {"roll", "ai", "rematch", "stale roll", "roll after the end"} <= set(taken), taken
    if GAMES[name].leave_at is not None:
        assert "leave" in taken
    if GAMES[name].skips:
        assert {"finish_ai", "stale finish_ai"} <= set(taken), taken
