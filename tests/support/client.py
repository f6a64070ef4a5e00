"""A real WebSocket client for tests: sends intents, collects what the server says."""

from __future__ import annotations

import http.client
import json
import socket
from collections.abc import Callable
from typing import Any
from urllib.parse import urlsplit

from websockets.sync.client import ClientConnection, connect
from websockets.typing import Origin

from tests.support.presence import with_presence

Message = dict[str, Any]


CHANGING = frozenset(
    ["leave", "start", "rules", "add_ai", "remove", "rematch", "finish_ai", "reactions"]
)
"""Intents that change the room: each names the room's ``change`` its sender last saw."""


def seen(message: Message, room: Message | None) -> Message:
    """``message`` with what its sender saw filled in, as the page does: the room's
    ``change`` for an intent that changes the room, the commitment for a seed."""
    if room is None:
        return message
    kind = message.get("type")
    if kind in CHANGING and "change" not in message:
        return {**message, "change": room["change"]}
    if kind == "seed" and "commitment" not in message and room.get("fair"):
        return {**message, "commitment": room["fair"]["commitment"]}
    return message


class GameClient:
    def __init__(self, ws_url: str, source: str | None = None, origin: str | None = None) -> None:
        """``source``: the local address to talk from (127.0.0.2 is loopback too).
        ``origin``: the ``Origin`` header a browser would send (none by default)."""
        sock = None
        if source is not None:
            parts = urlsplit(ws_url)
            address = (parts.hostname or "127.0.0.1", parts.port or 80)
            sock = socket.create_connection(address, 10, source_address=(source, 0))
        self.connection: ClientConnection = connect(
            ws_url, sock=sock, open_timeout=10, origin=None if origin is None else Origin(origin)
        ).__enter__()
        self.ws_url = ws_url
        self.source = source
        self.code: str | None = None
        """The room this client said hello to."""
        self.received: list[Message] = []
        self.room: Message | None = None
        self.you: Message | None = None

    def close(self) -> None:
        self.connection.close()

    def __enter__(self) -> GameClient:
        return self

    def __exit__(self, *_: object) -> None:
        self.close()

    def send(self, message: Message) -> None:
        """Send a message. An intent that changes the room names a ``change`` (and a seed
        the commitment it saw): unless one is given, this client first reads what the
        server has sent until it has seen the room as it is now, and names that."""
        if message.get("type") in CHANGING and "change" not in message:
            self.catch_up()
        self.connection.send(json.dumps(seen(message, self.room)))

    def catch_up(self, timeout: float = 10.0) -> None:
        """Read until this client has seen the room's current ``change`` (as the HTTP
        API gives it)."""
        if self.code is None:
            return
        parts = urlsplit(self.ws_url)
        # From the client's own address, as its socket: a player beside a flood from
        # another address must not be counted with it.
        connection = http.client.HTTPConnection(
            parts.hostname or "127.0.0.1",
            parts.port or 80,
            timeout=timeout,
            source_address=None if self.source is None else (self.source, 0),
        )
        try:
            connection.request("GET", f"/api/rooms/{self.code}")
            response = connection.getresponse()
            body = response.read()
        finally:
            connection.close()
        if response.status != 200:
            raise AssertionError(f"GET /api/rooms/{self.code}: {response.status} {body[:200]!r}")
        now = json.loads(body)["change"]
        if self.room is None or self.room["change"] < now:
            self.wait_for(lambda m: "room" in m and m["room"]["change"] >= now, timeout)

    def send_raw(self, text: str | bytes) -> None:
        self.connection.send(text)

    def recv(self, timeout: float = 10.0) -> Message:
        message: Message = json.loads(self.connection.recv(timeout=timeout))
        self.received.append(message)
        if "room" in message:
            self.room = message["room"]
        elif message["type"] == "presence" and self.room is not None:
            self.room = with_presence(self.room, message)
        if "you" in message:
            self.you = message["you"]
        return message

    def wait_for(self, accept: Callable[[Message], bool], timeout: float = 10.0) -> Message:
        while True:
            message = self.recv(timeout)
            if accept(message):
                return message

    def wait_type(self, kind: str, timeout: float = 10.0) -> Message:
        return self.wait_for(lambda m: m["type"] == kind, timeout)

    def hello(self, code: str, secret: str | None = None) -> Message:
        message: Message = {"type": "hello", "room": code}
        self.code = code
        if secret is not None:
            message["secret"] = secret
        self.send(message)
        return self.wait_for(lambda m: m["type"] in ("welcome", "error"))

    def roll(self, seat: int, version: int | None = None) -> Message:
        """Roll and return the server's answer: the update it caused, an error, or (a
        stale roll) a welcome."""
        assert self.room is not None
        self.send(
            {"type": "roll", "seat": seat, "version": self.version if version is None else version}
        )
        answers = ("error", "welcome")
        return self.wait_for(
            lambda m: m["type"] in answers or (m["type"] == "update" and bool(m["events"]))
        )

    def shown_again(self, since: int, timeout: float = 10.0) -> Message:
        """The answer to a stale intent: a welcome (the room as it is now) and no error.

        ``since``: how many messages this client had read when it sent the intent. A ping
        is answered after everything the intent caused, so an error would be read first.
        """
        if not any(m["type"] == "welcome" for m in self.received[since:]):
            self.wait_type("welcome", timeout)
        welcome = next(m for m in self.received[since:] if m["type"] == "welcome")
        self.send({"type": "ping", "t": 1})
        self.wait_type("pong", timeout)
        errors = [m for m in self.received[since:] if m["type"] == "error"]
        assert not errors, f"a stale intent was answered with an error: {errors}"
        return welcome

    @property
    def version(self) -> int:
        assert self.room is not None
        return int(self.room["version"])

    def events_of(self, kind: str) -> list[Message]:
        return [
            e
            for m in self.received
            if m["type"] == "update"
            for e in m["events"]
            if e["type"] == kind
        ]
