"""The committed JSON Schema (docs/protocol.schema.json) against the server's messages.

It is generated from the types that validate what clients send and that describe what
the server sends (transport/protocol_schema.py, transport/view_schema.py); here every
message of whole games in process (an online room from its lobby to a rematch, a game
at one table with AI seats) must fit it, every event type must show up in them, and
the committed file must be what the code generates now.
"""

from __future__ import annotations

import json
from pathlib import Path
from typing import Any

import jsonschema_rs
import pytest

from snakes.engine import JUNGLE, Rules
from snakes.server import jsontext
from snakes.server.rooms.model import Kind, Mode, Seat
from snakes.server.transport.protocol_schema import SERVER_MODELS, schema_text
from snakes.server.transport.view_schema import EVENT_TYPES, RoomView
from tests.support.inprocess import Table, Viewer, run, settle, socket_message

SCHEMA_FILE = Path(__file__).resolve().parents[2] / "docs" / "protocol.schema.json"


def committed() -> dict[str, Any]:
    schema: dict[str, Any] = json.loads(SCHEMA_FILE.read_text(encoding="utf-8"))
    return schema


def test_the_committed_schema_is_the_one_the_code_generates() -> None:
    assert SCHEMA_FILE.read_text(encoding="utf-8") == schema_text(), (
        "docs/protocol.schema.json is out of date: run `make schema` and commit it"
    )


async def send(viewer: Viewer, table: Table, **message: Any) -> None:
    """A message as the game's WebSocket hands it on: parsed, validated, applied, and any
    refusal answered with an ``error`` (the socket's own path)."""
    await socket_message(jsontext.dumps(message).encode(), viewer.session, table.runtime)
    await settle()


def everything(viewer: Viewer) -> list[dict[str, Any]]:
    """Every message the viewer was sent."""
    viewer.inbox()
    return viewer.received


async def online_game() -> list[dict[str, Any]]:
    """Every message the players and a spectator of an online room get, from its lobby
    through a game (every event a game can have) to a rematch and a host leaving."""
    async with Table() as table:
        code, (host, ann) = await table.lobby(2)
        _, _, secret = await table.runtime.join(code, "Cat", "green")
        cat = await table.watch(code, secret)
        watcher = Viewer(table.runtime)
        await socket_message(
            jsontext.dumps({"type": "hello", "room": code, "odds": True}).encode(),
            watcher.session,
            table.runtime,
        )
        change = lambda: host.room["change"]  # noqa: E731
        await send(host, table, type="rules", rules={"finish": "classic"}, change=change())
        await send(host, table, type="add_ai", name="Robo", colour="yellow", change=change())
        await send(host, table, type="remove", seat=3, change=change())
        await send(host, table, type="reactions", on=False, change=change())
        await send(host, table, type="reactions", on=True, change=change())
        commitment = ann.room["fair"]["commitment"]
        await send(ann, table, type="seed", seed="ab" * 16, commitment=commitment)
        await send(host, table, type="ping", t=5)
        await send(host, table, type="ping")
        await send(ann, table, type="roll", seat=1, version=0, ref="early")
        await send(host, table, type="start", shuffle=False, change=change())
        await send(ann, table, type="react", seat=1, reaction="clap")
        players = {0: host, 1: ann, 2: cat}

        async def turn(seat: int, *values: int) -> None:
            for value in values:
                table.script(value)
                await players[seat].roll(seat)

        # Ann and Cat roll 2s: 2, then 4 up to 14, then 16 down to 6. The host climbs
        # 1 -> 38, 51 -> 67, 71 -> 91, overshoots from 96 and finishes with a 4.
        await turn(0, 1)
        await turn(1, 2)
        table.clock.advance(20)  # Cat's countdown runs out: skipped
        await settle()
        await turn(0, 6, 6, 1)
        await turn(1, 2)
        await turn(2, 2)
        await turn(0, 4)
        await turn(1, 2)
        await cat.leave()  # a presence message
        cat = await table.watch(code, secret)
        await send(cat, table, type="leave", seat=2, change=change())
        await turn(0, 5)
        await turn(1, 2)
        await turn(0, 5)  # 96 + 5 overshoots
        await turn(1, 2)
        await turn(0, 4)
        assert host.room["phase"] == "over"
        await send(ann, table, type="rematch", change=change())
        await send(host, table, type="rematch", start=True, change=change())
        await send(host, table, type="leave", seat=0, change=change())
        lobby_code, (alone,) = await table.lobby(1)
        await table.watch(lobby_code)
        await send(alone, table, type="leave", seat=0, change=alone.room["change"])
        return [m for v in (host, ann, cat, watcher, alone) for m in everything(v)]


