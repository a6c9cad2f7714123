"""Games over the Bot and Board API with the server's own bots in their open seats.

``POST /api/challenge/ai`` seats Kibitz's bots in every seat but the caller's; a challenge
with ``bots=LEVEL`` (:mod:`.variants`), once accepted, seats them in every seat its two
players leave open. Either game is casual, and an ordinary room of the hub.
"""

from __future__ import annotations

import random
from typing import Any, Protocol

from ...rooms.policy import Policy
from ..node.hub import Hub
from .tokens import Caller
from .variants import Terms, challenge_terms, variant_json, whole
from .wire import BotApiError
from .words import lichess_speed


class Seating(Protocol):
    """What seats a game here: :class:`.challenges.Challenges`."""

    hub: Hub

    def bot_strengths(self, game: str) -> list[str]: ...

    async def started(self, room_id: str, seats: dict[str, dict[str, Any]]) -> None: ...


async def with_bots(
    ch: Seating, challenge: dict[str, Any], terms: Terms, order: list[dict[str, Any]]
) -> None:
    """An accepted challenge whose open seats the server's bots take: a casual room, the
    two players in seats 0 and 1 (by colour), a bot of ``terms.bots`` in each other."""
    if terms.bots not in ch.bot_strengths(terms.game):  # the server stopped its bots
        raise BotApiError(400, f"bots: {terms.bots} bots are not offered now")
    seats: dict[str, dict[str, Any]] = {}
    sit: list[tuple[str, dict[str, Any]]] = []
    for seat, p in enumerate(order):
        token = ch.hub.make_secret(24)
        seats[p["user"].lower()] = {"seat": seat, "token": token}
        who = {"name": p["name"], "user": p["user"]}
        sit.append(("take_seat", {"seat": seat, "token": token, **who}))
    name = f"{terms.bots.capitalize()} bot"
    for seat in range(len(order), terms.seats):
        sit.append(("add_bot", {"seat": seat, "bot": terms.bots, "name": name}))
    summary = await ch.hub.create(
        terms.game,
        terms.options,
        terms.seats,
        challenge["settings"],
        rated=None,
        sit=sit,
        room_id=challenge["id"],
    )
    await ch.started(summary["room"], seats)


async def against_ai(
    ch: Seating,
    caller: Caller,
    fields: dict[str, str],
    strengths: list[str],
    title: Any,
    *,
    room_id: str | None = None,
) -> dict[str, Any]:
    """lichess's ``POST /api/challenge/ai``: a casual game at once against Kibitz's own
    bots, in every seat but the caller's (``variant``: any game, ``fen``, ``seats``:
    :func:`.variants.challenge_terms`; ``level`` 1-8 spread over ``strengths``, the
    game's, weakest first; ``title(strength)``: a bot seat's name; ``room_id``: the
    game's id, when drawn already)."""
    caller.need("challenge:write" if not caller.bot else "bot:play")
    level = whole(fields, "level", 1, 8) or 1
    limit = whole(fields, "clock.limit", 0, 10800)
    increment = whole(fields, "clock.increment", 0, 180)
    if (limit is None) != (increment is None):
        raise BotApiError(400, "clock.limit and clock.increment go together")
    terms = challenge_terms(ch.hub.registry, fields, ch.bot_strengths, ai=True)
    color = fields.get("color", "random") or "random"
    if color not in ("random", "white", "black"):
        raise BotApiError(400, "color: random, white or black")
    if not strengths:
        raise BotApiError(400, "this server runs no bots")
    clock = None if limit is None else {"type": "fischer", "base": limit, "increment": increment}
    settings: dict[str, Any] = {"undo": False} | ({"clock": clock} if clock else {})
    try:
        Policy.parse(settings, ch.hub.registry.get(terms.game))
    except Exception as exc:
        raise BotApiError(400, f"clock: {exc}") from None
    strength = strengths[(level - 1) * len(strengths) // 8]
    name = title(strength)  # may refuse (an engine with no place): before any change
    seat = ("white", "black").index(color) if color != "random" else random.randrange(2)
    token = ch.hub.make_secret(24)
    sit: list[tuple[str, dict[str, Any]]] = [
        ("take_seat", {"seat": seat, "token": token, "name": caller.name, "user": caller.name}),
    ]
    for other in range(terms.seats):
        if other != seat:
            sit.append(("add_bot", {"seat": other, "bot": strength, "name": name}))
    summary = await ch.hub.create(
        terms.game, terms.options, terms.seats, settings, rated=None, sit=sit, room_id=room_id
    )
    room_id = summary["room"]
    seats = {caller.id: {"seat": seat, "token": token}}
    await ch.started(room_id, seats)
    return {
        "id": room_id,
        "variant": variant_json(ch.hub.registry.get(terms.game)),
        "speed": lichess_speed(clock),
        "rated": False,
        "source": "ai",
        "status": {"name": "started"},
        "player": ("white", "black")[seat],
        "level": level,
    }
