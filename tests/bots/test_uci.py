"""What an engine seat tells its engine and how its answer reads (server/bots/uci.py), and
the arena's engine bot, which plays through the same pieces with the real engines."""

from __future__ import annotations

import json
from pathlib import Path

import pytest

from server.bots import ladder, uci
from server.engine import get_game, turn_rng
from server.tools.arena import main


def played(game_name: str, texts: list[str]) -> tuple[object, list[dict[str, object]]]:
    """The game after ``texts`` (seat 0 first, in turn) and seat 0's view after each."""
    game = get_game(game_name)
    state = game.new(game.check_options({}), 2, turn_rng("s", 0))
    views = [game.view(state, 0)]
    for i, text in enumerate(texts):
        seat = next(iter(game.to_act(state)))
        state = game.play(state, {seat: game.parse_move(state, seat, text)}, turn_rng("s", i + 1))
        views.append(game.view(state, 0))
    return game, views


def test_an_engine_is_sent_the_start_and_the_moves() -> None:
    """The game's root and every move since (a chess state's board has its move list but
    no stack: python-chess once sent the moves again from the position now, and Stockfish
    answered a move of the wrong side)."""
    moves = ["b1c3", "b8c6", "c3b1", "c6b8", "g1f3", "g8f6"]
    game, views = played("chess", moves)
    pos = uci.position(game, 0, views)
    assert pos == uci.Position("chess", None, tuple(moves))
    assert pos.command() == "position startpos moves " + " ".join(moves)
    # a view history that starts later (a take-over) roots at its first view's FEN
    later = uci.position(game, 0, views[3:])
    assert later.fen == views[3]["fen"] and later.moves == tuple(moves[3:])


def test_xiangqi_is_told_in_fairy_stockfish_notation() -> None:
    game, views = played("xiangqi", ["h3-e3", "h10-g8", "e3xe7"])
    pos = uci.position(game, 0, views)
    assert pos.command() == "position startpos moves h3e3 h10g8 e3e7"
    # from a view after the start: its board as a FEN, digits for the empty points
    alone = uci.position(game, 0, views[2:3])
    assert alone.fen == "rnbakab1r/9/1c4nc1/p1p1p1p1p/9/9/P1P1P1P1P/1C2C4/9/RNBAKABNR w - - 2 2"


def test_an_answer_reads_back_as_a_legal_move_or_not_at_all() -> None:
    assert uci.read_move("xiangqi", "h3h10", ["h3-h9", "h3xh10"]) == "h3xh10"
    assert uci.read_move("chess", "e7e8q", ["e7e8n", "e7e8q"]) == "e7e8q"
    for game, best, legal in (
        ("chess", "e2e5", ["e2e4"]),  # well formed, not legal
        ("chess", "(none)", ["e2e4"]),
        ("chess", "e2e4 ", ["e2e4"]),  # whole words only
        ("xiangqi", "h3-h10", ["h3-h10"]),  # our text is not the engine's
    ):
        with pytest.raises(ValueError, match="no legal move"):
            uci.read_move(game, best, legal)


def test_levels_and_strengths() -> None:
    spec = uci.parse_engine("sf=/usr/games/stockfish")
    assert spec.strengths("chess") == ["sf:1", "sf:2", "sf:3"] and spec.strengths("xiangqi") == []
    assert uci.engine_level("sf:2") == ("sf", 2) and spec.level(2) == uci.DEFAULT_LEVELS[1]
    for strength in ("hard", "sf:0", "sf:10", "sf:2x", "SF:1", "sf:4"):
        named = uci.engine_level(strength)
        assert named is None or spec.level(named[1]) is None, strength
    assert uci.go_command(0.25) == "go movetime 250" and uci.go_command(depth=3) == "go depth 3"


def test_an_engines_output_reads_as_whole_lines_however_it_is_cut() -> None:
    reader = uci.LineReader(limit=8)
    assert reader.feed(b"uci") == [] and reader.feed(b"ok\nread") == [b"uciok\n"]
    assert reader.feed(b"yok\n\nbest") == [b"readyok\n", b"\n"]
    many = b"info\n" * 10_000  # many lines in one chunk: all of them, in order
    assert reader.feed(b"move\n" + many) == [b"bestmove\n"] + [b"info\n"] * 10_000
    assert reader.rest == b""


