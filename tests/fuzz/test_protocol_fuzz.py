"""A protocol fuzzer against a live server: random and malformed messages never hurt it.

Hypothesis writes sequences of messages (junk text, wrong JSON, unknown types, fields of
the wrong type, huge numbers, stale versions, other seats' secrets, floods of valid
intents) and sends each sequence on a fresh connection, under some identity: nobody, a
spectator, or the holder of one seat. After every message a message of an unknown type
marks the end of its answers, so each answer is matched to the message that caused it.

What must hold: every error names a code from docs/PROTOCOL.md's list (never
``internal``); a message that is not an object, or has an unknown type, gets exactly
that error; the process stays up and healthy; and the rooms still obey the game's
invariants ("Bad input of any kind gets a clear, typed error and changes nothing; the
server keeps running").

The store fails now and then: a sequence may switch the SQLite store's writes off
(every write refused, or every commit) for the messages that follow, through the
``/_test/store`` hook, which makes SQLite itself refuse them. While writes fail,
nothing is applied (no update carries an event) and a roll answers ``unavailable``;
once they work, the same roll is applied once. Throughout, a spectator watches the
main room: its action log in the SQLite file stays gapless and is exactly what that
spectator was shown.

Every kind of input the fuzzer must send (a binary frame, a message one byte over the
size limit and one exactly at it, nesting past the depth limit, a known type with odd
fields, a flood, store faults and an outage) is a fixed sequence (``FIXED_SEQUENCES``),
sent on every run as an explicit example; a plain test checks that each still is the
kind it is there for. The drawn sequences explore beyond them, and only the properties
above are asserted: what they happen to reach is chance.

``FUZZ_EXAMPLES`` sets how many sequences to draw (bench/fuzz_long.py runs thousands).
"""

from __future__ import annotations

import itertools
import json
import os
import re
import sqlite3
import threading
import time
from collections import Counter
from collections.abc import Iterator
from pathlib import Path
from typing import Any

import pytest
from hypothesis import HealthCheck, example, given, settings
from hypothesis import strategies as st
from websockets.exceptions import ConnectionClosed

from snakes.server.transport.protocol import CLIENT_TYPES as PROTOCOL_TYPES
from snakes.server.transport.protocol import MAX_MESSAGE_BYTES
from snakes.server.transport.ws import MAX_DEPTH
from tests.server.online_helpers import close_all, table
from tests.support.client import GameClient
from tests.support.server import TEST_FLAGS, ServerProcess, running_server

EXAMPLES = int(os.environ.get("FUZZ_EXAMPLES", "80"))
PROTOCOL = Path(__file__).resolve().parents[2] / "docs" / "PROTOCOL.md"
KNOWN_TYPES = sorted(PROTOCOL_TYPES)


def documented_codes() -> set[str]:
    """Every error code in docs/PROTOCOL.md's table (a "`a` / `b`" row names two)."""
    text = PROTOCOL.read_text().split("### Error codes", 1)[1]
    codes: set[str] = set()
    for row in re.findall(r"^\| `([a-z_]+)`(?: / `([a-z_]+)`)?", text, re.M):
        codes.update(code for code in row if code)
    return codes


CODES = documented_codes()


