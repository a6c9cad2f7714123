"""Tournament errors: a request the tournament refuses. Nothing changes when one is raised.

One class, with the stable wire ``code`` the protocol sends (the net maps it as it maps a
room's errors) and a message for people::

    TournamentError(code, message)
        bad_request   the request is malformed or breaks a rule of the spec
        forbidden     only the creator may do this (cancel)
        not_open      the tournament does not take this now (started, finished, cancelled)
        full          max_players reached
        not_joined    the player is not (or no longer) in the tournament
        already_joined
        not_found     no such game in this tournament
        game_over     the game has ended (berserk after the result)
"""

from __future__ import annotations

#: every code a :class:`TournamentError` may carry
CODES = frozenset(
    {
        "bad_request",
        "forbidden",
        "not_open",
        "full",
        "not_joined",
        "already_joined",
        "not_found",
        "game_over",
    }
)


class TournamentError(Exception):
    """A refused tournament request: ``code`` for the wire, ``message`` for people."""

    def __init__(self, code: str, message: str) -> None:
        if code not in CODES:
            raise ValueError(f"unknown tournament error code {code!r}")
        super().__init__(message)
        self.code = code
        self.message = message

    def __repr__(self) -> str:
        return f"TournamentError({self.code!r}, {self.message!r})"
