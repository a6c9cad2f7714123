"""Hase und Igel: the expected number of turns a runner needs to finish, racing alone.

The race is won by whoever finishes first, so the bots' search evaluation (the game's
``search_evaluate`` hook) asks how many turns a runner still needs. :func:`turns_table`
answers that for a runner alone on the board by value iteration over (field, salads held,
carrots): every turn costs 1, and a runner picks the move that minimises the expected turns
left. The model (docs/GAMES.md 4.4, 4.5):

* ``advance n`` for T(n) carrots onto a field that is not a hedgehog (nor a salad field
  without salads); into the goal with no salad and, after paying, at most 10 x (k + 1)
  carrots left (k = runners finished before);
* a salad field costs one more turn (the eating turn) and pays 10 x race position, each
  position as likely;
* a position field pays its 10 x position with the chance :data:`PAY_CHANCE` (for each
  position it pays for, up to the number of seats);
* ``back`` to the nearest hedgehog behind for 10 carrots a field; ``carrots +-10`` on a
  carrot field;
* a hare field draws a card of the deck, each card as likely as its count: refund (the
  carrots paid come back), take/give (the best of +10, -10, nothing), miss a turn, eat a
  salad, next/previous carrot field, move again (one turn less); fall back costs
  :data:`FALL_BACK` turns and move up nothing (both depend on where the others stand);
* a runner with no move at all is stuck: one turn, then Start with the initial carrots.

The evaluation adds the payout and the salad already due (the race position is known then).
Other runners are not in the model: they block fields, and a search sees that.

A table is built once per process for each option set and number of runners finished
(about a second for the 1978 board and deck).
"""

from __future__ import annotations

from collections.abc import Sequence
from functools import lru_cache
from operator import add, sub

from .board import PAYS, cost, layout

#: the table's last column; each carrot above it costs :data:`OVER` turns more (steep: a
#: runner that piles carrots up past it cannot get them down, and must not try)
CMAX = 240
OVER = 0.2
#: turns a "fall back" card costs in the table
FALL_BACK = 1.0
#: the chance that a position field entered later pays for a given position (the runner
#: picks the fields that pay for the position it holds; tuned against the greedy bot)
PAY_CHANCE = 0.8
_INF = 1e9


