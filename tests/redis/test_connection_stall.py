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

    def __init__(self, client: GameClient) -> None:
        self.client = client
        self.heard: list[tuple[float, Message]] = []
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
            for player in (ben, ava):
                player.client.wait_for(lambda m: m.get("room", {}).get("phase") == "playing")
            version = ben.client.version
            listeners = {p.name: Listener(p.client) for p in (ben, ava)}

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

            # Redis back: the same roll goes through (or a roll sent in the stall was
            # applied once Redis went on: then this one is stale).
            def rolled_again() -> Message | None:
                ref = f"after-{next(numbers)}"
                _send(ben.client, {"type": "roll", "seat": 0, "version": version, "ref": ref})
                listener = listeners["Ben"]
                _until(lambda: listener.answer(ref) or _rolled_after(listener, version))
                rolled = _rolled_after(listener, version)
                if rolled is not None:
                    return rolled
                answer = listener.answer(ref)
                assert answer is not None
                if answer[1]["code"] == "stale_version":
                    return answer[1]
                assert answer[1]["code"] in ("unavailable", "outcome_unknown"), answer
                return None  # the store is still coming back: try again

            result = _until(rolled_again)
            assert result["type"] == "update" or result["code"] == "stale_version", result
        finally:
            for client in clients:
                client.close()
            node_a.kill()
            node_b.kill()


def _rolled_after(listener: Listener, version: int) -> Message | None:
    """The update in which seat 0 rolled at ``version``, if it came."""
    with listener.lock:
        heard = list(listener.heard)
    for _, message in heard:
        if (
            message["type"] == "update"
            and message["room"]["version"] > version
            and any(e["type"] == "rolled" and e["seat"] == 0 for e in message["events"])
        ):
            return message
    return None
