"""Every Kibitz game over the Bot API: for each of the eleven games a challenge is accepted
and played to its end by two bot accounts that choose from the stream's ``legalMoves``
(Yonin Shogi with the server's bots in its two other seats), in the game's own notation."""

from __future__ import annotations

import asyncio
from collections.abc import AsyncIterator
from typing import Any

import pytest

from server.engine import REGISTRY
from server.net.app import KibitzServer

from ..conftest import serving
from .botapi_helpers import bot_account, post
from .botapi_play import challenge, game_stream, play_out, short_registry

#: each game's challenge fields (beyond the variant) and how many moves a seat makes
#: before it resigns (Hase und Igel: a race of hundreds of turns)
GAMES: dict[str, tuple[dict[str, str], int]] = {
    "chess": ({"variant": "standard", "fen": "k7/8/8/8/8/8/1r6/K7 w - - 0 1"}, 50),
    "dark_chess": ({"fen": "k7/8/8/8/8/8/8/K6R w - - 98 80"}, 50),
    "xiangqi": ({"fen": "4k4/9/9/9/9/9/9/9/9/3K5 w - - 0 1"}, 50),
    "apocalypse": ({}, 50),
    "banqi": ({}, 50),
    "kono": ({}, 50),
    "jungle": ({}, 50),
    "kamisado": ({}, 50),
    "ming_mang": ({}, 50),
    "yonin_shogi": ({"seats": "4", "bots": "random"}, 50),
    "hase_und_igel": ({}, 12),
}


@pytest.fixture
async def short(redis_url: str, prefix: str) -> AsyncIterator[KibitzServer]:
    async with serving(redis_url, prefix, short_registry()) as srv:
        yield srv


def test_every_game_is_offered() -> None:
    assert sorted(GAMES) == sorted(g.name for g in REGISTRY)


@pytest.mark.parametrize("name", list(GAMES))
async def test_a_challenge_of_every_game_is_played_to_the_end(
    short: KibitzServer, name: str
) -> None:
    fields, resign_after = GAMES[name]
    _, ann = await bot_account(short, "Ann")
    _, bob = await bot_account(short, "Bob")
    terms = {"variant": name, "color": "white"} | fields
    status, made = await challenge(short, ann, "Bob", terms)
    assert status == 200, made
    game = short.hub.registry.get(name)
    assert made["variant"]["key"] == ("standard" if name == "chess" else name)
    status, body = await post(short, f"/api/challenge/{made['id']}/accept", bob)
    assert status == 200, body
    games = [game_stream(short, made["id"], token) for token in (ann, bob)]
    (full_a, end_a), (full_b, end_b) = await asyncio.gather(
        *(
            play_out(short, reader, token, made["id"], seed=i, resign_after=resign_after)
            for i, (reader, token) in enumerate(zip(games, (ann, bob), strict=True))
        )
    )
    for seat, full in enumerate((full_a, full_b)):
        assert full["game"] == name and full["seat"] == seat
        assert full["variant"]["name"] == ("Standard" if name == "chess" else game.title)
        assert [p["name"] for p in full["players"]][:2] == ["Ann", "Bob"]
        assert len(full["players"]) == int(fields.get("seats", game.min_seats))
        assert full["white"]["name"] == "Ann" and full["black"]["name"] == "Bob"
        assert full["initialFen"] == fields.get("fen", "startpos")
    assert end_a["status"] == end_b["status"] and end_a["status"] not in ("created", "started")
    over = await short.hub.read(made["id"], "info", {})
    assert over["status"] == "over"
    assert len(end_a["moves"].split()) == len(end_b["moves"].split()) > 0
    if name == "yonin_shogi":
        assert len(end_a["ranks"]) == 4 and end_a["winners"] == end_b["winners"]
    if name in ("chess", "dark_chess", "xiangqi"):
        assert isinstance(end_a["fen"], str)
    print(name, end_a["status"], len(end_a["moves"].split()))


def test_no_move_text_holds_the_api_s_marks(registry: Any) -> None:
    """``moves`` writes a move's spaces as ``_``, joins a simultaneous turn's moves with
    ``,`` and writes a hidden move ``?``: no game's move text holds any of them (random
    playouts of every game)."""
    import random

    for game in REGISTRY:
        for seed in range(3):
            rng = random.Random(seed)
            state = game.new(game.check_options({}), game.min_seats, random.Random(seed))
            for _ in range(120):
                acting = sorted(game.to_act(state))
                if not acting:
                    break
                for seat in acting:
                    for text in game.legal_texts(state, seat):
                        assert not set(text) & set("_,?"), (game.name, text)
                        assert text == " ".join(text.split()), (game.name, text)
                moves = {s: rng.choice(game.legal_moves(state, s)) for s in acting}
                state = game.play(state, moves, random.Random(seed))