@lru_cache(maxsize=8)
def turns_table(
    board: str,
    deck: tuple[str, ...],
    start_carrots: int,
    finished: int,
    seats: int = 3,
) -> tuple[tuple[tuple[float, ...], ...], ...]:
    """``table[field][salads][carrots]``: the expected turns a lone runner on ``field``
    (not a hare field's card still to draw, no forced turn pending) needs to finish, with
    ``finished`` runners already in the goal. ``deck`` is the deck's cards in any order."""
    lay = layout(board)
    cells, goal, top = lay.cells, lay.goal, CMAX
    counts: dict[str, int] = {}
    for card in deck:
        counts[card] = counts.get(card, 0) + 1
    n_cards = max(1, len(deck))
    refund_w = counts.get("refund", 0) / n_cards
    start = min(start_carrots, top)
    positions = range(1, max(seats, 1) + 1)
    v = [[[_INF] * (top + 1) for _ in range(4)] for _ in range(goal)]
    hare: list[list[list[float]]] = [[[] for _ in range(4)] for _ in range(goal)]
    finish_at = 10 * (finished + 1)

    k_take = counts.get("take_give", 0)
    k_fall = counts.get("fall_back", 0)
    k_miss = counts.get("miss_turn", 0)
    k_eat = counts.get("eat_salad", 0)
    k_next = counts.get("next_carrot", 0)
    k_prev = counts.get("prev_carrot", 0)
    k_again = counts.get("move_again", 0)
    k_none = sum(k for card, k in counts.items() if card not in _MODELLED)
    constant = (k_fall * FALL_BACK + k_miss) / n_cards

    def hare_base(t: int, s: int) -> list[float]:
        """The expected turns on arriving at hare field ``t``, all cards but refund (whose
        value depends on the carrots paid)."""
        vt = v[t][s]
        nk, pk = lay.next_carrot[t], lay.prev_carrot[t]
        vn = v[nk][s] if nk > 0 else vt
        vp = v[pk][s] if pk > 0 else vt
        up = _shift(vt, 10)
        down = [_INF] * 10 + vt[:-10]
        if s > 0:
            ve = v[t][s - 1]
            eat = eating(ve)
        else:
            eat = [1.0 + x for x in vt]
        same = (k_fall + k_miss + k_none) / n_cards
        return [
            same * b
            + constant
            + (
                k_take * min(b, u, d)
                + k_eat * e
                + k_next * xn
                + k_prev * xp
                + k_again * (b - 1.0 if b > 1.0 else 0.0)
            )
            / n_cards
            for b, u, d, e, xn, xp in zip(vt, up, down, eat, vn, vp, strict=True)
        ]

    def eating(after: list[float]) -> list[float]:
        """The expected turns before a salad is eaten (that turn, then ``after`` with the
        carrots it pays: 10 x a race position, each as likely)."""
        out = [1.0] * (top + 1)
        for pl in positions:
            out = [a + b / len(positions) for a, b in zip(out, _shift(after, 10 * pl), strict=True)]
        return out

    def eat_row(t: int, s: int) -> list[float]:
        """The expected turns on arriving at salad field ``t`` with ``s`` salads."""
        return eating(v[t][s - 1])

    def paying_row(t: int, s: int) -> list[float]:
        """The expected turns on arriving at position field ``t``: its payout due with the
        chance :data:`PAY_CHANCE` for each position it pays for."""
        vt = v[t][s]
        chances = {pl: PAY_CHANCE for pl in PAYS[cells[t]] if pl <= seats}
        total = sum(chances.values())
        if total > 1.0:
            chances = {pl: q / total for pl, q in chances.items()}
        out = [(1.0 - sum(chances.values())) * x for x in vt]
        for pl, q in chances.items():
            out = [a + q * b for a, b in zip(out, _shift(vt, 10 * pl), strict=True)]
        return out

    paying: list[list[list[float]]] = [[[] for _ in range(4)] for _ in range(goal)]
    salad: list[list[list[float]]] = [[[] for _ in range(4)] for _ in range(goal)]
    refund: list[list[list[float]]] = [[[] for _ in range(4)] for _ in range(goal)]

    for _sweep in range(60):
        change = 0.0
        for f in range(goal - 1, -1, -1):
            for s in range(4):
                best = [_INF] * (top + 1)
                for n in range(1, goal - f + 1):
                    p = cost(n)
                    if p > top:
                        break
                    t = f + n
                    if t == goal:
                        if s == 0:
                            for c in range(p, min(top, p + finish_at) + 1):
                                best[c] = 0.0
                        continue
                    cell = cells[t]
                    if cell == "I" or (cell == "L" and s == 0):
                        continue
                    width = top + 1 - p
                    if cell == "L":
                        arr = salad[t][s][:width]
                    elif cell == "H":
                        arr = list(map(add, hare[t][s][:width], refund[t][s][p : p + width]))
                    elif cell in PAYS:
                        arr = paying[t][s][:width]
                    else:
                        arr = v[t][s][:width]
                    best[p:] = list(map(min, best[p:], arr))
                h = lay.prev_hedgehog[f]
                if h > 0:
                    vh, gain = v[h][s], 10 * (f - h)
                    best = list(map(min, best, _shift(vh, gain)))
                row = [1.0 + b for b in best]
                if cells[f] == "K":
                    _relax_stay(row)
                if f > 0:
                    stuck = 1.0 + v[0][s][start]
                    row = [stuck if x >= _INF / 2 else x for x in row]
                change = max(change, max(map(abs, map(sub, v[f][s], row))))
                v[f][s] = row
                if cells[f] == "H":
                    hare[f][s] = hare_base(f, s)
                    refund[f][s] = [refund_w * x for x in row]
                elif cells[f] in PAYS:
                    paying[f][s] = paying_row(f, s)
                elif cells[f] == "L" and s < 3:
                    salad[f][s + 1] = eat_row(f, s + 1)
        if change < 1e-3:
            break
    return tuple(tuple(tuple(row) for row in field) for field in v)


_MODELLED = frozenset(
    {
        "refund",
        "take_give",
        "fall_back",
        "miss_turn",
        "eat_salad",
        "next_carrot",
        "prev_carrot",
        "move_again",
    }
)


def _shift(row: list[float], g: int) -> list[float]:
    """``row`` read ``g`` carrots further on: past the last column, :data:`OVER` turns
    a carrot more."""
    top = len(row) - 1
    last = row[top]
    return row[g:] + [last + OVER * (x - top) for x in range(max(g, top + 1), top + 1 + g)]


def _relax_stay(row: list[float]) -> None:
    """A carrot field: staying to take or give 10 carrots costs a turn."""
    top = len(row) - 1
    for _ in range(2 * top // 10 + 2):
        changed = False
        for c in range(top + 1):
            u = 1.0 + row[min(c + 10, top)]
            if c >= 10:
                u = min(u, 1.0 + row[c - 10])
            if u < row[c] - 1e-12:
                row[c] = u
                changed = True
        if not changed:
            return


def deck_cards(deck: Sequence[str]) -> tuple[str, ...]:
    """The deck's cards in a canonical order (the table does not depend on the order)."""
    return tuple(sorted(deck))