async def local_game() -> list[dict[str, Any]]:
    """A game at one table with AI seats, its AI turns played by the room's timers and
    then "Skip to results"."""
    async with Table() as table:
        seats = [Seat("Ana", "red"), Seat("Robo", "blue", Kind.AI), Seat("Bot", "green", Kind.AI)]
        created = await table.runtime.create(
            Mode.AI, seats, Rules.from_data({"finish": "last-one-standing"}),
            shuffle=False, countdown_seconds=None, board=JUNGLE,
        )  # fmt: skip
        device = Viewer(table.runtime)
        await device.hello(created.code, created.secret)
        table.script(1, 2, 2, 6, 6, 1, 2, 2, 4, 2, 2, 5, 2, 2, 4)
        while device.room["seats"][0]["status"] == "racing":
            if device.room["turn"] == 0:
                await device.roll(0)
            else:
                table.clock.advance(1)
                await settle()
        await send(device, table, type="finish_ai", change=device.room["change"])
        assert device.room["over"]
        return everything(device)


@pytest.fixture(scope="module")
def messages() -> list[dict[str, Any]]:
    return run(online_game()) + run(local_game())


def test_every_message_of_whole_games_fits_the_committed_schema(
    messages: list[dict[str, Any]],
) -> None:
    server = jsonschema_rs.validator_for(committed()["server"])
    for message in messages:
        errors = [f"{e.instance_path}: {e.message}" for e in server.iter_errors(message)]
        assert errors == [], (message["type"], errors, message)


def test_the_games_show_every_message_and_event_type_the_schema_has(
    messages: list[dict[str, Any]],
) -> None:
    """A type nobody sends would be a schema that says more than the server does."""
    assert {m["type"] for m in messages} == set(SERVER_MODELS)
    events = {e["type"] for m in messages if m["type"] == "update" for e in m["events"]}
    assert events == set(EVENT_TYPES)
    views = [m["room"] for m in messages if "room" in m]
    assert {v["phase"] for v in views} == {"lobby", "playing", "over"}
    fair = [v["fair"] for v in views if v["fair"]]
    assert {f["accepting_seeds"] for f in fair} == {True, False}
    assert any(v["odds"] for v in views) and any(v["countdown"] for v in views)


@pytest.mark.parametrize(
    ("change", "problem"),
    [
        (lambda v: v.update(local=True), "local"),
        (lambda v: v.pop("change"), "change"),
        (lambda v: v["seats"][0].update(square=101), "101"),
        (lambda v: v["seats"][0].update(colour="pink"), "pink"),
        (lambda v: v.update(mode="solo"), "solo"),
    ],
    ids=["an unknown field", "a missing field", "a square past 100", "a colour", "a mode"],
)
def test_a_view_off_the_schema_is_refused(
    messages: list[dict[str, Any]], change: Any, problem: str
) -> None:
    """The room view's schema is closed and typed: a page's own room that adds, drops or
    mistypes a field fails it (tests/js check the page's local room against it)."""
    room_schema = jsonschema_rs.validator_for(committed()["room"])
    view = json.loads(json.dumps(next(m["room"] for m in messages if m["type"] == "welcome")))
    assert room_schema.is_valid(view)
    change(view)
    errors = " ".join(e.message + str(e.instance_path) for e in room_schema.iter_errors(view))
    assert problem in errors


def test_the_room_view_model_has_every_field_the_view_has(
    messages: list[dict[str, Any]],
) -> None:
    for view in (m["room"] for m in messages if "room" in m):
        assert set(view) == set(RoomView.model_fields)
        RoomView.model_validate(view)
