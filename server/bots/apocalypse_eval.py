"""Apocalypse evaluation for the searches: horsemen first, seed 000's heuristics as priors.

The game is lost with the last horseman (docs/GAMES.md 1.4), and a footman is a horseman in waiting
only while its side has fewer than two (the promotion limit, 1.3 c), so a horseman weighs four
footmen here (the engine's ``evaluate`` hook says three) and a footman gains a little for every
rank it advances while a promotion is possible. Move priors come from seed 000's aggressive
scores (:func:`server.bots.aggressive.score`): running from an attack, taking pieces and not
stepping into attacked squares are what sensible players do, so the tree and the playouts
expect them from both seats.
"""

from __future__ import annotations

from typing import Any

from server.engine import Game
from server.engine.apocalypse import KNIGHT, PAWN, SIZE, generate

from .aggressive import BONUS, LARGE_BONUS, MAXVALUE, SMALL_BONUS, attacks, score
from .scoring import logistic

HORSEMAN = 4.0
FOOTMAN = 1.0
ADVANCE = 0.15  # per rank a footman has advanced, while its side may still promote


class ApocalypseEvaluator:
    def __init__(self, game: Game[Any, Any], *, scale: float = 2.5) -> None:
        self.game = game
        self.scale = scale
        self._cover: tuple[str, int, list[set[str]]] = ("", -1, [])

    def moves(self, state: Any, seat: int) -> list[Any]:
        """The seat's moves for playouts (the engine's generator, without re-deciding
        whose turn it is: the playout asked ``to_act`` already)."""
        return generate(state, seat)

    def material(self, board: str) -> list[float]:
        out = [0.0, 0.0]
        for seat in (0, 1):
            horsemen = board.count(KNIGHT[seat])
            out[seat] = HORSEMAN * horsemen + FOOTMAN * board.count(PAWN[seat])
            if horsemen < 2:
                for sq, ch in enumerate(board):
                    if ch == PAWN[seat]:
                        rank = sq // SIZE
                        out[seat] += ADVANCE * (rank if seat == 0 else SIZE - 1 - rank)
        return out

    def values(self, state: Any) -> list[float]:
        outcome = self.game.outcome(state)
        if outcome is not None:
            return list(outcome.scores)
        m = self.material(state.board)
        white = logistic((m[0] - m[1]) / self.scale)
        return [white, 1.0 - white]

    def prior(self, state: Any, seat: int, move: Any) -> float:
        board = state.board
        if self._cover[0] != board or self._cover[1] != seat:
            self._cover = (board, seat, attacks(board, 1 - seat))
        s = score(board, seat, move, self._cover[2])
        if s <= -MAXVALUE / 2:
            return 0.05
        weight = 1.0
        if s >= MAXVALUE / 2:
            weight += 8.0
        if s >= LARGE_BONUS / 2:
            weight += 4.0 if s % MAXVALUE >= LARGE_BONUS / 2 else 0.0
        if s > 0 and s % LARGE_BONUS >= BONUS / 2:
            weight += 2.0
        if s > 0 and s % BONUS >= SMALL_BONUS / 2:
            weight += 1.0
        return weight
