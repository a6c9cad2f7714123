"""A state's snapshot derived from its values: ``encode_state`` / ``decode_state`` written once.

A game's state is a frozen dataclass of plain values. Its snapshot is a JSON object with one
key a field, in the fields' order (:data:`dataclasses.fields`, leaving out those with
``compare=False``: caches), each value written as follows:

* a field the game names in its ``codecs`` (``{name: (encode, decode)}``) by those two
  functions: a board as its text layout, a colour by its name;
* ``last_move`` as its text (``None`` before the first move), read back by the game's move
  class (``from_text``);
* a tuple as a list, read back as a tuple of str (position keys);
* anything else (int, str, bool, None) as it is, read back by the type of the field's
  default (a field without a default: by its annotation, ``int`` or else str).

Reading (:func:`decode`) takes a snapshot or a view of a game with nothing hidden: a key
missing at the top is looked up in the view's ``counters`` (where views show the draw
counters, :func:`server.engine.draws.counters`), then falls back to the field's default
(snapshots older than the field).
"""

from __future__ import annotations

from collections.abc import Callable, Mapping, Sequence
from dataclasses import MISSING, fields
from typing import Any

Json = dict[str, Any]
#: how one field is written and read back
Codec = tuple[Callable[[Any], Any], Callable[[Any], Any]]


def encode(state: Any, codecs: Mapping[str, Codec], first: Sequence[str] = ()) -> Json:
    """The snapshot of ``state``; the fields named in ``first`` lead, in that order."""
    names = [f.name for f in fields(state) if f.compare]
    out: Json = {}
    for name in (*first, *(n for n in names if n not in first)):
        value = getattr(state, name)
        if name in codecs:
            out[name] = codecs[name][0](value)
        elif name == "last_move":
            out[name] = None if value is None else str(value)
        elif isinstance(value, tuple):
            out[name] = list(value)
        else:
            out[name] = value
    return out


def decode(
    cls: Callable[..., Any], data: Mapping[str, Any], codecs: Mapping[str, Codec], move: Any
) -> Any:
    """The state of class ``cls`` that ``data`` (a snapshot or a view) holds; ``move`` is the
    move class that reads ``last_move``."""
    counters = data.get("counters") or {}
    kwargs: dict[str, Any] = {}
    for f in fields(cls):  # type: ignore[arg-type]
        if not f.compare:
            continue
        name = f.name
        if name in data:
            value = data[name]
        elif name in counters:
            value = counters[name]
        elif f.default is not MISSING:
            continue
        else:
            raise KeyError(name)
        like = f.default if f.default is not MISSING else _LIKE.get(str(f.type), "")
        kwargs[name] = _read(name, value, like, codecs, move)
    return cls(**kwargs)


#: a value like the field's, for a field without a default, by its annotation
_LIKE: dict[str, Any] = {"int": 0, "Seat": 0, "bool": False}


def _read(name: str, value: Any, default: Any, codecs: Mapping[str, Codec], move: Any) -> Any:
    if name in codecs:
        return codecs[name][1](value)
    if name == "last_move":
        return None if value is None else move.from_text(str(value))
    if isinstance(default, tuple):
        return tuple(str(v) for v in value)
    if isinstance(default, bool):
        return bool(value)
    if isinstance(default, int):
        return int(value)
    return str(value)
