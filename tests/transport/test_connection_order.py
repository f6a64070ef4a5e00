"""One connection's messages while the store hangs: no head-of-line waits, answers on time.

A game socket on a real socket pair, the runtime over a store whose writes hang (as a
disk that stops answering, or a Redis stopped with SIGSTOP), with a deadline of one
second. The scenarios run on virtual time (``tests/support/virtual_time.py``): every
answer's time is exact, however busy the machine. What they show:

- a ping is answered at once, whatever the connection's intents wait for;
- a reaction does not wait behind the connection's own intents that need the store (it
  takes its turn in the room's queue, not behind the connection's);
- every intent is answered within the deadline counted from when it arrived, also when
  many are sent during the hang; one whose deadline passed while it waited behind the
  connection's earlier ones is refused ``unavailable`` without reaching the store;
- a hello too, its entry in the room's presence (kept in the store) included;
- past ``QUEUE_LIMIT`` messages waiting for the rooms, the next is answered ``busy`` at
  once;
- a reaction sent after a hello waits for that hello (it is the room the hello names
  that it is for); a refusal is answered in the order sent; and the store back, the
  game goes on.
"""

from __future__ import annotations

import asyncio
import json
import socket
from collections.abc import AsyncIterator, Coroutine
from concurrent.futures import ThreadPoolExecutor
from contextlib import asynccontextmanager
from dataclasses import dataclass, field
from typing import Any, TypeVar

from snakes.engine import JUNGLE, Rules
from snakes.server.backends.local import LocalBackend, LocalPresence
from snakes.server.backends.memory import MemoryLog
from snakes.server.clock import ManualClock
from snakes.server.rooms.dice import ServerDice
from snakes.server.rooms.model import Mode, Room, Seat
from snakes.server.rooms.work import Work
from snakes.server.runtime.hub import Hub
from snakes.server.runtime.owners import LocalOwners
from snakes.server.runtime.runtime import RoomRuntime
from snakes.server.runtime.session import Session
from snakes.server.transport.gamesocket import OPEN, QUEUE_LIMIT, SocketPolicy, game_socket_class
from snakes.testing.hooks import ScriptableDice
from tests.support.inprocess import FAST
from tests.support.rawsocket import OP_TEXT, frame, upgrade
from tests.support.virtual_time import run_on_virtual_time

T = TypeVar("T")
DEADLINE = 1.0
EPSILON = 1e-9
"""Virtual time moves by sums of floats: a deadline is met to within rounding."""
Message = dict[str, Any]


def run(coroutine: Coroutine[Any, Any, T]) -> T:
    """On virtual time, in a thread of its own (a browser test's loop may hold this one)."""
    with ThreadPoolExecutor(max_workers=1) as pool:
        return pool.submit(run_on_virtual_time, coroutine).result()


class HangingLog(MemoryLog):
    """The memory log, whose probe fails while the store hangs."""

    hung = False

    async def probe(self) -> bool:
        return not self.hung


class HangingPresence(LocalPresence):
    """Who is connected, kept in the store (as with Redis): a join hangs with the store."""

    def __init__(self, log: HangingLog) -> None:
        self.log = log

    async def join(self, code: str, session: Session) -> None:
        if self.log.hung:
            await asyncio.Event().wait()  # until the deadline cancels it


class HangingBackend(LocalBackend):
    """A store whose writes hang while ``log.hung``: a commit that writes waits until the
    deadline cuts it short (a reaction writes nothing, and goes), and so does a new
    connection's entry in the room's presence."""

    log: HangingLog

    def __init__(self, log: HangingLog, clock: ManualClock) -> None:
        super().__init__(log, clock)
        self.presence = HangingPresence(log)
        self.writes_asked = 0

    async def commit(
        self, room: Room, work: Work, *, created: bool = False, request: str = ""
    ) -> bool:
        if work.durable:
            self.writes_asked += 1
            if self.log.hung:
                await asyncio.Event().wait()  # until the deadline cancels it
        return await super().commit(room, work, created=created, request=request)


