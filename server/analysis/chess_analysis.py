"""Chess analysed by a UCI engine (Stockfish), through python-chess's engine API.

Every position of the game, the start included, is searched to a fixed number of nodes (the
same budget for every position, so an analysis is reproducible on one engine and machine
up to the engine's own threads: one here). A finished position is not searched: checkmate
is a mate now, stalemate and the other draws are 0. Each move is judged by
:func:`~.judgement.judge` from the mover's best value before it to its value after, unless
it is the engine's own choice; the better move is named.

:func:`annotated_pgn` writes the result into the game's PGN as lichess does: an
``[%eval 0.35]`` (or ``[%eval #-2]``) comment after each move, from White's side, and the
move's mark (``??``, ``?``, ``?!``) with "Blunder. Qxf7# was best."
"""

from __future__ import annotations

import re
from collections.abc import Sequence
from dataclasses import dataclass, field

import chess
import chess.engine
import chess.pgn

from .judgement import MARKS, Score, accuracy, judge, move_accuracy
from .report import VERSION, Json, acpl, centipawn_loss, score_json, score_of_json

#: nodes per position: about 0.1-0.3 s of one core for Stockfish 16 on this kind of machine
NODES = 200_000
NAGS = {"blunder": chess.pgn.NAG_BLUNDER, "mistake": chess.pgn.NAG_MISTAKE}
NAGS["inaccuracy"] = chess.pgn.NAG_DUBIOUS_MOVE


@dataclass(frozen=True, slots=True)
class Ply:
    """One move judged: ``before`` and ``after`` are for the mover (seat 0 White)."""

    ply: int
    move: str
    san: str
    mover: int
    before: Score
    after: Score
    best: str | None  # the engine's move in the position before, when another was played
    best_san: str | None
    judgement: str | None
    accuracy: float


@dataclass(slots=True)
class Analysis:
    """``evals``: every position's value for White (``evals[0]``: the start); ``plies``:
    every move judged; ``players``: per seat, accuracy and counts of each judgement."""

    engine: str
    nodes: int
    evals: list[Score] = field(default_factory=list)
    plies: list[Ply] = field(default_factory=list)
    players: list[dict[str, float | int | None]] = field(default_factory=list)


def score_of(pov: chess.engine.PovScore) -> Score:
    """python-chess's score, for White."""
    white = pov.white()
    mate = white.mate()
    return Score(mate=mate) if mate is not None else Score(cp=white.score())


def final_score(board: chess.Board) -> Score | None:
    """A finished position's value for White without a search (None: not finished)."""
    if board.is_checkmate():
        return Score(over=-1 if board.turn == chess.WHITE else 1)
    if board.is_game_over(claim_draw=False):
        return Score(cp=0)
    return None


def analyse(
    start_fen: str,
    moves: Sequence[str],
    engine_path: str,
    *,
    nodes: int = NODES,
    seconds: float = 60.0,
) -> Analysis:
    """Analyse the game of UCI ``moves`` from ``start_fen`` with the UCI engine at
    ``engine_path`` (module docstring); a position stops at ``seconds`` if its nodes take
    longer (python-chess then waits that long and its own timeout more, no longer)."""
    board = chess.Board(start_fen)
    boards = [board.copy(stack=False)]
    for text in moves:
        board.push(chess.Move.from_uci(text))  # raises on an illegal move: a bad record
        boards.append(board.copy(stack=False))
    evals: list[Score] = []
    best: list[chess.Move | None] = []
    with chess.engine.SimpleEngine.popen_uci(engine_path) as engine:
        name = str(engine.id.get("name", engine_path))
        engine.configure({"Threads": 1})
        for position in boards:
            done = final_score(position)
            if done is not None:
                evals.append(done)
                best.append(None)
                continue
            info = engine.analyse(position, chess.engine.Limit(nodes=nodes, time=seconds))
            evals.append(score_of(info["score"]))
            pv = info.get("pv") or []
            best.append(pv[0] if pv else None)
    out = Analysis(name, nodes, evals)
    marks: list[list[float]] = [[], []]
    losses: list[list[int]] = [[], []]
    counts = [{k: 0 for k in MARKS} for _ in range(2)]
    for i, text in enumerate(moves):
        position = boards[i]
        move = chess.Move.from_uci(text)
        mover = 0 if position.turn == chess.WHITE else 1
        before, after = evals[i], evals[i + 1]
        if mover == 1:
            before, after = before.flipped(), after.flipped()
        engine_move = best[i]
        other = engine_move is not None and engine_move != move
        verdict = judge(before, after) if other else None
        value = move_accuracy(before, after)
        marks[mover].append(value)
        losses[mover].append(centipawn_loss(before, after))
        if verdict is not None:
            counts[mover][verdict] += 1
        out.plies.append(
            Ply(
                i + 1,
                text,
                position.san(move),
                mover,
                before,
                after,
                engine_move.uci() if other and engine_move else None,
                position.san(engine_move) if other and engine_move else None,
                verdict,
                round(value, 1),
            )
        )
    for seat in range(2):
        mean = accuracy(marks[seat])
        out.players.append(
            {
                "accuracy": None if mean is None else round(mean, 1),
                "acpl": acpl(losses[seat]),
                **counts[seat],
            }
        )
    return out


