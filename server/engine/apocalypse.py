"""Apocalypse: 5x5 chess with simultaneous moves, Dagaz ruleset (docs/GAMES.md 1.1-1.4).

Seat 0 is White (rank 1 side), seat 1 is Black. Each turn both seats choose a move from the
same position, each from its own legal list (1.2); the room seals them until both are in, and
:meth:`Apocalypse.play` merges them with the join rule (1.3).

Notation: every move is ``<from><to>`` in lower case, e.g. ``a2a3``, ``a1b3``. A pawn move to
its last rank is always a promotion attempt (1.2.4) whose result the join decides (1.3 c), so
it carries no suffix; a forced relocation (1.2.5) is written the same way (``c5b3``).
``parse_move`` also accepts ``a1-b3``, ``a1xb3`` and upper case.

Board text (views, tests): FEN-like rows from rank 5 down to rank 1, digits for runs of empty
squares; ``N``/``P`` White horseman/footman, ``n``/``p`` Black. The start is
``npppn/p3p/5/P3P/NPPPN``.

Readings of docs/GAMES.md where it leaves room:

* Join (1.3): both moves read their piece from the pre-turn board. Different targets: each
  mover lands on its target (capturing whatever still stands there) and a from-square is
  emptied unless the other mover has just landed on it, so a piece that leaves the square the
  enemy moves onto survives, swaps keep both pieces, and a pawn's diagonal move stands even
  when its victim left. Same target: the pre-move piece types decide (horseman beats footman,
  equal types both die); a promoting pawn counts as a footman there.
* Promotion limit (1.3 c), per side: ``2 - own horsemen before the turn``, plus one when the
  opponent's move ends on a square holding one of this side's horsemen (other than this
  move's from-square); the promotion happens iff the limit is above 0. A refused promotion
  leaves a footman on the last rank, which must relocate next turn (1.2.5).
* A forced relocation is an ordinary simple move for the join, the ko and collisions.
* Anti-swap ko (1.2.6): L is the set of moves applied on the previous turn (one or two); a move
  ``s -> d`` is illegal when every from/to square of L lies in ``{s, d}``. No ban on turn one.
* End (1.4), checked after every turn: a side without horsemen loses, both at once is a draw
  (reason ``horsemen_lost``). Then, following Dagaz's controller: if White has no legal move
  the game ends and White loses (reason ``no_moves``, also when Black cannot move either);
  if only Black has no legal move, ``to_act`` is ``{0}`` and White's move is applied alone.
  Dagaz has no other draw rule, so a game could go on for ever; we add one [Decide]: after
  ``max_turns`` joint turns (option, default 200; 0 = no limit) the game is drawn (reason
  ``turn_limit``).
"""

from __future__ import annotations

import random
from collections.abc import Mapping, Sequence
from dataclasses import dataclass, field
from typing import Any

from .base import Game, InvalidMove, Json, Option, Outcome, Seat

WHITE, BLACK = 0, 1
SIZE = 5
FILES = "abcde"
EMPTY = "."
KNIGHT = ("N", "n")  # by seat
PAWN = ("P", "p")
LAST_RANK = (SIZE - 1, 0)  # the rank (0-based) where each seat's pawns promote
FORWARD = (1, -1)
START_BOARD = "npppn/p3p/5/P3P/NPPPN"
_VALUE = {"N": 3.0, "n": 3.0, "P": 1.0, "p": 1.0}
_RANK = {"P": 0, "p": 0, "N": 1, "n": 1}  # join type order: footman < horseman (1.3)


