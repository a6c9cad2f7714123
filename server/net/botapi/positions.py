"""A game's moves and position as the Bot API's streams write them, for every game.

Everything here is read from one seat's rendering (its ``view``, ``legal``, ``to_act``,
``sealed``, ``outcome``: ``server/rooms/render.py``), never from the true state:

* ``moves``: one text per turn, as the seat's own view of that turn shows its move
  (``view["last_move"]``), inner spaces written ``_`` (``flip a1`` -> ``flip_a1``); a turn
  of simultaneous moves (``view["last_moves"]``, Apocalypse) is its seats' moves in seat
  order joined by ``,``; a turn whose move the seat's view does not show (the opponent's
  move in Dark Chess) is :data:`HIDDEN`, ``?``. No game's move text holds ``_``, ``,`` or
  ``?`` (``tests/net/test_bot_api_variants.py``).
* the Kibitz fields of ``gameState``: ``legalMoves``, ``toAct``, ``view``, ``fen`` and, with
  more than two seats, ``ranks`` and ``winners``.
"""

from __future__ import annotations

import re
from collections.abc import Mapping
from typing import Any
from urllib.parse import unquote

from ...engine import Game
from .wire import BotApiError

#: a move the seat's view does not show
HIDDEN = "?"
#: what stands for a space inside one move's text in ``moves`` and in a move's URL
SPACE = "_"
#: joins the moves of one simultaneous turn
JOIN = ","
UCI = re.compile(r"[a-h][1-8][a-h][1-8][qrbn]?")
#: a move's text as a route takes it (after ``_`` became a space): the characters of every
#: game's moves, single spaces between words
MOVE = re.compile(r"[A-Za-z0-9=@*+-]{1,24}( [A-Za-z0-9=@*+-]{1,24}){0,3}")
#: the games whose moves are UCI, and whose refusals lichess's words tell (``No piece on e3``)
UCI_GAMES = ("chess", "dark_chess")


def wire_move(text: str) -> str:
    """A move's text as ``moves`` writes it: its spaces as ``_``."""
    return text.replace(" ", SPACE)


def turn_text(view: Mapping[str, Any]) -> str:
    """The move of the turn that led to ``view``, as that view shows it."""
    last = view.get("last_move")
    if isinstance(last, str) and last:
        return wire_move(last)
    many = view.get("last_moves")
    if isinstance(many, Mapping) and many:
        return JOIN.join(wire_move(str(many[k])) for k in sorted(many, key=int))
    return HIDDEN


def read_move(game: str, raw: str) -> str:
    """The move text a move route was given (URL-encoded; ``_`` for a space), whole-string
    checked: UCI for chess and Dark Chess (lichess's words), the game's characters else."""
    text = unquote(raw).replace(SPACE, " ")
    if game in UCI_GAMES:
        if not UCI.fullmatch(text):
            raise BotApiError(400, f"Invalid UCI move: {raw[:10]!r}")
    elif not MOVE.fullmatch(text):
        raise BotApiError(400, f"Invalid move: {raw[:30]!r}")
    return text


def initial_fen(game: Game[Any, Any], options: Mapping[str, Any] | None) -> str:
    """gameFull's ``initialFen``: ``startpos``, or the position the game began from."""
    option = game.options.get("fen")
    fen = (options or {}).get("fen")
    if option is None or not isinstance(fen, str) or fen == option.default:
        return "startpos"
    return fen


def seat_fields(update: Mapping[str, Any]) -> dict[str, Any]:
    """gameState's Kibitz fields, from one seat's rendering ``update``."""
    view = update.get("view") or {}
    sealed = set(update.get("sealed") or [])
    out: dict[str, Any] = {
        "legalMoves": list(update.get("legal") or []),
        "toAct": [s for s in update.get("to_act") or [] if s not in sealed],
        "view": view,
    }
    fen = view.get("fen")
    if isinstance(fen, str):
        out["fen"] = fen
    outcome = update.get("outcome")
    if len(update.get("seats") or []) > 2 and outcome:
        ranks = list(outcome.get("ranks") or [])
        out["ranks"] = ranks
        out["winners"] = [s for s, rank in enumerate(ranks) if rank == 1]
    return out
