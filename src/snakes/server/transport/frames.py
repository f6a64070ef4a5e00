"""WebSocket frames (RFC 6455), server side: what a client sends, read; what we send, written.

The game's messages are small JSON texts, a few a second per connection, and thousands
of connections share one process: reading and writing a frame is a few byte operations
here, with the unmasking done by the ``websockets`` package's C routine.

>>> reader = FrameReader(max_payload=4096)
>>> client_frame = bytes([0x81, 0x85]) + b"abcd" + bytes(x ^ m for x, m in zip(b"hello", b"abcda"))
>>> reader.feed(client_frame)
[(1, True, b'hello')]
>>> text_frame(b"hi")
b'\\x81\\x02hi'
"""

from __future__ import annotations

import struct

from websockets.speedups import apply_mask

OP_CONTINUATION = 0x0
OP_TEXT = 0x1
OP_BINARY = 0x2
OP_CLOSE = 0x8
OP_PING = 0x9
OP_PONG = 0xA
_DATA_OPCODES = frozenset({OP_CONTINUATION, OP_TEXT, OP_BINARY})
_CONTROL_OPCODES = frozenset({OP_CLOSE, OP_PING, OP_PONG})

CLOSE_NORMAL = 1000
CLOSE_GOING_AWAY = 1001
CLOSE_PROTOCOL_ERROR = 1002
CLOSE_NO_STATUS = 1005
CLOSE_INVALID_TEXT = 1007
CLOSE_TOO_LARGE = 1009
CLOSE_SERVICE_RESTART = 1012

Frame = tuple[int, bool, bytes]
"""(opcode, fin, unmasked payload)."""


class FrameError(Exception):
    """The client broke the protocol: close the connection with ``code``."""

    def __init__(self, code: int, reason: str) -> None:
        super().__init__(reason)
        self.code = code
        self.reason = reason


class FrameReader:
    """Frames from a client's bytes, as they arrive in pieces of any size.

    A frame whose length says it is larger than ``max_payload`` is refused as soon as
    its header is in (1009), before any of it is buffered; so is a frame from a client
    that does not mask (1002), as the RFC requires of a server.
    """

    __slots__ = ("_pending", "max_payload")

    def __init__(self, max_payload: int) -> None:
        self.max_payload = max_payload
        self._pending = b""

    def feed(self, data: bytes) -> list[Frame]:
        """The whole frames in what has arrived so far; the rest waits for more."""
        if self._pending:
            data = self._pending + data
        frames: list[Frame] = []
        pos, end = 0, len(data)
        while end - pos >= 2:
            first, second = data[pos], data[pos + 1]
            opcode = first & 0x0F
            fin = bool(first & 0x80)
            if first & 0x70:
                raise FrameError(CLOSE_PROTOCOL_ERROR, "reserved bits set (no extension agreed)")
            if not second & 0x80:
                raise FrameError(CLOSE_PROTOCOL_ERROR, "a client's frames must be masked")
            length = second & 0x7F
            head = pos + 2
            if length == 126:
                if end - head < 2:
                    break
                length = int.from_bytes(data[head : head + 2], "big")
                head += 2
            elif length == 127:
                if end - head < 8:
                    break
                length = int.from_bytes(data[head : head + 8], "big")
                head += 8
            if opcode in _CONTROL_OPCODES:
                if length > 125 or not fin:
                    raise FrameError(CLOSE_PROTOCOL_ERROR, "a control frame is whole and short")
            elif opcode not in _DATA_OPCODES:
                raise FrameError(CLOSE_PROTOCOL_ERROR, f"unknown opcode {opcode}")
            elif length > self.max_payload:
                raise FrameError(CLOSE_TOO_LARGE, "message too large")
            stop = head + 4 + length
            if stop > end:
                break
            payload = data[head + 4 : stop]
            frames.append((opcode, fin, apply_mask(payload, data[head : head + 4])))
            pos = stop
        self._pending = data[pos:] if pos < end else b""
        return frames

    @property
    def buffered(self) -> int:
        """Bytes of a frame not yet whole."""
        return len(self._pending)


def frame(opcode: int, payload: bytes) -> bytes:
    """One whole, unmasked frame, as a server sends it."""
    length = len(payload)
    if length < 126:
        return bytes((0x80 | opcode, length)) + payload
    if length < 65536:
        return struct.pack("!BBH", 0x80 | opcode, 126, length) + payload
    return struct.pack("!BBQ", 0x80 | opcode, 127, length) + payload


def text_frame(payload: bytes) -> bytes:
    """A text message (``payload`` is UTF-8) in one frame."""
    return frame(OP_TEXT, payload)


def close_frame(code: int, reason: str = "") -> bytes:
    """A close frame; its reason is cut to fit a control frame's 125 bytes."""
    if code == CLOSE_NO_STATUS:
        return frame(OP_CLOSE, b"")
    return frame(OP_CLOSE, code.to_bytes(2, "big") + reason.encode()[:123])


def close_code(payload: bytes) -> tuple[int, str]:
    """The code and reason of a close frame a client sent (1005: it gave none).

    Raises :class:`FrameError` for a code a client may not send or a reason that is not
    UTF-8.
    """
    if not payload:
        return CLOSE_NO_STATUS, ""
    if len(payload) == 1:
        raise FrameError(CLOSE_PROTOCOL_ERROR, "a close frame's code is two bytes")
    code = int.from_bytes(payload[:2], "big")
    if not (1000 <= code <= 1014 and code not in (1004, 1005, 1006)) and not (3000 <= code <= 4999):
        raise FrameError(CLOSE_PROTOCOL_ERROR, f"close code {code} may not be sent")
    try:
        reason = payload[2:].decode()
    except UnicodeDecodeError:
        raise FrameError(CLOSE_INVALID_TEXT, "a close reason is UTF-8") from None
    return code, reason
