"""lichess's names for Kibitz's things: game statuses, speeds and perfs, and the words of a
refused command.

A client written for lichess reads these: lichess-bot matches ``speed`` against its
``time_controls`` (``ultraBullet``, ``blitz``, ...), shows ``perf.name`` (``Blitz``), and
knows a refused move by lichess's own sentence ("Not your turn, or game already over").
The room's own messages name seats and versions ("seat 0 is not to move now"): inner words,
which are translated here, once, for every route.
"""

from __future__ import annotations

from collections.abc import Mapping
from typing import Any

from ...rooms.ratings import speed

#: lichess's status names for Kibitz's outcome reasons
STATUS = {
    "checkmate": "mate",
    "resignation": "resign",
    "stalemate": "stalemate",
    "timeout": "outoftime",
    "agreement": "draw",
    "insufficient_material": "draw",
    "fifty_moves": "draw",
    "repetition": "draw",
    "aborted": "aborted",
    "no_first_move": "aborted",
    "abandoned": "timeout",  # lichess's status when the win is claimed: the opponent left
}
COLORS = ("white", "black")
#: lichess's speed keys where Kibitz's differ (``server/rooms/ratings.py``)
SPEEDS = {"ultrabullet": "ultraBullet"}

NOT_YOUR_TURN = "Not your turn, or game already over"
#: lichess's sentence for a refused command, by the command and the room's error code
#: (``server/rooms/errors.py``); ``None``: any code
REFUSALS: dict[str, dict[str | None, str]] = {
    "move": {
        "not_your_turn": NOT_YOUR_TURN,
        "game_over": NOT_YOUR_TURN,
        "not_started": NOT_YOUR_TURN,
        "time_up": NOT_YOUR_TURN,
    },
    "resign": {None: "This game cannot be resigned"},
    "abort": {None: "This game can no longer be aborted"},
}
#: the same for any command, where lichess has no sentence of its own for it
ANY_COMMAND = {
    "game_over": "This game is already over",
    "not_started": "This game has not started",
    "not_your_turn": NOT_YOUR_TURN,
    "time_up": NOT_YOUR_TURN,
    "bad_token": "Not your game",
    "not_seated": "Not your game",
    "no_such_seat": "Not your game",
}


def status_of(update: Mapping[str, Any]) -> tuple[str, str | None]:
    """(lichess status, winner colour or None) of a room's update (or of any mapping with
    the room's ``status`` and ``outcome``)."""
    if update["status"] == "waiting":
        return "created", None
    if update["status"] != "over":
        return "started", None
    outcome = update.get("outcome") or {}
    reason = str(outcome.get("reason", ""))
    winner = outcome.get("winner")
    # an end by a game's own rules lichess has no word for: its ``variantEnd`` (chess's
    # others stay ``resign``, as lichess-bot has always read them)
    other_end = "resign" if update.get("game", "chess") == "chess" else "variantEnd"
    status = STATUS.get(reason, "draw" if winner is None else other_end)
    if winner is None and status == "timeout":  # claim-draw: a draw
        return "draw", None
    if status == "aborted":
        return status, None
    return status, COLORS[winner] if winner in (0, 1) else None


def lichess_speed(clock: Mapping[str, Any] | None) -> str:
    """lichess's speed key of a room's clock: ``blitz``, ``ultraBullet``, ..."""
    return speed_key(speed(clock))


def speed_key(pace: str) -> str:
    """lichess's key of one of Kibitz's speeds (``ultrabullet`` -> ``ultraBullet``)."""
    return SPEEDS.get(pace, pace)


def perf_name(pace: str) -> str:
    """lichess's name of a perf: ``Blitz``, ``UltraBullet``, ``Correspondence``."""
    key = speed_key(pace)
    return key[:1].upper() + key[1:]


def refusal(op: str, code: str, message: str) -> str:
    """What lichess says when the room refuses ``op`` with ``code`` (``message``: the
    room's own words, kept where lichess has none and they name no seat)."""
    words = REFUSALS.get(op, {})
    found = words.get(code, words.get(None))
    if found is not None:
        return found
    if code in ANY_COMMAND:
        return ANY_COMMAND[code]
    return message


def illegal_move(uci: str, fen: str | None) -> str:
    """lichess's sentence for a move that is not legal: ``No piece on e3``, or ``Piece on
    e2 cannot move to e5`` (``fen``: the position the seat sees, None if unknown)."""
    origin, target = uci[:2], uci[2:4]
    if fen is not None and piece_at(fen, origin) is None:
        return f"No piece on {origin}"
    return f"Piece on {origin} cannot move to {target}"


def piece_at(fen: str, square: str) -> str | None:
    """The piece letter on ``square`` (``e2``) of a FEN's board, or None."""
    rows = fen.split(" ", 1)[0].split("/")
    file, rank = ord(square[0]) - ord("a"), int(square[1])
    if len(rows) != 8 or not 0 <= file < 8 or not 1 <= rank <= 8:
        return None
    column = 0
    for c in rows[8 - rank]:
        if c.isdigit():
            column += int(c)
            continue
        if column == file:
            return c
        column += 1
    return None
