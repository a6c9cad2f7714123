"""The frames the server writes itself are the frames websockets would write."""

from __future__ import annotations

import pytest
from websockets.frames import Frame, Opcode

from server.net.transport.connection import wire


@pytest.mark.parametrize("size", [0, 1, 125, 126, 127, 65535, 65536, 70000])
def test_wire_is_websockets_own_framing(size: int) -> None:
    binary = bytes(range(256)) * (size // 256) + bytes(size % 256)
    assert wire(binary) == Frame(Opcode.BINARY, binary).serialize(mask=False, extensions=[])
    text = ("é" * size)[: size // 2] + "x" * (size - size // 2)
    assert wire(text) == Frame(Opcode.TEXT, text.encode()).serialize(mask=False, extensions=[])


def test_a_wrong_length_field_is_caught() -> None:
    """The comparison can fail: a 126-byte payload needs the 16-bit length form."""
    data = b"x" * 126
    wrong = bytes((0x82, 126)) + data
    assert wire(data) != wrong