def stored(analysis: Analysis, game: str = "chess") -> Json:
    """The analysis as it is stored with the game (:mod:`.report`)."""
    return {
        "version": VERSION,
        "game": game,
        "engine": analysis.engine,
        "nodes": analysis.nodes,
        "evals": [score_json(s) for s in analysis.evals],
        "plies": [
            {
                "ply": p.ply,
                "move": p.move,
                "san": p.san,
                "seat": p.mover,
                "judgement": p.judgement,
                "best": p.best,
                "best_san": p.best_san,
                "accuracy": p.accuracy,
            }
            for p in analysis.plies
        ],
        "players": [dict(p) for p in analysis.players],
    }


def from_stored(data: Json) -> Analysis:
    """:func:`stored` read back (for :func:`annotated_pgn`)."""
    evals = [score_of_json(e) for e in data["evals"]]
    out = Analysis(str(data["engine"]), int(data["nodes"]), evals)
    for i, p in enumerate(data["plies"]):
        before, after = evals[i], evals[i + 1]
        if p["seat"] == 1:
            before, after = before.flipped(), after.flipped()
        out.plies.append(
            Ply(
                int(p["ply"]),
                str(p["move"]),
                str(p["san"]),
                int(p["seat"]),
                before,
                after,
                p.get("best"),
                p.get("best_san"),
                p.get("judgement"),
                float(p["accuracy"]),
            )
        )
    out.players = [dict(p) for p in data["players"]]
    return out


def annotated_pgn(game: chess.pgn.Game, analysis: Analysis) -> chess.pgn.Game:
    """``game`` (its main line the analysed moves) with lichess's eval comments and marks."""
    node: chess.pgn.GameNode = game
    for ply, after in zip(analysis.plies, analysis.evals[1:], strict=False):
        nxt = node.next()
        if nxt is None:
            break
        node = nxt
        if ply.judgement is not None:
            node.nags.add(NAGS[ply.judgement])
            node.comment = f"{ply.judgement.capitalize()}. {ply.best_san} was best."
        if after.over is not None:
            continue  # the game is over: no evaluation to write
        if after.mate is not None:
            node.set_eval(chess.engine.PovScore(chess.engine.Mate(after.mate), chess.WHITE))
        else:
            node.set_eval(chess.engine.PovScore(chess.engine.Cp(after.cp or 0), chess.WHITE))
    return game


def pgn_text(game: chess.pgn.Game) -> str:
    """The PGN of ``game`` with its moves' marks written as lichess writes them, on the move
    (``Nf6??``), where python-chess writes numeric glyphs (``Nf6 $4``)."""
    text = game.accept(chess.pgn.StringExporter(columns=None))
    return GLYPH.sub(lambda m: m[1] + SYMBOLS[int(m[2])], text)


#: the move marks lichess writes, by numeric annotation glyph
SYMBOLS = {1: "!", 2: "?", 3: "!!", 4: "??", 5: "!?", 6: "?!"}
GLYPH = re.compile(r"(\S) \$([1-6])(?= |$)")
