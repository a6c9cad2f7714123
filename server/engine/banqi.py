"""BanQi (half chess, "blind chess"): docs/GAMES.md 3, Taiwanese rules by default.

Two seats; seat 0 acts first. The 32 pieces start face-down on a random layout drawn from the
``rng`` of :meth:`Banqi.new`. A turn is one action: flip any face-down piece, or move/capture
with a face-up piece of one's own colour. Nobody owns a colour until the first flip, which gives
the flipper the colour of the piece it revealed (3.1.5).

Options: ``variant`` ``"taiwanese"`` (3.2) | ``"chinese"`` (3.3); ``cannon_quiet`` ``"slide"``
(a Taiwanese cannon's quiet move runs like a rook) | ``"step"`` (one square); ``draw_plies``
(that many consecutive actions with neither capture nor flip draw the game; 0 turns it off).

Notation: ``flip c3``; a quiet move ``b1-c1``; a capture ``a1xa4``. Squares are files a-h and
ranks 1-4 (32 squares, 3.1.1).

Piece letters: General ``G``, Advisor ``A``, Elephant ``E``, Chariot ``R``, Horse ``H``,
Cannon ``C``, Soldier ``S``; upper case Red, lower case Black. In views a face-down piece is
``?`` with no identity or colour; ``.`` is empty.

End of game (3.1.8, 3.4), checked in this order after every action:

* a colour with no piece left on the board (all 16 captured, which is public) loses for the
  seat that holds it (reason ``all_captured``); seats map to colours through the first flip,
  not by seat number (avoids the Dagaz bug). Dagaz only notices this once no face-down piece
  remains, but by then the result is forced (the other seat can always act), so we end at once;
* the seat to act with no legal action loses (``no_moves``);
* the same board with the same seat to act for the third time since the last flip or capture
  is a draw (``repetition``);
* ``draw_plies`` consecutive actions without a capture or a flip is a draw (``no_progress``).

All information is public (the identity of a face-down piece is known to nobody), so every
seat and spectators get the same view.
"""

from __future__ import annotations

import random
from collections import Counter
from collections.abc import Iterable, Mapping, Sequence
from dataclasses import dataclass, field, replace
from typing import Any

from .base import Game, InvalidMove, Json, Option, Outcome, Seat

FILES = "abcdefgh"
N_FILES, N_RANKS = 8, 4
N_SQUARES = N_FILES * N_RANKS
EMPTY, HIDDEN = ".", "?"
RED, BLACK = 0, 1
COLOUR_NAMES = ("red", "black")
TYPE_NAMES = {
    "g": "general",
    "a": "advisor",
    "e": "elephant",
    "r": "chariot",
    "h": "horse",
    "c": "cannon",
    "s": "soldier",
}
RANK = {"g": 7, "a": 6, "e": 5, "r": 4, "h": 3, "c": 2, "s": 1}  # 3.1.7
#: one colour's pieces (3.1.2), Red's set in upper case
COLOUR_SET = "gaaeerrhhccsssss"
FULL_SET = COLOUR_SET.upper() + COLOUR_SET
VALUE = {"g": 30.0, "a": 10.0, "e": 6.0, "r": 4.0, "h": 3.0, "c": 5.0, "s": 2.0}
DIRECTIONS = ((0, 1), (0, -1), (1, 0), (-1, 0))  # (file, rank) steps


