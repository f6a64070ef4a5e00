"""RFC 6455 against the real ``/ws``: bytes a client sends, and what the server does.

One row per case, each on a fresh connection of one real server: framing, reserved bits
and opcodes, control frames, fragmentation (with control frames inside), UTF-8 (whole
and split across fragments), close codes a client may and may not send, close reasons,
and the message size limit (by a frame's header and by fragments). The frames are
written byte by byte as given, masked unless a row says otherwise.

A row expects one of three things:

- ``Replies``: the first frames the server sends back (a JSON text is compared by the
  keys given), and the connection stays open;
- ``Closes``: the server's close frame carries this code, and it then ends the
  connection;
- ``Echoes``: the client closed, and the server's close frame carries back exactly
  the client's payload (RFC 6455 5.5.1), then it ends the connection.
"""

from __future__ import annotations

import json
from collections.abc import Iterator
from dataclasses import dataclass
from typing import Any

import pytest

from tests.support.rawsocket import (
    OP_BINARY,
    OP_CLOSE,
    OP_CONT,
    OP_PING,
    OP_PONG,
    OP_TEXT,
    RawSocket,
    close_payload,
    frame,
)
from tests.support.server import TEST_FLAGS, ServerProcess, running_server

PING = b'{"type": "ping"}'
PONG = {"type": "pong"}


@dataclass(frozen=True)
class Replies:
    frames: tuple[tuple[int, bytes | dict[str, Any]], ...]


@dataclass(frozen=True)
class Closes:
    code: int


@dataclass(frozen=True)
class Echoes:
    payload: bytes


def replies(*frames: tuple[int, bytes | dict[str, Any]]) -> Replies:
    return Replies(frames)


def text(payload: bytes, fin: bool = True) -> bytes:
    return frame(OP_TEXT, payload, fin=fin)


def cont(payload: bytes, fin: bool = True) -> bytes:
    return frame(OP_CONT, payload, fin=fin)


def close(payload: bytes) -> bytes:
    return frame(OP_CLOSE, payload)


def header_only(opcode: int, length: int) -> bytes:
    """A masked frame's header and mask that announce ``length`` bytes, and no payload."""
    whole = frame(opcode, b"", key=b"\0\0\0\0")
    if length < 126:
        return bytes([whole[0], 0x80 | length]) + b"\0\0\0\0"
    if length < 65536:
        return bytes([whole[0], 0x80 | 126]) + length.to_bytes(2, "big") + b"\0\0\0\0"
    return bytes([whole[0], 0x80 | 127]) + length.to_bytes(8, "big") + b"\0\0\0\0"


EURO = "€".encode()  # e2 82 ac
UNKNOWN = {"type": "error", "code": "unknown_type", "ref": "€"}

