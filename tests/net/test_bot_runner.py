"""``kibitz bot``'s runner over real HTTP and a real redis-server: two runners play a chess
game to its end (Stockfish against a player class), a runner plays on through connections
cut under it, and a runner plays two games at once and declines a third ("later")."""

from __future__ import annotations

from typing import Any

from server.engine import Registry
from server.net.app import Config, KibitzServer
from server.tools.bot_players import EnginePlayer

from ..conftest import free_port
from .botapi_helpers import held_stream, person_account, post, until_over
from .botrunner_helpers import Proxy, RandomPlayer, bot_token, running

STOCKFISH = "uci:/usr/games/stockfish?time=0.02"
CLOCK = {"clock.limit": 300, "clock.increment": 2}


def finished(n: int) -> Any:
    return lambda notes: len(notes.of("finished")) >= n


async def test_stockfish_beats_a_player_class_runner_against_runner(server: KibitzServer) -> None:
    fish, rand = await bot_token(server, "Fish"), await bot_token(server, "Rand")
    async with (
        running(server.url, fish, lambda game: EnginePlayer(STOCKFISH, game)) as (sf, sf_notes),
        running(server.url, rand, lambda game: RandomPlayer()) as (_, rand_notes),
    ):
        game_id = await sf.challenge("Rand", "chess", color="white", **CLOCK)
        await rand_notes.until(lambda n: [k for k, _ in n.of("accepted")] == [game_id])
        await sf_notes.until(finished(1), 60)
        await rand_notes.until(finished(1))
        [(key, last)] = sf_notes.of("finished")
        assert key == game_id and last["status"] == "mate" and last["winner"] == "white"
        assert len(last["moves"].split()) % 2 == 1  # white gave the mate
    await until_over(server, game_id)


async def test_a_runner_plays_on_through_cut_connections(server: KibitzServer) -> None:
    """Every connection of one runner is cut, again and again, while it plays: it opens
    its event stream and its game stream again (gameFull: the game resumed) and the game is
    played to its end."""
    proxy = await Proxy(server.port).start()
    fish, rand = await bot_token(server, "Fish"), await bot_token(server, "Rand")
    try:
        async with (
            running(proxy.url, rand, lambda game: RandomPlayer()) as (_, rand_notes),
            running(server.url, fish, lambda game: EnginePlayer(STOCKFISH, game)) as (sf, notes),
        ):
            await sf.challenge("Rand", "chess", color="white", **CLOCK)
            await rand_notes.until(lambda n: bool(n.of("started")))
            for _ in range(3):  # cut mid-game, each time once the game has gone on
                await rand_notes.until(lambda n: bool(n.of("moved")) or bool(n.of("finished")))
                if rand_notes.of("finished"):
                    break
                rand_notes.seen = [n for n in rand_notes.seen if n[0] != "moved"]
                proxy.cut()
            await notes.until(finished(1), 60)
            await rand_notes.until(finished(1))
            assert notes.of("finished")[0][1]["status"] in ("mate", "draw", "stalemate")
            assert rand_notes.of("resumed") or proxy.cuts == 0
    finally:
        await proxy.close()
    assert proxy.cuts >= 1


async def test_two_games_at_once_and_the_third_is_told_later(server: KibitzServer) -> None:
    robo = await bot_token(server, "Robo")
    people = [(await person_account(server, name))[1] for name in ("Ann", "Ben", "Cid", "Dee")]
    async with running(server.url, robo, lambda game: RandomPlayer(), concurrency=2) as (
        runner,
        notes,
    ):
        made = []
        for token in people[:2]:  # each plays white and waits: both games stay open
            status, body = await post(
                server, "/api/challenge/Robo", token, {"color": "white", **CLOCK}
            )
            assert status == 200, body
            made.append(body["id"])
            await notes.until(lambda n, cid=body["id"]: cid in dict(n.of("started")))
        assert set(runner.playing) == set(made)
        status, third = await post(
            server, "/api/challenge/Robo", people[2], {"color": "white", **CLOCK}
        )
        assert status == 200
        await notes.until(lambda n: bool(n.of("declined")))
        assert notes.of("declined") == [(third["id"], "later")]
        # one game ends (its person resigns): a new challenge is taken
        status, _ = await post(server, f"/api/board/game/{made[0]}/resign", people[0])
        assert status == 200
        await notes.until(finished(1))
        status, fourth = await post(
            server, "/api/challenge/Robo", people[3], {"color": "white", **CLOCK}
        )
        assert status == 200
        await notes.until(lambda n: fourth["id"] in dict(n.of("started")))
        assert set(runner.playing) == {made[1], fourth["id"]}


