"""Honesty: a bot's input is the seat's views, never the true state.

For every hidden-information game we build two true states that the seat cannot tell apart
(every view it has had is equal) and check that every algorithm for the game answers the same
for the same rng: whatever differs between the states cannot reach the bot. One world is built
and every bot asked before the other is built, so a bot that keeps the engine's newest state on
the side is caught too (two tests show both cheats caught). The arena (the runner used for
benchmarks) is checked to pass views only, and in a simultaneous turn nothing of the other
seat's sealed move; what the server's bot runner hands a worker process is checked in
``tests/net/test_bots.py``.
"""

from __future__ import annotations

import dataclasses
import hashlib
import random
from collections.abc import Callable
from typing import Any

import chess
import pytest

from server.bots import ALGORITHMS, make_bot
from server.engine import get_game
from server.tools.arena import play_game

from .play import Played, random_game, start

#: deterministic settings: iteration counts instead of the clock
DETERMINISTIC = {
    "mcts": {"max_iterations": 60},
    "ismcts": {"max_iterations": 60, "pool": 4},
    "smmcts": {"max_iterations": 100},
    "maxn": {"max_depth": 2},
    "worldsearch": {"max_iterations": 1, "pool": 4, "max_depth": 2},
}
BUDGET = 30.0  # generous: the deterministic settings end the searches long before


def answers(game: str, seat: int, p: Played, bots: Any = None) -> list[str]:
    """What every algorithm for ``game`` (or ``bots``) answers for ``p``, for two rngs."""
    legal = p.legal(seat)
    out = []
    for seed in range(2):
        for algorithm in ALGORITHMS[game] if bots is None else bots:
            bot = (
                make_bot(game, algorithm, **DETERMINISTIC.get(algorithm, {}))
                if isinstance(algorithm, str)
                else algorithm
            )
            out.append(bot.choose(p.game, seat, p.views[seat], legal, BUDGET, random.Random(seed)))
    return out


def same_answers(
    game: str, seat: int, a: Callable[[], Played], b: Callable[[], Played], bots: Any = None
) -> None:
    """Build world ``a``, ask every bot; only then build world ``b`` and ask again: a bot
    that keeps whatever true state the engine last made (the newest world when it is
    asked) would answer from ``a`` first and ``b`` next — and is caught."""
    first = a()
    asked_a = answers(game, seat, first, bots)
    second = b()
    assert first.views[seat] == second.views[seat], "the seat could tell the states apart"
    assert first.legal(seat) == second.legal(seat)
    asked_b = answers(game, seat, second, bots)
    assert asked_a == asked_b, f"{game}: the bots answered differently in the two worlds"


# -- Dark Chess: an unseen opponent move --------------------------------------------------------


def dark_twins(seed: int, plies: int) -> tuple[Played, Played, int] | None:
    """A game prefix, then two different opponent moves the seat to move next cannot see."""
    rng = random.Random(seed)
    p = random_game("dark_chess", seed, plies)
    game = p.game
    if game.outcome(p.state) is not None:
        return None
    mover = 0 if p.state.board.turn == chess.WHITE else 1
    seat = 1 - mover
    moves = p.legal(mover)
    rng.shuffle(moves)
    seen: dict[Any, str] = {}
    for text in moves:
        twin = dataclasses.replace(p, views=[list(v) for v in p.views])
        twin.play({mover: text}, f"g{seed}")
        if game.outcome(twin.state) is not None:
            continue
        key = repr(twin.views[seat][-1])
        if key in seen:
            other = dataclasses.replace(p, views=[list(v) for v in p.views])
            other.play({mover: seen[key]}, f"g{seed}")
            assert other.state.board.fen() != twin.state.board.fen()
            return other, twin, seat
        seen[key] = text
    return None


def unseen_reply(black: str) -> Callable[[], Played]:
    """1. e4 and Black's ``black``, built when called (White cannot see Black's move)."""

    def build() -> Played:
        p = start("dark_chess")
        p.play({0: "e2e4"})
        p.play({1: black})
        return p

    return build


def test_dark_chess_unseen_moves() -> None:
    a, b = unseen_reply("g8f6"), unseen_reply("b8c6")
    assert a().state.board.fen() != b().state.board.fen()
    same_answers("dark_chess", 0, a, b)


@pytest.mark.parametrize("seed", [1, 2])
def test_dark_chess_twins_from_random_games(seed: int) -> None:
    twins = None
    for plies in (9, 13, 17, 21):
        twins = dark_twins(seed * 10 + plies, plies)
        if twins is not None:
            break
    assert twins is not None
    a, b, seat = twins
    same_answers("dark_chess", seat, lambda: copy(a), lambda: copy(b))


# -- BanQi: face-down pieces --------------------------------------------------------------------


def banqi_twin(p: Played) -> Played:
    """The same game with two face-down pieces of different kinds swapped."""
    state = p.state
    down = sorted(state.hidden)
    for i, x in enumerate(down):
        for y in down[i + 1 :]:
            if state.board[x] != state.board[y]:
                cells = list(state.board)
                cells[x], cells[y] = cells[y], cells[x]
                twin_state = dataclasses.replace(state, board="".join(cells))
                return Played(p.game, twin_state, [list(v) for v in p.views], p.ply)
    raise AssertionError("no two different face-down pieces")


@pytest.mark.parametrize("plies", [0, 6, 16])
def test_banqi_face_down_pieces(plies: int) -> None:
    p = random_game("banqi", 21 + plies, plies)
    twin = banqi_twin(p)
    assert twin.state.board != p.state.board
    assert [p.game.view(twin.state, s) for s in range(2)] == [v[-1] for v in p.views]
    seat = min(p.game.to_act(p.state))
    same_answers("banqi", seat, lambda: copy(p), lambda: copy(twin))


