"""A closed game socket leaves nothing for the garbage collector.

The server runs full collections rarely (``tune_gc``): what a closed connection leaves
in reference cycles waits minutes and grows the process. The socket's protocol core
(websockets' sans-I/O ``Protocol``) keeps its frame parser, a generator that refers back
to it; the socket ends the parser when the connection is lost, so the core is freed at
once, by reference counting alone. The client goes in the middle of a frame, so that
the socket holds a core when it is lost (between messages it holds none). Checked with
the collector off, on a real socket pair.
"""

from __future__ import annotations

import asyncio
import gc
import socket
import weakref
from typing import Any

from snakes.server.transport.gamesocket import CLOSED, OPEN, SocketPolicy, game_socket_class
from tests.support.inprocess import run
from tests.support.rawsocket import OP_PING, frame, upgrade


def _no_rooms() -> Any:
    raise AssertionError("no message reaches the rooms")


async def _open_and_close(*, finish_the_frame: bool = False) -> weakref.ref[Any]:
    """The core that read half a ping, once the client has gone (or, with
    ``finish_the_frame``, once the socket has let it go at the frame's end)."""
    loop = asyncio.get_running_loop()
    server_end, client = socket.socketpair()
    policy = SocketPolicy(runtime=_no_rooms, spare_cores=0)  # a core let go is dropped
    transport, game = await loop.connect_accepted_socket(game_socket_class(policy), server_end)
    client.setblocking(False)
    head = await upgrade(client)
    assert head.startswith(b"HTTP/1.1 101") and game.state == OPEN
    await loop.sock_sendall(client, frame(OP_PING, b"half")[:3])
    while game._core is None:  # until the socket has read the frame's start
        await asyncio.sleep(0.001)
    core = weakref.ref(game._core)
    if finish_the_frame:
        await loop.sock_sendall(client, frame(OP_PING, b"half")[3:])
        deadline = loop.time() + 10
        while game._core is not None:  # until the socket has read the frame's end
            assert loop.time() < deadline, "the core was kept after its frame's end"
            await asyncio.sleep(0.001)
    client.close()
    while game.state != CLOSED:  # until the socket has seen the connection go
        await asyncio.sleep(0.001)
    del game, transport
    return core


def test_a_closed_connection_frees_its_protocol_core_without_the_collector() -> None:
    gc.collect()
    gc.disable()
    try:
        core = run(_open_and_close())
        assert core() is None, "the closed socket's protocol core waits for a collection"
    finally:
        gc.enable()


def test_a_core_let_go_between_messages_is_freed_without_the_collector() -> None:
    gc.collect()
    gc.disable()
    try:
        core = run(_open_and_close(finish_the_frame=True))
        assert core() is None, "the core let go at a frame's end waits for a collection"
    finally:
        gc.enable()