class Arena:
    """The rooms the fuzzer plays in, and every secret a player could hold."""

    def __init__(self, server: ServerProcess) -> None:
        self.server = server
        self.code, self.players = table(server, 3)
        self.players[0].client.send({"type": "start"})
        for player in self.players:
            player.catch_up()
        self.lobby, self.lobby_players = table(server, 2)
        local = server.post(
            "/api/rooms",
            {"mode": "ai", "seats": [
                {"name": "Me", "colour": "red"},
                {"name": "Bot", "colour": "blue", "kind": "ai"}]},
        )  # fmt: skip
        self.local, self.local_secret = local["code"], local["secret"]
        self.codes = [self.code, self.lobby, self.local]
        self.secrets = [p.secret for p in self.players + self.lobby_players] + [self.local_secret]
        # The fuzzer takes these seats with their secrets; idle clients would only fill up.
        close_all(self.players + self.lobby_players)
        self.seat_secrets = [p.secret for p in self.players]
        self.examples = 0
        self.reached: Counter[str] = Counter()
        """What kinds of input the run sent: it must reach the hard ones."""
        self.observer = Observer(server, self.code)

    def store(self, fail: str) -> None:
        """Make the store's writes fail (``writes``, ``commits``) or work (``none``)."""
        assert self.server.post("/_test/store", {"fail": fail}) == {"fail": fail}

    def action_log(self, code: str) -> list[tuple[int, dict[str, Any]]]:
        """The room's stored actions, (sequence, action), read from the SQLite file."""
        db = sqlite3.connect(f"file:{self.server.data_dir / 'snakes.db'}?mode=ro", uri=True)
        try:
            rows = db.execute(
                "SELECT seq, action FROM actions WHERE code = ? ORDER BY seq", (code,)
            ).fetchall()
        finally:
            db.close()
        return [(seq, json.loads(text)) for seq, text in rows]


class Observer:
    """A spectator of the main room for the whole run, reading all the time."""

    def __init__(self, server: ServerProcess, code: str) -> None:
        self.client = GameClient(server.ws_url)
        self.welcome = self.client.hello(code)
        assert self.welcome["type"] == "welcome"
        self.closed = False
        self._stop = threading.Event()
        self._thread = threading.Thread(target=self._read, daemon=True)
        self._thread.start()

    def _read(self) -> None:
        while not self._stop.is_set():
            try:
                self.client.recv(timeout=0.2)
            except TimeoutError:
                continue
            except ConnectionClosed:
                self.closed = True
                return

    def shown(self) -> list[dict[str, Any]]:
        """The actions the updates it was shown stand for, in order."""
        actions: list[dict[str, Any]] = []
        for message in list(self.client.received):
            for event in message.get("events", []) if message["type"] == "update" else []:
                kind = event["type"]
                if kind == "rolled":
                    actions.append({"type": "roll", "seat": event["seat"], "value": event["value"]})
                elif kind == "skipped":
                    actions.append({"type": "skip", "seat": event["seat"]})
                elif kind == "left":
                    leave = "remove" if event["removed"] else "leave"
                    actions.append({"type": leave, "seat": event["seat"]})
                elif kind == "game_ended" and event["reason"] == "abandoned":
                    actions.append({"type": "abandon"})
        return actions

    def version(self) -> int:
        room = self.client.room
        assert room is not None
        return int(room["version"])

    def stop(self) -> None:
        self._stop.set()
        self._thread.join(5)
        self.client.close()


@pytest.fixture(scope="module")
def arena(tmp_path_factory: pytest.TempPathFactory) -> Iterator[Arena]:
    # No lookup limit here: the fuzzer's unknown codes would soon be answered
    # rate_limited, and the deeper paths would go untried (the limit has its own test).
    folder = tmp_path_factory.mktemp("fuzz")
    with running_server(folder, *TEST_FLAGS, "--lookup-limit", "0") as server:
        arena = Arena(server)
        try:
            yield arena
        finally:
            arena.observer.stop()


# ---- what the fuzzer sends ------------------------------------------------------------

json_leaf = st.one_of(
    st.none(),
    st.booleans(),
    st.integers(min_value=-(2**70), max_value=2**70),
    st.floats(allow_nan=False, allow_infinity=False),
    st.text(max_size=30),
)
json_value = st.recursive(
    json_leaf,
    lambda inner: (
        st.lists(inner, max_size=4) | st.dictionaries(st.text(max_size=8), inner, max_size=4)
    ),
    max_leaves=12,
)
big_json = st.recursive(
    json_leaf | st.text(max_size=400),
    lambda inner: (
        st.lists(inner, max_size=8) | st.dictionaries(st.text(max_size=12), inner, max_size=8)
    ),
    max_leaves=80,
)
seat_value = st.one_of(
    st.integers(-3, 8), st.sampled_from([2**31, 2**63, -(2**63), 10**30]), json_leaf
)
version_value = st.one_of(
    st.integers(-2, 400), st.sampled_from([2**31, 2**31 + 1, 2**64]), json_leaf
)


