"""Clients that misbehave at the socket level: they stop reading, or never finish a request.

Raw sockets, not a WebSocket library: a library reads in the background and answers
pings, which is just what a stuck client does not do.
"""

from __future__ import annotations

import base64
import json
import os
import socket
import struct


def _frame(text: str) -> bytes:
    """One masked text frame, as a client must send it."""
    payload = text.encode()
    mask = os.urandom(4)
    head = bytes([0x81])
    if len(payload) < 126:
        head += bytes([0x80 | len(payload)])
    else:
        head += bytes([0x80 | 126]) + struct.pack("!H", len(payload))
    return head + mask + bytes(b ^ mask[i % 4] for i, b in enumerate(payload))


class StuckReader:
    """A WebSocket client that says hello to a room, then never reads another byte.

    Its receive buffer is made small (``SO_RCVBUF``) so that the server's updates back
    up within a few dozen messages, as they would for a phone that lost its radio.
    """

    def __init__(self, port: int, code: str, *, source: str = "127.0.0.1", rcvbuf: int = 2048):
        self.sock = socket.socket(socket.AF_INET, socket.SOCK_STREAM)
        self.sock.setsockopt(socket.SOL_SOCKET, socket.SO_RCVBUF, rcvbuf)
        self.sock.bind((source, 0))
        self.sock.settimeout(10)
        self.sock.connect(("127.0.0.1", port))
        key = base64.b64encode(os.urandom(16)).decode()
        self.sock.sendall(
            (
                f"GET /ws HTTP/1.1\r\nHost: 127.0.0.1:{port}\r\nUpgrade: websocket\r\n"
                f"Connection: Upgrade\r\nSec-WebSocket-Key: {key}\r\n"
                "Sec-WebSocket-Version: 13\r\n\r\n"
            ).encode()
        )
        answer = b""
        while b"\r\n\r\n" not in answer:
            chunk = self.sock.recv(1)  # byte by byte: read nothing past the handshake
            if not chunk:
                raise ConnectionError("closed during the handshake")
            answer += chunk
        if not answer.startswith(b"HTTP/1.1 101"):
            raise ConnectionError(answer.decode(errors="replace"))
        self.sock.sendall(_frame(json.dumps({"type": "hello", "room": code})))

    def gone(self) -> bool:
        """Has the server cut this connection off? (Reads what is buffered, to find out.)"""
        self.sock.setblocking(False)
        try:
            while True:
                data = self.sock.recv(65536)
                if not data:
                    return True
        except BlockingIOError:
            return False
        except OSError:
            return True
        finally:
            self.sock.setblocking(True)

    def close(self) -> None:
        self.sock.close()
