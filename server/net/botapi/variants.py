"""Every Kibitz game over the Bot and Board API: a challenge's ``variant`` and its terms.

A challenge's ``variant`` is lichess's ``standard`` (chess; ``chess`` is taken too) or the
name of any game of the server's registry (``kibitz games``: ``xiangqi``, ``dark_chess``,
``banqi``, ...). Its other terms, beyond lichess's:

* ``fen``: the start position, for a game that has a ``fen`` option (chess, Dark Chess,
  XiangQi), checked by the game itself;
* ``seats``: how many seats, within the game's own bounds (default: its fewest);
* ``bots``: a strength of the server's bots for the game (:func:`server.bots.strengths`),
  seated in every seat the two players leave open. A game of more than two seats needs it.

The variant's JSON is lichess's ``{"key", "name", "short"}``: ``standard`` for chess, else
the game's name, its title and a short form of the title (their initials, when several
words) — derived from the game itself, no table kept beside the registry.
"""

from __future__ import annotations

import re
from collections.abc import Callable
from dataclasses import dataclass
from typing import Any

from ...engine import EngineError, Game, Registry, turn_rng
from .wire import BotApiError

STANDARD = "standard"
#: a variant's key as a client may send it: a game name (``dark_chess``), or ``standard``
KEY = re.compile(r"[A-Za-z][A-Za-z0-9_]{0,31}")


def variant_key(name: str) -> str:
    """lichess's key of the game ``name``: ``standard`` for chess, else the game's name."""
    return STANDARD if name == "chess" else name


def short_name(title: str) -> str:
    """A short form of a game's title: the title itself when one word (``XiangQi``), else
    its words' initials (``Dark Chess`` -> ``DC``, ``Hase und Igel`` -> ``HuI``)."""
    words = [w for w in re.split(r"[\s-]+", title) if w]
    return title if len(words) == 1 else "".join(w[0] for w in words)


def variant_json(game: Game[Any, Any]) -> dict[str, str]:
    """lichess's ``variant`` object of a game."""
    if game.name == "chess":
        return {"key": STANDARD, "name": "Standard", "short": "Std"}
    return {"key": game.name, "name": game.title, "short": short_name(game.title)}


def find_game(registry: Registry, fields: dict[str, str]) -> Game[Any, Any]:
    """The game a challenge's ``variant`` names (400 for any other word)."""
    key = fields.get("variant") or STANDARD
    name = "chess" if key in (STANDARD, "chess") else key
    if not KEY.fullmatch(key) or name not in registry:
        offered = ", ".join(variant_key(g.name) for g in registry)
        raise BotApiError(400, f"variant: {key[:40]!r} is not a game here (one of: {offered})")
    return registry.get(name)


@dataclass(frozen=True, slots=True)
class Terms:
    """What a challenge makes: the game, its options, its seats and the bots' strength for
    the seats the players leave open (None: no bots)."""

    game: str
    options: dict[str, Any]
    seats: int
    bots: str | None

    def to_json(self) -> dict[str, Any]:
        return {"game": self.game, "options": self.options, "seats": self.seats, "bots": self.bots}

    @classmethod
    def from_json(cls, data: dict[str, Any] | None) -> Terms:
        """A stored challenge's terms (one made before variants were offered: chess)."""
        if not data:
            return cls("chess", {}, 2, None)
        return cls(str(data["game"]), dict(data["options"]), int(data["seats"]), data["bots"])


def whole(fields: dict[str, str], key: str, low: int, high: int) -> int | None:
    value = fields.get(key)
    if value is None or value == "":
        return None
    try:
        number = float(value)
    except ValueError:
        raise BotApiError(400, f"{key}: a number from {low} to {high}") from None
    if not number.is_integer() or not low <= number <= high:
        raise BotApiError(400, f"{key}: a number from {low} to {high}")
    return int(number)


def seat_count(fields: dict[str, str], game: Game[Any, Any]) -> int:
    """A challenge's ``seats``: digits only, within the game's bounds (default its fewest)."""
    value = fields.get("seats") or str(game.min_seats)
    low, high = game.min_seats, game.max_seats
    if not re.fullmatch(r"[0-9]{1,2}", value) or not low <= int(value) <= high:
        raise BotApiError(400, f"seats: {variant_key(game.name)} has {low} to {high} seats")
    return int(value)


def start_options(game: Game[Any, Any], fen: str) -> dict[str, Any]:
    """The options of a game from the position ``fen`` ({} for its usual start): the game
    checks it, and makes its first state from it (400 when either refuses)."""
    if not fen:
        return {}
    if "fen" not in game.options:
        raise BotApiError(400, f"fen: {variant_key(game.name)} does not start from a position")
    try:
        options = game.check_options({"fen": fen})
        game.new(options, game.min_seats, turn_rng("fen", 0))
    except EngineError as exc:
        raise BotApiError(400, f"fen: {exc}") from None
    except Exception:  # a position the game's own parser chokes on
        raise BotApiError(400, f"fen: not a {game.title} position") from None
    return {"fen": fen}


def challenge_terms(
    registry: Registry,
    fields: dict[str, str],
    strengths: Callable[[str], list[str]],
    *,
    ai: bool = False,
) -> Terms:
    """A challenge's terms from its fields (``strengths(game)``: the server's bots' named
    strengths for a game; ``ai``: against the server's bots, which take every other seat,
    so no ``bots`` field). Raises 400 with nothing made."""
    game = find_game(registry, fields)
    options = start_options(game, fields.get("fen") or "")
    seats = seat_count(fields, game)
    bots = fields.get("bots") or None
    if ai:
        if bots is not None:
            raise BotApiError(400, "bots: the server's bots take every other seat here already")
        return Terms(game.name, options, seats, None)
    if bots is not None:
        offered = strengths(game.name)
        if bots not in offered:
            raise BotApiError(
                400, f"bots: one of {', '.join(offered) or 'none'} for {variant_key(game.name)}"
            )
        if seats == 2:
            raise BotApiError(400, "bots: a game of two seats has no seat left for a bot")
    elif seats > 2:
        raise BotApiError(
            400,
            f"seats: {variant_key(game.name)} with {seats} seats needs bots=LEVEL for the "
            f"{seats - 2} seats the two players leave open",
        )
    return Terms(game.name, options, seats, bots)
