"""Hase und Igel (Hare and Hedgehog), 2-6 seats, one runner each (docs/GAMES.md 4, "Decisions").

The 1978 Ravensburger board (4.2), the German rulebook's turn order (4.4) and the 1978-95 hare
deck of 12 cards (4.5: refund x2, take/give x2, fall back x2, one each of the other six). Seat 0
starts, then seat order (4.3 "youngest starts, then clockwise"). Carrots are 68 for 2-4 seats
and 98 for 5-6 (4.3), 3 salads each. Everything except the deck order is open information.

Notation (``str(move)``; ``parse_move`` is case- and space-tolerant, ``carrots 10`` = ``+10``)::

    advance 5      forward 5 fields for T(5) = 15 carrots (4.4 a; also into the goal)
    back           back to the nearest hedgehog, +10 per field (4.4 b)
    carrots +10    stay on a carrot field and take 10 (4.4 c)
    carrots -10    stay on a carrot field and give 10 back (4.4 c)
    card take      the "take or give 10 carrots" hare card: take 10 ...
    card give      ... give 10 ...
    card none      ... or neither (a follow-up decision of the same seat, same turn)

Automatic actions: ``play`` applies the move, then starts the next turns itself until a seat
has a real decision (``to_act``) or the race is over. Starting a turn means, in this order:
(1) the turn counter of the seat goes up (the cap ends the race first if the seat has used
its 300 turns); (2) position-field payout (4.4.2); (3) a forced turn is spent without asking:
a missed turn (card) or eating a salad (4.4.3, or the "eat a salad" card); (4) a seat with no
legal move falls under the stuck rule (4.4.7) and its turn is spent. A seat with exactly one
legal move is still asked. Every such happening is recorded in the state's ``events`` (the
view shows them beside ``last_move``), so clients see what a move caused.

Readings of the rules (docs/GAMES.md numbers):

* 4.4.1 Race position = 1 + runners finished + track runners strictly ahead; runners sharing
  Start share a position. Final ranks: finishers in finishing order, the rest by race position.
* 4.4.2 A position field pays only at the start of the turn after the runner entered it (by
  any move, card moves included): 10 x position when the position is the field's number; the
  flag field pays for 1, 5 or 6. With three runners a "4" field never pays.
* 4.4.3 Entering a salad field (forward or by a card) makes the next turn a forced eating turn:
  salads - 1 and 10 x race position (taken at the start of that turn). The turn after, the
  runner must move on (a salad field offers no "stay" move, so this holds by itself).
* 4.4.4 Forward: T(n) = n(n+1)/2; the target must be free (Start and goal hold any number),
  not a hedgehog, not a salad field without salads. Back: only the nearest hedgehog strictly
  behind; occupied or none -> no back move. Carrot exchange: on a carrot field, any turn
  (also the one after landing there); giving needs >= 10 carrots.
* 4.4.5 Only a forward move (``advance``, also the extra move of "move again") draws a card;
  card moves and ``back`` never do. The drawn card goes under the deck.
* 4.4.6 Goal: salads 0 and, after paying, carrots <= 10 x (finished + 1). A finished runner
  leaves the track (it occupies nothing and never acts again).
* 4.4.7 Stuck: a free nearest hedgehog behind would make ``back`` legal, so a runner without a
  legal move always goes back to Start with the initial carrots (salads unchanged).
* 4.4.8 / Decisions: with ``until: "all"`` the race goes on until one runner is left on the
  track; ``until: "first"`` ends at the first finisher (the rest ranked by race position).
  A seat that has had 300 turns (extra and forced turns count) ends the race when its next
  turn would start: reason ``turn_cap``, ranks by race position. Otherwise reason ``goal``.

Hare cards (4.5), 1978-95 deck (card names as in the ``deck`` option):

* ``miss_turn``: the next turn is skipped.
* ``eat_salad``: as if just arrived on a salad field: the next turn eats (10 x position); with
  no salad left the next turn is simply missed.
* ``next_carrot`` / ``prev_carrot``: free move to the nearest carrot field ahead / behind; if
  that field is occupied, or there is none, no effect (the card text; no search further on).
* ``move_again``: the same seat takes an extra turn at once; if it then has no legal move the
  extra turn lapses (the stuck rule is not applied to a bonus turn).
* ``refund``: the carrots paid for the move onto this hare field come back.
* ``take_give``: a follow-up decision ``card take`` / ``card give`` (needs 10) / ``card none``.
* ``fall_back``: the last runner on the track: no effect. Else to the nearest free field behind
  the next runner behind, skipping salad fields when out of salads (hedgehog fields are fine);
  behind a runner on Start (or with no such field) the runner goes to Start. No carrots.
* ``move_up``: the leader on the track: no effect (finished runners cannot be passed). Else to
  the nearest free field in front of the next runner ahead, skipping hedgehogs and (without
  salads) salad fields; if only the goal remains it may enter it free of charge when the goal
  conditions hold (salads 0, carrots <= 10 x (finished + 1)), else no effect.

The 2008 cards (4.5) are accepted in a custom ``deck`` too: ``give_behind`` (10 to every track
runner behind; if the drawer cannot pay all of them it pays none; receivers do not decline),
``behind_ahead`` (more runners behind than ahead -> miss a turn, else move again),
``set_65`` (carrots become exactly 65), ``salad_carrots`` (10 per salad held; none -> miss a
turn), ``halve`` (lose half, the half lost rounded down: 15 -> lose 7, keep 8), ``show`` (no
effect, carrots are open), ``shuffle`` (the whole deck is reshuffled with the turn's rng, then
1 carrot from every other track runner that has one).

Bot hooks: ``evaluate`` (seed 004's E = Ks*S + Kc*C + Kp*P per runner, see :func:`runner_score`;
the article is listed in docs/BOTS.md, Sources), ``search_evaluate`` (the turn each runner
expects to finish on, from a lone runner's table of expected turns: :mod:`.race`; what max^n
scores its leaves by), ``move_heuristic`` and ``determinize`` (only the deck order is hidden).
Tests and analysis build positions with :func:`position`.

The package, each module importing only those above it: :mod:`.board` (fields, deck),
:mod:`.values` (runners, state, events, moves), :mod:`.track` (race positions, legal moves),
:mod:`.turn` (a turn being worked out), :mod:`.cards` (the hare cards), :mod:`.rules` (a turn
from move to next decision, leaving the race, :func:`position`), :mod:`.race` (a lone runner's
expected turns to finish), :mod:`.evaluation` (the bots' E and turns left) and :mod:`.game`
(the :class:`~server.engine.base.Game`).
"""

from __future__ import annotations

from .board import (
    BOARD_1978,
    CARDS,
    DECK_1978,
    OUT,
    SALADS,
    TURN_CAP,
    cost,
    default_carrots,
    layout,
    max_distance,
)
from .evaluation import runner_score
from .game import HaseUndIgel
from .rules import position
from .track import race_place, standings
from .values import Advance, Back, CardChoice, Carrots, Event, HaseState, Leave, Move, Runner

GAMES = (HaseUndIgel(),)

__all__ = [
    "BOARD_1978",
    "CARDS",
    "DECK_1978",
    "GAMES",
    "OUT",
    "SALADS",
    "TURN_CAP",
    "Advance",
    "Back",
    "CardChoice",
    "Carrots",
    "Event",
    "HaseState",
    "HaseUndIgel",
    "Leave",
    "Move",
    "Runner",
    "cost",
    "default_carrots",
    "layout",
    "max_distance",
    "position",
    "race_place",
    "runner_score",
    "standings",
]
