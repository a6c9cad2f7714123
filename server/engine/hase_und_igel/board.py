"""Hase und Igel: the board (its fields and the distances they imply) and the hare deck."""

from __future__ import annotations

import math
from collections.abc import Mapping
from dataclasses import dataclass
from functools import lru_cache

from ..base import InvalidOptions

BOARD_1978 = "SHKH3KHLI42I3KHIF24I3KL2IHK432IHFKH23IKHK2LI34H2FKIH324KILHK2HLHZ"
DECK_1978 = (
    "refund",
    "refund",
    "take_give",
    "take_give",
    "fall_back",
    "fall_back",
    "miss_turn",
    "eat_salad",
    "next_carrot",
    "prev_carrot",
    "move_again",
    "move_up",
)
CARDS_1978 = frozenset(DECK_1978)
CARDS_2008 = frozenset(
    {"give_behind", "behind_ahead", "set_65", "salad_carrots", "halve", "refund", "show", "shuffle"}
)
CARDS = CARDS_1978 | CARDS_2008
SALADS = 3
TURN_CAP = 300
#: the field of a runner that left the race (resigned or lost on time): off the track
OUT = -1
#: position fields: the race positions each pays for (4.4.2)
PAYS: Mapping[str, tuple[int, ...]] = {"2": (2,), "3": (3,), "4": (4,), "F": (1, 5, 6)}
_CELLS = "HKIL234F"
CHOICE_DELTA = {"take": 10, "give": -10, "none": 0}


def cost(n: int) -> int:
    """T(n) = n(n+1)/2, the carrots a forward move of ``n`` fields costs (4.4 a)."""
    return n * (n + 1) // 2


def max_distance(carrots: int) -> int:
    """The longest forward move ``carrots`` pay for: the largest n with T(n) <= carrots."""
    return (math.isqrt(8 * max(carrots, 0) + 1) - 1) // 2


def default_carrots(n_seats: int) -> int:
    """68 carrots for 2-4 seats, 98 for 5-6 (4.3, Decisions)."""
    return 68 if n_seats <= 4 else 98


# -- the board -----------------------------------------------------------------------------


@dataclass(frozen=True, slots=True)
class Layout:
    """A board string with its look-up tables (index 0 Start, last index the goal)."""

    cells: str
    goal: int
    prev_hedgehog: tuple[int, ...]  # nearest hedgehog strictly behind, -1 if none
    next_carrot: tuple[int, ...]  # nearest carrot field strictly ahead, -1 if none
    prev_carrot: tuple[int, ...]  # nearest carrot field strictly behind, -1 if none
    salads_ahead: tuple[int, ...]  # salad fields strictly ahead


@lru_cache(maxsize=64)
def layout(cells: str) -> Layout:
    """The (cached) look-up tables of a board string such as :data:`BOARD_1978`."""
    n = len(cells)

    def nearest(i: int, kind: str, step: int) -> int:
        j = i + step
        while 0 <= j < n and cells[j] != kind:
            j += step
        return j if 0 <= j < n else -1

    return Layout(
        cells=cells,
        goal=n - 1,
        prev_hedgehog=tuple(nearest(i, "I", -1) for i in range(n)),
        next_carrot=tuple(nearest(i, "K", 1) for i in range(n)),
        prev_carrot=tuple(nearest(i, "K", -1) for i in range(n)),
        salads_ahead=tuple(cells[i + 1 :].count("L") for i in range(n)),
    )


def check_board(cells: str) -> str:
    """``cells`` if it is a board string (``S`` + fields of ``HKIL234F`` + ``Z``)."""
    if len(cells) < 3 or cells[0] != "S" or cells[-1] != "Z":
        raise InvalidOptions("option 'board' must start with S, end with Z, have >= 1 field")
    bad = sorted(set(cells[1:-1]) - set(_CELLS))
    if bad:
        raise InvalidOptions(f"option 'board' has unknown field letters {bad} (use {_CELLS})")
    return cells


def parse_deck(text: str) -> tuple[str, ...]:
    """Card names from the ``deck`` option: ``"refund,refund,move_up"`` or ``"refund*2,..."``."""
    cards: list[str] = []
    for item in text.split(","):
        name, _, times = item.strip().partition("*")
        name = name.strip()
        if name not in CARDS:
            raise InvalidOptions(f"unknown hare card {name!r}; known: {', '.join(sorted(CARDS))}")
        if times and not (times.strip().isascii() and times.strip().isdigit()):
            raise InvalidOptions(f"bad card count in {item!r}")
        cards.extend([name] * (int(times) if times else 1))
    if not cards or len(cards) > 100:
        raise InvalidOptions("option 'deck' must hold 1 to 100 cards")
    return tuple(cards)
