"""The JSON codec writes what the json module writes (orjson underneath)."""

from __future__ import annotations

import json
import math

import pytest
from hypothesis import given, settings
from hypothesis import strategies as st

from server.net.transport.codec import Codec


def reference(msg: object) -> str:
    return json.dumps(msg, separators=(",", ":"), ensure_ascii=False)


_scalars = (
    st.none()
    | st.booleans()
    | st.integers(min_value=-(2**63), max_value=2**64 - 1)
    | st.floats(allow_nan=False, allow_infinity=False)
    | st.text(alphabet=st.characters(exclude_categories=("Cs",)))  # no lone surrogates
)
_values = st.recursive(
    _scalars,
    lambda inner: (
        st.lists(inner)
        | st.dictionaries(st.text() | st.integers(-1000, 1000) | st.booleans() | st.none(), inner)
    ),
    max_leaves=40,
)


@settings(max_examples=400)
@given(_values)
def test_the_same_json_as_the_json_module(value: object) -> None:
    """The same value, always; the same text but for how a float's exponent is written."""
    ours = Codec().encode({"v": value})
    assert isinstance(ours, str)
    theirs = reference({"v": value})
    assert json.loads(ours) == json.loads(theirs)
    # orjson writes 1e-05 as 0.00001: an exponent on either side may be written the other way
    if not _has_float(value) or "e" not in ours.lower() + theirs.lower():
        assert ours == theirs


def _has_float(value: object) -> bool:
    if isinstance(value, float):
        return True
    if isinstance(value, list):
        return any(_has_float(v) for v in value)
    if isinstance(value, dict):
        return any(_has_float(k) or _has_float(v) for k, v in value.items())
    return False


def test_a_room_message_is_the_same_text() -> None:
    msg = {
        "type": "delta",
        "room": "r1",
        "you": 0,
        "version": 57,
        "base": 56,
        "events": [{"kind": "move", "seats": [1]}],
        "set": [
            [["view", "fen"], "8/8/8/8/8/8/8/K6k w - - 0 1"],
            [["at"], 1764157000.125],
            [["legal"], ["e2e4", "é"]],
            [["seats", 0], {"name": "Zoë", "kind": "person"}],
        ],
        "del": [["your_move"]],
    }
    assert Codec().encode(msg) == reference(msg)


@pytest.mark.parametrize("value", [2**70, -(2**70)])
def test_what_orjson_refuses_the_json_module_writes(value: int) -> None:
    assert Codec().encode({"n": value}) == reference({"n": value})


def test_a_lone_surrogate_is_refused_when_sent_as_before() -> None:
    text = Codec().encode({"s": "\ud800"})  # the json module writes it; UTF-8 cannot
    with pytest.raises(UnicodeEncodeError):
        text.encode()  # type: ignore[union-attr]


def test_nan_is_written_as_null() -> None:
    assert Codec().encode({"x": math.nan}) == '{"x":null}'
