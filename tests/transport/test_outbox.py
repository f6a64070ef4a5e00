"""What a client that reads nothing can make the server hold is bounded as a whole.

The game socket in a real event loop, on a real socket pair, with a client that sends
pings and never reads a pong. Everything the socket writes (the core's pongs as much as
our messages) counts toward ``SEND_QUEUE_LIMIT`` while its buffer is full, so the
client is cut off however it fills that buffer. The frame budget is lifted here (it
would close this client with 1008 long before), and the keepalive is long: only the
outbox can cut it off.
"""

from __future__ import annotations

import asyncio
import socket
from typing import Any

from snakes.server.runtime.session import SEND_QUEUE_LIMIT
from snakes.server.transport.gamesocket import OPEN, SocketPolicy, game_socket_class
from tests.support.inprocess import run
from tests.support.rawsocket import OP_PING, frame, upgrade

PINGS = 4 * SEND_QUEUE_LIMIT


def _no_rooms() -> Any:
    raise AssertionError("a ping never reaches the rooms")


async def _flood_with_unread_pings() -> tuple[bool, int]:
    loop = asyncio.get_running_loop()
    policy = SocketPolicy(runtime=_no_rooms, keepalive=600.0, frame_rate=1e9, frame_burst=1e9)
    server_end, client = socket.socketpair()
    client.setsockopt(socket.SOL_SOCKET, socket.SO_RCVBUF, 1)  # the kernel's least
    server_end.setsockopt(socket.SOL_SOCKET, socket.SO_SNDBUF, 1)
    transport, game = await loop.connect_accepted_socket(game_socket_class(policy), server_end)
    # The transport pauses its protocol once 4 KB wait (not 64 KB): a test-sized buffer.
    transport.set_write_buffer_limits(high=4096)
    client.setblocking(False)
    head = await upgrade(client)
    assert head.startswith(b"HTTP/1.1 101"), head
    assert game.state == OPEN
    ping = frame(OP_PING, b"p" * 125)
    with_room = 0
    for _ in range(PINGS):
        if transport.is_closing():
            break
        await loop.sock_sendall(client, ping)
        await asyncio.sleep(0)  # the server reads it
        with_room += 1
    for _ in range(100):  # the last pings are read, or the socket has gone
        if transport.is_closing():
            break
        await asyncio.sleep(0.01)
    cut_off = transport.is_closing()
    client.close()
    transport.abort()
    return cut_off, with_room


def test_pongs_count_toward_what_a_client_that_reads_nothing_may_owe() -> None:
    cut_off, pings = run(_flood_with_unread_pings())
    assert cut_off, f"{pings} pings, {pings} pongs unread, and the client is still there"
    assert pings < 2 * SEND_QUEUE_LIMIT
