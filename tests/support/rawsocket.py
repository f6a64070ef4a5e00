"""A WebSocket spoken byte by byte: frames exactly as a test writes them, broken or not.

A library client answers pings, masks, fragments and closes as the RFC says; the tests
of what a server does with a broken or hostile client need every bit in their hands.
"""

from __future__ import annotations

import asyncio
import base64
import contextlib
import os
import socket
import struct

OP_CONT, OP_TEXT, OP_BINARY, OP_CLOSE, OP_PING, OP_PONG = 0x0, 0x1, 0x2, 0x8, 0x9, 0xA


def frame(
    opcode: int,
    payload: bytes = b"",
    *,
    fin: bool = True,
    rsv: int = 0,
    mask: bool = True,
    key: bytes | None = None,
) -> bytes:
    """One frame as a client writes it: ``rsv`` is the three reserved bits (0-7)."""
    head = bytes([(0x80 if fin else 0) | (rsv << 4) | opcode])
    flag = 0x80 if mask else 0
    length = len(payload)
    if length < 126:
        head += bytes([flag | length])
    elif length < 65536:
        head += bytes([flag | 126]) + struct.pack("!H", length)
    else:
        head += bytes([flag | 127]) + struct.pack("!Q", length)
    if not mask:
        return head + payload
    key = key if key is not None else os.urandom(4)
    return head + key + bytes(b ^ key[i % 4] for i, b in enumerate(payload))


def close_payload(code: int, reason: bytes = b"") -> bytes:
    return code.to_bytes(2, "big") + reason


async def upgrade(client: socket.socket) -> bytes:
    """Ask for the WebSocket on a non-blocking client socket in the running loop (one end
    of a socket pair whose other end a server protocol holds); the answer's head, read
    byte by byte so that nothing past the handshake is taken."""
    loop = asyncio.get_running_loop()
    key = base64.b64encode(os.urandom(16))
    await loop.sock_sendall(
        client,
        b"GET /ws HTTP/1.1\r\nHost: 127.0.0.1\r\nSec-WebSocket-Version: 13\r\n"
        b"Sec-WebSocket-Key: " + key + b"\r\n\r\n",
    )
    head = b""
    while b"\r\n\r\n" not in head:
        head += await loop.sock_recv(client, 1)
    return head


class RawSocket:
    """A client connection on ``/ws`` (or another path) that writes frames as given."""

    def __init__(
        self,
        port: int,
        path: str = "/ws",
        version: str = "13",
        key: str = "",
        *,
        rcvbuf: int | None = None,
        timeout: float = 10.0,
    ) -> None:
        self.sock = socket.socket(socket.AF_INET, socket.SOCK_STREAM)
        if rcvbuf is not None:
            # Before connecting, so that the window the server sees is small from the start.
            self.sock.setsockopt(socket.SOL_SOCKET, socket.SO_RCVBUF, rcvbuf)
        self.sock.settimeout(timeout)
        self.sock.connect(("127.0.0.1", port))
        key = key or base64.b64encode(os.urandom(16)).decode()
        self.sock.sendall(
            (
                f"GET {path} HTTP/1.1\r\nHost: 127.0.0.1:{port}\r\nUpgrade: websocket\r\n"
                f"Connection: Upgrade\r\nSec-WebSocket-Key: {key}\r\n"
                f"Sec-WebSocket-Version: {version}\r\n\r\n"
            ).encode()
        )
        self.head = b""
        while b"\r\n\r\n" not in self.head:
            chunk = self.sock.recv(1)  # byte by byte: read nothing past the handshake
            if not chunk:
                break
            self.head += chunk
        self.status = int(self.head.split(b" ", 2)[1]) if self.head else 0

    def send(self, opcode: int, payload: bytes, *, fin: bool = True, mask: bool = True) -> None:
        self.sock.sendall(frame(opcode, payload, fin=fin, mask=mask))

    def _exact(self, n: int) -> bytes:
        data = b""
        while len(data) < n:
            chunk = self.sock.recv(n - len(data))
            if not chunk:
                raise ConnectionError("closed")
            data += chunk
        return data

    def read(self) -> tuple[int, bytes]:
        """The next frame the server sends: (opcode, payload)."""
        first, second = self._exact(2)
        length = second & 0x7F
        if length == 126:
            length = struct.unpack("!H", self._exact(2))[0]
        elif length == 127:
            length = struct.unpack("!Q", self._exact(8))[0]
        return first & 0x0F, self._exact(length)

    def close_frame(self) -> bytes:
        """Read until the server's close frame, answer it as a client must; its payload."""
        while True:
            opcode, payload = self.read()
            if opcode == OP_CLOSE:
                # The server may have closed already (it closes first after an echo).
                with contextlib.suppress(OSError):
                    self.send(OP_CLOSE, payload[:2])
                return payload

    def close_code(self) -> int:
        """Read until the server's close frame, answer it as a client must; its code."""
        return int.from_bytes(self.close_frame()[:2], "big")

    def closed(self, within: float) -> bool:
        """Does the server end the connection within ``within`` seconds?"""
        self.sock.settimeout(within)
        try:
            while self.sock.recv(4096):
                pass
        except TimeoutError:
            return False
        except OSError:
            return True
        return True

    def close(self) -> None:
        self.sock.close()
