"""Redis stopped (SIGSTOP) under two real nodes while two players keep sending: a ping is
answered as it arrives, and every roll and reaction within the deadline from its own
arrival, however many wait behind each other on one connection.

Reported on the tree before: with Redis stopped, a roll, a reaction and a JSON ping sent
0.4 s apart were answered up to 4 s after sending (11 s during 20 s stalls), the ping,
which needs no store, after 3.6 s: each message of a connection waited for the answer to
the one before it, and each deadline counted from the start of its own turn.

Ben (the host, whose turn it is) is on node A, which owns the room: his roll stalls in
the commit script. Ava is on node B: her intents are forwarded to A through Redis, and
stall on the way. Each sends a roll, a reaction and a ping in turn, one every 0.4 s,
for the whole stall. The in-process tests (``tests/transport/test_connection_order.py``)
time the same rules exactly on virtual time; this one shows them through the real
socket, the Redis pipe's own deadlines and the forwarding between nodes. Real
processes on real clocks: the stall is real time.

Ben's first roll goes out to Redis as it stops and is stored when it goes on: Ava was
shown it through Redis at once, while Ben's node, whose answer was lost, showed Ben
nothing until the room's next timer, 10 s later. Once the store is back, both are
shown the room as it is stored within a deadline.
"""

from __future__ import annotations

import itertools
import json
import os
import signal
import threading
import time
from pathlib import Path
from typing import Any

import pytest
from websockets.exceptions import ConnectionClosed

from tests.redis.private_redis import PrivateRedis
from tests.server.online_helpers import Player, join
from tests.support.client import GameClient, Message
from tests.support.server import ServerProcess

STALL_SECONDS = 8.0
DEADLINE = 2.0
SLACK = 1.0
"""Scheduling on a loaded machine, on top of the deadline; a pong's whole allowance."""
EVERY = 0.4
FLAGS = (
    "--animation-scale", "0", "--countdown-min", "10", "--redis-timeout", str(DEADLINE),
    "--redis-prefix", "stall:",
)  # fmt: skip

# Each answer is timed: the test runs alone, after the parallel ones.
pytestmark = pytest.mark.serial


class Listener:
    """Everything a client is told, each with the time it came, read in a thread."""

    def __init__(self, client: GameClient, last: Message) -> None:
        """``last``: the last message the client read itself (the game's start)."""
        self.client = client
        self.heard: list[tuple[float, Message]] = [(time.monotonic(), last)]
        self.lock = threading.Lock()
        self._thread = threading.Thread(target=self._read, daemon=True)
        self._thread.start()

    def _read(self) -> None:
        while True:
            try:
                message = json.loads(self.client.connection.recv())
            except (ConnectionClosed, OSError):
                return
            with self.lock:
                self.heard.append((time.monotonic(), message))

    def answer(self, ref: str | None, ping: int | None = None) -> tuple[float, Message] | None:
        """The first message naming ``ref`` (or the pong echoing ``ping``)."""
        with self.lock:
            for at, message in self.heard:
                if ref is not None and message.get("ref") == ref:
                    return at, message
                if ping is not None and message["type"] == "pong" and message["t"] == ping:
                    return at, message
        return None


def _send(client: GameClient, message: Message) -> float:
    client.connection.send(json.dumps(message))
    return time.monotonic()


def _until(check: Any, seconds: float = 60.0) -> Any:
    """Poll a condition (real processes, a real clock) until it holds; ``seconds`` only
    ends a test that would hang."""
    give_up = time.monotonic() + seconds
    while not (result := check()):
        assert time.monotonic() < give_up, "the condition never held"
        time.sleep(0.05)
    return result


