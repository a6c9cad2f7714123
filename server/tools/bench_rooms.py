"""The cost of one move through the rooms API, early and late in a game.

For each game, a seeded random game is played to ply ~10 and to ply ~150 (or as far as it
goes); at each of those positions the cost of one move is timed as a host pays it: decide
(``Room.move``: parse and check), fold the event in, render every recipient's delta and full
update (``Room.changes``) and encode each delta as JSON once. The move is then taken back by
rebuilding the room from its log, so every sample starts from the same position. A flat cost
(ply 150 ≈ ply 10) means nothing in the hot path grows with the game.
"""

from __future__ import annotations

import contextlib
import gc
import json
import random
import time
from collections.abc import Iterator
from typing import Any

from ..engine import REGISTRY
from ..rooms.room import BOT, Event, Room

NOW = 1_700_000_000.0


def _room_at(game: str, plies: int, seed: str) -> tuple[Room, list[Event]]:
    event = Room.create("bench", game, None, None, seed, NOW, None, REGISTRY)
    room = Room.from_created(event)
    log = [event]
    for seat in range(room.n_seats):
        for e in room.add_bot(seat, "random", f"b{seat}", NOW):
            room.fold(e)
            log.append(e)
    rng = random.Random(seed)
    while room.status == "playing" and len(room.turns) < plies:
        for seat in sorted(room.to_act()):
            if seat in room.pending:
                continue
            legal = room.game.legal_moves(room.state, seat)
            events = room.move(seat, BOT, str(rng.choice(legal)), NOW)
            for e in events:
                room.fold(e)
                log.append(e)
    room.changes([])  # every recipient has a base: the next change renders deltas
    return room, log


def move_cost(game: str, plies: int, *, samples: int = 200, seed: str = "bench") -> dict[str, Any]:
    """Mean µs per move at the position reached after ``plies`` plies (the first of up to
    200 seeded random games that lasts that long) — and, for games started from a FEN, at
    the very same position in a fresh room with no history (what a longer game costs more
    for its history alone)."""
    for attempt in range(200):
        room, log = _room_at(game, plies, f"{seed}/{attempt}")
        if room.status == "playing" and len(room.turns) >= plies:
            break
    else:
        return {"ply": len(room.turns), "us_per_move": None, "note": "no game lasted so long"}
    out: dict[str, Any] = {"ply": len(room.turns), "us_per_move": _sample(log, samples, seed)}
    board = getattr(room.state, "board", None)
    if board is not None and hasattr(board, "fen"):
        fresh = Room.create("fresh", game, {"fen": board.fen()}, None, "fresh", NOW, None, REGISTRY)
        out["same_position_no_history_us"] = _sample([fresh], samples, seed, seats=True)
    return out


def _sample(log: list[Event], samples: int, seed: str, *, seats: bool = False) -> float:
    """Mean µs of one random move (decide, fold, render, encode) from the room of ``log``."""
    base = Room.replay(log)
    if seats:
        for seat in range(base.n_seats):
            for e in base.add_bot(seat, "random", f"b{seat}", NOW):
                base.fold(e)
                log = [*log, e]
    rng = random.Random(seed + "/samples")
    total = 0.0
    for _ in range(samples):
        room = Room.replay(log)  # the sampled position, every time
        room.changes([])
        seat = min(s for s in room.to_act() if s not in room.pending)
        text = str(rng.choice(room.game.legal_moves(room.state, seat)))
        gc.collect()
        gc.disable()  # as timeit does: the replay's garbage is not the move's cost
        t0 = time.perf_counter()
        events = room.move(seat, BOT, text, NOW)
        outs = room.apply_all(events)
        for _r, step, full in outs:
            json.dumps(step if step is not None else full, separators=(",", ":"))
        total += time.perf_counter() - t0
        gc.enable()
    return round(total / samples * 1e6, 1)


def run(games: tuple[str, ...] = ("chess", "dark_chess"), samples: int = 200) -> dict[str, Any]:
    out: dict[str, Any] = {}
    for game in games:
        early = move_cost(game, 10, samples=samples)
        late = move_cost(game, 150, samples=samples)
        ratio = history = None
        if early["us_per_move"] and late["us_per_move"]:
            ratio = round(late["us_per_move"] / early["us_per_move"], 2)
        if late.get("same_position_no_history_us"):
            history = round(late["us_per_move"] / late["same_position_no_history_us"], 2)
        out[game] = {
            "early": early,
            "late": late,
            "late_over_early": ratio,
            "late_over_same_position_without_history": history,
        }
    return out


@contextlib.contextmanager
def pure_python() -> Iterator[None]:
    """The compiled parts switched off in this process for a while (what
    ``KIBITZ_PURE_PYTHON=1`` does from the start): the same run's anchor for them."""
    from ..engine import compiled
    from ..rooms import delta

    names = compiled.NAMES
    saved = [getattr(compiled, n) for n in names], delta._compiled
    try:
        for n in names:
            setattr(compiled, n, None)
        delta._compiled = None
        yield
    finally:
        for n, v in zip(names, saved[0], strict=True):
            setattr(compiled, n, v)
        delta._compiled = saved[1]


def compiled_vs_python(game: str = "chess", samples: int = 200) -> dict[str, Any]:
    """One move's cost at ply ~10 with the compiled parts and without them, in one run."""
    with_c = move_cost(game, 10, samples=samples)["us_per_move"]
    with pure_python():
        without = move_cost(game, 10, samples=samples)["us_per_move"]
    ratio = round(with_c / without, 2) if with_c and without else None
    return {"game": game, "compiled_us": with_c, "python_us": without, "ratio": ratio}


def report(result: dict[str, Any]) -> str:
    lines = ["cost of one move through the rooms API (decide + fold + render + encode):"]
    for game, r in result.items():
        e, late = r["early"], r["late"]
        lines.append(
            f"  {game:<12} ply {e['ply']:>3}: {e['us_per_move']} µs   ply {late['ply']:>3}: "
            f"{late['us_per_move']} µs   late/early {r['late_over_early']}   "
            f"late/same position without history {r['late_over_same_position_without_history']}"
        )
    return "\n".join(lines)


if __name__ == "__main__":
    print(report(run()))
