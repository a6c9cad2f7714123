"""A toy grid game for the tests of the described board: every gesture in a few squares.

3 x 4 squares, two seats (Gold, Jade) on opposite edges (``sides``: south/north or
west/east, so the board must turn a quarter). Each has a king (a pointed piece) and one pawn
in hand. On a turn a seat may step a piece one square orthogonally (onto an enemy: a capture,
the piece goes to the capturer's hand as a pawn); a pawn stepping onto the far line chooses
Q or R (``a3-a4=Q``); drop a pawn from the hand on an empty square (``P*b1``); promote a pawn
standing in the pool by acting on its square (``b3``); or ``pass``. A face-down rock nobody
owns blocks b2. Taking the king wins; 60 plies draw.

``board: points`` draws the same game on the crossings (XiangQi's style): two links (a1-b2,
c1-b2, a palace's diagonals) and two breaks (a2-a3, c2-c3, a river named in the legend).
"""

from __future__ import annotations

import random
from collections.abc import Mapping
from dataclasses import dataclass, replace
from typing import Any

from server.engine import Game, InvalidMove, Option, Outcome, grid
from server.engine.base import Json

FILES, RANKS = 3, 4
ROCK = "b2"
POOL = "b3"
NAMES = ("Gold", "Jade")
COLOURS = ("#d4a514", "#2e8b57")
EDGES = {"south-north": ("south", "north"), "west-east": ("west", "east")}
STEPS = ((0, 1), (0, -1), (1, 0), (-1, 0))
LINKS = (("a1", "b2"), ("c1", "b2"))
BREAKS = (("a2", "a3"), ("c2", "c3"))


@dataclass(frozen=True, slots=True)
class ToyState:
    sides: str
    style: str
    pieces: tuple[tuple[str, int, str, bool], ...]  # (square, seat, kind, promoted)
    hands: tuple[int, int] = (1, 1)
    turn: int = 0
    ply: int = 0
    last: tuple[str, ...] = ()
    winner: int | None = None
    said: str = ""  # the last move's text

    def at(self, sq: str) -> tuple[str, int, str, bool] | None:
        return next((p for p in self.pieces if p[0] == sq), None)


def far_line(state: ToyState, seat: int, f: int, r: int) -> bool:
    edge = EDGES[state.sides][1 - seat]
    return {"south": r == 0, "north": r == RANKS - 1, "west": f == 0, "east": f == FILES - 1}[edge]