def square_name(sq: int) -> str:
    """``0 -> "a1"``, ``24 -> "e5"``."""
    return FILES[sq % SIZE] + str(sq // SIZE + 1)


def parse_square(text: str) -> int:
    """``"a1" -> 0``; :class:`InvalidMove` if ``text`` is not a square of the 5x5 board."""
    if len(text) != 2 or text[0] not in FILES or text[1] not in "12345":
        raise InvalidMove(f"{text!r} is not a square (a1..e5)")
    return FILES.index(text[0]) + SIZE * (int(text[1]) - 1)


def owner(piece: str) -> Seat | None:
    """The seat owning ``piece`` (upper case White), ``None`` for an empty square."""
    if piece == EMPTY:
        return None
    return WHITE if piece.isupper() else BLACK


def _knight_targets(sq: int) -> tuple[int, ...]:
    r, f = divmod(sq, SIZE)
    out = []
    for dr, df in ((1, 2), (2, 1), (2, -1), (1, -2), (-1, -2), (-2, -1), (-2, 1), (-1, 2)):
        if 0 <= r + dr < SIZE and 0 <= f + df < SIZE:
            out.append((r + dr) * SIZE + f + df)
    return tuple(sorted(out))


_KNIGHT_TARGETS = tuple(_knight_targets(sq) for sq in range(SIZE * SIZE))


def board_from_text(text: str) -> str:
    """The 25-char board (index ``a1 = 0``) from FEN-like rows ``rank5/.../rank1``."""
    rows = text.split("/")
    if len(rows) != SIZE:
        raise ValueError(f"{text!r}: expected {SIZE} rows")
    cells: list[str] = []
    for row in reversed(rows):
        line = ""
        for ch in row:
            if ch.isdigit():
                line += EMPTY * int(ch)
            elif ch in "NPnp":
                line += ch
            else:
                raise ValueError(f"{text!r}: bad character {ch!r}")
        if len(line) != SIZE:
            raise ValueError(f"{text!r}: row {row!r} is not {SIZE} squares")
        cells.append(line)
    return "".join(cells)


def board_to_text(board: str) -> str:
    """Inverse of :func:`board_from_text`."""
    rows = []
    for r in reversed(range(SIZE)):
        row, run = "", 0
        for ch in board[r * SIZE : (r + 1) * SIZE]:
            if ch == EMPTY:
                run += 1
                continue
            if run:
                row += str(run)
                run = 0
            row += ch
        rows.append(row + (str(run) if run else ""))
    return "/".join(rows)


# -- values --------------------------------------------------------------------------------


@dataclass(frozen=True, slots=True)
class ApocalypseMove:
    """One seat's simple move ``src -> dst`` (squares as indices, ``a1 = 0``)."""

    src: int
    dst: int

    @classmethod
    def from_text(cls, text: str) -> ApocalypseMove:
        """Parse ``a1b3`` (also ``a1-b3``, ``a1xb3``); :class:`InvalidMove` otherwise."""
        if not isinstance(text, str):
            raise InvalidMove(f"{text!r} is not an Apocalypse move")
        t = text.strip().lower()
        if len(t) == 5 and t[2] in "-x":
            t = t[:2] + t[3:]
        if len(t) != 4:
            raise InvalidMove(f"{text!r} is not an Apocalypse move (like a1b3)")
        src, dst = parse_square(t[:2]), parse_square(t[2:])
        if src == dst:
            raise InvalidMove(f"{text!r} does not move")
        return cls(src, dst)

    def __str__(self) -> str:
        return square_name(self.src) + square_name(self.dst)

    def __repr__(self) -> str:
        return f"ApocalypseMove.from_text({str(self)!r})"


@dataclass(frozen=True, slots=True)
class Event:
    """Something the join did, for clients to animate (see :meth:`to_json`).

    ``kind``: ``capture`` (``pieces`` = the piece taken on ``square``), ``evaded`` (the piece
    that stood on a target moved away and survived), ``collision`` (both movers met on
    ``square``; ``pieces`` = the pieces removed), ``promotion`` / ``promotion_refused``
    (``seat``'s pawn on ``square``).
    """

    kind: str
    square: int
    pieces: str = ""
    seat: Seat | None = None

    def to_json(self) -> Json:
        out: Json = {"type": self.kind, "square": square_name(self.square)}
        if self.kind in ("capture", "evaded"):
            out["piece"] = self.pieces
        if self.kind == "collision":
            out["removed"] = list(self.pieces)
        if self.seat is not None:
            out["seat"] = self.seat
        return out

    @classmethod
    def from_json(cls, data: Mapping[str, Any]) -> Event:
        pieces = data.get("piece", "") or "".join(data.get("removed", []))
        return cls(str(data["type"]), parse_square(data["square"]), pieces, data.get("seat"))


@dataclass(frozen=True, slots=True)
class ApocalypseState:
    """A position between turns.

    Attributes:
        board: 25 chars, index ``rank * 5 + file`` (``a1 = 0``), ``.`` empty.
        ply: joint turns played.
        last_moves: the moves applied last turn, per seat (``None``: that seat did not move);
            they define the ko (1.2.6).
        events: what the last join did.
    """

    board: str
    ply: int = 0
    last_moves: tuple[ApocalypseMove | None, ApocalypseMove | None] = (None, None)
    events: tuple[Event, ...] = ()
    ruleset: str = "dagaz"
    max_turns: int = 0
    #: each seat's moves, generated once per state (states are values: a safe cache)
    moves: dict[Seat, list[ApocalypseMove]] = field(
        default_factory=dict, init=False, compare=False, repr=False
    )

    def __repr__(self) -> str:
        return f"ApocalypseState({board_to_text(self.board)!r}, ply={self.ply})"


def position(
    text: str = START_BOARD,
    *,
    last_moves: tuple[str | None, str | None] = (None, None),
    ply: int = 0,
) -> ApocalypseState:
    """A state from a board text and the previous turn's moves (for tests and analysis)."""
    last = tuple(None if m is None else ApocalypseMove.from_text(m) for m in last_moves)
    return ApocalypseState(board_from_text(text), ply, (last[0], last[1]))


# -- rules ---------------------------------------------------------------------------------


def generate(state: ApocalypseState, seat: Seat) -> list[ApocalypseMove]:
    """The moves of ``seat`` on this board (1.2), ignoring whose turn it is (computed once
    per state and seat; callers must not change the list)."""
    cached = state.moves.get(seat)
    if cached is None:
        cached = state.moves[seat] = _generate(state, seat)
    return cached


def _generate(state: ApocalypseState, seat: Seat) -> list[ApocalypseMove]:
    board = state.board
    pawn, knight, enemy = PAWN[seat], KNIGHT[seat], 1 - seat
    last_rank = LAST_RANK[seat]
    stuck = [sq for sq, ch in enumerate(board) if ch == pawn and sq // SIZE == last_rank]
    moves: list[ApocalypseMove] = []
    if stuck:  # forced relocation, 1.2.5
        for src in stuck:
            moves += [
                ApocalypseMove(src, dst)
                for dst, ch in enumerate(board)
                if ch == EMPTY and dst // SIZE != last_rank
            ]
    else:
        for src, ch in enumerate(board):
            if ch == knight:
                moves += [
                    ApocalypseMove(src, dst)
                    for dst in _KNIGHT_TARGETS[src]
                    if owner(board[dst]) != seat
                ]
            elif ch == pawn:
                r, f = divmod(src, SIZE)
                nr = r + FORWARD[seat]
                if not 0 <= nr < SIZE:
                    continue
                for nf in (f - 1, f, f + 1):
                    if not 0 <= nf < SIZE:
                        continue
                    dst = nr * SIZE + nf
                    if (nf == f and board[dst] == EMPTY) or (
                        nf != f and owner(board[dst]) == enemy
                    ):
                        moves.append(ApocalypseMove(src, dst))
    ko = {sq for m in state.last_moves if m is not None for sq in (m.src, m.dst)}
    if ko:
        moves = [m for m in moves if not ko <= {m.src, m.dst}]
    return moves


def _promotes(board: str, seat: Seat, move: ApocalypseMove, other: ApocalypseMove | None) -> bool:
    """Whether ``seat``'s pawn move to its last rank really promotes (1.3 c)."""
    knight = KNIGHT[seat]
    limit = 2 - board.count(knight)
    if other is not None and board[other.dst] == knight and other.dst != move.src:
        limit += 1
    return limit > 0


def join(board: str, moves: Mapping[Seat, ApocalypseMove]) -> tuple[str, tuple[Event, ...]]:
    """Apply one or two simultaneous moves to ``board`` (1.3); return the board and events."""
    new = list(board)
    events: list[Event] = []
    landing: dict[Seat, str] = {}  # the piece each mover puts down
    promotions: list[Event] = []
    for seat, move in sorted(moves.items()):
        piece = board[move.src]
        landing[seat] = piece
        if piece == PAWN[seat] and move.dst // SIZE == LAST_RANK[seat]:
            if _promotes(board, seat, move, moves.get(1 - seat)):
                landing[seat] = KNIGHT[seat]
                promotions.append(Event("promotion", move.dst, seat=seat))
            else:
                promotions.append(Event("promotion_refused", move.dst, seat=seat))
    targets = {move.dst for move in moves.values()}
    if len(moves) == 2 and len(targets) == 1:  # collision on one square
        a, b = moves[WHITE], moves[BLACK]
        x, y = board[a.src], board[b.src]
        new[a.src] = new[b.src] = EMPTY
        if _RANK[x] > _RANK[y]:
            new[a.dst], removed = landing[WHITE], y
        elif _RANK[x] < _RANK[y]:
            new[a.dst], removed = landing[BLACK], x
        else:
            new[a.dst], removed = EMPTY, x + y
        events.append(Event("collision", a.dst, removed))
        return "".join(new), tuple(events)
    sources = {move.src for move in moves.values()}
    for _seat, move in sorted(moves.items()):
        victim = board[move.dst]
        if victim != EMPTY:
            kind = "evaded" if move.dst in sources else "capture"
            events.append(Event(kind, move.dst, victim))
    for seat, move in moves.items():
        new[move.dst] = landing[seat]
    for move in moves.values():
        if move.src not in targets:
            new[move.src] = EMPTY
    return "".join(new), tuple(events + promotions)


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
        return {
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
        moves = [None if last.get(str(s)) is None else ApocalypseMove.from_text(last[str(s)])
                 for s in (WHITE, BLACK)]  # fmt: skip
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


GAMES = (Apocalypse(),)
