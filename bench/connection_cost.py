"""What one game socket holds (between messages, and while its intents wait for the
store), and what one message costs it.

``--connections`` game sockets on socket pairs in this process, each past its handshake
and its hello (spectators, ten to a room, over the memory store), then counted with
tracemalloc (bytes) and the collector (tracked objects), per connection:

- at rest: every hello answered, nothing waiting (what a player costs nearly always);
- 1 waiting: the store's writes hang, each room's host has rolled (that roll waits at
  the store), and each connection has sent one roll, which waits its turn;
- N waiting (``--waiting``): each has sent N, the most a connection may have waiting.

The socket pairs are made before the count begins: what the clients' ends hold is not
counted. Then the CPU per message: one spectator sends ``--messages`` rolls, one at a
time, each answered (``spectator``, from the room's queue) before the next goes; the
process's CPU time over the lot, client side included (the same on any tree).

    python bench/connection_cost.py
    python bench/connection_cost.py --connections 2000 --waiting 16 --messages 50000
"""

from __future__ import annotations

import asyncio
import gc
import json
import socket
import time
import tracemalloc
from typing import Any

import click

from snakes.engine import JUNGLE, Rules
from snakes.server.backends.local import LocalBackend
from snakes.server.backends.memory import MemoryLog
from snakes.server.clock import ManualClock
from snakes.server.rooms.dice import ServerDice
from snakes.server.rooms.intents import Roll, Start
from snakes.server.rooms.model import Mode, Room, Seat
from snakes.server.rooms.work import Work
from snakes.server.runtime.hub import Hub
from snakes.server.runtime.owners import LocalOwners
from snakes.server.runtime.runtime import RoomRuntime
from snakes.server.settings import Settings
from snakes.server.transport.gamesocket import SocketPolicy, game_socket_class
from snakes.testing.hooks import ScriptableDice
from snakes.testing.sessions import RecordingSession

PER_ROOM = 10
HANDSHAKE = (
    b"GET /ws HTTP/1.1\r\nHost: 127.0.0.1\r\nSec-WebSocket-Version: 13\r\n"
    b"Sec-WebSocket-Key: dGhlIHNhbXBsZSBub25jZQ==\r\n\r\n"
)


class HangingBackend(LocalBackend):
    """The memory store, whose writes hang while ``hung``."""

    hung = False

    async def commit(
        self, room: Room, work: Work, *, created: bool = False, request: str = ""
    ) -> bool:
        if self.hung and work.durable:
            await asyncio.Event().wait()
        return await super().commit(room, work, created=created, request=request)


def text(message: dict[str, Any]) -> bytes:
    """A client's text frame, masked with a zero key (the payload goes as it is)."""
    payload = json.dumps(message).encode()
    assert len(payload) < 126
    return bytes((0x81, 0x80 | len(payload))) + b"\0\0\0\0" + payload


async def settle() -> None:
    """Let the server read and answer what the clients sent."""
    for _ in range(100):
        await asyncio.sleep(0)


def drain(client: socket.socket) -> None:
    """Throw away what the server has written to a client so far."""
    try:
        while client.recv(1 << 16):
            pass
    except BlockingIOError:
        return


def counted() -> tuple[int, int]:
    gc.collect()
    return tracemalloc.get_traced_memory()[0], len(gc.get_objects())


