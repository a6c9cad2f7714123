"""The pipe's command encoding is the Redis protocol's (RESP arrays of bulk strings)."""

from __future__ import annotations

import pytest
from hypothesis import given
from hypothesis import strategies as st

from server.store.pipe import encode


def resp(args: tuple[object, ...]) -> bytes:
    """RESP written out from the protocol's description, one argument at a time."""
    out = b"*" + str(len(args)).encode() + b"\r\n"
    for arg in args:
        if isinstance(arg, bytes):
            data = arg
        elif isinstance(arg, str):
            data = arg.encode()
        else:
            data = repr(arg).encode()  # ints and floats as Redis reads them
        out += b"$" + str(len(data)).encode() + b"\r\n" + data + b"\r\n"
    return out


_arg = (
    st.binary()
    | st.text()
    | st.integers(min_value=-(2**70), max_value=2**70)
    | st.floats(allow_nan=False, allow_infinity=False)
)


@given(st.lists(_arg, min_size=1, max_size=12).map(tuple))
def test_encode_writes_resp(args: tuple[object, ...]) -> None:
    assert encode(args) == resp(args)


@pytest.mark.parametrize("bad", [True, None, [1], {"a": 1}, object()])
def test_encode_refuses_what_redis_cannot_take(bad: object) -> None:
    with pytest.raises(TypeError):
        encode(("SET", "k", bad))