@dataclass
class Client:
    """The player's end of the socket: what it sends, and each message it gets, timed."""

    sock: socket.socket
    heard: list[tuple[float, Message]] = field(default_factory=list)

    async def send(self, message: Message) -> float:
        """Send one message; the time it was sent."""
        loop = asyncio.get_running_loop()
        await loop.sock_sendall(self.sock, frame(OP_TEXT, json.dumps(message).encode()))
        return loop.time()

    async def send_all(self, messages: list[Message]) -> float:
        """Several messages in one write: the socket reads them all at once."""
        loop = asyncio.get_running_loop()
        data = b"".join(frame(OP_TEXT, json.dumps(m).encode()) for m in messages)
        await loop.sock_sendall(self.sock, data)
        return loop.time()

    async def read_forever(self) -> None:
        loop = asyncio.get_running_loop()
        while True:
            head = await self._exact(2)
            length = head[1] & 0x7F
            if length == 126:
                length = int.from_bytes(await self._exact(2), "big")
            elif length == 127:
                length = int.from_bytes(await self._exact(8), "big")
            payload = await self._exact(length)
            self.heard.append((loop.time(), json.loads(payload)))

    async def _exact(self, n: int) -> bytes:
        loop = asyncio.get_running_loop()
        data = b""
        while len(data) < n:
            chunk = await loop.sock_recv(self.sock, n - len(data))
            assert chunk, "the server closed the connection"
            data += chunk
        return data

    def answer(self, ref: str) -> tuple[float, Message]:
        """When the message with this ref was answered, and how: an error naming it, the
        pong to the ping, or the reaction itself for the reaction."""
        for at, message in self.heard:
            if message.get("ref") == ref or message["type"] == ref:
                return at, message
        raise AssertionError(f"{ref} was never answered: {self.summary()}")

    def summary(self) -> list[tuple[float, str, str | None]]:
        """What was heard, in short: when, which type, and its ref or code."""
        return [(at, m["type"], m.get("ref") or m.get("code")) for at, m in self.heard]

    async def until(self, check: Any) -> Message:
        """Let time run until a message satisfies ``check``; that message."""
        for _ in range(10_000):
            for _, message in self.heard:
                if check(message):
                    return message
            await asyncio.sleep(0.01)
        raise AssertionError(f"never heard it: {self.summary()}")


@dataclass
class Scene:
    runtime: RoomRuntime
    backend: HangingBackend
    client: Client
    code: str
    room: Message
    ann: str
    """Seat 1's secret (no socket holds it yet)."""
    sockets: list[tuple[socket.socket, asyncio.BaseTransport, asyncio.Task[None]]]

    async def connect(self) -> Client:
        """Another game socket to the same server."""
        client, *ends = await _socket(self.runtime)
        self.sockets.append((client.sock, *ends))  # type: ignore[arg-type]
        return client

    def hang(self) -> None:
        self.backend.log.hung = True

    def recover(self) -> None:
        self.backend.log.hung = False


@asynccontextmanager
async def playing() -> AsyncIterator[Scene]:
    """An online game of two, started; the host (seat 0, whose turn it is) on a game
    socket, the store still answering."""
    clock = ManualClock()
    hub = Hub(0.0)
    backend = HangingBackend(HangingLog(), clock)
    runtime = RoomRuntime(
        FAST, backend, ScriptableDice(ServerDice()), hub, LocalOwners(), deadline=DEADLINE
    )
    await runtime.start()
    created = await runtime.create(
        Mode.ONLINE, [Seat("Host", "red")], Rules(), shuffle=False, countdown_seconds=20,
        board=JUNGLE,
    )  # fmt: skip
    _, _, ann = await runtime.join(created.code, "Ann", "blue")
    client, transport, reader = await _socket(runtime)
    await client.send({"type": "hello", "room": created.code, "secret": created.secret})
    welcome = await client.until(lambda m: m["type"] == "welcome")
    await client.send({"type": "start", "change": welcome["room"]["change"]})
    started = await client.until(lambda m: m.get("room", {}).get("phase") == "playing")
    scene = Scene(runtime, backend, client, created.code, started["room"], ann, [])
    scene.sockets.append((client.sock, transport, reader))
    try:
        yield scene
    finally:
        for end, server_end, reading in scene.sockets:
            reading.cancel()
            end.close()
            server_end.close()
        await runtime.stop()


async def _socket(runtime: RoomRuntime) -> tuple[Client, asyncio.BaseTransport, asyncio.Task[None]]:
    """A game socket on a socket pair: the client's end, the server's, the client's reader."""
    loop = asyncio.get_running_loop()
    policy = SocketPolicy(runtime=lambda: runtime, keepalive=600.0)
    server_end, client_end = socket.socketpair()
    transport, game = await loop.connect_accepted_socket(game_socket_class(policy), server_end)
    client_end.setblocking(False)
    assert (await upgrade(client_end)).startswith(b"HTTP/1.1 101") and game.state == OPEN
    client = Client(client_end)
    return client, transport, asyncio.create_task(client.read_forever())


