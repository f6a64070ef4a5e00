"""docs/PROTOCOL.md against the code: message types, fields, error codes, close codes.

The code side is read from the source (:mod:`tests.docs.protocol_scan`); the docs side
from PROTOCOL.md's tables. A type, code or close code added to the server without a row
in PROTOCOL.md fails here, and so does a row the server no longer has.
"""

from __future__ import annotations

import json
import re
import shutil
import urllib.request
from pathlib import Path

import jsonschema_rs
import pytest

from snakes.server.app import create_app
from snakes.server.settings import Settings
from snakes.server.transport.api import CreateRoom, SeatIn
from snakes.server.transport.protocol import CLIENT_TYPES
from snakes.server.transport.protocol_schema import SERVER_MODELS
from snakes.server.transport.view_schema import EventModels, RoomView, SeatView
from tests.docs.protocol_scan import SRC, Protocol, fields_of, names, scan, section, table
from tests.support.client import GameClient
from tests.support.server import ServerProcess

DOC = SRC.parents[1] / "docs" / "PROTOCOL.md"


class Documented:
    def __init__(self, text: str) -> None:
        self.client = {
            names(row[0])[0]: fields_of(row[1])
            for row in table(section(text, "### Client → server"))
        }
        self.server = {
            names(row[0])[0]: fields_of(row[1])
            for row in table(section(text, "### Server → client"))
            if row[0].startswith("`") and len(row) == 2
        }
        self.events = {
            names(row[0])[0]: fields_of(row[1]) for row in table(section(text, "### Events"))
        }
        codes = section(text, "### Error codes")
        self.error_codes = {
            name for row in table(codes.split("HTTP answers")[0]) for name in names(row[0])
        }
        self.http_status = {
            name: int(re.match(r"\d+", row[1])[0])  # type: ignore[index]
            for row in table(codes.split("HTTP answers")[1])
            for name in names(row[0])
        }
        self.close_codes = {
            row[1].strip("`"): int(row[0])
            for row in table(section(text, "### Close codes"))
            if row[1].startswith("`")
        }


def differences(code: Protocol, docs: Documented) -> list[str]:
    """Every way PROTOCOL.md and the code disagree, in words (empty: they agree)."""
    problems = []

    def compare(what: str, in_code: set[str], in_docs: set[str]) -> None:
        if missing := in_code - in_docs:
            problems.append(f"{what} in the code but not in PROTOCOL.md: {sorted(missing)}")
        if stale := in_docs - in_code:
            problems.append(f"{what} in PROTOCOL.md but not in the code: {sorted(stale)}")

    compare("client message types", set(code.client), set(docs.client))
    for kind in set(code.client) & set(docs.client):
        compare(f"fields of {kind!r}", code.client[kind], docs.client[kind])
    compare("server messages and events", set(code.server_side), {*docs.server, *docs.events})
    compare("engine events", set(code.engine_events), set(docs.events) & set(code.engine_events))
    for kind, fields in code.server_side.items():
        documented = docs.events.get(kind)
        if fields is not None and documented is not None:
            compare(f"fields of event {kind!r}", fields, documented)
    compare("error codes", set(code.error_codes), docs.error_codes)
    for name, value in code.close_codes.items():
        if docs.close_codes.get(name) != value:
            problems.append(f"close code {name} = {value} is not so in PROTOCOL.md")
    compare("close codes", set(code.close_codes), set(docs.close_codes))
    for name, status in code.http_status.items():
        if docs.http_status.get(name) != status:
            problems.append(f"HTTP status of {name!r} is {status}, not so in PROTOCOL.md")
    compare("HTTP statuses", set(code.http_status), set(docs.http_status))
    return problems


def test_protocol_md_lists_exactly_what_the_code_sends_and_accepts() -> None:
    problems = differences(scan(), Documented(DOC.read_text()))
    assert not problems, "\n".join(problems)


def test_the_scan_finds_what_it_must() -> None:
    """The scan itself is not empty-handed (an empty scan would agree with nothing)."""
    code = scan()
    assert {"hello", "roll", "ping"} <= set(code.client)
    assert {"welcome", "update", "error", "pong", "rolled", "joined"} <= set(code.server_side)
    assert {"room_not_found", "not_your_turn", "forbidden_roll", "internal"} <= set(
        code.error_codes
    )
    assert code.close_codes["CLOSE_POLICY"] == 1008
    assert code.http_status["room_not_found"] == 404


def test_the_schema_covers_every_message_type_the_docs_name() -> None:
    docs = Documented(DOC.read_text())
    assert set(CLIENT_TYPES) == set(docs.client)
    assert set(SERVER_MODELS) == set(docs.server)


def test_the_events_table_and_the_room_example_are_the_schemas() -> None:
    """The Events table has a row for each event of the schema, with its fields, and the
    room example names the room view's fields, and a seat's, exactly."""
    text = DOC.read_text()
    docs = Documented(text)
    in_schema = {
        model.model_fields["type"].annotation.__args__[0]: set(model.model_fields) - {"type"}  # type: ignore[union-attr]
        for model in EventModels
    }
    assert docs.events == in_schema
    example = text.split("`room` is the room's view", 1)[1].split("```json", 1)[1].split("```")[0]
    assert set(re.findall(r'^  "(\w+)":', example, re.MULTILINE)) == set(RoomView.model_fields)
    seat = re.search(r'"seats": \[\s*(\{.*?\})\s*\]', example, re.DOTALL)[1]  # type: ignore[index]
    assert set(re.findall(r'"(\w+)":', seat)) == set(SeatView.model_fields)


