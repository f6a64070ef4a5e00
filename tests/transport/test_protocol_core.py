"""A connection holds its protocol core only while a frame or a message is under way.

Between two messages a connection needs no core: the socket lets it go (``at_rest``) to
the server's spares and takes one when bytes come, which keeps a connection about 1.1 KB and eight
tracked objects lighter (docs/BENCHMARKS.md). Letting it go in the middle of a frame or
of a fragmented message would lose what was read, so every split of a frame is tried,
and a message in fragments with a ping between them. The game socket in a real event
loop, on a real socket pair; the bytes are handed to it as its transport would.
"""

from __future__ import annotations

import asyncio
import json
import socket
from typing import Any, cast

import pytest

from snakes.server.transport.gamesocket import OPEN, SocketPolicy, game_socket_class
from tests.support.inprocess import run
from tests.support.rawsocket import OP_CONT, OP_PING, OP_PONG, OP_TEXT, frame, upgrade

JSON_PING = b'{"type":"ping"}'
JSON_PONG = {"type": "pong"}


def _rooms_untouched() -> Any:
    return cast(Any, None)  # a JSON ping is answered before any room is asked


async def _open(
    policy: SocketPolicy | None = None,
) -> tuple[Any, socket.socket, asyncio.BaseTransport]:
    loop = asyncio.get_running_loop()
    server_end, client = socket.socketpair()
    policy = policy or SocketPolicy(runtime=_rooms_untouched)
    transport, game = await loop.connect_accepted_socket(game_socket_class(policy), server_end)
    client.setblocking(False)
    head = await upgrade(client)
    assert head.startswith(b"HTTP/1.1 101") and game.state == OPEN, head
    return game, client, transport


async def _exact(client: socket.socket, n: int) -> bytes:
    loop = asyncio.get_running_loop()
    data = b""
    while len(data) < n:
        chunk = await loop.sock_recv(client, n - len(data))
        assert chunk, "the server closed the connection"
        data += chunk
    return data


async def _answer(client: socket.socket) -> tuple[int, bytes]:
    """The next frame the server writes (ours are short and unmasked)."""
    first, length = await _exact(client, 2)
    assert length < 126
    return first & 0x0F, await _exact(client, length)


async def _expect_json_pong(client: socket.socket) -> None:
    opcode, payload = await _answer(client)
    assert (opcode, json.loads(payload)) == (OP_TEXT, JSON_PONG)


def _close(*ends: tuple[socket.socket, asyncio.BaseTransport]) -> None:
    for client, transport in ends:
        client.close()
        transport.close()


def test_a_connection_between_messages_holds_no_protocol_core() -> None:
    async def scenario() -> None:
        game, client, transport = await _open()
        assert game._core is None, "no byte has come yet"
        for _ in range(3):
            await asyncio.get_running_loop().sock_sendall(client, frame(OP_TEXT, JSON_PING))
            await _expect_json_pong(client)
            assert game._core is None, "a whole message read, the core is let go"
        _close((client, transport))

    run(scenario())


PING = frame(OP_PING, b"hello")
TEXT = frame(OP_TEXT, JSON_PING)


@pytest.mark.parametrize(
    ("sent", "split"),
    [(PING, at) for at in range(1, len(PING))] + [(TEXT, at) for at in range(1, len(TEXT))],
    ids=[f"ping-at-{at}" for at in range(1, len(PING))]
    + [f"text-at-{at}" for at in range(1, len(TEXT))],
)
def test_a_frame_split_anywhere_keeps_its_core_until_it_ends(sent: bytes, split: int) -> None:
    async def scenario() -> None:
        game, client, transport = await _open()
        game.data_received(sent[:split])
        assert game._core is not None, "a frame under way keeps the core that read its start"
        game.data_received(sent[split:])
        if sent is PING:
            assert await _answer(client) == (OP_PONG, b"hello")
        else:
            await _expect_json_pong(client)
        assert game._core is None
        _close((client, transport))

    run(scenario())


def test_a_message_in_fragments_keeps_its_core_across_a_ping_between_them() -> None:
    async def scenario() -> None:
        game, client, transport = await _open()
        game.data_received(frame(OP_TEXT, JSON_PING[:8], fin=False))
        assert game._core is not None, "a message under way keeps its core"
        game.data_received(frame(OP_PING, b"between"))
        assert await _answer(client) == (OP_PONG, b"between")
        assert game._core is not None
        game.data_received(frame(OP_CONT, JSON_PING[8:12], fin=False))
        game.data_received(frame(OP_CONT, JSON_PING[12:]))
        await _expect_json_pong(client)
        assert game._core is None
        _close((client, transport))

    run(scenario())


def test_a_core_let_go_reads_the_next_connections_frames_and_spares_are_bounded() -> None:
    async def scenario() -> None:
        policy = SocketPolicy(runtime=_rooms_untouched, spare_cores=1)
        first, first_client, first_transport = await _open(policy)
        first.data_received(PING[:3])
        used = first._core
        first.data_received(PING[3:])
        assert await _answer(first_client) == (OP_PONG, b"hello")
        assert policy.spares == [used], "the core at rest is kept for the next one"

        second, second_client, second_transport = await _open(policy)  # the same server's
        second.data_received(TEXT[:5])
        assert second._core is used and policy.spares == []
        first.data_received(PING[:5])  # meanwhile the first needs a core again: a new one
        assert first._core is not None and first._core is not used
        second.data_received(TEXT[5:])
        await _expect_json_pong(second_client)
        first.data_received(PING[5:])
        assert await _answer(first_client) == (OP_PONG, b"hello")
        assert len(policy.spares) == 1, "past spare_cores, a core let go is dropped"
        _close((first_client, first_transport), (second_client, second_transport))

    run(scenario())