# -- Hase und Igel: the deck order -------------------------------------------------------------


def test_hase_und_igel_deck_order() -> None:
    p = random_game("hase_und_igel", 5, 12, seats=3)
    deck = list(p.state.deck)
    random.Random(1).shuffle(deck)
    twin_state = dataclasses.replace(p.state, deck=tuple(deck))
    assert twin_state.deck != p.state.deck
    twin = Played(p.game, twin_state, [list(v) for v in p.views], p.ply)
    for s in range(3):
        assert p.game.view(twin_state, s) == p.views[s][-1]
    seat = min(p.game.to_act(p.state))
    same_answers("hase_und_igel", seat, lambda: copy(p), lambda: copy(twin))


def copy(p: Played) -> Played:
    """``p`` built anew: its state passes through the engine again (``decode_state`` of its
    snapshot), as a world made at asking time would."""
    state = p.game.decode_state(p.game.encode_state(p.state))
    return Played(p.game, state, [list(v) for v in p.views], p.ply)


# -- the check catches cheats ------------------------------------------------------------------


class TrueStateBot:
    """A cheat handed the true state (``world``): its answer depends on the hidden part."""

    name = "true-state"
    think_time = 0.0

    def __init__(self, world: Callable[[], Any]) -> None:
        self.world = world

    def choose(self, game: Any, seat: int, views: Any, legal: Any, budget: float, rng: Any) -> str:
        digest = hashlib.sha256(repr(game.encode_state(self.world())).encode()).digest()
        return sorted(legal)[digest[0] % len(legal)]


STASH: dict[str, Any] = {}


def test_the_check_catches_a_bot_handed_the_true_state() -> None:
    current: dict[str, Played] = {}

    def remember(build: Callable[[], Played]) -> Callable[[], Played]:
        def made() -> Played:
            current["p"] = build()
            return current["p"]

        return made

    cheat = TrueStateBot(lambda: current["p"].state)
    p = random_game("banqi", 27, 6)
    twin = banqi_twin(p)
    seat = min(p.game.to_act(p.state))
    with pytest.raises(AssertionError, match="answered differently"):
        same_answers(
            "banqi", seat, remember(lambda: copy(p)), remember(lambda: copy(twin)), bots=[cheat]
        )


def test_the_check_catches_a_bot_that_stashes_the_true_state(
    monkeypatch: pytest.MonkeyPatch,
) -> None:
    """The cheat this order of building and asking exists for: the engine's every new state
    is kept on the side (here: whenever a BanQi state is decoded or played), and the bot
    reads the newest. Built both first, then asked, both answers would come from the same
    stash and agree."""
    game = get_game("banqi")
    kind = type(game)
    for name in ("decode_state", "play"):
        honest = getattr(kind, name)

        def stashing(self: Any, *args: Any, _honest: Any = honest, **kw: Any) -> Any:
            STASH["state"] = state = _honest(self, *args, **kw)
            return state

        monkeypatch.setattr(kind, name, stashing)
    cheat = TrueStateBot(lambda: STASH["state"])
    p = random_game("banqi", 28, 6)
    twin = banqi_twin(p)
    seat = min(p.game.to_act(p.state))
    with pytest.raises(AssertionError, match="answered differently"):
        same_answers("banqi", seat, lambda: copy(p), lambda: copy(twin), bots=[cheat])


# -- the runner ----------------------------------------------------------------------------------


class Spy:
    """Records what a bot is given; plays like the bot it wraps."""

    name = "spy"
    think_time = 0.05

    def __init__(self, inner: Any) -> None:
        self.inner = inner
        self.calls: list[tuple[int, list[dict[str, Any]], list[str]]] = []

    def choose(self, game: Any, seat: int, views: Any, legal: Any, budget: float, rng: Any) -> str:
        self.calls.append((seat, [dict(v) for v in views], list(legal)))
        assert all(isinstance(v, dict) for v in views)
        return self.inner.choose(game, seat, views, legal, budget, rng)


@pytest.mark.parametrize("game_name", ["apocalypse", "banqi", "dark_chess"])
def test_the_arena_passes_views_only(game_name: str) -> None:
    """Every call gets the seat's own views: for a simultaneous turn both seats are asked
    from the pre-turn views, so the first seat's sealed move cannot reach the second."""
    game = get_game(game_name)
    spies = [Spy(make_bot(game_name, "random")), Spy(make_bot(game_name, "random"))]
    record = play_game(game, spies, [0.05, 0.05], [0, 1], "honest", max_plies=30)
    # rebuild the true game from the record and compare what each seat was shown
    from server.engine import turn_rng

    state = game.new(game.check_options({}), 2, turn_rng("honest", 0))
    shown: list[list[dict[str, Any]]] = [[game.view(state, s)] for s in range(2)]
    calls = {0: iter(spies[0].calls), 1: iter(spies[1].calls)}
    for ply, texts in enumerate(record.moves, start=1):
        for s in sorted(int(k) for k in texts):
            seat, views, legal = next(calls[s])
            assert seat == s and views == shown[s]  # exactly the seat's views, nothing else
            assert legal == [str(m) for m in game.legal_moves(state, s)]
        moves = {int(k): game.parse_move(state, int(k), t) for k, t in texts.items()}
        state = game.play(state, moves, turn_rng("honest", ply))
        for s in range(2):
            shown[s].append(game.view(state, s))
