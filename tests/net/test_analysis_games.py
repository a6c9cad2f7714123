"""XiangQi and Dark Chess analysed over real HTTP (real redis-server, worker processes,
Fairy-Stockfish): every ply of the XiangQi game evaluated, both views of the Dark Chess game
shown, and the running Dark Chess game refused as its record is."""

from __future__ import annotations

from server.analysis.records import Tools
from server.engine import Registry

from ..analysis.test_game_analyses import random_record
from .analysis_helpers import analysed, analysing, finished, http

QUICK = Tools(nodes=20_000, seconds=0.05, max_depth=3)


def moves_of(record: dict[str, object]) -> list[str]:
    return [next(iter(t["moves"].values())) for t in record["moves"]]  # type: ignore[attr-defined]


async def test_a_xiangqi_game_gets_an_evaluation_for_every_ply(
    redis_url: str, prefix: str, registry: Registry
) -> None:
    moves = moves_of(random_record("xiangqi", 7, 12))
    async with analysing(redis_url, prefix, registry, tools=QUICK) as srv:
        room = await finished(srv, moves, game="xiangqi")
        assert (await http(srv, "POST", f"/api/rooms/{room}/analysis"))[0] == 202
        analysis = await analysed(srv, room)
        assert analysis["game"] == "xiangqi" and analysis["engine"].startswith("Fairy")
        assert len(analysis["evals"]) == len(moves) + 1
        assert [p["move"] for p in analysis["plies"]] == moves


async def test_a_dark_chess_game_shows_both_views(
    redis_url: str, prefix: str, registry: Registry
) -> None:
    moves = moves_of(random_record("dark_chess", 3, 8))
    async with analysing(redis_url, prefix, registry, tools=QUICK) as srv:
        live = await finished(srv, moves[:2], game="dark_chess", end=False)
        status, body, _ = await http(srv, "POST", f"/api/rooms/{live}/analysis")
        assert (status, body["code"]) == (409, "not_finished")
        room = await finished(srv, moves, game="dark_chess")
        assert (await http(srv, "POST", f"/api/rooms/{room}/analysis"))[0] == 202
        analysis = await analysed(srv, room)
        assert len(analysis["evals"]) == len(moves) + 1  # what was there
        seen = [p["seen"] for p in analysis["plies"]]  # what each mover saw
        assert any(s is not None and "value" in s for s in seen)
        assert all("seen" in p for p in analysis["players"])