@st.composite
def known_type_message(draw: st.DrawFn, arena: Arena) -> dict[str, Any]:
    kind = draw(st.sampled_from(KNOWN_TYPES))
    message: dict[str, Any] = {"type": kind}
    if kind == "hello":
        message["room"] = draw(
            st.one_of(st.sampled_from(arena.codes), st.text(max_size=20), json_leaf)
        )
        if draw(st.booleans()):
            message["secret"] = draw(
                st.one_of(st.sampled_from(arena.secrets), st.text(max_size=40), json_leaf)
            )
    elif kind in ("roll", "leave", "remove"):
        message["seat"] = draw(seat_value)
        if kind == "roll" or draw(st.booleans()):
            message["version"] = draw(version_value)
    elif kind == "rules":
        message["rules"] = draw(st.one_of(
            st.fixed_dictionaries({}, optional={
                "finish": st.sampled_from(["classic", "last-one-standing", "bogus"]),
                "exact_finish": st.one_of(st.booleans(), json_leaf),
                "six_again": st.one_of(st.booleans(), json_leaf)}),
            json_value))  # fmt: skip
        if draw(st.booleans()):
            message["countdown_seconds"] = draw(st.one_of(st.integers(-5, 700), json_leaf))
    elif kind == "start" and draw(st.booleans()):
        message["shuffle"] = draw(st.one_of(st.booleans(), json_leaf))
    elif kind == "seed":
        message["seed"] = draw(st.one_of(st.text(max_size=140), json_leaf))
    elif kind == "add_ai":
        message["name"] = draw(st.one_of(st.text(max_size=30), json_leaf))
        message["colour"] = draw(st.one_of(st.sampled_from(["purple", "orange", "red"]), json_leaf))
    # Extra or oddly typed fields, sometimes.
    extra = draw(
        st.dictionaries(
            st.sampled_from(["value", "ref", "seat", "x", "type"]), json_value, max_size=2
        )
    )
    message.update(extra)
    return message


FIELDS = sorted(
    {"room", "secret", "seat", "version", "rules", "countdown_seconds", "board", "shuffle"}
    | {"seed", "name", "colour", "ref", "value", "type", "events", "you"}
)
"""Every field some message has, and a few none has: any may turn up in any type."""


@st.composite
def wrong_fields(draw: st.DrawFn) -> dict[str, Any]:
    """A known type whose fields are drawn from every message's fields, with any values."""
    message = draw(st.dictionaries(st.sampled_from(FIELDS), big_json, max_size=5))
    message["type"] = draw(st.sampled_from(KNOWN_TYPES))
    return message


def deep(kind: str, depth: int) -> str:
    """JSON nested ``depth`` deep: arrays, objects, or a message whose field nests."""
    if kind == "array":
        return "[" * depth + "]" * depth
    if kind == "object":
        return '{"a":' * depth + "1" + "}" * depth
    return '{"type": "rules", "rules": ' + '{"finish":' * depth + "1" + "}" * depth + "}"