class GridToy(Game[ToyState, str]):
    name = "gridtoy"
    title = "Grid toy"
    min_seats = max_seats = 2
    seat_names = NAMES
    play_draws = False
    options = {
        "sides": Option("str", "south-north", "the seats' edges", choices=tuple(EDGES)),
        "board": Option("str", "cells", "pieces in cells or on points", choices=grid.STYLES),
    }

    def new(self, options: Mapping[str, Any], n_seats: int, rng: random.Random) -> ToyState:
        sides = options.get("sides", "south-north")
        kings = ("a1", "c4") if sides == "south-north" else ("a4", "c1")
        pieces = ((kings[0], 0, "K", False), (kings[1], 1, "K", False))
        return ToyState(sides, options.get("board", "cells"), pieces)

    def to_act(self, state: ToyState) -> frozenset[int]:
        return frozenset() if self.outcome(state) else frozenset({state.turn})

    def legal_moves(self, state: ToyState, seat: int) -> list[str]:
        if seat not in self.to_act(state):
            return []
        out: list[str] = []
        for sq, owner, kind, promoted in state.pieces:
            if owner != seat:
                continue
            f, r = grid.parse_square(sq, FILES, RANKS)
            for df, dr in STEPS:
                if not (0 <= f + df < FILES and 0 <= r + dr < RANKS):
                    continue
                to = grid.square_name(f + df, r + dr)
                there = state.at(to)
                if to == ROCK or (there and there[1] == seat):
                    continue
                text = f"{sq}{'x' if there else '-'}{to}"
                if kind == "P" and not promoted and far_line(state, seat, f + df, r + dr):
                    out += [f"{text}=Q", f"{text}=R"]
                else:
                    out.append(text)
            if sq == POOL and kind == "P" and not promoted:
                out.append(sq)
        if state.hands[seat]:
            empty = [grid.square_name(f, r) for r in range(RANKS) for f in range(FILES)]
            out += [f"P*{sq}" for sq in empty if sq != ROCK and not state.at(sq)]
        return [*out, "pass"]

    def parse_move(self, state: ToyState, seat: int, text: str) -> str:
        if grid.gesture(text) is None:
            raise InvalidMove(f"{text!r} is not a move")
        return text

    def play(
        self, state: ToyState, moves: Mapping[int, str], rng: random.Random, *, check: bool = True
    ) -> ToyState:
        if check:
            self.check_moves(state, moves)
        seat = state.turn
        g = grid.gesture(moves[seat])
        assert g is not None
        pieces = list(state.pieces)
        hands = list(state.hands)
        winner = None
        last: tuple[str, ...] = ()
        if g.kind == "move":
            assert g.src and g.dst
            moving = state.at(g.src)
            taken = state.at(g.dst)
            assert moving
            pieces.remove(moving)
            if taken:
                pieces.remove(taken)
                hands[seat] += 1
                winner = seat if taken[2] == "K" else None
            kind = g.choice or moving[2]
            pieces.append((g.dst, seat, kind, moving[3] or g.choice is not None))
            last = (g.src, g.dst)
        elif g.kind == "drop":
            assert g.dst
            pieces.append((g.dst, seat, "P", False))
            hands[seat] -= 1
            last = (g.dst,)
        elif g.kind == "act":
            assert g.src
            pieces.remove(state.at(g.src))  # type: ignore[arg-type]
            pieces.append((g.src, seat, "P", True))
            last = (g.src,)
        return replace(
            state,
            pieces=tuple(sorted(pieces)),
            hands=(hands[0], hands[1]),
            turn=1 - seat,
            ply=state.ply + 1,
            last=last,
            winner=winner,
            said=moves[seat],
        )

    def outcome(self, state: ToyState) -> Outcome | None:
        if state.winner is not None:
            return Outcome.win(state.winner, 2, "king_captured")
        if state.ply >= 60:
            return Outcome.draw(2, "turn_cap")
        return None

    def view(self, state: ToyState, seat: int | None) -> Json:
        names = {"K": "King", "P": "Pawn", "Q": "Queen", "R": "Rook"}
        pieces = {
            sq: grid.piece(
                owner,
                kind,
                f"{NAMES[owner]} {names[kind]}",
                kind,
                shape="point" if kind == "K" else "disc",
                promoted=promoted,
            )
            for sq, owner, kind, promoted in state.pieces
        }
        pieces[ROCK] = grid.piece(None, "", "face-down rock", hidden=True, shape="square")
        points = state.style == "points"
        river = {"river": {"label": "River"}} if points else {}
        king = next((p[0] for p in state.pieces if p[1] == state.turn and p[2] == "K"), None)
        desc = grid.describe(
            files=FILES,
            ranks=RANKS,
            seats=[
                {"name": n, "colour": c, "edge": e}
                for n, c, e in zip(NAMES, COLOURS, EDGES[state.sides], strict=True)
            ],
            pieces=pieces,
            style=state.style,
            links=LINKS if points else (),
            breaks=BREAKS if points else (),
            terrain={
                "pool": {"label": "Pool", "fill": "#8ecae6"},
                "gate": {"label": "Gate", "fill": "#e9c46a"},
                "moss": {"label": "Moss", "fill": "#7cb342"},
                **river,
            },
            cells={
                POOL: ["pool"],
                "a1": ["gate"],
                "c4": ["gate", "moss"],
                **({"a2": ["river"], "c2": ["river"]} if points else {}),
            },
            hands={
                s: [{"kind": "pawn", "label": "Pawn", "glyph": "P", "letter": "P", "count": n}]
                for s, n in enumerate(state.hands)
                if n
            },
            last=state.last,
            marks={king: "next"} if king and not self.outcome(state) else {},
            status=f"{NAMES[state.turn]} to move",
        )
        return {"grid": desc, "ply": state.ply, "last_move": state.said or None}

    def ply(self, state: ToyState) -> int:
        return state.ply

    def encode_state(self, state: ToyState) -> Json:
        return {
            "sides": state.sides,
            "style": state.style,
            "pieces": [list(p) for p in state.pieces],
            "hands": list(state.hands),
            "turn": state.turn,
            "ply": state.ply,
            "last": list(state.last),
            "winner": state.winner,
            "said": state.said,
        }

    def decode_state(self, data: Mapping[str, Any]) -> ToyState:
        return ToyState(
            data["sides"],
            data["style"],
            tuple((a, b, c, d) for a, b, c, d in data["pieces"]),
            (data["hands"][0], data["hands"][1]),
            data["turn"],
            data["ply"],
            tuple(data["last"]),
            data["winner"],
            data["said"],
        )
