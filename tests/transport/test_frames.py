"""The frame codec against the ``websockets`` package's own framing (RFC 6455).

What a conforming client writes, split into pieces of any size, reads back as the same
frames; what we write, ``websockets`` reads as the frames we meant. Frames a server must
refuse are refused with the RFC's codes, and an oversized one before its payload is in.
"""

from __future__ import annotations

import pytest
from hypothesis import given
from hypothesis import strategies as st
from websockets.frames import Frame, Opcode

from snakes.server.transport.frames import (
    CLOSE_INVALID_TEXT,
    CLOSE_NO_STATUS,
    CLOSE_PROTOCOL_ERROR,
    CLOSE_TOO_LARGE,
    OP_CLOSE,
    OP_PING,
    OP_TEXT,
    FrameError,
    FrameReader,
    close_code,
    close_frame,
    frame,
    text_frame,
)

MAX = 4096

data_frames = st.builds(
    lambda opcode, fin, payload: Frame(opcode, payload, fin=fin),
    st.sampled_from([Opcode.TEXT, Opcode.BINARY, Opcode.CONT]),
    st.booleans(),
    st.binary(max_size=MAX),
)
control_frames = st.builds(
    Frame,
    st.sampled_from([Opcode.PING, Opcode.PONG]),
    st.binary(max_size=125),
)


def _client_bytes(frames: list[Frame]) -> bytes:
    return b"".join(f.serialize(mask=True) for f in frames)


def _split(data: bytes, cuts: list[int]) -> list[bytes]:
    points = sorted({min(c, len(data)) for c in cuts})
    pieces, start = [], 0
    for point in [*points, len(data)]:
        pieces.append(data[start:point])
        start = point
    return pieces


@given(st.lists(data_frames | control_frames, max_size=12), st.lists(st.integers(0, 60_000)))
def test_a_clients_frames_read_back_whole_however_they_are_cut(
    frames: list[Frame], cuts: list[int]
) -> None:
    reader = FrameReader(MAX)
    read = []
    for piece in _split(_client_bytes(frames), cuts):
        read += reader.feed(piece)
    assert read == [(f.opcode.value, f.fin, f.data) for f in frames]
    assert reader.buffered == 0


@given(st.sampled_from([Opcode.TEXT, Opcode.PING, Opcode.CLOSE]), st.binary(max_size=70_000))
def test_what_we_write_websockets_reads(opcode: Opcode, payload: bytes) -> None:
    if opcode is not Opcode.TEXT:
        payload = payload[:125]
    if opcode is Opcode.CLOSE:
        payload = close_frame(1000, "bye")[2:]
    data = frame(opcode.value, payload)
    position = 0

    def read_exact(n: int):  # type: ignore[no-untyped-def]
        nonlocal position
        chunk = data[position : position + n]
        position += n
        return chunk
        yield  # a generator, as websockets' parser wants

    parser = Frame.parse(read_exact, mask=False)
    try:
        next(parser)
    except StopIteration as done:
        parsed = done.value
    assert (parsed.opcode, parsed.fin, parsed.data) == (opcode, True, payload)
    assert position == len(data)


def test_an_oversized_frame_is_refused_from_its_header_alone() -> None:
    whole = Frame(Opcode.TEXT, b"x" * (MAX + 1)).serialize(mask=True)
    with pytest.raises(FrameError) as refused:
        FrameReader(MAX).feed(whole[:8])  # header and mask only: no payload read yet
    assert refused.value.code == CLOSE_TOO_LARGE


@pytest.mark.parametrize(
    ("raw", "code"),
    [
        (Frame(Opcode.TEXT, b"hi").serialize(mask=False), CLOSE_PROTOCOL_ERROR),  # unmasked
        (bytes([0x81 | 0x40, 0x80]) + b"abcd", CLOSE_PROTOCOL_ERROR),  # a reserved bit
        (bytes([0x83, 0x80]) + b"abcd", CLOSE_PROTOCOL_ERROR),  # opcode 3 is reserved
        (bytes([0x09, 0x80]) + b"abcd", CLOSE_PROTOCOL_ERROR),  # a fragmented ping
        (bytes([0x89, 0xFE, 0, 126]) + b"abcd", CLOSE_PROTOCOL_ERROR),  # a 126-byte ping
    ],
    ids=["unmasked", "reserved-bit", "reserved-opcode", "fragmented-ping", "long-ping"],
)
def test_frames_a_server_must_refuse(raw: bytes, code: int) -> None:
    with pytest.raises(FrameError) as refused:
        FrameReader(MAX).feed(raw)
    assert refused.value.code == code


def test_close_codes_read_and_written() -> None:
    assert close_code(b"") == (CLOSE_NO_STATUS, "")
    assert close_code(close_frame(4321, "later")[2:]) == (4321, "later")
    for bad in (b"\x03", (1005).to_bytes(2, "big"), (999).to_bytes(2, "big")):
        with pytest.raises(FrameError) as refused:
            close_code(bad)
        assert refused.value.code == CLOSE_PROTOCOL_ERROR
    with pytest.raises(FrameError) as refused:
        close_code((1000).to_bytes(2, "big") + b"\xff")
    assert refused.value.code == CLOSE_INVALID_TEXT
    assert len(close_frame(1008, "x" * 500)) == 2 + 125  # a control frame's limit


def test_text_and_control_frames_have_their_opcodes() -> None:
    assert text_frame(b"{}")[0] == 0x80 | OP_TEXT
    assert frame(OP_PING, b"")[0] == 0x80 | OP_PING
    assert close_frame(1000)[0] == 0x80 | OP_CLOSE
