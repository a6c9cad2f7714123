"""``kibitz bot`` as a command: it plays a game to its end against a runner, says a refused
token and an unreachable server plainly; and the runner's guards, each with its twin: the
challenge filters, the backoff's cap, the longest stream line."""

from __future__ import annotations

import asyncio
import contextlib
import signal

import pytest

from server.net.app import KibitzServer
from server.sdk import http
from server.sdk.botrunner import Backoff, BotRunner, Game, Terms
from server.sdk.http import ApiClient, Unreachable
from server.tools.bot_players import EnginePlayer

from ..conftest import env_with_path, free_port, kibitz_cmd
from .botrunner_helpers import bot_token, running

PLAYER = "tests.net.botrunner_helpers:RandomPlayer"


async def start(*args: str) -> asyncio.subprocess.Process:
    return await asyncio.create_subprocess_exec(
        *kibitz_cmd("bot", *args), env=env_with_path(), stderr=asyncio.subprocess.PIPE
    )


async def said(proc: asyncio.subprocess.Process, words: str, timeout: float = 30.0) -> str:
    """The first line of ``proc``'s stderr holding ``words`` (lines before it skipped)."""
    assert proc.stderr is not None
    async with asyncio.timeout(timeout):
        while line := (await proc.stderr.readline()).decode():
            if words in line:
                return line
    raise AssertionError(f"the command ended without saying {words!r}")


async def stop(proc: asyncio.subprocess.Process) -> None:
    with contextlib.suppress(ProcessLookupError):
        proc.send_signal(signal.SIGINT)
    try:
        await asyncio.wait_for(proc.wait(), 10)
    except TimeoutError:
        proc.kill()
        await proc.wait()


async def test_the_command_plays_a_game_to_its_end(server: KibitzServer) -> None:
    token, fish = await bot_token(server, "Cli"), await bot_token(server, "Fish")
    proc = await start(
        "--server",
        server.url,
        "--token",
        token,
        "--upgrade",
        "--player",
        PLAYER,
        "--game",
        "chess",
        "-v",
    )
    try:
        await said(proc, "logged in to")
        engine = "uci:/usr/games/stockfish?time=0.02"
        async with running(server.url, fish, lambda g: EnginePlayer(engine, g)) as (sf, notes):
            game_id = await sf.challenge("Cli", "chess", color="white")
            assert game_id in await said(proc, "accepted")
            assert "played" in await said(proc, f"game {game_id}: played")  # DEBUG, with -v
            line = await said(proc, f"game {game_id} over", 60)
            assert "mate, white won: we lost (black)" in line
            await notes.until(lambda n: bool(n.of("finished")))
    finally:
        await stop(proc)


async def test_a_refused_token_is_said_plainly(server: KibitzServer) -> None:
    proc = await start("--server", server.url, "--token", "kbt_" + "x" * 43, "--bot", "random")
    assert "the server refused the token (401 No such token)" in await said(proc, "kibitz bot:")
    assert await asyncio.wait_for(proc.wait(), 10) == 1


async def test_an_unreachable_server_is_tried_again() -> None:
    port = free_port()
    proc = await start(
        "--server", f"http://127.0.0.1:{port}", "--token", "kbt_x", "--bot", "random"
    )
    try:
        line = await said(proc, "trying again")
        assert f"cannot reach http://127.0.0.1:{port}: Connection refused" in line
        await said(proc, "trying again")  # and again
    finally:
        await stop(proc)


def test_usage_errors_are_told() -> None:
    from server.tools.bot_cmd import main

    assert main(["--token", "t", "--bot", "nosuch"]) == 2
    assert main(["--token", "t", "--engine", "/usr/games/stockfish", "--game", "kono"]) == 2
    assert main(["--token", "t", "--engine", "/usr/games/stockfish", "--game", "xiangqi"]) == 2
    assert main(["--token", "t", "--bot", "random", "--concurrency", "0"]) == 2
    with pytest.raises(ValueError, match="concurrency"):
        BotRunner(ApiClient("http://x", "t"), lambda g: None, Terms(frozenset()), concurrency=0)


