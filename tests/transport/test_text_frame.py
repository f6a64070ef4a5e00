"""The one frame the server writes itself (a text message), read back by ``websockets``.

Everything else on the wire, both ways, is the ``websockets`` protocol core's: only the
hot path's text frame is written by hand, so it is checked against the core's parser at
every length class (7-bit, 16-bit and 64-bit).
"""

from __future__ import annotations

from hypothesis import given
from hypothesis import strategies as st
from websockets.frames import Opcode
from websockets.protocol import Protocol, Side

from snakes.server.transport.gamesocket import text_frame


@given(st.binary(max_size=70_000) | st.sampled_from([b"", b"x" * 125, b"x" * 126, b"x" * 65536]))
def test_what_we_write_the_core_reads_as_one_whole_text_frame(payload: bytes) -> None:
    client = Protocol(Side.CLIENT, max_size=None)
    client.receive_data(text_frame(payload))
    [frame] = client.events_received()
    assert (frame.opcode, frame.fin, frame.data) == (Opcode.TEXT, True, payload)
    assert client.data_to_send() == []  # nothing to complain about