def documented_routes(text: str) -> set[str]:
    rows = table(section(text, "## HTTP API"))
    return {
        re.sub(r"\?.*", "", route)
        for row in rows
        for route in names(row[0])
        if re.match(r"(GET|POST|PUT|PATCH|DELETE) /", route)
    }


def test_the_http_table_lists_exactly_the_apps_routes(tmp_path: Path) -> None:
    app = create_app(Settings(data_dir=tmp_path))
    served = {
        f"{method.upper()} {path}"
        for path, methods in app.openapi()["paths"].items()
        for method in methods
    }
    assert documented_routes(DOC.read_text()) == served


# ---- the check fails when the code grows without the docs ------------------------------

ADDITIONS = {
    "a new refusal": (
        "server/rooms/errors.py",
        '\n\nclass BrandNew(ProtocolError):\n    code = "brand_new_code"\n',
        "error codes in the code but not in PROTOCOL.md: ['brand_new_code']",
    ),
    "a refusal made by its code": (
        "server/boards.py",
        '\n\ndef _new() -> None:\n    raise refusal("brand_new_code", "x")\n',
        "error codes in the code but not in PROTOCOL.md: ['brand_new_code']",
    ),
    "a new client message type": (
        "server/transport/protocol.py",
        '\n\n@dataclass(frozen=True)\nclass Wave:\n    kind: ClassVar[str] = "wave"\n',
        "client message types in the code but not in PROTOCOL.md: ['wave']",
    ),
    "a new field": (
        "server/transport/protocol.py",
        '\n\nclass Ping:\n    kind: ClassVar[str] = "ping"\n    when: int\n',
        "fields of 'ping' in the code but not in PROTOCOL.md: ['when']",
    ),
    "a new field of a player's intent": (
        "server/rooms/intents.py",
        '\n\nclass Roll:\n    kind: ClassVar[str] = "roll"\n    seat: int\n    version: int\n'
        "    fast: bool\n",
        "fields of 'roll' in the code but not in PROTOCOL.md: ['fast']",
    ),
    "a new server event": (
        "server/rooms/views.py",
        '\n\nEVENT = {"type": "waved", "seat": 1}\n',
        "server messages and events in the code but not in PROTOCOL.md: ['waved']",
    ),
    "a new engine error": (
        "engine/errors.py",
        '\n\nclass Cheat(RuleError):\n    code = "cheating"\n',
        "error codes in the code but not in PROTOCOL.md: ['cheating']",
    ),
    "a new close code": (
        "server/transport/gamesocket.py",
        "\nCLOSE_BORED = 4001\n",
        "close codes in the code but not in PROTOCOL.md: ['CLOSE_BORED']",
    ),
}


@pytest.mark.parametrize("change", sorted(ADDITIONS))
def test_an_addition_without_docs_fails_the_check(change: str, tmp_path: Path) -> None:
    module, addition, problem = ADDITIONS[change]
    copy = tmp_path / "snakes"
    shutil.copytree(SRC, copy, ignore=shutil.ignore_patterns("__pycache__", "web"))
    with (copy / module).open("a") as source:
        source.write(addition)
    assert problem in differences(scan(copy), Documented(DOC.read_text()))


def test_a_row_the_code_no_longer_has_fails_the_check() -> None:
    text = DOC.read_text().replace("| `rematch` |", "| `shout` | `text` | anyone |\n| `rematch` |")
    assert "client message types in PROTOCOL.md but not in the code: ['shout']" in (
        differences(scan(), Documented(text))
    )


# ---- /api/protocol.json, and real messages against it ----------------------------------


def test_the_server_publishes_the_schema_and_its_messages_fit_it(
    server: ServerProcess,
) -> None:
    with urllib.request.urlopen(f"{server.url}/api/protocol.json", timeout=10) as answer:
        schema = json.load(answer)
    assert schema["client_types"] == sorted(Documented(DOC.read_text()).client)
    client = jsonschema_rs.validator_for(schema["client"])
    server_side = jsonschema_rs.validator_for(schema["server"])
    assert client.is_valid({"type": "roll", "seat": 0, "version": 3})
    assert not client.is_valid({"type": "roll", "seat": 0, "version": 3, "value": 6})
    assert not client.is_valid({"type": "wave"})

    room = server.post(
        "/api/rooms",
        {"mode": "pass", "seats": [
            {"name": "Ana", "colour": "red"}, {"name": "Ben", "colour": "blue"}
        ]},
    )  # fmt: skip
    with GameClient(server.ws_url) as player:
        messages = [player.hello(room["code"], room["secret"])]
        player.send({"type": "ping"})
        messages.append(player.wait_type("pong"))
        player.send({"type": "roll", "seat": 0, "version": 0})
        messages.append(player.wait_type("update"))
        player.send({"type": "roll", "seat": 1, "version": 0, "ref": "stale"})
        messages.append(player.wait_type("welcome"))  # a stale intent's answer
        player.send({"type": "roll", "seat": 5, "version": 1, "ref": "r1"})
        messages.append(player.wait_type("error"))
    assert [m["type"] for m in messages] == ["welcome", "pong", "update", "welcome", "error"]
    for message in messages:
        errors = [e.message for e in server_side.iter_errors(message)]
        assert errors == [], (message["type"], errors)


def test_the_create_room_example_has_exactly_the_models_fields() -> None:
    text = DOC.read_text()
    example = text.split("`CreateRoom`:", 1)[1].split("```json", 1)[1].split("```", 1)[0]
    top = set(re.findall(r'^  "(\w+)":', example, re.MULTILINE))
    seat = set(re.findall(r'"(\w+)":', re.search(r'"seats": \[(\{.*?\})\]', example)[1]))  # type: ignore[index]
    assert top == set(CreateRoom.model_fields)
    assert seat == set(SeatIn.model_fields)
