"""The store's and the wire's msgpack encoder (a packer kept per thread) gives exactly what
``msgpack.packb`` gives: in many threads at once, and after a message that failed."""

from __future__ import annotations

import threading

import msgpack
import pytest

from server.net.codec import Codec, MsgpackCodec
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