def messages(arena: Arena) -> st.SearchStrategy[Any]:
    """One message: raw text, any JSON value, or a known type with odd fields; long and
    deeply nested text; binary frames."""
    return st.one_of(
        st.text(max_size=60).map(lambda t: ("raw", t)),
        st.text(min_size=200, max_size=4200).map(lambda t: ("raw", t)),
        st.integers(MAX_MESSAGE_BYTES - 40, 3 * MAX_MESSAGE_BYTES).map(  # around 4 KB
            lambda n: ("raw", '{"type": "ping", "ref": "' + "x" * n + '"}')
        ),
        st.tuples(
            st.sampled_from(["array", "object", "field"]),
            st.integers(1, MAX_DEPTH) | st.integers(MAX_DEPTH + 1, 1300),
        ).map(lambda d: ("raw", deep(*d))),
        st.integers(MAX_DEPTH + 1, 1300).map(lambda n: ("raw", deep("array", n))),
        st.integers(1000, 3900).map(  # long, but under 4 KB: a name far past 20 characters
            lambda n: ("json", {"type": "add_ai", "name": "n" * n, "colour": "red"})
        ),
        big_json.map(lambda v: ("json", v)),
        wrong_fields().map(lambda m: ("json", m)),
        st.binary(max_size=100).map(lambda b: ("binary", b)),
        st.sampled_from(["", "{", "[]", "null", "1e999", '{"type": NaN}', '"hello"', "{}" * 3]).map(
            lambda t: ("raw", t)
        ),
        json_value.map(lambda v: ("json", v)),
        known_type_message(arena).map(lambda m: ("json", m)),
        st.just(("roll-now", None)),  # a well-formed roll at the version last seen
        st.integers(2, 25).map(lambda n: ("flood", n)),  # the same valid roll n times at once
        # The store fails from here on (or works again), now and then.
        st.sampled_from(["writes", "commits", "none"]).map(lambda f: ("faults", f)),
        # The player whose turn it is rolls while the store fails, and again once it works.
        st.sampled_from(["writes", "commits"]).map(lambda f: ("outage", f)),
    )


def ping_of(size: int) -> str:
    """A ping of exactly ``size`` bytes."""
    frame = '{"type": "ping", "ref": "' + '"}'
    return frame[:-2] + "x" * (size - len(frame)) + frame[-2:]


Step = tuple[str, Any]

FIXED_SEQUENCES: tuple[tuple[str, str, list[Step]], ...] = (
    # (the kind it is there for, who sends it, what it sends)
    ("binary", "none", [("binary", b"\x00\x01binary")]),
    # Exactly at the size limit, it is read; one byte over, the connection closes (1009).
    ("long", "spectator", [("raw", ping_of(MAX_MESSAGE_BYTES))]),
    ("oversized", "seat0", [
        ("raw", ping_of(MAX_MESSAGE_BYTES)), ("raw", ping_of(MAX_MESSAGE_BYTES + 1)),
    ]),
    # At the depth limit, read; past it, refused: arrays, objects and a message's field.
    ("deep", "seat1", [
        ("raw", deep("array", MAX_DEPTH)), ("raw", deep("object", MAX_DEPTH)),
        ("raw", deep("array", MAX_DEPTH + 1)), ("raw", deep("object", MAX_DEPTH + 1)),
        ("raw", deep("field", MAX_DEPTH + 1)), ("raw", deep("array", 1300)),
    ]),
    ("known-type", "seat2", [
        ("json", {"type": "roll", "seat": "0", "version": 2**64}),
        ("json", {"type": "rules", "rules": {"finish": "bogus"}, "countdown_seconds": -5}),
        ("json", {"type": "hello", "room": 12, "secret": None}),
        ("json", {"type": "leave", "seat": 10**30}),
        ("json", {"type": "seed", "seed": "s" * 140}),
    ]),
    # Not JSON, not an object, no type, an unknown type.
    ("raw", "wrong", [("raw", ""), ("raw", "{"), ("raw", "1e999"), ("raw", '{"type": NaN}')]),
    ("json", "lobby-guest", [("json", [1, 2]), ("json", {"no": "type"}), ("json", {"type": "x"})]),
    ("roll-now", "seat0", [("roll-now", None), ("roll-now", None)]),
    ("flood", "seat1", [("flood", 25)]),
    # Writes fail, then commits, then work again, with rolls and a flood in between.
    ("faults", "seat2", [
        ("faults", "writes"), ("roll-now", None), ("flood", 3),
        ("faults", "commits"), ("roll-now", None), ("faults", "none"), ("roll-now", None),
    ]),
    ("outage", "spectator", [("outage", "writes"), ("outage", "commits")]),
)  # fmt: skip
"""One fixed sequence for each kind of input the fuzzer must send, named by it."""