ROWS: dict[str, tuple[bytes, Replies | Closes | Echoes]] = {
    # ---- framing -------------------------------------------------------------------------
    "a whole text frame": (text(PING), replies((OP_TEXT, PONG))),
    "a 16-bit length": (text(PING + b" " * 300), replies((OP_TEXT, PONG))),
    "two messages in one write": (
        text(PING) + text(b'{"type": "ping", "t": 7}'),
        replies((OP_TEXT, PONG), (OP_TEXT, {"type": "pong", "t": 7})),
    ),
    "an unmasked frame": (frame(OP_TEXT, PING, mask=False), Closes(1002)),
    "reserved bit 1": (frame(OP_TEXT, PING, rsv=4), Closes(1002)),
    "reserved bit 2": (frame(OP_TEXT, PING, rsv=2), Closes(1002)),
    "reserved bit 3": (frame(OP_TEXT, PING, rsv=1), Closes(1002)),
    "reserved bits on a ping": (frame(OP_PING, b"x", rsv=7), Closes(1002)),
    **{f"reserved opcode {op:#x}": (frame(op, b"x"), Closes(1002)) for op in (3, 7, 0xB, 0xF)},
    "a binary frame": (frame(OP_BINARY, PING), Closes(1003)),
    # ---- size: by a frame's header (no payload sent at all) and by fragments ------------
    "a 4,096-byte message": (
        text(b'{"type": "ping"}' + b" " * (4096 - len(PING))),
        replies((OP_TEXT, PONG)),
    ),
    "a header announcing 4,097 bytes": (header_only(OP_TEXT, 4097), Closes(1009)),
    "a header announcing 2**62 bytes": (header_only(OP_TEXT, 2**62), Closes(1009)),
    "fragments adding up to 4,097 bytes": (
        text(b" " * 2048, fin=False) + cont(b" " * 2048, fin=False) + cont(b" "),
        Closes(1009),
    ),
    # ---- control frames ------------------------------------------------------------------
    "a ping": (frame(OP_PING, b"are you there"), replies((OP_PONG, b"are you there"))),
    "an empty ping": (frame(OP_PING), replies((OP_PONG, b""))),
    "a 125-byte ping": (frame(OP_PING, b"p" * 125), replies((OP_PONG, b"p" * 125))),
    "a 126-byte ping": (frame(OP_PING, b"p" * 126), Closes(1002)),
    "a fragmented ping": (frame(OP_PING, b"p", fin=False), Closes(1002)),
    "an unsolicited pong": (frame(OP_PONG, b"hm") + text(PING), replies((OP_TEXT, PONG))),
    # ---- fragmentation --------------------------------------------------------------------
    "a message in three fragments": (
        text(b'{"type"', fin=False) + cont(b': "pi', fin=False) + cont(b'ng"}'),
        replies((OP_TEXT, PONG)),
    ),
    "empty fragments": (
        text(b"", fin=False) + cont(b"", fin=False) + cont(PING, fin=False) + cont(b""),
        replies((OP_TEXT, PONG)),
    ),
    "a ping between fragments": (
        text(b'{"type": ', fin=False) + frame(OP_PING, b"mid") + cont(b'"ping"}'),
        replies((OP_PONG, b"mid"), (OP_TEXT, PONG)),
    ),
    "a pong between fragments": (
        text(b'{"type": ', fin=False) + frame(OP_PONG, b"mid") + cont(b'"ping"}'),
        replies((OP_TEXT, PONG)),
    ),
    "a continuation with nothing begun": (cont(PING), Closes(1002)),
    "a text frame inside a message": (text(b"{", fin=False) + text(b"}"), Closes(1002)),
    "a binary frame inside a message": (
        text(b"{", fin=False) + frame(OP_BINARY, b"}"),
        Closes(1002),
    ),
    "a fragmented binary message": (frame(OP_BINARY, b"{", fin=False), Closes(1003)),
    # A close frame between fragments cuts the message off: the core treats that as a
    # protocol error rather than a goodbye.
    "a close between fragments": (
        text(b"{", fin=False) + close(close_payload(1000)),
        Closes(1002),
    ),
    # ---- UTF-8 ---------------------------------------------------------------------------
    "valid UTF-8 split across fragments": (
        text(b'{"type": "nope", "ref": "' + EURO[:1], fin=False)
        + cont(EURO[1:2], fin=False)
        + cont(EURO[2:] + b'"}'),
        replies((OP_TEXT, UNKNOWN)),
    ),
    "invalid UTF-8": (text(b'{"type": "\xff"}'), Closes(1007)),
    "an overlong encoding": (text(b'{"type": "\xc0\xaf"}'), Closes(1007)),
    "a UTF-16 surrogate": (text(b'{"type": "\xed\xa0\x80"}'), Closes(1007)),
    "invalid UTF-8 split across fragments": (
        text(b'{"type": "\xe2\x82', fin=False) + cont(b'\x28"}'),
        Closes(1007),
    ),
    "a character cut off at the message's end": (
        text(b'{"type": "', fin=False) + cont(EURO[:2]),
        Closes(1007),
    ),
    # ---- closing --------------------------------------------------------------------------
    "a close without a code": (close(b""), Echoes(b"")),
    "a close with a reason": (
        close(close_payload(1000, "bye 👋".encode())),
        Echoes(close_payload(1000, "bye 👋".encode())),
    ),
    "a close with a 123-byte reason": (
        close(close_payload(4000, b"r" * 123)),
        Echoes(close_payload(4000, b"r" * 123)),
    ),
    **{
        f"close code {code}": (close(close_payload(code)), Echoes(close_payload(code)))
        for code in (*range(1000, 1004), *range(1007, 1015), 3000, 3999, 4000, 4999)
    },
    **{
        f"close code {code} (a client may not send it)": (
            close(close_payload(code)),
            Closes(1002),
        )
        for code in (0, 999, 1004, 1005, 1006, 1015, 1016, 2000, 2999, 5000, 65535)
    },
    "a one-byte close payload": (close(b"\x03"), Closes(1002)),
    "a close reason that is not UTF-8": (close(close_payload(1000, b"\xff")), Closes(1007)),
    "a close, then more frames": (close(close_payload(1000)) + text(PING), Echoes(b"\x03\xe8")),
}


@pytest.fixture(scope="module")
def shared(tmp_path_factory: pytest.TempPathFactory) -> Iterator[ServerProcess]:
    folder = tmp_path_factory.mktemp("rfc6455") / "data"
    with running_server(folder, *TEST_FLAGS) as process:
        yield process


def _matches(got: tuple[int, bytes], want: tuple[int, bytes | dict[str, Any]]) -> bool:
    opcode, payload = got
    if opcode != want[0]:
        return False
    if isinstance(want[1], dict):
        message = json.loads(payload)
        return all(message.get(key) == value for key, value in want[1].items())
    return payload == want[1]


@pytest.mark.parametrize("row", sorted(ROWS))
def test_rfc6455_bytes_in_answer_out(shared: ServerProcess, row: str) -> None:
    sent, expected = ROWS[row]
    raw = RawSocket(shared.port, timeout=5)
    try:
        assert raw.status == 101
        raw.sock.sendall(sent)
        match expected:
            case Replies(frames=frames):
                got = [raw.read() for _ in frames]
                assert all(map(_matches, got, frames)), got
                raw.send(OP_CLOSE, close_payload(1000))  # still open: a clean goodbye
                assert raw.close_code() == 1000
            case Closes(code=code):
                assert raw.close_code() == code
            case Echoes(payload=payload):
                assert raw.close_frame() == payload
        assert raw.closed(within=3)  # and the server ends the connection
    finally:
        raw.close()
    assert "Traceback" not in shared.log()
