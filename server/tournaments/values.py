"""The values a tournament is made of: who entered (:class:`Entrant`) and what happened
(:class:`TournamentEvent`, the log's entries, plain JSON both ways)."""

from __future__ import annotations

import re
from collections.abc import Mapping
from dataclasses import dataclass
from typing import Any

from ..rooms.values import Event
from .errors import TournamentError

Json = dict[str, Any]

#: a bot entrant's key: ``bot:<level>:<n>``
BOT_KEY = re.compile(r"bot:([a-z0-9_]{1,20}):([0-9]{1,6})")
#: what a player key may be (an account ``u:Name``, a guest's session key, a bot's key)
KEY = re.compile(r"[A-Za-z0-9_:.\-]{1,80}")
NAME_MAX = 40


def public_key(key: str) -> bool:
    """A key that may be shown: an account's (``u:...``) or a bot's; a guest's never is."""
    return key.startswith("u:") or BOT_KEY.fullmatch(key) is not None


@dataclass(frozen=True, slots=True)
class Entrant:
    """One player of a tournament. ``key``: ``"u:Ada"``, a guest's session key, or
    ``"bot:<level>:<n>"``; ``bot``: the level of a bot entrant (``None`` for people)."""

    key: str
    name: str
    rating: float
    bot: str | None = None

    def __post_init__(self) -> None:
        if not isinstance(self.key, str) or not KEY.fullmatch(self.key):
            raise TournamentError("bad_request", "a player key is 1-80 letters, digits, _:.-")
        if not isinstance(self.name, str) or not 1 <= len(self.name) <= NAME_MAX:
            raise TournamentError("bad_request", f"a player name is 1 to {NAME_MAX} characters")
        if not self.name.isprintable() or self.name != self.name.strip():
            raise TournamentError("bad_request", "a player name is printable, without edge spaces")
        if isinstance(self.rating, bool) or not isinstance(self.rating, int | float):
            raise TournamentError("bad_request", "a rating is a number")
        bot = BOT_KEY.fullmatch(self.key)
        if (bot is None) != (self.bot is None) or (bot and bot.group(1) != self.bot):
            raise TournamentError("bad_request", "a bot's key is bot:<level>:<n>, with its level")

    def to_json(self) -> Json:
        return {"key": self.key, "name": self.name, "rating": self.rating, "bot": self.bot}

    @classmethod
    def from_json(cls, d: Mapping[str, Any]) -> Entrant:
        return cls(str(d["key"]), str(d["name"]), float(d["rating"]), d.get("bot"))


@dataclass(frozen=True, slots=True)
class TournamentEvent(Event):
    """One entry of a tournament's log: a room's :class:`~server.rooms.values.Event` (the
    same record both ways) of its own kinds: ``created``, ``joined``, ``withdrew``,
    ``returned``, ``cancelled``, ``started``, ``round``, ``paired``, ``berserk``,
    ``result``, ``finished``."""