def fixed_sequences(test: Any) -> Any:
    """Every fixed sequence, sent first on every run."""
    for _, identity, steps in reversed(FIXED_SEQUENCES):
        test = example(identity=identity, steps=steps)(test)
    return test


identities = st.sampled_from(
    ["none", "spectator", "seat0", "seat1", "seat2", "lobby-host", "lobby-guest", "local", "wrong"]
)


def _hello_for(identity: str, arena: Arena) -> dict[str, Any] | None:
    table_secrets = [p.secret for p in arena.players]
    return {
        "none": None,
        "spectator": {"type": "hello", "room": arena.code},
        "seat0": {"type": "hello", "room": arena.code, "secret": table_secrets[0]},
        "seat1": {"type": "hello", "room": arena.code, "secret": table_secrets[1]},
        "seat2": {"type": "hello", "room": arena.code, "secret": table_secrets[2]},
        "lobby-host": {
            "type": "hello",
            "room": arena.lobby,
            "secret": arena.lobby_players[0].secret,
        },
        "lobby-guest": {
            "type": "hello",
            "room": arena.lobby,
            "secret": arena.lobby_players[1].secret,
        },
        "local": {"type": "hello", "room": arena.local, "secret": arena.local_secret},
        # Another room's seat secret: it must hold nothing here.
        "wrong": {"type": "hello", "room": arena.code, "secret": arena.local_secret},
    }[identity]


# ---- talking to the server ------------------------------------------------------------


def _answers(client: GameClient) -> list[dict[str, Any]]:
    """Everything the server said in answer to what was sent since the last marker.

    The marker is a message of an unknown type with a fresh ``ref``: its error echoes
    the ref, and one connection's messages are answered in order (but pings, reactions,
    and a ``busy`` past the connection's queue limit: docs/PROTOCOL.md). A marker
    answered ``busy`` came while the queue was full: once an answer of what waits in it
    comes, a new marker is sent.
    """
    marker = f"sync-{next(_MARKERS)}"
    client.send({"type": "sync", "ref": marker})
    said = []
    full = False
    while True:
        message = client.recv(timeout=10)
        if message["type"] == "error" and message.get("ref") == marker:
            if message["code"] == "busy":
                full = True
                continue
            assert message["code"] == "unknown_type"
            return said
        said.append(message)
        if full:  # the queue moved on: room for a marker again
            full = False
            marker = f"sync-{next(_MARKERS)}"
            client.send({"type": "sync", "ref": marker})


_MARKERS = itertools.count()


def _check_errors(said: list[dict[str, Any]], *, failing: bool = False) -> None:
    for message in said:
        assert message["type"] in ("welcome", "update", "presence", "error", "pong"), message
        if failing:
            # Nothing is applied while the store fails: every change needs a write.
            assert message["type"] != "update" or not message["events"], message
        if message["type"] == "error":
            assert message["code"] in CODES, message
            assert message["code"] != "internal", message
            assert "Traceback" not in message["message"]


def _outage(arena: Arena, fail: str) -> None:
    """The player whose turn it is rolls while the store fails: ``unavailable``, and
    nothing changes; once the store works, the same roll is applied, once. In the main
    room while its game is on (its spectator watches), else in a new Pass & Play room."""
    code, secrets = arena.code, arena.seat_secrets
    status, view = arena.server.request("GET", f"/api/rooms/{code}")
    if status != 200 or view["phase"] != "playing" or view["turn"] is None:
        created = arena.server.post("/api/rooms", {"mode": "pass", "seats": [
            {"name": "Ana", "colour": "red"}, {"name": "Ben", "colour": "blue"}]})  # fmt: skip
        code, secrets = created["code"], [created["secret"]] * 2
        view = arena.server.get(f"/api/rooms/{code}")
    seat = view["turn"]
    with GameClient(arena.server.ws_url) as player:
        assert player.hello(code, secrets[seat])["type"] == "welcome"
        shown = arena.observer.version()
        arena.store(fail)
        try:
            answer = player.roll(seat)
            assert answer["type"] == "error" and answer["code"] == "unavailable", answer
            now = arena.server.get(f"/api/rooms/{code}")
            assert (now["version"], now["turn"]) == (view["version"], view["turn"])
            assert [s["square"] for s in now["seats"]] == [s["square"] for s in view["seats"]]
            assert arena.observer.version() == shown
        finally:
            arena.store("none")
        answer = player.roll(seat, view["version"])  # the very same intent
        assert answer["type"] == "update", answer
        rolled = [e for e in answer["events"] if e["type"] == "rolled"]
        assert [e["seat"] for e in rolled] == [seat]
        assert answer["room"]["version"] == view["version"] + 1
        arena.reached["outage-rolled"] += 1