def roll(scene: Scene, ref: str) -> Message:
    return {"type": "roll", "seat": 0, "version": scene.room["version"], "ref": ref}


REACT = {"type": "react", "seat": 0, "reaction": "clap", "ref": "reaction"}


def test_a_ping_and_a_reaction_do_not_wait_behind_the_connections_rolls_in_a_hang() -> None:
    """As reported: a roll, a reaction and a ping sent 0.4 s apart during a store stall
    were answered up to 4 s after sending, the ping (which needs no store) 3.6 s. Here
    two rolls (a player pressing twice), a reaction, a ping: the ping is answered the
    moment it comes, the reaction as soon as the room's queue lets it (when the first
    roll, ahead of it there, gives up), before the second roll; each roll within the
    deadline of its arrival."""

    async def scenario() -> dict[str, tuple[float, float, Message]]:
        async with playing() as scene:
            client = scene.client
            scene.hang()
            sent = {"roll 1": await client.send(roll(scene, "roll 1"))}
            await asyncio.sleep(0.2)
            sent["roll 2"] = await client.send(roll(scene, "roll 2"))
            await asyncio.sleep(0.2)
            sent["reaction"] = await client.send(REACT)
            await asyncio.sleep(0.2)
            sent["pong"] = await client.send({"type": "ping", "t": 1})
            await asyncio.sleep(3 * DEADLINE)
            return {ref: (at, *client.answer(ref)) for ref, at in sent.items()}

    answers = run(scenario())
    waited = {ref: answered - sent for ref, (sent, answered, _) in answers.items()}
    assert waited["pong"] == 0.0, waited
    assert answers["reaction"][2]["type"] == "reaction", answers["reaction"]
    assert answers["reaction"][1] == answers["roll 1"][1], "the reaction waited for roll 2"
    for ref in ("roll 1", "roll 2"):
        assert answers[ref][2]["type"] == "error", answers[ref]
        assert waited[ref] <= DEADLINE + EPSILON, waited


def test_every_intent_sent_during_a_hang_is_answered_within_the_deadline_of_its_arrival() -> None:
    """Twelve rolls 0.1 s apart while the store hangs: each is answered within the deadline
    from its own arrival, not from when the ones before it were done. After the hang the
    same roll is applied."""

    async def scenario() -> tuple[dict[str, tuple[float, float, Message]], Message]:
        async with playing() as scene:
            client = scene.client
            scene.hang()
            sent = {}
            for index in range(12):
                ref = f"roll {index}"
                sent[ref] = await client.send(roll(scene, ref))
                await asyncio.sleep(0.1)
            await asyncio.sleep(2 * DEADLINE)
            answers = {ref: (at, *client.answer(ref)) for ref, at in sent.items()}
            scene.recover()
            await client.send(roll(scene, "after"))
            after = await client.until(
                lambda m: (
                    m.get("ref") == "after"
                    or (m["type"] == "update" and any(e["type"] == "rolled" for e in m["events"]))
                )
            )
            return answers, after

    answers, after = run(scenario())
    late = {
        ref: answered - sent
        for ref, (sent, answered, _) in answers.items()
        if answered - sent > DEADLINE + EPSILON
    }
    assert not late, f"answered after the deadline: {late}"
    for ref, (_, _, message) in answers.items():
        assert message.get("code") in ("unavailable", "outcome_unknown"), (ref, message)
    assert after["type"] == "update", after


def test_an_intent_whose_deadline_passed_while_it_waited_never_reaches_the_store() -> None:
    """Four rolls in one write while the store hangs: the first waits out the deadline at
    the store, and the three behind it, whose deadline passed with it, are refused
    ``unavailable`` at once (nothing was sent: nothing can have changed), never tried."""

    async def scenario() -> tuple[list[tuple[float, float, Message]], int]:
        async with playing() as scene:
            client = scene.client
            scene.hang()
            asked = scene.backend.writes_asked
            refs = [f"roll {i}" for i in range(4)]
            at = await client.send_all([roll(scene, ref) for ref in refs])
            await asyncio.sleep(2 * DEADLINE)
            tried = scene.backend.writes_asked - asked
            return [(at, *client.answer(ref)) for ref in refs], tried

    answers, tried = run(scenario())
    codes = [message.get("code") for _, _, message in answers]
    assert codes == ["outcome_unknown", "unavailable", "unavailable", "unavailable"], answers
    for sent, answered, _ in answers:
        assert abs(answered - sent - DEADLINE) <= EPSILON, answers
    assert tried == 1, f"{tried} writes tried: the rolls whose deadline had passed were sent"


