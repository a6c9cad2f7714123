"""Helpers of the Bot API's tests of every game: a registry of short games, challenges in
plain HTTP, game streams read line by line, and a player that moves from ``legalMoves``."""

from __future__ import annotations

import dataclasses
import json
import random
from collections.abc import Iterator
from typing import Any
from urllib.parse import quote

from server.engine import REGISTRY, Game, Registry
from server.net.app import KibitzServer

from .botapi_helpers import Reader, post, raw_stream

Json = dict[str, Any]

#: option defaults that end a random game soon (the API takes no options but ``fen``: a
#: test server's registry has these defaults instead)
SHORT = {
    "apocalypse": {"max_turns": 4},
    "banqi": {"draw_plies": 2},
    "kono": {"draw_plies": 2},
    "jungle": {"draw_plies": 4},
    "ming_mang": {"max_plies": 8},
    "yonin_shogi": {"ply_limit": 40},
    "xiangqi": {"draw_plies": 20},
    "hase_und_igel": {"until": "first"},
}


def shortened(game: Game[Any, Any]) -> Game[Any, Any]:
    """``game`` with the defaults of :data:`SHORT` (same name, same rules otherwise)."""
    defaults = SHORT.get(game.name)
    if not defaults:
        return game
    options = {
        k: dataclasses.replace(o, default=defaults[k]) if k in defaults else o
        for k, o in game.options.items()
    }
    short = type(f"Short{type(game).__name__}", (type(game),), {"options": options})
    made: Game[Any, Any] = short()
    return made


def short_registry() -> Registry:
    registry = Registry()
    for game in REGISTRY:
        registry.add(shortened(game))
    return registry


def game_stream(server: KibitzServer, game_id: str, token: str, kind: str = "bot") -> Reader:
    """A game stream (its JSON lines, keep-alives left out) read by a thread."""

    def lines() -> Iterator[Json]:
        response = raw_stream(server, f"/api/{kind}/game/stream/{game_id}", token)
        assert response.status_code == 200, response.content
        for line in response.iter_lines():
            if line:
                yield json.loads(line)

    return Reader(lines)


def wire(move: str, spaced: bool) -> str:
    """A move's text in a move route's path: ``_`` for its spaces, or URL-encoded spaces."""
    return quote(move, safe="") if spaced else move.replace(" ", "_")


async def latest(reader: Reader) -> Json:
    """The next line of a game stream, or the newest of those already waiting."""
    item = await reader.next()
    while not reader.items.empty():
        more = reader.items.get_nowait()
        if isinstance(more, BaseException):
            reader.items.put(more)
            break
        item = more
    return dict(item)


async def play_out(
    server: KibitzServer,
    reader: Reader,
    token: str,
    game_id: str,
    *,
    seed: int,
    resign_after: int = 10_000,
    kind: str = "bot",
) -> tuple[Json, Json]:
    """Play one seat from its stream to the end: a random move of ``legalMoves`` whenever
    there are some (resigning after ``resign_after`` moves), once per position — a state sent
    before this seat's move was taken (Apocalypse: the other seat sealed meanwhile) still
    lists the legal moves of a turn already answered. (gameFull, the last state)."""
    rng = random.Random(seed)
    full = await reader.next()
    assert full["type"] == "gameFull", full
    state = full["state"]
    moved = 0
    answered = None  # the moves so far when this seat last acted: a state read late is skipped
    while state["status"] in ("created", "started"):
        if state["legalMoves"] and state["moves"] != answered:
            answered = state["moves"]
            if moved >= resign_after:
                status, body = await post(server, f"/api/{kind}/game/{game_id}/resign", token)
                assert status == 200, body
                resign_after = 10**9
            else:
                move = rng.choice(state["legalMoves"])
                path = f"/api/{kind}/game/{game_id}/move/{wire(move, bool(moved % 2))}"
                status, body = await post(server, path, token)
                assert status == 200, (move, body)
                moved += 1
        line = await latest(reader)
        if line["type"] == "gameState":
            state = line
    return full, state


async def challenge(server: KibitzServer, token: str, to: str, fields: Json) -> tuple[int, Json]:
    """``POST /api/challenge/{to}`` with ``fields``."""
    return await post(server, f"/api/challenge/{to}", token, fields)
