"""Hase und Igel: the hare cards (docs/GAMES.md 4.5), each a rule applied to the turn."""

from __future__ import annotations

from collections.abc import Callable
from dataclasses import replace

from .board import OUT
from .turn import Turn


def draw_card(w: Turn, seat: int, paid: int) -> None:
    if not w.deck:
        return
    card = w.deck.pop(0)
    w.deck.append(card)
    w.log(seat, "card", card=card)
    CARD_RULES[card](w, seat, paid)


def _card_move(w: Turn, seat: int, target: int | None, card: str) -> None:
    if target is None or target == w.runners[seat].field:
        w.log(seat, "no_effect", card=card)
    else:
        w.arrive(seat, target, "card_move")


def _refund(w: Turn, seat: int, paid: int) -> None:
    w.gain(seat, paid, "card_carrots", card="refund")


def _take_give(w: Turn, seat: int, paid: int) -> None:
    w.decision = "take_give"


def _miss_turn(w: Turn, seat: int, paid: int) -> None:
    w.runners[seat] = replace(w.runners[seat], pending="miss")
    w.log(seat, "skip_next")


def _eat_salad(w: Turn, seat: int, paid: int) -> None:
    w.runners[seat] = replace(w.runners[seat], pending="eat")
    w.log(seat, "eat_next")


def _move_again(w: Turn, seat: int, paid: int) -> None:
    w.again = True
    w.log(seat, "again")


def _next_carrot(w: Turn, seat: int, paid: int) -> None:
    t = w.lay.next_carrot[w.runners[seat].field]
    _card_move(w, seat, t if t > 0 and w.free(t, seat) else None, "next_carrot")


def _prev_carrot(w: Turn, seat: int, paid: int) -> None:
    t = w.lay.prev_carrot[w.runners[seat].field]
    _card_move(w, seat, t if t > 0 and w.free(t, seat) else None, "prev_carrot")


def _fall_back(w: Turn, seat: int, paid: int) -> None:
    r = w.runners[seat]
    behind = [o.field for i, o in enumerate(w.runners) if i != seat and OUT < o.field < r.field]
    if not behind:
        _card_move(w, seat, None, "fall_back")
        return
    t = max(behind) - 1
    while t > 0 and not (w.free(t, seat) and (w.lay.cells[t] != "L" or r.salads > 0)):
        t -= 1
    _card_move(w, seat, max(t, 0), "fall_back")


def _move_up(w: Turn, seat: int, paid: int) -> None:
    r, goal, cells = w.runners[seat], w.lay.goal, w.lay.cells
    ahead = [o.field for i, o in enumerate(w.runners) if i != seat and r.field < o.field < goal]
    target: int | None = None
    if ahead:
        t = min(ahead) + 1
        while t < goal and not (
            w.free(t, seat) and cells[t] != "I" and (cells[t] != "L" or r.salads > 0)
        ):
            t += 1
        if t < goal or w.can_finish(r, r.carrots):
            target = t
    _card_move(w, seat, target, "move_up")


def _give_behind(w: Turn, seat: int, paid: int) -> None:
    mine = w.runners[seat].field
    behind = [i for i, o in enumerate(w.runners) if i != seat and w.racing(i) and o.field < mine]
    if not behind or w.runners[seat].carrots < 10 * len(behind):
        w.log(seat, "no_effect", card="give_behind")
        return
    for i in behind:
        w.gain(seat, -10, "card_carrots", card="give_behind")
        w.gain(i, 10, "card_carrots", card="give_behind")


def _behind_ahead(w: Turn, seat: int, paid: int) -> None:
    mine = w.runners[seat].field
    others = [o for i, o in enumerate(w.runners) if i != seat and i not in w.out]
    behind = sum(1 for o in others if o.field < mine)
    ahead = sum(1 for o in others if o.field > mine)
    (_miss_turn if behind > ahead else _move_again)(w, seat, paid)


def _set_65(w: Turn, seat: int, paid: int) -> None:
    w.gain(seat, 65 - w.runners[seat].carrots, "card_carrots", card="set_65")


def _salad_carrots(w: Turn, seat: int, paid: int) -> None:
    salads = w.runners[seat].salads
    if salads:
        w.gain(seat, 10 * salads, "card_carrots", card="salad_carrots")
    else:
        _miss_turn(w, seat, paid)


def _halve(w: Turn, seat: int, paid: int) -> None:
    w.gain(seat, -(w.runners[seat].carrots // 2), "card_carrots", card="halve")


def _show(w: Turn, seat: int, paid: int) -> None:
    w.log(seat, "no_effect", card="show")


def _shuffle(w: Turn, seat: int, paid: int) -> None:
    w.rng.shuffle(w.deck)
    w.log(seat, "shuffle")
    for i, o in enumerate(w.runners):
        if i != seat and w.racing(i) and o.carrots > 0:
            w.gain(i, -1, "card_carrots", card="shuffle")
            w.gain(seat, 1, "card_carrots", card="shuffle")


CARD_RULES: dict[str, Callable[[Turn, int, int], None]] = {
    "refund": _refund,
    "take_give": _take_give,
    "miss_turn": _miss_turn,
    "eat_salad": _eat_salad,
    "move_again": _move_again,
    "next_carrot": _next_carrot,
    "prev_carrot": _prev_carrot,
    "fall_back": _fall_back,
    "move_up": _move_up,
    "give_behind": _give_behind,
    "behind_ahead": _behind_ahead,
    "set_65": _set_65,
    "salad_carrots": _salad_carrots,
    "halve": _halve,
    "show": _show,
    "shuffle": _shuffle,
}
