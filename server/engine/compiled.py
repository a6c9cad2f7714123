"""The compiled chess core (``_chess_moves.c``), when it was built and is not switched off.

``pip install`` builds it where a C compiler is found (``setup.py``; the extension is
optional). :mod:`.chess_moves` and :mod:`.chess_fen` use it for standard boards and fall back
to python-chess — the same answers, slower — when it is missing or when
``KIBITZ_PURE_PYTHON=1`` is set (to compare the two, or to rule the compiled part out; CI
runs the chess tests once that way, ``.ci/run``).
"""

from __future__ import annotations

import os
from collections.abc import Callable
from typing import Any


def wanted() -> bool:
    """Whether compiled parts may be used (``KIBITZ_PURE_PYTHON`` unset or 0); the rooms'
    compiled delta (:mod:`server.rooms.delta`) asks too."""
    return os.environ.get("KIBITZ_PURE_PYTHON", "") in ("", "0")


gen: Callable[..., list[int] | None] | None
fen: Callable[..., str] | None
play: Callable[..., tuple[Any, ...]] | None
status: Callable[..., int] | None
san: Callable[..., str] | None
texts: Callable[[list[int]], list[str]] | None
try:
    from ._chess_moves import fen, gen, play, san, status, texts
except ImportError:  # built without a C compiler
    gen = fen = play = status = san = texts = None

if not wanted():
    gen = fen = play = status = san = texts = None

#: this module's compiled functions (set to None, each is done in Python: what
#: ``KIBITZ_PURE_PYTHON=1`` does from the start; the bench's anchor and the tests do it later)
NAMES = ("gen", "fen", "play", "status", "san", "texts")

#: whether the compiled core is in use (``kibitz bench --engine`` reports it)
COMPILED = gen is not None

__all__ = ["COMPILED", "NAMES", "fen", "gen", "play", "san", "status", "texts", "wanted"]