def _play(arena: Arena, identity: str, steps: list[tuple[str, Any]]) -> None:
    try:
        _play_steps(arena, identity, steps)
    finally:
        arena.store("none")  # each sequence starts with a store that works


def _play_steps(arena: Arena, identity: str, steps: list[tuple[str, Any]]) -> None:
    failing = False
    with GameClient(arena.server.ws_url) as client:
        hello = _hello_for(identity, arena)
        if hello is not None:
            client.send(hello)
            said = _answers(client)
            _check_errors(said)
        for kind, payload in steps:
            arena.reached[_category(kind, payload)] += 1
            if kind == "faults":
                arena.store(payload)
                failing = payload != "none"
                continue
            if kind == "outage":
                arena.store("none")
                failing = False
                _outage(arena, payload)
                _check_errors(_answers(client))  # what the outage's roll showed this client
                continue
            if kind == "binary" or (
                kind in ("raw", "json")
                and len((payload if kind == "raw" else json.dumps(payload)).encode())
                > MAX_MESSAGE_BYTES
            ):
                # The connection ends here: 1003 for a binary frame, 1009 for a big one.
                client.send_raw(payload if kind != "json" else json.dumps(payload))
                with pytest.raises(ConnectionClosed) as closed:
                    _answers(client)
                expected = 1003 if kind == "binary" else 1009
                assert closed.value.rcvd is not None and closed.value.rcvd.code == expected
                return
            if kind == "raw":
                client.send_raw(payload)
            elif kind == "json":
                client.send_raw(json.dumps(payload))
            elif kind in ("roll-now", "flood"):
                room = client.room or {}
                seat = room.get("turn") if isinstance(room.get("turn"), int) else 0
                roll = {"type": "roll", "seat": seat, "version": room.get("version", 0)}
                for _ in range(payload or 1):
                    client.send(roll)
            said = _answers(client)
            _check_errors(said, failing=failing)
            errors = [m for m in said if m["type"] == "error"]
            if failing and any(e["code"] == "unavailable" for e in errors):
                arena.reached["unavailable"] += 1
            if kind == "raw":
                try:
                    value = json.loads(payload)
                except (ValueError, RecursionError):
                    value = None
                    assert [e["code"] for e in errors] == ["bad_message"]
                if _depth(payload) > MAX_DEPTH:
                    assert [e["code"] for e in errors] == ["bad_message"], errors
                    continue
                if value is not None and not isinstance(value, dict):
                    assert [e["code"] for e in errors] == ["bad_message"]
            if kind == "json" and (
                not isinstance(payload, dict) or payload.get("type") not in KNOWN_TYPES
            ):
                expected = "bad_message" if not isinstance(payload, dict) else "unknown_type"
                assert [e["code"] for e in errors] == [expected]
            if kind == "flood":
                # One roll at one version: at most one is applied, the rest are refused.
                applied = [
                    m
                    for m in said
                    if m["type"] == "update" and any(e["type"] == "rolled" for e in m["events"])
                ]
                assert len(applied) <= 1


def _category(kind: str, payload: Any) -> str:
    if kind == "binary":
        return "binary"
    if kind in ("raw", "json"):
        text = payload if kind == "raw" else json.dumps(payload)
        if len(text.encode()) > MAX_MESSAGE_BYTES:
            return "oversized"
        if _depth(text) > MAX_DEPTH:
            return "deep"
        if len(text) > 1000:
            return "long"
        if isinstance(payload, dict) and payload.get("type") in KNOWN_TYPES:
            return "known-type"
    return kind


