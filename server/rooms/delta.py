"""Deltas: what changed between two renderings of a room for one recipient.

A live recipient already holds the room as it last saw it (the snapshot part of its last
``update`` or the result of its last ``delta``). Rather than the whole snapshot again, it
is sent the difference, as two lists of JSON paths:

* ``del`` — paths to remove: ``[k1, k2, ..., key]``;
* ``set`` — ``[path, value]`` pairs: the value at ``path`` becomes ``value`` (the containers
  on the way exist already).

A path step is a dict key (a string) or a list index (an integer). Dicts are compared key by
key; lists of the same length (and at least :data:`MIN_LIST` long) element by element, so a
board drawn as a list of 64 squares sends the squares that changed; anything else that
changed is set whole. Applied to the old snapshot, the delta gives the new one exactly. The
server only makes deltas; the clients apply them: :func:`server.sdk.apply_delta` (the one
Python apply, which ``tests/rooms/test_delta.py`` applies every delta with) and
``applyDelta`` in ``web/js/net.js``.

The comparison runs compiled (``_delta.c``, built by ``pip install`` where a C compiler is
found) or, without it or with ``KIBITZ_PURE_PYTHON=1``, as the Python below (its reference:
the tests hold the two to the same output).

The delta is a pure function of the two renderings, which are built only from
``game.view`` for that recipient: two worlds a recipient cannot tell apart render the same
snapshots and so the same deltas (the no-leak harness checks the bytes).
"""

from __future__ import annotations

from collections.abc import Callable, Sequence
from typing import Any

from ..engine.compiled import wanted

Path = list[str | int]
#: top-level parts already compared in this round of renderings: ``(key, id(old), id(new))``
#: -> the sets and dels they gave (objects shared by several recipients' snapshots)
Memo = dict[tuple[str, int, int], tuple[list[list[Any]], list[Path]]]

#: shorter lists are set whole (an index-by-index patch of a short list saves nothing)
MIN_LIST = 8

_compiled: Callable[..., None] | None
try:
    from ._delta import diff_keys as _compiled
except ImportError:  # built without a C compiler
    _compiled = None
if not wanted():
    _compiled = None
#: whether the compiled comparison is in use
COMPILED = _compiled is not None


def diff(old: Any, new: Any) -> tuple[list[list[Any]], list[Path]]:
    """``(sets, dels)`` turning ``old`` into ``new`` (both JSON-like dicts)."""
    sets: list[list[Any]] = []
    dels: list[Path] = []
    if not _same(old, new):
        _diff(old, new, [], sets, dels)
    return sets, dels


def diff_keys(
    old: dict[str, Any], new: dict[str, Any], keys: Sequence[str], memo: Memo | None = None
) -> tuple[list[list[Any]], list[Path]]:
    """:func:`diff` of two dicts over ``keys`` only (a key in neither is skipped; one that
    only ``old`` has is deleted).

    With a ``memo`` (one per round of renderings, while every object compared lives), a
    part whose old and new values are the very objects another recipient's snapshots held
    is not compared again: its result is reused (the paths are the same)."""
    sets: list[list[Any]] = []
    dels: list[Path] = []
    if _compiled is not None:
        _compiled(old, new, keys, [], sets, dels, memo)
    else:
        _diff_keys(old, new, keys, [], sets, dels, memo)
    return sets, dels


def python_diff_keys(
    old: dict[str, Any], new: dict[str, Any], keys: Sequence[str], memo: Memo | None = None
) -> tuple[list[list[Any]], list[Path]]:
    """:func:`diff_keys` in Python, whether or not the compiled one is there (the tests'
    reference)."""
    sets: list[list[Any]] = []
    dels: list[Path] = []
    _diff_keys(old, new, keys, [], sets, dels, memo)
    return sets, dels


def _diff_keys(
    old: dict[str, Any],
    new: dict[str, Any],
    keys: Any,
    path: Path,
    sets: list[list[Any]],
    dels: list[Path],
    memo: Memo | None,
) -> None:
    """The changes of two dicts over ``keys``, under ``path`` (``memo``: top level only)."""
    for key in keys:
        if key not in new:
            if key in old:
                dels.append([*path, key])
            continue
        value = new[key]
        if key not in old:
            sets.append([[*path, key], value])
            continue
        before = old[key]
        if before is value or (type(before) is type(value) and before == value):
            continue
        if not _nested(before, value):
            sets.append([[*path, key], value])
        elif memo is None:
            _diff(before, value, [*path, key], sets, dels)
        else:
            mark = (key, id(before), id(value))
            known = memo.get(mark)
            if known is None:
                known = memo[mark] = ([], [])
                _diff(before, value, [key], *known)
            sets.extend(known[0])
            dels.extend(known[1])


def _same(a: Any, b: Any) -> bool:
    # JSON tells true from 1 and 1.0 from 1; Python's == does not
    return a is b or (type(a) is type(b) and a == b)


def _nested(a: Any, b: Any) -> bool:
    """Whether a change from ``a`` to ``b`` is patched inside rather than set whole."""
    ta = type(a)
    if ta is not type(b):
        return False
    return ta is dict or (ta is list and len(a) == len(b) >= MIN_LIST)


def _diff(old: Any, new: Any, path: Path, sets: list[list[Any]], dels: list[Path]) -> None:
    if type(old) is dict and type(new) is dict:
        _diff_keys(old, new, new, path, sets, dels, None)
        for key in old:
            if key not in new:
                dels.append([*path, key])
    elif _nested(old, new):
        for i, (a, b) in enumerate(zip(old, new, strict=True)):
            if not _same(a, b):
                if _nested(a, b):
                    _diff(a, b, [*path, i], sets, dels)
                else:
                    sets.append([[*path, i], b])
    else:
        sets.append([path, new])


__all__ = ["COMPILED", "MIN_LIST", "Memo", "diff", "diff_keys", "python_diff_keys"]
