"""Why the honest Dark Chess bot loses to its cheating twin — benchmark only.

    python -m server.tools.dark_losses -n 8 --time 1 --seed diag [--option K=V ...] [--json]

Plays the honest ``ismcts`` against :class:`server.tools.cheating.CheatingISMCTS` as
``kibitz arena`` does (same seating, seeds and budgets) and, after every honest move, holds
the worlds the honest bot searched against the true state. The honest bot never sees the
truth: it runs untouched inside an :class:`Observer`, the one that reads the true state (the
arena's ``reads_true_state`` label, as the twin's), and the observer only looks afterwards.

Each game the honest bot lost by its king is put in one class, by the last move it made:

* ``no safe move``: every legal move left the king en prise in the true state;
* ``knew``: the move left the king en prise in at least half of its worlds more than the
  safest move did (a move safe in the worlds was there, and the search did not take it);
* ``unseen``: the move lost in the true state but in fewer of its worlds (the worlds did not
  hold the attacker where it was).

Anything else (a king lost later than the last honest move, a draw) is ``other``. Every
honest move after which a piece or more (not the king) hung in the true state is counted too:
``piece hung, knew`` when it hung in the bot's worlds, on average, at least 1.5 pawns more
than after the move that hung least there, else ``piece hung, unseen``.

    python -m server.tools.dark_losses --material GAMES.jsonl [...]

reads games ``kibitz arena --games-out`` wrote (the honest ``ismcts`` in one seat) and
prints the honest side's material balance (pawn 1, knight and bishop 3, rook 5, queen 9)
every 10 plies, replayed from the moves: where the games are lost before the king is.
"""

from __future__ import annotations

import argparse
import json
import random
import sys
from collections import Counter
from collections.abc import Sequence
from typing import Any

import chess

from server.bots import make_bot
from server.bots.bot import Ask
from server.bots.chess_eval import best_capture
from server.bots.ismcts import ISMCTSBot
from server.engine import Game, get_game
from server.engine.dark_chess.rules import WORTH, king_capture
from server.tools.arena import number, play_game, progress_line, seating
from server.tools.cheating import CheatingISMCTS

#: what :func:`hung_after` says of a king left en prise
KING = 100.0


def en_prise_after(board: chess.Board, move: chess.Move) -> bool:
    """After ``move``, can the side then to move take the other king?"""
    after = board.copy(stack=False)
    after.push(move)
    return king_capture(after) is not None


class Observer:
    """The honest bot, untouched, and a record of its worlds next to the true state."""

    name = "ismcts"
    reads_true_state = True  # the observer's, never the bot's: see the module docstring

    def __init__(self, bot: ISMCTSBot | None = None, **options: Any) -> None:
        """``bot``: the honest bot to watch (default: the game's ``ismcts`` with ``options``)."""
        if bot is None:
            made = make_bot("dark_chess", "ismcts", **options)
            assert isinstance(made, ISMCTSBot)
            bot = made
        self.bot = bot
        self.truth: Any = None
        self.worlds: list[Any] = []
        self.turns: list[dict[str, Any]] = []
        searched = bot._pool

        def pool(ask: Ask) -> list[Any]:
            self.worlds = searched(ask)
            return self.worlds

        bot._pool = pool  # type: ignore[method-assign]

    def observe_true_state(self, state: Any) -> None:
        self.truth = state

    def choose(
        self,
        game: Game[Any, Any],
        seat: int,
        views: Sequence[Any],
        legal: Sequence[str],
        budget: float,
        rng: random.Random,
    ) -> str:
        truth = self.truth  # read before the bot moves; the bot is handed only its views
        text = self.bot.choose(game, seat, views, legal, budget, rng)
        worlds = [w.board for w in self.worlds]

        # per legal move, what it hangs in each world (one push each; a king: KING)
        after = {m: [hung_after(b, chess.Move.from_uci(m)) for b in worlds] for m in legal}
        n = max(1, len(worlds))
        share = {m: sum(x == KING for x in xs) / n for m, xs in after.items()}
        # the king counted as a queen in the mean
        hung = {m: sum(min(9.0, x) for x in xs) / n for m, xs in after.items()}
        self.turns.append(
            {
                "ply": len(views) - 1,
                "fen": truth.board.fen(),  # the true position (the observer's, not the bot's)
                "move": text,
                "lost_in_truth": en_prise_after(truth.board, chess.Move.from_uci(text)),
                "safe_in_truth": sum(
                    not en_prise_after(truth.board, chess.Move.from_uci(m)) for m in legal
                ),
                "lost_in_worlds": share[text],
                "safest": min(share.values()),
                "worlds": len(worlds),
                "hung_in_truth": hung_after(truth.board, chess.Move.from_uci(text)),
                "hung_in_worlds": round(hung[text], 2),
                "least_hung": round(min(hung.values()), 2),
            }
        )
        return text