async def measure(connections: int, waiting: int) -> dict[str, tuple[float, float]]:
    loop = asyncio.get_running_loop()
    hub = Hub(0.0)
    backend = HangingBackend(MemoryLog(), ManualClock())
    runtime = RoomRuntime(
        Settings(animation_scale=0.0), backend, ScriptableDice(ServerDice()), hub,
        LocalOwners(), deadline=600.0,
    )  # fmt: skip
    await runtime.start()
    hosts: list[tuple[str, RecordingSession]] = []
    for _ in range(-(-connections // PER_ROOM)):
        created = await runtime.create(
            Mode.ONLINE, [Seat("Host", "red")], Rules(), shuffle=False,
            countdown_seconds=20, board=JUNGLE,
        )  # fmt: skip
        await runtime.join(created.code, "Ann", "blue")
        host = RecordingSession()
        await runtime.hello(host, created.code, created.secret)
        room = runtime.current(created.code)
        assert room is not None
        await runtime.intent(host, Start(room.change, False))
        hosts.append((created.code, host))
    policy = SocketPolicy(runtime=lambda: runtime, keepalive=600.0)
    pairs = [socket.socketpair() for _ in range(connections)]
    for _, client in pairs:
        client.setblocking(False)
    figures: dict[str, tuple[float, float]] = {}
    tracemalloc.start()
    before = counted()
    transports = []
    for index, (server_end, client) in enumerate(pairs):
        transport, _ = await loop.connect_accepted_socket(game_socket_class(policy), server_end)
        transports.append(transport)
        client.sendall(HANDSHAKE)
        await settle()
        client.sendall(text({"type": "hello", "room": hosts[index // PER_ROOM][0]}))
        await settle()
        drain(client)
    at_rest = counted()
    figures["at rest"] = per_connection(before, at_rest, connections)

    backend.hung = True
    stalled = [
        asyncio.create_task(runtime.intent(host, Roll(0, 0))) for _, host in hosts
    ]  # each room's queue is held by its host's roll, waiting at the store
    await settle()
    sent = 0
    for count in sorted({1, waiting}):
        for _, client in pairs:
            for _ in range(count - sent):
                client.sendall(text({"type": "roll", "seat": 0, "version": 0}))
        sent = count
        await settle()
        for _, client in pairs:
            drain(client)
        figures[f"{count} waiting"] = per_connection(at_rest, counted(), connections)
    tracemalloc.stop()
    for task in stalled:
        task.cancel()
    for transport in transports:
        transport.abort()
    for server_end, client in pairs:
        client.close()
        server_end.close()
    return figures


async def cpu_per_message(messages: int) -> float:
    """Seconds of CPU per roll a spectator sends and is answered, one at a time."""
    loop = asyncio.get_running_loop()
    hub = Hub(0.0)
    backend = HangingBackend(MemoryLog(), ManualClock())
    runtime = RoomRuntime(
        Settings(animation_scale=0.0), backend, ScriptableDice(ServerDice()), hub,
        LocalOwners(), deadline=600.0,
    )  # fmt: skip
    await runtime.start()
    created = await runtime.create(
        Mode.ONLINE, [Seat("Host", "red")], Rules(), shuffle=False, countdown_seconds=20,
        board=JUNGLE,
    )  # fmt: skip
    # No message limit: one connection sends them all as fast as they are answered.
    policy = SocketPolicy(runtime=lambda: runtime, keepalive=600.0, frame_rate=1e9)
    server_end, client = socket.socketpair()
    transport, game = await loop.connect_accepted_socket(game_socket_class(policy), server_end)
    game._rate.rate = game._rate.burst = 1e9
    game._rate.tokens = 1e9
    client.setblocking(False)
    client.sendall(HANDSHAKE)
    await loop.sock_recv(client, 1 << 16)
    client.sendall(text({"type": "hello", "room": created.code}))
    await loop.sock_recv(client, 1 << 16)
    roll = text({"type": "roll", "seat": 0, "version": 0})
    started = time.process_time()
    for _ in range(messages):
        client.sendall(roll)
        answer = await loop.sock_recv(client, 1 << 16)
        assert b"spectator" in answer, answer
    spent = time.process_time() - started
    transport.abort()
    client.close()
    await runtime.stop()
    return spent / messages


def per_connection(
    before: tuple[int, int], after: tuple[int, int], connections: int
) -> tuple[float, float]:
    return (after[0] - before[0]) / connections, (after[1] - before[1]) / connections


@click.command()
@click.option("--connections", default=1000, show_default=True)
@click.option("--waiting", default=16, show_default=True, help="Rolls sent per connection.")
@click.option("--messages", default=20_000, show_default=True, help="Rolls for the CPU figure.")
def main(connections: int, waiting: int, messages: int) -> None:
    figures = asyncio.run(measure(connections, waiting))
    for name, (size, objects) in figures.items():
        print(f"{name:>12}: {size:7.0f} B and {objects:5.1f} tracked objects per connection")
    cpu = asyncio.run(cpu_per_message(messages))
    print(f"one message: {cpu * 1e6:5.1f} µs of CPU, sent and answered ({messages:,} rolls)")


if __name__ == "__main__":
    main()
