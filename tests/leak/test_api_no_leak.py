"""No seat learns over the Bot and Board API what it may not: the no-leak harness's two
indistinguishable worlds (:mod:`.test_no_leak`'s: BanQi's face-down pieces re-dealt, a Dark
Chess piece moved among the squares the seat does not see) run through the seat's bot
stream (seat 0) and board stream (seat 1), with turns played by both seats; every line and
answer must be the same. Two deliberately leaking twins are caught: a stream fed the other
seat's renderings, and a stream fed the true state."""

from __future__ import annotations

import random
from typing import Any

import pytest

from server.engine import Game, Registry, get_game
from server.net.botapi import games as game_streams
from server.net.botapi.games import GameStreams
from server.net.botapi.wire import Stream, stream

from .api_harness import assert_no_leak_api, indistinguishable, quiet_turns, run
from .test_no_leak import move_an_unseen_piece, random_prefix

SEEDS = (3, 11)


def banqi_worlds(seed: int, seat: int) -> tuple[Any, Any] | None:
    game = get_game("banqi")
    states = random_prefix(game, seed, 6 + seed % 7)
    truth = states[-1]
    views = [game.view(s, seat) for s in states]
    other = game.determinize(views, seat, random.Random(seed + 1))
    if game.outcome(truth) is not None or other.board == truth.board:
        return None
    return truth, other


def dark_chess_worlds(seed: int, seat: int) -> tuple[Any, Any] | None:
    game = get_game("dark_chess")
    for extra in range(40):
        truth = random_prefix(game, seed * 100 + extra, 6)[-1]
        if game.outcome(truth) is None:
            other = move_an_unseen_piece(game, truth, seat, random.Random(seed))
            if other is not None:
                return truth, other
    return None


WORLDS = {"banqi": banqi_worlds, "dark_chess": dark_chess_worlds}


def worlds(name: str, seed: int, seat: int) -> tuple[Game[Any, Any], Any, Any, list[Any]]:
    game = get_game(name)
    found = WORLDS[name](seed, seat)
    assert found is not None, (name, seed, seat)
    a, b = found
    assert indistinguishable(game, a, b, seat)
    turns = quiet_turns(game, a, b, seat, 4, random.Random(seed))
    return game, a, b, turns


@pytest.mark.parametrize("seat", [0, 1])
@pytest.mark.parametrize("seed", SEEDS)
@pytest.mark.parametrize("name", ["banqi", "dark_chess"])
def test_the_api_streams_leak_nothing(
    redis_url: str, registry: Registry, name: str, seed: int, seat: int
) -> None:
    game, a, b, turns = worlds(name, seed, seat)
    assert turns, "no turn keeps the worlds alike: the script would show little"
    run(assert_no_leak_api(game, a, b, seat, turns, redis_url, registry))


def test_a_stream_fed_the_other_seat_s_renderings_is_caught(
    redis_url: str, registry: Registry, monkeypatch: pytest.MonkeyPatch
) -> None:
    game, a, b, turns = worlds("dark_chess", SEEDS[0], 0)
    honest = GameStreams.stream

    def other_seat(self: GameStreams, conn: Any, room_id: str, seat: int) -> Stream:
        return honest(self, conn, room_id, 1 - seat)

    monkeypatch.setattr(GameStreams, "stream", other_seat)
    with pytest.raises(AssertionError, match="can tell the worlds apart"):
        run(assert_no_leak_api(game, a, b, 0, turns, redis_url, registry))


@pytest.mark.parametrize("name", ["banqi", "dark_chess"])
def test_a_stream_fed_the_true_state_is_caught(
    redis_url: str, registry: Registry, monkeypatch: pytest.MonkeyPatch, name: str
) -> None:
    game, a, b, turns = worlds(name, SEEDS[0], 1)
    honest = GameStreams.stream

    def truthful(self: GameStreams, conn: Any, room_id: str, seat: int) -> Stream:
        inner = honest(self, conn, room_id, seat)
        hub = self.hub

        async def source() -> Any:
            async for item in inner.source():
                if item is not None and item.get("type") in ("gameFull", "gameState"):
                    room = hub.rooms[room_id].room
                    item = {**item, "truth": str(room.state.board)}  # the true board
                yield item

        return stream(source, inner.on_close)

    monkeypatch.setattr(GameStreams, "stream", truthful)
    assert game_streams.GameStreams is GameStreams
    with pytest.raises(AssertionError, match="can tell the worlds apart"):
        run(assert_no_leak_api(game, a, b, 1, turns, redis_url, registry))
