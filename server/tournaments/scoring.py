"""How a finished tournament game scores.

**Arena** (lichess's rules, :func:`arena_points`): a win is worth 2 points, a draw 1, a
loss 0. After two wins in a row a player is *on fire*: every later game is worth double (a
win 4, a draw 2) until a game that is not a win puts the fire out. A player who went
berserk (half their clock) and won gets one point more (lichess also asks for seven moves
played: the room does not count moves for us, so any berserked win gets it).

**Many-seat arena tables** (Hase und Igel 3-6 seats, Yonin Shogi 4) are scored by rank, as
if each player had played a game against every other player at the table: 2 points for
each player finished ahead of, 1 for each player tied with, 0 for each player behind. With
two seats that is exactly 2/1/0; at a table of four the places are worth 6, 4, 2, 0. A
*win* (for streaks and the W/D/L count) is first place alone, a *draw* a shared first place,
anything else a loss; fire doubles the points as above. Berserk is for two seats only.

**Swiss and round robin** (:func:`game_score`): 1 for a win, ½ for a draw, 0 for a loss;
a bye is worth 1.

Ranks are given in seat order, smaller is better, equal is a tie (0- or 1-based alike).
"""

from __future__ import annotations

from collections.abc import Sequence
from dataclasses import dataclass

WIN, DRAW, LOSS = "W", "D", "L"
BERSERK_BONUS = 1
FIRE_AFTER = 2  # wins in a row


@dataclass(frozen=True, slots=True)
class ArenaScore:
    """One player's points for one arena game, its outcome letter, and whether the player
    was on fire for it (the points were doubled)."""

    points: int
    outcome: str
    fire: bool


def place(ranks: Sequence[int], seat: int) -> tuple[int, int, int]:
    """(players behind ``seat``, players tied with it, players ahead of it)."""
    mine = ranks[seat]
    behind = sum(1 for r in ranks if r > mine)
    ahead = sum(1 for r in ranks if r < mine)
    return behind, len(ranks) - behind - ahead - 1, ahead


def outcome(ranks: Sequence[int], seat: int) -> str:
    """W: first place alone; D: a shared first place; L: anything else."""
    _, tied, ahead = place(ranks, seat)
    if ahead:
        return LOSS
    return DRAW if tied else WIN


def arena_points(ranks: Sequence[int], seat: int, *, streak: int, berserked: bool) -> ArenaScore:
    """The arena points of ``seat`` for a game that ended with ``ranks``; ``streak``: the
    player's wins in a row before this game; ``berserked``: the player went berserk."""
    behind, tied, _ = place(ranks, seat)
    result = outcome(ranks, seat)
    fire = streak >= FIRE_AFTER
    points = (2 * behind + tied) * (2 if fire else 1)
    if berserked and result == WIN and len(ranks) == 2:
        points += BERSERK_BONUS
    return ArenaScore(points, result, fire)


def next_streak(streak: int, result: str) -> int:
    return streak + 1 if result == WIN else 0


def game_score(ranks: Sequence[int], seat: int) -> float:
    """Swiss/round-robin points of a two-seat game: 1, ½ or 0."""
    return {WIN: 1.0, DRAW: 0.5, LOSS: 0.0}[outcome(ranks, seat)]
