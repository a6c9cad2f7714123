"""Analysis of finished games over real HTTP, a real redis-server and the real Stockfish
(docs/ANALYSIS.md): the issue's blunder game marked in its export, the refusals that change
nothing, and the JSON export as lichess writes it."""

from __future__ import annotations

import io
import time

import chess.pgn

from server.engine import Registry

from .analysis_helpers import SCHOLAR, analysed, analysing, finished, http


async def test_the_blunder_is_marked_in_the_export_within_a_minute(
    redis_url: str, prefix: str, registry: Registry
) -> None:
    async with analysing(redis_url, prefix, registry) as srv:
        room = await finished(srv, SCHOLAR)
        t0 = time.monotonic()
        status, body, _ = await http(srv, "POST", f"/api/rooms/{room}/analysis")
        assert status == 202 and body["status"] in ("queued", "running"), body
        analysis = await analysed(srv, room, within=60)
        took = time.monotonic() - t0
        nf6 = analysis["plies"][5]
        assert (nf6["san"], nf6["seat"], nf6["judgement"]) == ("Nf6", 1, "blunder")
        assert len(analysis["evals"]) == len(SCHOLAR) + 1
        status, pgn, head = await http(srv, "GET", f"/game/export/{room}?evals=true")
        assert status == 200 and head["Content-Type"].startswith("application/x-chess-pgn")
        assert "Nf6??" in pgn and "[%eval " in pgn and "was best." in pgn, pgn
        game = chess.pgn.read_game(io.StringIO(pgn))
        assert game is not None and [m.uci() for m in game.mainline_moves()] == SCHOLAR
        status, plain, _ = await http(srv, "GET", f"/game/export/{room}")
        assert "[%eval" not in plain and "??" not in plain  # not asked: as before
        # computed once: asking again answers the stored analysis
        status, again, _ = await http(srv, "POST", f"/api/rooms/{room}/analysis")
        assert status == 200 and again["analysis"] == analysis
        print(f"blunder game analysed over HTTP in {took:.2f} s")
        assert took < 60


async def test_the_json_export_carries_the_analysis_as_lichess_s(
    redis_url: str, prefix: str, registry: Registry
) -> None:
    async with analysing(redis_url, prefix, registry) as srv:
        room = await finished(srv, SCHOLAR)
        await http(srv, "POST", f"/api/rooms/{room}/analysis")
        await analysed(srv, room)
        accept = {"Accept": "application/json"}
        status, game, _ = await http(srv, "GET", f"/game/export/{room}?evals=true", accept)
        assert status == 200
        black = game["players"]["black"]["analysis"]
        assert black["blunder"] == 1 and {"inaccuracy", "mistake", "acpl"} <= set(black)
        assert game["players"]["white"]["analysis"]["blunder"] == 0
        assert len(game["analysis"]) == len(SCHOLAR)
        assert all(("eval" in e) != ("mate" in e) for e in game["analysis"])
        assert game["analysis"][5]["judgment"]["name"] == "Blunder"
        assert game["analysis"][5]["mate"] == 1  # White mates next move
        _, bare, _ = await http(srv, "GET", f"/game/export/{room}", accept)
        assert "analysis" not in bare and "analysis" not in bare["players"]["black"]


async def test_bad_requests_are_refused_and_change_nothing(
    redis_url: str, prefix: str, registry: Registry
) -> None:
    async with analysing(redis_url, prefix, registry, workers=0) as srv:
        queue = srv.analyses.queue
        for path, code in [
            ("/api/rooms/nope/analysis", 404),  # no such room
            ("/api/rooms/a%20b/analysis", 404),  # not a room id (the whole string)
            ("/api/rooms/x/y/analysis", 404),
        ]:
            status, body, _ = await http(srv, "POST", path)
            assert status == code, (path, body)
        live = await finished(srv, ["e2e4"], end=False)
        for method in ("POST", "GET"):
            status, body, _ = await http(srv, method, f"/api/rooms/{live}/analysis")
            assert (status, body["code"]) == (409, "not_finished")
        hidden = await finished(srv, [], game="dark_chess", end=False)
        status, body, _ = await http(srv, "POST", f"/api/rooms/{hidden}/analysis")
        assert (status, body["code"]) == (409, "not_finished")  # as its record answers
        running = await finished(srv, [])  # resigned at once: over
        status, body, _ = await http(srv, "POST", f"/api/rooms/{running}/analysis?x=1")
        assert (status, body["code"]) == (400, "bad_request")
        rps = await finished(srv, [], game="rps")
        status, body, _ = await http(srv, "POST", f"/api/rooms/{rps}/analysis")
        assert (status, body["code"]) == (422, "not_analysable")
        status, body, _ = await http(srv, "GET", f"/api/rooms/{rps}/analysis")
        assert (status, body["status"]) == (200, "unavailable")  # nothing to read, ever
        status, body, _ = await http(srv, "GET", f"/api/rooms/{running}/analysis")
        assert (status, body) == (200, {"status": "none"})  # not asked for
        assert await queue.size() == 0
