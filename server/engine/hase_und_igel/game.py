"""The Hase und Igel game: options, turns, views, bot hooks and snapshots for the rooms."""

from __future__ import annotations

import random
from collections import Counter
from collections.abc import Mapping, Sequence
from dataclasses import replace
from typing import Any

from ..base import Game, Json, Option, Outcome, Seat
from .board import (
    BOARD_1978,
    CHOICE_DELTA,
    DECK_1978,
    TURN_CAP,
    check_board,
    cost,
    default_carrots,
    layout,
    parse_deck,
)
from .evaluation import (
    FINISHED_BASE,
    HARE_PESSIMISM,
    RACE_BASE,
    RACE_FINISHED,
    finish_turn,
    runner_score,
)
from .rules import apply_move, leave_race, next_turn, position
from .track import choices, generate, race_place, standings
from .turn import Turn
from .values import Advance, CardChoice, Carrots, Event, HaseState, Leave, Move, Runner, parse


class HaseUndIgel(Game[HaseState, Move]):
    name = "hase_und_igel"
    title = "Hase und Igel"
    board = "track"
    description = (
        "Race of hares: pay carrots to run, eat your three salads, draw hare cards; "
        "the 1978 Ravensburger board."
    )
    how_to_play = (
        "Race from the start to the goal, spending carrots to run: moving n fields forward costs "
        "1 + 2 + ... + n carrots (1, 3, 6, 10, ...). Each field holds at most one runner.",
        "You start with three salads and must eat them all before you may finish; you may finish "
        "only with few carrots left (at most 10 for the first runner home, 20 for the second, and "
        "so on).",
        "Salad field: next turn you stay, eat a salad and get 10 carrots per race position. "
        "Carrot field: you may stay and take 10 carrots or give 10 back. Hare field: draw a hare "
        "card and do what it says.",
        "Hedgehog fields cannot be entered going forward; instead you may move back to the "
        "nearest free hedgehog behind you and get 10 carrots per field moved back.",
        "Number fields (1/5/6, 2, 3, 4) pay 10 carrots times your race position at the start of "
        "your next turn, if your position then is the field's number.",
        "The first runner home wins; the others race on for the places.",
    )
    min_seats = 2
    max_seats = 6
    hidden_information = True  # the hare deck's order
    public_moves = True  # every move and card drawn is open; only the deck order is not
    options = {
        "board": Option("str", BOARD_1978, "Board: S, fields of HKIL234F, Z (docs/GAMES.md 4.2)"),
        "deck": Option("str", ",".join(DECK_1978), "Hare cards, comma list (name*k repeats)"),
        "carrots": Option(
            "int", 0, "Starting carrots; 0 = 68 (2-4 seats) or 98", minimum=0, maximum=10000
        ),
        "until": Option(
            "str", "all", "Race until all but one finished, or the first", choices=("all", "first")
        ),
    }

    # -- setup ---------------------------------------------------------------------------

    def check_options(self, raw: Mapping[str, Any] | None) -> dict[str, Any]:
        opts = super().check_options(raw)
        check_board(opts["board"])
        parse_deck(opts["deck"])
        return opts

    def new(self, options: Mapping[str, Any], n_seats: int, rng: random.Random) -> HaseState:
        self.check_seats(n_seats)
        opts = self.check_options(options)
        deck = list(parse_deck(opts["deck"]))
        rng.shuffle(deck)
        carrots = opts["carrots"] or default_carrots(n_seats)
        state = position(
            [Runner(0, carrots)] * n_seats,
            deck=deck,
            board=opts["board"],
            start_carrots=carrots,
            until=opts["until"],
        )
        w = Turn(state, rng)
        next_turn(w, first=0)
        return w.freeze(state, 0, None, None)

    # -- playing -------------------------------------------------------------------------

    def to_act(self, state: HaseState) -> frozenset[Seat]:
        return frozenset() if state.end else frozenset({state.current})

    def legal_moves(self, state: HaseState, seat: Seat) -> list[Move]:
        if state.end or seat != state.current:
            return []
        if state.decision == "take_give":
            return choices(state.runners[seat])
        return generate(layout(state.board), state.runners, len(state.finished), seat)

    def parse_move(self, state: HaseState, seat: Seat, text: str) -> Move:
        return parse(text)

    def play(
        self,
        state: HaseState,
        moves: Mapping[Seat, Move],
        rng: random.Random,
        *,
        check: bool = True,
    ) -> HaseState:
        if check:
            self.check_moves(state, moves)
        if len(moves) == 1:
            [(seat, move)] = moves.items()
            if isinstance(move, Leave):
                return leave_race(state, seat, move, rng)
        seat = state.current
        move = moves[seat]
        w = Turn(state, rng)
        apply_move(w, seat, move)
        if not w.decision:
            next_turn(w)
        return w.freeze(state, state.ply + 1, str(move), seat)

    def outcome(self, state: HaseState) -> Outcome | None:
        if not state.end:
            return None
        return Outcome.from_ranks(standings(state), state.end)

    def leave(self, state: HaseState, seat: Seat, reason: str) -> Move | None:
        """A runner still on the track leaves and the race goes on for the others."""
        if state.end or seat in state.finished or seat in state.out:
            return None
        return Leave(reason)

    def resign(
        self, state: HaseState, seat: Seat, n_seats: int, reason: str = "resignation"
    ) -> Outcome:
        """The resigner ranks last; the others keep their race order (ties shared)."""
        places = standings(state)
        others = [s for s in range(n_seats) if s != seat]
        ranks = [n_seats] * n_seats
        for s in others:
            ranks[s] = 1 + sum(1 for o in others if places[o] < places[s])
        return Outcome.from_ranks(ranks, reason)

    def ply(self, state: HaseState) -> int:
        return state.ply

    def view(self, state: HaseState, seat: Seat | None) -> Json:
        """Everything but the deck order (its size and card counts are public)."""
        places = standings(state)
        cards: dict[str, int] = {}
        for card in sorted(state.deck):
            cards[card] = cards.get(card, 0) + 1
        return {
            "board": state.board,
            "seat": seat,
            "ply": state.ply,
            "to_act": sorted(self.to_act(state)),
            "decision": None if state.end else ("card" if state.decision else "move"),
            "runners": [
                {
                    "seat": s,
                    "field": r.field,
                    "carrots": r.carrots,
                    "salads": r.salads,
                    "place": places[s],
                    "finished": s in state.finished,
                    "out": s in state.out,
                    "pending": r.pending or None,
                    "arrived": r.arrived,
                    "turns": state.turns[s],
                }
                for s, r in enumerate(state.runners)
            ],
            "finished": list(state.finished),
            "out": list(state.out),
            "start_carrots": state.start_carrots,
            "until": state.until,
            "turn_cap": TURN_CAP,
            "deck_size": len(state.deck),
            "cards": cards,
            "last_move": state.last_move,
            "last_seat": state.last_seat,
            "events": [e.to_json() for e in state.events],
            "over": bool(state.end),
            "reason": state.end or None,
        }

    # -- bot hooks -----------------------------------------------------------------------

    def evaluate(self, state: HaseState, seat: Seat) -> list[float]:
        """E per seat (:func:`runner_score`); finished runners score above anyone running.
        Open information, so the result does not depend on ``seat``."""
        lay = layout(state.board)
        n = len(state.runners)
        out = []
        for s, r in enumerate(state.runners):
            if s in state.finished:
                out.append(FINISHED_BASE + 50.0 * (n - 1 - state.finished.index(s)))
            elif s in state.out:
                out.append(-FINISHED_BASE)
            else:
                place = race_place(state.runners, s)
                out.append(runner_score(lay, r, place, len(state.finished)))
        return out

    def search_evaluate(self, state: HaseState, seat: Seat) -> list[float]:
        """The evaluation of deep searches (max^n): per seat, :data:`RACE_BASE` minus the
        turn its runner expects to finish on (:func:`finish_turn`); a finished runner
        scores above any runner on the track, the first most. ``evaluate`` stays the
        one-ply evaluation (greedy's). Open information, so it does not depend on ``seat``."""
        n = len(state.runners)
        out = []
        for s in range(n):
            if s in state.finished:
                out.append(RACE_FINISHED + 200.0 * (n - 1 - state.finished.index(s)))
            elif s in state.out:
                out.append(-RACE_FINISHED)
            else:
                out.append(RACE_BASE - finish_turn(state, s))
        return out

    def move_heuristic(self, state: HaseState, seat: Seat, move: Move) -> float:
        """Change of the mover's E by ``move`` without chance: a hare field counts as
        HARE_PESSIMISM carrots lost (seed 004's "hare trap"); finishing scores high."""
        lay = layout(state.board)
        r = state.runners[seat]
        k = len(state.finished)
        before = runner_score(lay, r, race_place(state.runners, seat), k)
        if isinstance(move, CardChoice):
            after = replace(r, carrots=r.carrots + CHOICE_DELTA[move.choice])
        elif isinstance(move, Carrots):
            after = replace(r, carrots=r.carrots + move.delta, arrived=False)
        else:
            if isinstance(move, Advance):
                field, delta = r.field + move.n, -cost(move.n)
                if field == lay.goal:
                    return FINISHED_BASE - before
                if lay.cells[field] == "H":
                    delta -= HARE_PESSIMISM
            else:
                field = lay.prev_hedgehog[r.field]
                delta = 10 * (r.field - field)
            pending = "eat" if lay.cells[field] == "L" else ""
            after = replace(
                r, field=field, carrots=max(0, r.carrots + delta), arrived=True, pending=pending
            )
        runners = list(state.runners)
        runners[seat] = after
        return runner_score(lay, after, race_place(runners, seat), k) - before

    def determinize(self, views: Sequence[Json], seat: Seat, rng: random.Random) -> HaseState:
        """A true state matching the last view. Only the deck order is unknown: the cards
        seen drawn since the last shuffle lie at the bottom in draw order (a drawn card goes
        under the deck), the rest are shuffled on top."""
        view = views[-1]
        seen: list[str] = []
        last_ply = None
        for v in views:
            if v["ply"] == last_ply:
                continue
            last_ply = v["ply"]
            for e in v["events"]:
                if e["kind"] == "shuffle":
                    seen.clear()
                elif e["kind"] == "card":
                    seen.append(str(e["card"]))
        pool = Counter({str(c): int(k) for c, k in view["cards"].items()})
        size, bottom = sum(pool.values()), list[str]()
        for card in reversed(seen):
            if len(bottom) == size or pool[card] == 0:
                break
            pool[card] -= 1
            bottom.append(card)
        top = sorted(pool.elements())
        rng.shuffle(top)
        rs = view["runners"]
        return HaseState(
            board=str(view["board"]),
            runners=tuple(
                Runner(r["field"], r["carrots"], r["salads"], r["pending"] or "", r["arrived"])
                for r in rs
            ),
            deck=tuple(top + bottom[::-1]),
            start_carrots=int(view["start_carrots"]),
            until=str(view["until"]),
            finished=tuple(view["finished"]),
            out=tuple(view.get("out", ())),
            current=view["to_act"][0] if view["to_act"] else -1,
            decision="take_give" if view["decision"] == "card" else "",
            turns=tuple(r["turns"] for r in rs),
            ply=int(view["ply"]),
            end=view["reason"] or "",
            last_move=view["last_move"],
            last_seat=view["last_seat"],
            events=tuple(Event.from_json(e) for e in view["events"]),
        )

    # -- snapshots -----------------------------------------------------------------------

    def encode_state(self, state: HaseState) -> Json:
        return {
            "board": state.board,
            "runners": [
                [r.field, r.carrots, r.salads, r.pending, r.arrived] for r in state.runners
            ],
            "deck": list(state.deck),
            "start_carrots": state.start_carrots,
            "until": state.until,
            "finished": list(state.finished),
            "out": list(state.out),
            "current": state.current,
            "decision": state.decision,
            "turns": list(state.turns),
            "ply": state.ply,
            "end": state.end,
            "last_move": state.last_move,
            "last_seat": state.last_seat,
            "events": [e.to_json() for e in state.events],
        }

    def decode_state(self, data: Mapping[str, Any]) -> HaseState:
        return HaseState(
            board=str(data["board"]),
            runners=tuple(
                Runner(int(f), int(c), int(s), str(p), bool(a)) for f, c, s, p, a in data["runners"]
            ),
            deck=tuple(str(c) for c in data["deck"]),
            start_carrots=int(data["start_carrots"]),
            until=str(data["until"]),
            finished=tuple(int(s) for s in data["finished"]),
            out=tuple(int(s) for s in data.get("out", ())),
            current=int(data["current"]),
            decision=str(data["decision"]),
            turns=tuple(int(t) for t in data["turns"]),
            ply=int(data["ply"]),
            end=str(data["end"]),
            last_move=data["last_move"],
            last_seat=data["last_seat"],
            events=tuple(Event.from_json(e) for e in data["events"]),
        )