def test_past_the_queue_limit_a_connection_is_answered_busy_at_once() -> None:
    """``QUEUE_LIMIT`` rolls wait (the first at the store); the ones past it, and a
    reaction past it, are refused ``busy`` the moment they come. A ping is still answered
    at once: it waits for nothing."""

    async def scenario() -> list[tuple[str, float, float, Message]]:
        async with playing() as scene:
            client = scene.client
            scene.hang()
            refs = [f"roll {i}" for i in range(QUEUE_LIMIT + 3)]
            at = await client.send_all(
                [roll(scene, ref) for ref in refs] + [REACT, {"type": "ping", "t": 1}]
            )
            await asyncio.sleep(2 * DEADLINE)
            return [(ref, at, *client.answer(ref)) for ref in [*refs, "reaction", "pong"]]

    answers = run(scenario())
    waiting, refused, (_, sent, answered, pong) = (
        answers[:QUEUE_LIMIT], answers[QUEUE_LIMIT:-1], answers[-1],
    )  # fmt: skip
    for ref, sent_at, answered_at, message in refused:
        assert message.get("code") == "busy", (ref, message)
        assert answered_at == sent_at, (ref, answered_at - sent_at)
    for ref, sent_at, answered_at, message in waiting:
        assert message.get("code") in ("outcome_unknown", "unavailable"), (ref, message)
        assert answered_at - sent_at <= DEADLINE + EPSILON, (ref, answered_at - sent_at)
    assert pong["type"] == "pong" and answered == sent


def test_a_reaction_after_a_hello_is_for_the_room_the_hello_names() -> None:
    """A seat holder's socket says hello again, without the secret (it watches now), and
    reacts in the same write: the reaction is handled after the hello, so it is refused
    as a spectator's, after the welcome; never run while the hello changes rooms."""

    async def scenario() -> list[Message]:
        async with playing() as scene:
            client = scene.client
            client.heard.clear()
            await client.send_all([{"type": "hello", "room": scene.code}, REACT])
            await client.until(lambda m: m.get("ref") == "reaction" or m["type"] == "reaction")
            return [m for _, m in client.heard]

    heard = run(scenario())
    kinds = [m["type"] for m in heard]
    assert "welcome" in kinds, heard
    refusal = next(m for m in heard if m.get("ref") == "reaction" or m["type"] == "reaction")
    assert refusal.get("code") == "spectator", refusal
    assert kinds.index("welcome") < heard.index(refusal), heard


def test_a_hello_during_a_hang_is_answered_within_the_deadline_of_its_arrival() -> None:
    """A player's second device says hello while the store hangs: the whole hello (its
    entry in the room's presence, kept in the store, as with Redis, and its welcome) is
    answered within the deadline, ``unavailable``; the device may say hello again."""

    async def scenario() -> tuple[float, float, Message]:
        async with playing() as scene:
            phone = await scene.connect()
            scene.hang()
            hello = {"type": "hello", "room": scene.code, "secret": scene.ann, "ref": "hello"}
            sent = await phone.send(hello)
            await asyncio.sleep(2 * DEADLINE)
            return (sent, *phone.answer("hello"))

    sent, answered, message = run(scenario())
    assert message.get("code") == "unavailable", message
    assert answered - sent <= DEADLINE + EPSILON, answered - sent


def test_a_refusal_is_answered_in_the_order_sent() -> None:
    """A message refused as it is read (not JSON, an unknown type) is answered after the
    messages sent before it, as every answer is but a ping's and a reaction's: a client
    reads its answers in the order it sent. With nothing waiting, it is answered at once."""

    async def scenario() -> tuple[float, float, list[tuple[float, str, str | None]]]:
        async with playing() as scene:
            client = scene.client
            client.heard.clear()
            scene.hang()
            first = await client.send_all([roll(scene, "roll"), {"type": "sync", "ref": "one"}])
            await asyncio.sleep(2 * DEADLINE)
            second = await client.send({"type": "sync", "ref": "two"})
            await client.until(lambda m: m.get("ref") == "two")
            return first, second, client.summary()

    first, second, heard = run(scenario())
    errors = [(at, ref) for at, kind, ref in heard if kind == "error"]
    assert [ref for _, ref in errors] == ["roll", "one", "two"], heard
    (roll_at, _), (one_at, _), (two_at, _) = errors
    assert abs(roll_at - first - DEADLINE) <= EPSILON and one_at == roll_at, heard
    assert two_at == second, heard