async def test_a_runner_claims_the_win_once_its_opponent_is_gone(server: KibitzServer) -> None:
    server.hub.audience.claim_after = 1.0  # the countdown (30 s by default)
    robo = await bot_token(server, "Robo")
    _, bea = await person_account(server, "Bea")
    async with running(server.url, robo, lambda game: RandomPlayer()) as (_, notes):
        status, made = await post(server, "/api/challenge/Robo", bea, {"color": "white", **CLOCK})
        assert status == 200
        await notes.until(lambda n: made["id"] in dict(n.of("started")))
        held = await held_stream(server, f"/api/board/game/stream/{made['id']}", bea)
        status, _ = await post(server, f"/api/board/game/{made['id']}/move/e2e4", bea)
        assert status == 200
        await notes.until(lambda n: bool(n.of("moved")))
        assert not notes.of("finished")  # she is here: nothing is claimed
        held.close()  # she goes; the countdown runs out; the runner claims
        await notes.until(finished(1), 15)
    [(_, end)] = notes.of("finished")
    assert end["status"] == "timeout" and end["winner"] == "black"


async def test_a_runner_plays_on_across_a_server_restart(
    redis_url: str, prefix: str, registry: Registry
) -> None:
    """The server stops mid-game and starts again on its port (the same Redis): both
    runners, refused meanwhile, open their streams again and finish the game."""
    port = free_port()
    first = KibitzServer(Config(port=port, redis_url=redis_url, prefix=prefix, registry=registry))
    await first.start()
    url = first.url
    fish, rand = await bot_token(first, "Fish"), await bot_token(first, "Rand")
    again: KibitzServer | None = None
    try:
        async with (
            running(url, rand, lambda game: RandomPlayer()) as (_, rand_notes),
            running(url, fish, lambda game: EnginePlayer(STOCKFISH, game)) as (sf, notes),
        ):
            game_id = await sf.challenge("Rand", "chess", color="white", **CLOCK)
            await rand_notes.until(lambda n: len(n.of("moved")) >= 2)
            await first.stop()
            again = KibitzServer(
                Config(port=port, redis_url=redis_url, prefix=prefix, registry=registry)
            )
            await again.start()
            await rand_notes.until(lambda n: game_id in dict(n.of("resumed")))
            await notes.until(finished(1), 60)
            await rand_notes.until(finished(1))
        await until_over(again, game_id)
    finally:
        if again is not None:
            await again.stop()


async def test_a_game_without_a_player_is_resigned(server: KibitzServer) -> None:
    """A player that cannot be made for a game (an engine that will not start): the runner
    says so and gives the game up at once rather than letting its clock run out."""

    def broken(game: str) -> Any:
        raise RuntimeError("no such engine")

    robo = await bot_token(server, "Robo")
    _, bea = await person_account(server, "Bea")
    async with running(server.url, robo, broken) as (_, notes):
        status, made = await post(server, "/api/challenge/Robo", bea, {"color": "white"})
        assert status == 200
        await notes.until(lambda n: made["id"] in dict(n.of("finished")))
    assert not notes.of("started")  # no player: the game was never played
    end = dict(notes.of("finished"))[made["id"]]
    assert end["status"] in ("resign", "aborted") and end["winner"] in ("white", None), end
    await until_over(server, made["id"])