def test_while_redis_is_stopped_pings_wait_for_nothing_and_intents_for_their_deadline(
    tmp_path: Path,
) -> None:
    with PrivateRedis(tmp_path / "redis") as private:
        assert private.process is not None
        node_a = ServerProcess(tmp_path / "a", *FLAGS, "--redis", private.url)
        node_b = ServerProcess(tmp_path / "b", *FLAGS, "--redis", private.url)
        node_a.start()
        node_b.start()
        clients: list[GameClient] = []
        try:
            created = node_a.post(
                "/api/rooms", {"mode": "online", "seats": [{"name": "Ben", "colour": "red"}]}
            )
            code = created["code"]
            ben_client = GameClient(node_a.ws_url)
            clients.append(ben_client)
            ben_client.hello(code, created["secret"])
            ben = Player("Ben", 0, created["secret"], ben_client, node_a, code)
            ava = join(node_b, code, "Ava", "blue")
            clients.append(ava.client)
            ben.client.send({"type": "start"})
            listeners = {
                p.name: Listener(
                    p.client,
                    p.client.wait_for(lambda m: m.get("room", {}).get("phase") == "playing"),
                )
                for p in (ben, ava)
            }
            version = ben.client.version

            sent: list[tuple[str, str, float, str | None, int | None]] = []
            """Each message sent: (player, kind, when, ref, the ping's number)."""
            numbers = itertools.count(1)
            os.kill(private.process.pid, signal.SIGSTOP)
            try:
                stopped = time.monotonic()
                for step in range(round(STALL_SECONDS / EVERY)):
                    # The senders' pace: one message each every EVERY seconds.
                    time.sleep(max(0.0, stopped + step * EVERY - time.monotonic()))
                    kind = ("roll", "react", "ping")[step % 3]
                    for player in (ben, ava):
                        n = next(numbers)
                        ref = None if kind == "ping" else f"{kind}-{n}"
                        message: dict[str, Any] = {
                            "roll": {"type": "roll", "seat": player.seat, "version": version},
                            "react": {"type": "react", "seat": player.seat, "reaction": "wow"},
                            "ping": {"type": "ping", "t": n},
                        }[kind]
                        if ref is not None:
                            message["ref"] = ref
                        when = _send(player.client, message)
                        sent.append((player.name, kind, when, ref, n if kind == "ping" else None))
                # Every one is answered, Redis still stopped (or the hang guard ends it).
                answers = _until(
                    lambda: (
                        all(listeners[n].answer(r, p) for n, _, _, r, p in sent)
                        and [listeners[n].answer(r, p) for n, _, _, r, p in sent]
                    )
                )
            finally:
                os.kill(private.process.pid, signal.SIGCONT)
                resumed = time.monotonic()

            took: dict[str, list[float]] = {"roll": [], "react": [], "ping": []}
            late = []
            for (name, kind, when, _, _), (at, answer) in zip(sent, answers, strict=True):
                took[kind].append(at - when)
                allowed = SLACK if kind == "ping" else DEADLINE + SLACK
                if at - when > allowed:
                    late.append((name, kind, round(at - when, 2), answer))
                if kind != "ping":
                    assert answer["type"] == "error", answer
                    assert answer["code"] in ("unavailable", "outcome_unknown"), answer
            assert not late, f"{len(late)} of {len(sent)} answered late: {late}"
            slowest = {kind: round(max(times), 2) for kind, times in took.items()}
            print(f"{len(sent)} messages in {STALL_SECONDS:g} s; slowest answers (s): {slowest}")

            # Redis back: what it holds is shown to every player without a word from
            # them. Ben's roll sent first in the stall went out to Redis and was stored
            # once it went on (Ava was shown it through Redis) or was not: Ben's node lost
            # its answer either way, and shows him the room again.
            # Within the store's own recovery: a probe, then one deadline for the room.
            stored = _until(lambda: _stored_version(node_b, code))
            for name, listener in listeners.items():
                shown_at = _until(lambda: _shown_at(listener, stored))  # noqa: B023
                assert shown_at - resumed <= DEADLINE + SLACK, (name, shown_at - resumed)

            def rolled_again() -> Message | None:
                """The roll of whoever's turn it is, on what they were shown, goes
                through: the update, or None to try again (the store still coming back,
                or the room moved on meanwhile: a skipped turn)."""
                room = _shown(listeners["Ben"])
                player = (ben, ava)[room["turn"]]
                listener = listeners[player.name]
                mark = len(listener.heard)
                ref = f"after-{next(numbers)}"
                roll = {"type": "roll", "seat": player.seat, "version": room["version"]}
                _send(player.client, roll | {"ref": ref})
                answer: Message = _until(lambda: _answered(listener, mark, ref, player.seat))
                if answer["type"] == "update":
                    return answer
                if answer["type"] == "welcome":
                    return None  # stale: the room moved on; roll again
                assert answer["code"] in ("unavailable", "outcome_unknown"), answer
                return None

            result = _until(rolled_again)
            assert any(e["type"] == "rolled" for e in result["events"]), result
        finally:
            for client in clients:
                client.close()
            node_a.kill()
            node_b.kill()


def _stored_version(node: ServerProcess, code: str) -> int | None:
    """The room's version as the store holds it, read through a node (None while the
    store cannot answer)."""
    status, room = node.request("GET", f"/api/rooms/{code}")
    return int(room["version"]) if status == 200 else None


def _shown(listener: Listener) -> Message:
    """The room in the last welcome or update the client was sent."""
    with listener.lock:
        rooms: list[Message] = [
            m["room"] for _, m in listener.heard if m["type"] in ("welcome", "update")
        ]
    return rooms[-1]


def _shown_at(listener: Listener, version: int) -> float | None:
    """When the client was first sent the room at ``version``."""
    with listener.lock:
        for at, message in listener.heard:
            if message["type"] in ("welcome", "update") and message["room"]["version"] == version:
                return at
    return None


def _answered(listener: Listener, mark: int, ref: str, seat: int) -> Message | None:
    """What answered the roll ``ref`` of ``seat`` sent once ``mark`` messages had come:
    its error, the update in which the seat rolled, or the welcome that refuses a stale
    roll."""
    with listener.lock:
        heard = [m for _, m in listener.heard[mark:]]
    for message in heard:
        if message.get("ref") == ref or message["type"] == "welcome":
            return message
        if message["type"] == "update" and any(
            e["type"] == "rolled" and e["seat"] == seat for e in message["events"]
        ):
            return message
    return None
