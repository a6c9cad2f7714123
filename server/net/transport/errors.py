"""Wire errors: every refusal becomes ``{"type": "error", "code", "message"}`` here, once.

Codes are stable; clients branch on them. Client faults keep the connection open; an
unexpected failure inside the server answers ``internal`` with no details (they may be
security-sensitive) and is logged.

    ProtocolError          a frame the protocol cannot take
      codes: bad_json, unknown_type, bad_request, too_large, rate_limited,
             no_such_game, no_such_room, unsupported_protocol, unavailable,
             outcome_unknown, not_replicated
    RoomError (rooms)      a command the room refuses — see server/rooms/errors.py
    EngineError (engine)   bad_options, bad_move, illegal_move
"""

from __future__ import annotations

from typing import Any

from ...engine import EngineError
from ...rooms.errors import RoomError


class ProtocolError(Exception):
    """A client fault found by the net layer; ``code`` is the wire code."""

    def __init__(self, code: str, message: str) -> None:
        super().__init__(message)
        self.code = code
        self.message = message


def error_message(exc: BaseException, request_id: Any = None) -> dict[str, Any]:
    """The wire form of an error (``internal`` for anything unexpected)."""
    if isinstance(exc, ProtocolError):
        code, text = exc.code, exc.message
    elif isinstance(exc, RoomError | EngineError):
        code, text = exc.code, str(exc)
    else:
        code, text = "internal", "internal server error"
    msg: dict[str, Any] = {"type": "error", "code": code, "message": text}
    if request_id is not None:
        msg["id"] = request_id
    return msg