def square_name(sq: int) -> str:
    """``0 -> "a1"``, ``31 -> "h4"``."""
    return FILES[sq % N_FILES] + str(sq // N_FILES + 1)


def parse_square(text: str) -> int:
    """``"a1" -> 0``; :class:`InvalidMove` if ``text`` is not a square of the 8x4 board."""
    if len(text) != 2 or text[0] not in FILES or text[1] not in "1234":
        raise InvalidMove(f"{text!r} is not a square (a1..h4)")
    return FILES.index(text[0]) + N_FILES * (int(text[1]) - 1)


def colour_of(piece: str) -> int:
    return RED if piece.isupper() else BLACK


def _neighbour(sq: int, step: tuple[int, int]) -> int | None:
    f, r = sq % N_FILES + step[0], sq // N_FILES + step[1]
    if 0 <= f < N_FILES and 0 <= r < N_RANKS:
        return r * N_FILES + f
    return None


def _ray(sq: int, step: tuple[int, int]) -> tuple[int, ...]:
    out = []
    nxt = _neighbour(sq, step)
    while nxt is not None:
        out.append(nxt)
        nxt = _neighbour(nxt, step)
    return tuple(out)


_RAYS = tuple(tuple(_ray(sq, d) for d in DIRECTIONS) for sq in range(N_SQUARES))


def can_capture(piece: str, target: str, variant: str) -> bool:
    """Whether ``piece`` may take the face-up enemy ``target`` by a step (3.2, 3.3)."""
    p, t = piece.lower(), target.lower()
    if p == "s" and t == "g":
        return True
    if variant == "taiwanese" and (p == "c" or (p == "g" and t == "s")):
        return False
    return RANK[p] >= RANK[t]


# -- values --------------------------------------------------------------------------------


@dataclass(frozen=True, slots=True)
class BanqiMove:
    """One action: flip ``src`` (``dst is None``), or move ``src -> dst`` (capturing or not)."""

    src: int
    dst: int | None = None
    capture: bool = False

    @classmethod
    def from_text(cls, text: str) -> BanqiMove:
        """Parse ``flip c3``, ``b1-c1`` or ``a1xa4``; :class:`InvalidMove` otherwise."""
        if not isinstance(text, str):
            raise InvalidMove(f"{text!r} is not a BanQi action")
        words = text.strip().lower().split()
        if len(words) == 2 and words[0] == "flip":
            return cls(parse_square(words[1]))
        if len(words) == 1 and len(words[0]) == 5 and words[0][2] in "-x":
            t = words[0]
            src, dst = parse_square(t[:2]), parse_square(t[3:])
            if src == dst:
                raise InvalidMove(f"{text!r} does not move")
            return cls(src, dst, t[2] == "x")
        raise InvalidMove(f"{text!r} is not a BanQi action (flip c3, b1-c1, a1xa4)")

    @property
    def is_flip(self) -> bool:
        return self.dst is None

    def __str__(self) -> str:
        if self.dst is None:
            return f"flip {square_name(self.src)}"
        return square_name(self.src) + ("x" if self.capture else "-") + square_name(self.dst)

    def __repr__(self) -> str:
        return f"BanqiMove.from_text({str(self)!r})"


@dataclass(frozen=True, slots=True)
class BanqiState:
    """The true position.

    Attributes:
        board: 32 chars, index ``rank * 8 + file`` (``a1 = 0``): the true piece letter, also
            for a face-down piece, or ``.``.
        hidden: the squares whose piece is face-down.
        to_move: the seat to act.
        colours: the colour (0 Red, 1 Black) of seat 0 and seat 1, ``None`` before the first
            flip.
        captured: the captured pieces' letters, in order.
        quiet: consecutive actions without capture or flip.
        history: public position keys since the last flip or capture, the current one last
            (for threefold repetition).
        last_move: the action that produced this state.
    """

    board: str
    hidden: frozenset[int]
    to_move: Seat = 0
    colours: tuple[int, int] | None = None
    captured: str = ""
    quiet: int = 0
    history: tuple[str, ...] = field(default=())
    ply: int = 0
    last_move: BanqiMove | None = None
    variant: str = "taiwanese"
    cannon_quiet: str = "slide"
    draw_plies: int = 50

    def __repr__(self) -> str:
        return f"BanqiState({public_board(self)!r}, to_move={self.to_move}, ply={self.ply})"


def public_board(state: BanqiState) -> str:
    """The board as everyone sees it: rows rank 4 .. rank 1, ``?`` face-down, ``.`` empty."""
    rows = []
    for r in reversed(range(N_RANKS)):
        rows.append(
            "".join(
                HIDDEN if sq in state.hidden else state.board[sq]
                for sq in range(r * N_FILES, (r + 1) * N_FILES)
            )
        )
    return "/".join(rows)


def position_key(state: BanqiState) -> str:
    """What threefold repetition compares: the public board and the seat to act."""
    return f"{public_board(state)} {state.to_move}"


def position(
    layout: str,
    *,
    hidden: Iterable[str] = (),
    to_move: Seat = 0,
    colours: tuple[int, int] | None = (RED, BLACK),
    options: Mapping[str, Any] | None = None,
) -> BanqiState:
    """A state from a layout (for tests and analysis).

    ``layout``: rows rank 4 .. rank 1 separated by ``/``, 8 chars each, ``.`` empty, piece
    letters; the squares in ``hidden`` are face-down. Pieces not on the board count as
    captured. ``colours`` maps seats to colours (``None``: no flip yet).
    """
    rows = layout.split("/")
    if len(rows) != N_RANKS or any(len(row) != N_FILES for row in rows):
        raise ValueError(f"{layout!r}: expected {N_RANKS} rows of {N_FILES} squares")
    board = "".join(reversed(rows))
    left = Counter(FULL_SET)
    left.subtract(Counter(ch for ch in board if ch != EMPTY))
    if any(n < 0 for n in left.values()) or set(board) - set(FULL_SET) - {EMPTY}:
        raise ValueError(f"{layout!r} is not part of one BanQi set")
    down = frozenset(parse_square(s) for s in hidden)
    if any(board[sq] == EMPTY for sq in down):
        raise ValueError("a hidden square is empty")
    opts = Banqi().check_options(options)
    state = BanqiState(
        board,
        down,
        to_move,
        colours,
        "".join(ch * left[ch] for ch in dict.fromkeys(FULL_SET)),
        variant=opts["variant"],
        cannon_quiet=opts["cannon_quiet"],
        draw_plies=opts["draw_plies"],
    )
    return replace(state, history=(position_key(state),))


# -- rules ---------------------------------------------------------------------------------


def generate(state: BanqiState) -> list[BanqiMove]:
    """The actions of the seat to move: flips first, then moves by square."""
    moves = [BanqiMove(sq) for sq in sorted(state.hidden)]
    if state.colours is None:
        return moves
    board, hidden = state.board, state.hidden
    mine = state.colours[state.to_move]
    jumping = state.variant == "taiwanese"
    for src, piece in enumerate(board):
        if piece == EMPTY or src in hidden or colour_of(piece) != mine:
            continue
        for ray in _RAYS[src]:
            if not ray:
                continue
            if jumping and piece in "Cc":
                i = 0
                while i < len(ray) and board[ray[i]] == EMPTY:
                    if i == 0 or state.cannon_quiet == "slide":
                        moves.append(BanqiMove(src, ray[i]))
                    i += 1
                i += 1  # over the screen
                while i < len(ray) and board[ray[i]] == EMPTY:
                    i += 1
                if i < len(ray):
                    dst = ray[i]
                    if dst not in hidden and colour_of(board[dst]) != mine:
                        moves.append(BanqiMove(src, dst, True))
                continue
            dst = ray[0]
            target = board[dst]
            if target == EMPTY:
                moves.append(BanqiMove(src, dst))
            elif (
                dst not in hidden
                and colour_of(target) != mine
                and can_capture(piece, target, state.variant)
            ):
                moves.append(BanqiMove(src, dst, True))
    return moves


def apply(state: BanqiState, move: BanqiMove) -> BanqiState:
    """The state after ``move`` (assumed legal)."""
    board, hidden = state.board, state.hidden
    colours, captured, quiet = state.colours, state.captured, state.quiet + 1
    reset = False
    if move.dst is None:
        hidden = hidden - {move.src}
        if colours is None:
            c = colour_of(board[move.src])
            colours = (c, 1 - c) if state.to_move == 0 else (1 - c, c)
        quiet, reset = 0, True
    else:
        cells = list(board)
        if move.capture:
            captured += cells[move.dst]
            quiet, reset = 0, True
        cells[move.dst], cells[move.src] = cells[move.src], EMPTY
        board = "".join(cells)
    new = BanqiState(
        board,
        hidden,
        1 - state.to_move,
        colours,
        captured,
        quiet,
        (),
        state.ply + 1,
        move,
        state.variant,
        state.cannon_quiet,
        state.draw_plies,
    )
    key = position_key(new)
    return replace(new, history=(key,) if reset else (*state.history, key))


class Banqi(Game[BanqiState, BanqiMove]):
    name = "banqi"
    title = "BanQi"
    description = (
        "Half-board Chinese chess with face-down pieces: flip, move and capture by rank "
        "until one side cannot act."
    )
    min_seats = max_seats = 2
    seat_names = ("First", "Second")
    hidden_information = True
    options = {
        "variant": Option(
            "str", "taiwanese", "Rules: Taiwanese or Chinese", choices=("taiwanese", "chinese")
        ),
        "cannon_quiet": Option(
            "str",
            "slide",
            "Taiwanese cannon's quiet move: slide like a chariot, or one step",
            choices=("slide", "step"),
        ),
        "draw_plies": Option(
            "int",
            50,
            "Draw after this many actions in a row without capture or flip (0: never)",
            minimum=0,
            maximum=1000,
        ),
    }

    # -- setup ---------------------------------------------------------------------------

    def new(self, options: Mapping[str, Any], n_seats: int, rng: random.Random) -> BanqiState:
        opts = self.check_options(options)
        pieces = list(FULL_SET)
        rng.shuffle(pieces)
        state = BanqiState(
            "".join(pieces),
            frozenset(range(N_SQUARES)),
            variant=opts["variant"],
            cannon_quiet=opts["cannon_quiet"],
            draw_plies=opts["draw_plies"],
        )
        return replace(state, history=(position_key(state),))

    # -- playing -------------------------------------------------------------------------

    def to_act(self, state: BanqiState) -> frozenset[Seat]:
        if self.outcome(state) is not None:
            return frozenset()
        return frozenset({state.to_move})

    def legal_moves(self, state: BanqiState, seat: Seat) -> list[BanqiMove]:
        if seat not in self.to_act(state):
            return []
        return generate(state)

    def parse_move(self, state: BanqiState, seat: Seat, text: str) -> BanqiMove:
        return BanqiMove.from_text(text)

    def play(
        self,
        state: BanqiState,
        moves: Mapping[Seat, BanqiMove],
        rng: random.Random,
        *,
        check: bool = True,
    ) -> BanqiState:
        if check:
            self.check_moves(state, moves)
        return apply(state, moves[state.to_move])

    def outcome(self, state: BanqiState) -> Outcome | None:
        if state.colours is not None:
            for seat, colour in enumerate(state.colours):
                if not any(ch != EMPTY and colour_of(ch) == colour for ch in state.board):
                    return Outcome.win(1 - seat, 2, "all_captured")
        if not generate(state):
            return Outcome.win(1 - state.to_move, 2, "no_moves")
        if state.history.count(state.history[-1]) >= 3:
            return Outcome.draw(2, "repetition")
        if state.draw_plies and state.quiet >= state.draw_plies:
            return Outcome.draw(2, "no_progress")
        return None

    def ply(self, state: BanqiState) -> int:
        return state.ply

    def view(self, state: BanqiState, seat: Seat | None) -> Json:
        """The public position; the same for every seat and spectators."""
        squares: Json = {}
        for sq, ch in enumerate(state.board):
            if sq in state.hidden:
                squares[square_name(sq)] = {"hidden": True}
            elif ch != EMPTY:
                squares[square_name(sq)] = _piece_json(ch)
        last = state.last_move
        event: Json | None = None
        if last is not None:
            if last.dst is None:
                event = {"type": "flip", "square": square_name(last.src)}
                event["piece"] = _piece_json(state.board[last.src])
            elif last.capture:
                event = {"type": "capture", "square": square_name(last.dst)}
                event["piece"] = _piece_json(state.captured[-1])
            else:
                event = {"type": "move", "square": square_name(last.dst)}
        return {
            "variant": state.variant,
            "cannon_quiet": state.cannon_quiet,
            "draw_plies": state.draw_plies,
            "board": public_board(state),
            "squares": squares,
            "ply": state.ply,
            "to_move": state.to_move,
            "to_act": sorted(self.to_act(state)),
            "colours": None
            if state.colours is None
            else {str(s): COLOUR_NAMES[c] for s, c in enumerate(state.colours)},
            "captured": list(state.captured),
            "counters": {
                "hidden": len(state.hidden),
                "quiet": state.quiet,
                "repetitions": state.history.count(state.history[-1]),
            },
            "history": list(state.history),
            "last_move": None if last is None else str(last),
            "last_event": event,
        }

    # -- bot hooks -----------------------------------------------------------------------

    def evaluate(self, state: BanqiState, seat: Seat) -> list[float]:
        """Material on the board (face-down pieces included) per seat; zeros before colours."""
        if state.colours is None:
            return [0.0, 0.0]
        by_colour = [0.0, 0.0]
        for ch in state.board:
            if ch != EMPTY:
                by_colour[colour_of(ch)] += VALUE[ch.lower()]
        return [by_colour[c] for c in state.colours]

    def move_heuristic(self, state: BanqiState, seat: Seat, move: BanqiMove) -> float:
        """The value of the captured piece; flips 1, quiet moves 0."""
        if move.dst is None:
            return 1.0
        if move.capture:
            return VALUE[state.board[move.dst].lower()]
        return 0.0

    def determinize(self, views: Sequence[Json], seat: Seat, rng: random.Random) -> BanqiState:
        """A true state matching the last view: the face-down squares get a random
        arrangement of exactly the pieces neither face-up on the board nor captured."""
        view = views[-1]
        rows = str(view["board"]).split("/")
        public = "".join(reversed(rows))
        down = [sq for sq, ch in enumerate(public) if ch == HIDDEN]
        left = Counter(FULL_SET)
        left.subtract(Counter(ch for ch in public if ch not in (EMPTY, HIDDEN)))
        left.subtract(Counter(view["captured"]))
        if any(n < 0 for n in left.values()) or sum(left.values()) != len(down):
            raise ValueError("the view does not fit one BanQi set")
        pool = sorted(left.elements())
        rng.shuffle(pool)
        cells = list(public)
        for sq, piece in zip(down, pool, strict=True):
            cells[sq] = piece
        colours = view["colours"]
        last = view["last_move"]
        return BanqiState(
            "".join(cells),
            frozenset(down),
            int(view["to_move"]),
            None
            if colours is None
            else (COLOUR_NAMES.index(colours["0"]), COLOUR_NAMES.index(colours["1"])),
            "".join(view["captured"]),
            int(view["counters"]["quiet"]),
            tuple(view["history"]),
            int(view["ply"]),
            None if last is None else BanqiMove.from_text(last),
            str(view["variant"]),
            str(view["cannon_quiet"]),
            int(view["draw_plies"]),
        )

    # -- snapshots -----------------------------------------------------------------------

    def encode_state(self, state: BanqiState) -> Json:
        return {
            "board": state.board,
            "hidden": [square_name(sq) for sq in sorted(state.hidden)],
            "to_move": state.to_move,
            "colours": None if state.colours is None else list(state.colours),
            "captured": state.captured,
            "quiet": state.quiet,
            "history": list(state.history),
            "ply": state.ply,
            "last_move": None if state.last_move is None else str(state.last_move),
            "variant": state.variant,
            "cannon_quiet": state.cannon_quiet,
            "draw_plies": state.draw_plies,
        }

    def decode_state(self, data: Mapping[str, Any]) -> BanqiState:
        colours = data["colours"]
        last = data["last_move"]
        return BanqiState(
            str(data["board"]),
            frozenset(parse_square(s) for s in data["hidden"]),
            int(data["to_move"]),
            None if colours is None else (int(colours[0]), int(colours[1])),
            str(data["captured"]),
            int(data["quiet"]),
            tuple(data["history"]),
            int(data["ply"]),
            None if last is None else BanqiMove.from_text(last),
            str(data["variant"]),
            str(data["cannon_quiet"]),
            int(data["draw_plies"]),
        )


def _piece_json(ch: str) -> Json:
    return {"colour": COLOUR_NAMES[colour_of(ch)], "type": TYPE_NAMES[ch.lower()], "piece": ch}


GAMES = (Banqi(),)
