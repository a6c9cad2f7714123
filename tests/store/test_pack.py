"""The store's and the wire's msgpack encoder (a packer kept per thread) gives exactly what
``msgpack.packb`` gives: in many threads at once, and after a message that failed."""

from __future__ import annotations

import threading

import msgpack
import pytest
from hypothesis import HealthCheck, given, settings
from hypothesis import strategies as st

from server.net.transport.codec import Codec, MsgpackCodec
from server.store.log import pack


def message(i: int) -> dict[str, object]:
    return {"type": "delta", "version": i, "set": [[["view", "fen"], f"{i}" * (i % 50)]]}


def test_the_same_bytes_as_packb_in_many_threads() -> None:
    wrong: list[int] = []

    def work(offset: int) -> None:
        for i in range(offset, offset + 2000):
            if pack(message(i)) != msgpack.packb(message(i), use_bin_type=True):
                wrong.append(i)

    threads = [threading.Thread(target=work, args=(k * 10_000,)) for k in range(4)]
    for t in threads:
        t.start()
    for t in threads:
        t.join()
    assert wrong == []


def test_a_failed_message_leaves_nothing_behind() -> None:
    with pytest.raises(TypeError):
        pack({"a": [1, object()]})
    assert pack({"b": 1}) == msgpack.packb({"b": 1}, use_bin_type=True)
    assert MsgpackCodec().decode(MsgpackCodec().encode({"type": "x", "n": 1})) == {
        "type": "x",
        "n": 1,
    }
    assert Codec().encode({"type": "é", "n": [1, 2]}) == '{"type":"é","n":[1,2]}'


_scalars = (
    st.none()
    | st.booleans()
    | st.integers(min_value=-(2**63), max_value=2**64 - 1)
    | st.floats(allow_nan=False)
    | st.text()
    | st.binary()
)
_values = st.recursive(
    _scalars,
    lambda inner: (
        st.lists(inner)
        | st.tuples(inner, inner)
        | st.dictionaries(st.text() | st.integers(-1000, 1000) | st.booleans() | st.none(), inner)
    ),
    max_leaves=40,
)


@settings(max_examples=400, suppress_health_check=[HealthCheck.too_slow])
@given(_values)
def test_the_same_bytes_as_msgpack_for_any_message(value: object) -> None:
    """ormsgpack writes what msgpack writes: every type a message or log record holds, ints
    at the edges of each width, non-string keys (views keyed by seat)."""
    assert pack(value) == msgpack.packb(value, use_bin_type=True)


@pytest.mark.parametrize("bad", ["\ud800", 2**64, -(2**63) - 1, {"a": object()}])
def test_what_ormsgpack_refuses_msgpack_refuses_as_before(bad: object) -> None:
    """The fallback: a value ormsgpack refuses fails with msgpack's own error."""
    with pytest.raises(Exception) as ours:
        pack(bad)
    with pytest.raises(Exception) as theirs:
        msgpack.packb(bad, use_bin_type=True)
    assert type(ours.value) is type(theirs.value)