def test_a_line_over_the_limit_is_refused_and_never_held() -> None:
    """An engine that prints without newlines: the reader raises as soon as the line passes
    ``limit`` bytes, holding at most ``limit`` bytes, however the line is cut."""
    reader = uci.LineReader(limit=8)
    assert reader.feed(b"x" * 8) == [] and len(reader.rest) == 8  # at the limit: kept
    with pytest.raises(uci.LineTooLong, match="over 8 bytes"):
        reader.feed(b"x")
    assert reader.rest == b""
    with pytest.raises(uci.LineTooLong):  # and it takes nothing more
        reader.feed(b"\n")
    for cut in ([b"x" * 100], [b"ab\n", b"x" * 9], [b"xxxxx", b"xxxx\n"], [b"x" * 9 + b"\n"]):
        reader = uci.LineReader(limit=8)
        with pytest.raises(uci.LineTooLong):
            for chunk in cut:
                reader.feed(chunk)
                assert len(reader.rest) <= 8
    assert uci.LineReader().limit == uci.LINE_LIMIT == 64 * 1024


def test_fairy_stockfish_plays_xiangqi_in_the_arena(capsys: pytest.CaptureFixture[str]) -> None:
    spec = "uci:/usr/games/fairy-stockfish?UCI_Variant=xiangqi&Skill Level=-20&time=0.02"
    code = main(["xiangqi", "random", spec, "-n", "1", "--max-plies", "16", "--json"])
    assert code == 0
    assert json.loads(capsys.readouterr().out)["games"] == 1


def test_an_engine_seat_level_plays_in_the_arena(capsys: pytest.CaptureFixture[str]) -> None:
    spec = "uci:/usr/games/stockfish?level=1"
    code = main(["chess", "random", spec, "-n", "1", "--max-plies", "12", "--json"])
    assert code == 0
    assert json.loads(capsys.readouterr().out)["games"] == 1


def test_the_ladder_rates_an_engine_seat_level_against_the_top_level(tmp_path: Path) -> None:
    from server.tools import ladder as ladder_tool

    ratings, docs = tmp_path / "ladder.json", tmp_path / "BOTS.md"
    docs.write_text("before\n<!-- ladder -->\nold\n<!-- /ladder -->\nafter\n")
    stored = {"chess": dict(ladder.load()["chess"])}  # the chess ladder as measured,
    stored["chess"].pop("engines", None)  # without the engines rated on it
    top = stored["chess"]["levels"][-1]["elo"]
    ratings.write_text(json.dumps(stored))
    engine = "sf=/usr/games/stockfish?levels=0@1"
    argv = ["chess", "-n", "1", "--time-scale", "0.01", "--engine", engine, "--engines-only"]
    assert ladder_tool.main([*argv, "--ratings", str(ratings), "--docs", str(docs), "--write"]) == 0
    data = json.loads(ratings.read_text())["chess"]
    assert data["levels"] == stored["chess"]["levels"]  # kept as they were
    [rated] = data["engines"]
    assert rated["engine"].startswith("Stockfish") and rated["name"] == "sf"
    assert (rated["level"], rated["skill"], rated["think_time"], rated["games"]) == (1, 0, 0.01, 1)
    # one game against the top level: above its rating if it won, below if it lost
    score = rated["score_vs_top"]
    assert (rated["elo"] > top, rated["elo"] < top) == (score > 0.5, score < 0.5)
    assert rated["elo_95"][0] < rated["elo"] < rated["elo_95"][1]
    assert "(engine seat level 1)" in docs.read_text()
    # again: the same engine, skill and time are replaced, not added
    assert ladder_tool.main([*argv, "--ratings", str(ratings), "--docs", str(docs), "--write"]) == 0
    assert len(json.loads(ratings.read_text())["chess"]["engines"]) == 1
    # no stored ladder to rate against: refused
    assert ladder_tool.main(["kono", *argv[1:], "--ratings", str(ratings)]) == 2
