"""The Apocalypse game: options, turns, views, bot hooks and snapshots for the rooms."""

from __future__ import annotations

import random
from collections.abc import Mapping, Sequence
from typing import Any

from .. import chess_board
from ..base import Game, Json, Option, Outcome, Seat
from .board import (
    _VALUE,
    BLACK,
    EMPTY,
    KNIGHT,
    LAST_RANK,
    PAWN,
    SIZE,
    START_BOARD,
    WHITE,
    board_from_text,
    board_to_text,
    square_name,
)
from .rules import generate, join
from .values import ApocalypseMove, ApocalypseState, Event


class Apocalypse(Game[ApocalypseState, ApocalypseMove]):
    name = "apocalypse"
    title = "Apocalypse"
    board = "apocalypse"
    description = (
        "5x5 chess with horsemen and footmen where both sides move at the same time; "
        "lose all your horsemen and you lose."
    )
    how_to_play = (
        "A 5x5 board; each side has two horsemen (knights) and five footmen (pawns).",
        "Both sides choose a move at the same time; neither sees the other's until both are in, "
        "then both happen at once. You may change your move until the other side has chosen.",
        "Horsemen jump like chess knights. Footmen step one square forward to an empty square, or "
        "diagonally forward onto an enemy piece; there is no double step.",
        "If both pieces land on the same square, a horseman beats a footman; two pieces of the "
        "same kind are both removed. A piece that moved away from a square the enemy moved to is "
        "not taken.",
        "A footman reaching the far row becomes a horseman if you have fewer than two; otherwise "
        "it must move next turn to any empty square not on that row.",
        "Lose all your horsemen and you lose (both at once: a draw). The game is drawn after the "
        "turn limit set in the options.",
    )
    min_seats = max_seats = 2
    seat_names = ("White", "Black")
    hidden_information = True  # the moves of a turn are sealed until both are in
    simultaneous = True
    options = {
        "ruleset": Option(
            "str", "dagaz", "Rules: Dagaz (docs/GAMES.md 1.2-1.4)", choices=("dagaz",)
        ),
        "max_turns": Option(
            "int",
            200,
            "Joint turns before the game is drawn (0: no limit)",
            minimum=0,
            maximum=10_000,
        ),
    }

    # -- setup ---------------------------------------------------------------------------

    def new(self, options: Mapping[str, Any], n_seats: int, rng: random.Random) -> ApocalypseState:
        ruleset = options.get("ruleset", "dagaz")
        limit = int(options.get("max_turns", 0))
        return ApocalypseState(board_from_text(START_BOARD), ruleset=ruleset, max_turns=limit)

    # -- playing -------------------------------------------------------------------------

    def to_act(self, state: ApocalypseState) -> frozenset[Seat]:
        if self.outcome(state) is not None:
            return frozenset()
        if not generate(state, BLACK):
            return frozenset({WHITE})
        return frozenset({WHITE, BLACK})

    def legal_moves(self, state: ApocalypseState, seat: Seat) -> list[ApocalypseMove]:
        if seat not in self.to_act(state):
            return []
        return generate(state, seat)

    def parse_move(self, state: ApocalypseState, seat: Seat, text: str) -> ApocalypseMove:
        return ApocalypseMove.from_text(text)

    def play(
        self,
        state: ApocalypseState,
        moves: Mapping[Seat, ApocalypseMove],
        rng: random.Random,
        *,
        check: bool = True,
    ) -> ApocalypseState:
        if check:
            self.check_moves(state, moves)
        board, events = join(state.board, moves)
        last = (moves.get(WHITE), moves.get(BLACK))
        return ApocalypseState(board, state.ply + 1, last, events, state.ruleset, state.max_turns)

    def outcome(self, state: ApocalypseState) -> Outcome | None:
        white, black = state.board.count(KNIGHT[WHITE]), state.board.count(KNIGHT[BLACK])
        if not white and not black:
            return Outcome.draw(2, "horsemen_lost")
        if not black:
            return Outcome.win(WHITE, 2, "horsemen_lost")
        if not white:
            return Outcome.win(BLACK, 2, "horsemen_lost")
        if not generate(state, WHITE):
            return Outcome.win(BLACK, 2, "no_moves")
        if state.max_turns and state.ply >= state.max_turns:
            return Outcome.draw(2, "turn_limit")
        return None

    def ply(self, state: ApocalypseState) -> int:
        return state.ply

    def view(self, state: ApocalypseState, seat: Seat | None) -> Json:
        """Everything is public once a turn is resolved (sealed moves never reach the engine)."""
        view: Json = {
            "ruleset": state.ruleset,
            "max_turns": state.max_turns,
            "board": board_to_text(state.board),
            "pieces": {square_name(sq): ch for sq, ch in enumerate(state.board) if ch != EMPTY},
            "ply": state.ply,
            "to_act": sorted(self.to_act(state)),
            "horsemen": [state.board.count(KNIGHT[WHITE]), state.board.count(KNIGHT[BLACK])],
            "last_moves": {
                str(s): None if m is None else str(m) for s, m in enumerate(state.last_moves)
            },
            "last_events": [e.to_json() for e in state.events],
        }
        view["grid"] = _grid(view, self.outcome(state))
        return view

    # -- bot hooks -----------------------------------------------------------------------

    def evaluate(self, state: ApocalypseState, seat: Seat) -> list[float]:
        """Material per seat: horseman 3, footman 1."""
        scores = [0.0, 0.0]
        for ch in state.board:
            if ch != EMPTY:
                scores[WHITE if ch.isupper() else BLACK] += _VALUE[ch]
        return scores

    def move_heuristic(self, state: ApocalypseState, seat: Seat, move: ApocalypseMove) -> float:
        """Value of the piece on the target, plus 2 for a promotion within the limit."""
        score = _VALUE.get(state.board[move.dst], 0.0)
        if (
            state.board[move.src] == PAWN[seat]
            and move.dst // SIZE == LAST_RANK[seat]
            and state.board.count(KNIGHT[seat]) < 2
        ):
            score += 2.0
        return score

    def determinize(self, views: Sequence[Json], seat: Seat, rng: random.Random) -> ApocalypseState:
        """The true state between turns, rebuilt from the last view: the board, the moves
        of the previous turn (the ko, 1.2.6) and its events are all public once a turn is
        resolved; a sealed move of the turn in progress is never part of any view."""
        view = views[-1]
        last = view["last_moves"]
        moves = [
            None if last.get(str(s)) is None else ApocalypseMove.from_text(last[str(s)])
            for s in (WHITE, BLACK)
        ]
        return ApocalypseState(
            board_from_text(str(view["board"])),
            int(view["ply"]),
            (moves[0], moves[1]),
            tuple(Event.from_json(e) for e in view["last_events"]),
            str(view.get("ruleset", "dagaz")),
            int(view.get("max_turns", 0)),
        )

    # -- snapshots -----------------------------------------------------------------------

    def encode_state(self, state: ApocalypseState) -> Json:
        return {
            "board": board_to_text(state.board),
            "ply": state.ply,
            "last_moves": [None if m is None else str(m) for m in state.last_moves],
            "events": [e.to_json() for e in state.events],
            "ruleset": state.ruleset,
            "max_turns": state.max_turns,
        }

    def decode_state(self, data: Mapping[str, Any]) -> ApocalypseState:
        last = [None if m is None else ApocalypseMove.from_text(m) for m in data["last_moves"]]
        return ApocalypseState(
            board_from_text(data["board"]),
            int(data["ply"]),
            (last[0], last[1]),
            tuple(Event.from_json(e) for e in data["events"]),
            str(data.get("ruleset", "dagaz")),
            int(data.get("max_turns", 0)),
        )