def _depth(text: str) -> int:
    """How deep arrays and objects nest in ``text`` (our messages: strings hold none)."""
    depth = deepest = 0
    in_string = escaped = False
    for ch in text:
        if in_string:
            escaped, in_string = (False, True) if escaped else (ch == "\\", ch != '"')
        elif ch == '"':
            in_string = True
        elif ch in "[{":
            depth += 1
            deepest = max(deepest, depth)
        elif ch in "]}":
            depth -= 1
    return deepest


def _check_invariants(arena: Arena) -> None:
    server = arena.server
    assert server.process is not None and server.process.poll() is None
    assert server.get("/healthz")["status"] == "ok"
    for code in arena.codes:
        status, view = server.request("GET", f"/api/rooms/{code}")
        if status == 404:
            continue  # a lobby whose every seat left is gone, as it should be
        assert status == 200
        for seat in view["seats"]:
            assert 0 <= seat["square"] <= 100
        if view["phase"] == "playing":
            racing = [s["index"] for s in view["seats"] if s["status"] == "racing"]
            assert view["turn"] in racing
        if view["phase"] == "over":
            total = 0
            for game in range(1, view["game_number"] + 1):
                status, record = server.request("GET", f"/api/rooms/{code}/record?game={game}")
                if status == 200:
                    total += len(record["actions"])
            assert view["version"] == total
        # Gapless: every action of every game, numbered 1..version, none lost to a fault.
        log = arena.action_log(code)
        assert [seq for seq, _ in log] == list(range(1, view["version"] + 1)), (code, view)
        if code == arena.code:
            _check_shown(arena, view["version"], [action for _, action in log])


def _check_shown(arena: Arena, version: int, log: list[dict[str, Any]]) -> None:
    """The main room's log is exactly what its spectator was shown since its welcome."""
    observer = arena.observer
    deadline = time.monotonic() + 10
    while observer.version() != version and time.monotonic() < deadline:
        time.sleep(0.05)  # the last updates may still be on their way to it
    assert not observer.closed
    assert observer.version() == version
    assert log[observer.welcome["room"]["version"] :] == observer.shown()


def test_documented_codes_are_read_from_the_protocol() -> None:
    assert {"bad_message", "unknown_type", "not_in_room", "stale_version", "rate_limited"} <= CODES
    assert {"not_started", "already_started"} <= CODES


def test_the_server_survives_random_and_malformed_messages(arena: Arena) -> None:
    @settings(
        max_examples=EXAMPLES,
        deadline=None,
        database=None,
        suppress_health_check=list(HealthCheck),
    )
    @given(identity=identities, steps=st.lists(messages(arena), min_size=1, max_size=8))
    @fixed_sequences
    def fuzz(identity: str, steps: list[tuple[str, Any]]) -> None:
        try:
            _play(arena, identity, steps)
        except ConnectionClosed as closed:
            # Only our own flood of messages may close a connection (1008, rate limited).
            assert closed.rcvd is not None and closed.rcvd.code == 1008, closed
        assert arena.server.process is not None and arena.server.process.poll() is None
        arena.examples += 1
        if arena.examples % 10 == 0:
            _check_invariants(arena)

    fuzz()
    _check_invariants(arena)
    print(f"{arena.examples} sequences: {dict(arena.reached)}")


def test_each_fixed_sequence_is_the_kind_of_input_it_is_there_for() -> None:
    reached = set()
    for kind, _, steps in FIXED_SEQUENCES:
        kinds = {_category(*step) for step in steps}
        assert kind in kinds, (kind, kinds)
        reached |= kinds
    every = {"binary", "oversized", "deep", "long", "known-type", "raw", "json"}
    every |= {"roll-now", "flood", "faults", "outage"}
    assert every <= reached, every - reached
    # Each kind has a sequence of its own.
    assert {kind for kind, _, _ in FIXED_SEQUENCES} == every