def hung_after(board: chess.Board, move: chess.Move) -> float:
    """After ``move``, what the other side wins by its best capture less what ``move`` took,
    in pawns, at least 0 (one recapture counted, :func:`server.bots.chess_eval.best_capture`;
    a king: 100): a trade hangs nothing."""
    taken = 1 if board.is_en_passant(move) else WORTH[board.piece_type_at(move.to_square) or 0]
    after = board.copy(stack=False)
    after.push(move)
    gain = best_capture(after)
    return KING if gain is None else max(0.0, round(gain / 100 - taken, 2))


def material_faults(turns: Sequence[dict[str, Any]], piece: float = 3.0) -> Counter[str]:
    """The honest moves after which a piece or more (not the king) hung in the true state:
    ``knew`` (it hung in its worlds, on average, at least half of ``piece`` more than after
    the least hanging move) or ``unseen``."""
    faults: Counter[str] = Counter()
    for t in turns:
        if piece <= t.get("hung_in_truth", 0.0) < KING:
            knew = t["hung_in_worlds"] - t["least_hung"] >= piece / 2
            faults["piece hung, knew" if knew else "piece hung, unseen"] += 1
    return faults


def classify(turns: Sequence[dict[str, Any]], honest_score: float, reason: str) -> str:
    """The class of a game (see the module docstring)."""
    if honest_score > 0 or reason != "king_captured" or not turns:
        return "won" if honest_score == 1 else "other"
    last = turns[-1]
    if not last["lost_in_truth"]:
        return "other"
    if last["safe_in_truth"] == 0:
        return "no safe move"
    if last["lost_in_worlds"] - last["safest"] >= 0.5:
        return "knew"
    return "unseen"


def material(paths: Sequence[str], every: int = 10) -> list[dict[str, Any]]:
    """The honest seat's material balance every ``every`` plies of the games in ``paths``:
    per ply, how many games reached it, the mean balance and the share a piece (3) down."""
    at: dict[int, list[int]] = {}
    for path in paths:
        with open(path, encoding="utf-8") as games:
            for line in games:
                record = json.loads(line)
                seat = next(i for i, s in enumerate(record["seats"]) if s.startswith("ismcts"))
                color = chess.WHITE if seat == 0 else chess.BLACK
                board = chess.Board()
                for ply, moves in enumerate(record["moves"], 1):
                    (text,) = moves.values()
                    board.push(chess.Move.from_uci(text))  # pseudo-legal pushes are fine
                    if ply % every == 0:
                        balance = sum(
                            WORTH[p.piece_type] * (1 if p.color == color else -1)
                            for p in board.piece_map().values()
                        )
                        at.setdefault(ply, []).append(balance)
    rows = []
    for ply, xs in sorted(at.items()):
        mean, down = sum(xs) / len(xs), sum(x <= -3 for x in xs) / len(xs)
        rows.append(
            {"ply": ply, "games": len(xs), "mean": round(mean, 2), "piece_down": round(down, 2)}
        )
    return rows


def build_parser() -> argparse.ArgumentParser:
    p = argparse.ArgumentParser(
        prog="python -m server.tools.dark_losses",
        description="Dark Chess: the honest ismcts against its cheating twin, and why each "
        "lost game was lost (its worlds held against the true state after every move).",
    )
    p.add_argument("-n", type=int, default=8, help="games (colours alternate; default 8)")
    p.add_argument("--time", type=float, default=1.0, help="seconds a move, both (default 1)")
    p.add_argument("--seed", default="dark-losses", help="the games' seed (as kibitz arena's)")
    p.add_argument(
        "--option",
        action="append",
        default=[],
        metavar="K=V",
        help="a search option for both bots (the twin runs the same search), e.g. pool=16",
    )
    p.add_argument("--json", action="store_true", help="one JSON line a game, then a summary")
    p.add_argument(
        "--material",
        nargs="+",
        metavar="GAMES",
        default=None,
        help="instead of playing: the honest side's material every 10 plies of these "
        "kibitz arena --games-out files",
    )
    return p


def main(argv: Sequence[str] | None = None) -> int:
    args = build_parser().parse_args(argv)
    if args.material:
        for row in material(args.material):
            print(json.dumps(row))
        return 0
    game = get_game("dark_chess")
    options = {}
    for item in args.option:
        key, sep, value = item.partition("=")
        if not sep:
            build_parser().error(f"--option wants KEY=VALUE, not {item!r}")
        options[key] = number(value)
    classes: Counter[str] = Counter()
    for i in range(args.n):
        honest = Observer(**options)
        seats = seating(i, 2, 2)
        twin = CheatingISMCTS(**options)
        record = play_game(game, [honest, twin], [args.time] * 2, seats, f"{args.seed}/{i}")
        score = record.outcome.scores[seats.index(0)]
        kind = classify(honest.turns, score, record.outcome.reason)
        classes[kind] += 1
        classes.update(material_faults(honest.turns))
        if args.json:
            print(json.dumps({"game": i, "score": score, "class": kind, "turns": honest.turns}))
        else:
            progress_line(i + 1, args.n, " ".join(f"{k} {v}" for k, v in sorted(classes.items())))
    summary = {"games": args.n, **dict(sorted(classes.items()))}
    print(json.dumps(summary) if args.json else f"\n{summary}")
    return 0


if __name__ == "__main__":
    sys.exit(main())