#: the figures' names (a horseman is drawn as a knight, a footman as a pawn)
NAMES = {"n": "horseman", "p": "footman"}
#: the squares' colours (a green board: not chess)
PALETTE = {"light": "#e8e2cf", "dark": "#8fa68b"}
#: the marks of what a turn did
MARKED = {"collision", "capture", "promotion"}


def event_text(ev: Json) -> str:
    """``collision on b3 (white horseman and black horseman removed)``."""
    kind, square = ev["type"], ev["square"]
    if kind == "capture":
        return f"capture on {square}"
    if kind == "evaded":
        return f"the piece on {square} got away"
    if kind == "collision":
        removed = " and ".join(
            f"{'white' if p.isupper() else 'black'} {NAMES[p.lower()]}" for p in ev["removed"]
        )
        return f"collision on {square} ({removed} removed)"
    if kind == "promotion":
        return f"promotion on {square}"
    if kind == "promotion_refused":
        return f"no promotion on {square} (two horsemen already)"
    return f"{kind} on {square}"


def _grid(view: Json, end: Outcome | None) -> Json:
    """The board described (:mod:`..chess_board`, 5x5): both sides' last moves as arrows, what
    they did marked, the turn's facts beside the board."""
    moves = {int(s): m for s, m in view["last_moves"].items() if m}
    events = view["last_events"]
    happened = "; ".join(event_text(ev) for ev in events)
    facts = [
        {"label": "Turns played" if end else "Turn", "text": str(view["ply"] + (0 if end else 1))},
        {"label": "Horsemen", "text": "White {} · Black {}".format(*view["horsemen"])},
    ]
    turn = ", ".join(f"{('White', 'Black')[s]} {m}" for s, m in sorted(moves.items()))
    if moves:
        facts.append({"label": "Last turn", "text": turn, "name": "last-turn"})
    if events:
        facts.append({"label": "What happened", "text": happened, "name": "last-events"})
    said = f"Turn {view['ply']}: {turn}" + (f" — {happened}" if events else "") if moves else ""
    if end is None:
        status = "White and Black move at the same time"
    else:
        status = chess_board.status(0, end)
    return chess_board.describe(
        view["pieces"],
        size=SIZE,
        names=NAMES,
        palette=PALETTE,
        marks={ev["square"]: ev["type"] for ev in events if ev["type"] in MARKED},
        status=status,
        arrows=[[m[:2], m[2:4], s] for s, m in sorted(moves.items())],
        facts=facts,
        said=said,
    )