@pytest.mark.parametrize(
    ("terms", "challenge", "reason"),
    [
        ({}, {"variant": {"key": "standard"}}, None),
        ({}, {"variant": {"key": "kono"}}, "variant"),
        ({"rated": False}, {"rated": True}, "casual"),
        ({"rated": False}, {"rated": False}, None),
        ({"casual": False}, {"rated": False}, "rated"),
        ({"min_base": 60}, {"timeControl": {"type": "clock", "limit": 30}}, "tooFast"),
        ({"min_base": 60}, {"timeControl": {"type": "clock", "limit": 60}}, None),
        ({"max_base": 600}, {"timeControl": {"type": "clock", "limit": 900}}, "tooSlow"),
        ({"max_base": 600}, {"timeControl": {"type": "clock", "limit": 600}}, None),
        ({"unlimited": False}, {"timeControl": {"type": "unlimited"}}, "timeControl"),
        ({"unlimited": False}, {"timeControl": {"type": "clock", "limit": 60}}, None),
    ],
)
def test_challenge_filters(
    terms: dict[str, object], challenge: dict[str, object], reason: str | None
) -> None:
    rules = Terms(frozenset({"chess"}), **terms)  # type: ignore[arg-type]
    assert rules.refusal({"variant": {"key": "standard"}} | challenge) == reason


async def test_the_backoff_doubles_up_to_its_cap() -> None:
    wait = Backoff(0.001, 0.004)
    delays = []
    for _ in range(4):
        delays.append(wait.delay)
        await wait.wait()
    assert delays == [0.001, 0.002, 0.004, 0.004]
    wait.reset()
    assert wait.delay == 0.001


async def test_a_stream_line_over_the_limit_is_refused(monkeypatch: pytest.MonkeyPatch) -> None:
    monkeypatch.setattr(http, "MAX_LINE", 1000)
    sizes = {"short": 999, "long": 1001}

    async def serve(reader: asyncio.StreamReader, writer: asyncio.StreamWriter) -> None:
        request = await reader.readuntil(b"\r\n\r\n")
        body = b'"' + b"x" * (sizes[request.split()[1].decode().strip("/")] - 2) + b'"\n'
        writer.write(
            b"HTTP/1.1 200 OK\r\nContent-Type: application/x-ndjson\r\n"
            b"Transfer-Encoding: chunked\r\n\r\n"
        )
        for i in range(0, len(body), 100):  # in pieces, as a stream comes
            piece = body[i : i + 100]
            writer.write(b"%x\r\n%s\r\n" % (len(piece), piece))
            await writer.drain()
        writer.write(b"0\r\n\r\n")
        writer.close()

    listening = await asyncio.start_server(serve, "127.0.0.1", 0)
    api = ApiClient(f"http://127.0.0.1:{listening.sockets[0].getsockname()[1]}", "t")
    try:
        assert [len(x) async for x in api.stream("/short")] == [997]  # type: ignore[arg-type]
        with pytest.raises(Unreachable, match="over 1000 bytes"):
            _ = [x async for x in api.stream("/long")]
    finally:
        listening.close()


def test_chess_without_legal_moves_is_played_from_the_moves_parity() -> None:
    """A server of lichess's fields only (no ``legalMoves``): the runner finds the seat's
    legal moves with python-chess when it is the seat's turn, and none when it is not."""
    game = Game("g", "robo")
    full = {
        "type": "gameFull",
        "variant": {"key": "standard"},
        "initialFen": "startpos",
        "white": {"id": "bea"},
        "black": {"id": "robo"},
    }
    game.take_full(full)
    assert (game.name, game.seat) == ("chess", 1)
    game.take_state({"type": "gameState", "moves": "", "status": "started"})
    assert game.legal() == []  # white's turn
    game.take_state({"type": "gameState", "moves": "e2e4", "status": "started"})
    assert len(game.legal()) == 20 and "e7e5" in game.legal()
    game.take_state({"type": "gameState", "moves": "e2e4", "status": "started", "legalMoves": []})
    assert game.legal() == []  # the server's own word goes first
