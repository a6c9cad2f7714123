"""The engine contract as checks any registered game must pass (``test_contract.py`` runs
them over every game; ``test_contract_mutants.py`` shows each one catching a broken game).

A check takes a game and a seeded playout of it (:func:`playout`) and raises
``AssertionError`` with what is wrong. They use nothing but the contract of
``server/engine/base.py`` (and ``server/engine/grid.py`` for games drawn from data), so a new
game inherits all of them by being registered.
"""

from __future__ import annotations

import json
import random
from dataclasses import dataclass, field
from typing import Any

from server.engine import EngineError, Game, IllegalMove, InvalidMove, play_rng, turn_rng
from server.engine import grid as grid_contract
from server.engine.perft import joint_moves

#: a playout stops here even if the game has not ended (the game's own bounds must end it
#: sooner: every game has a draw or turn limit)
PLY_CAP = 3000


@dataclass
class Playout:
    """One seeded random game: the states from ``new`` on and the move texts of each turn."""

    game: Game[Any, Any]
    seed: str
    n_seats: int
    options: dict[str, Any]
    states: list[Any] = field(default_factory=list)
    turns: list[dict[int, str]] = field(default_factory=list)

    def replay(self, upto: int | None = None) -> list[Any]:
        """The states again, from the seed and the move texts alone (parsed anew)."""
        game = self.game
        state = game.new(self.options, self.n_seats, turn_rng(self.seed, 0))
        out = [state]
        for texts in self.turns[:upto]:
            moves = {s: game.parse_move(state, s, t) for s, t in texts.items()}
            state = game.play(state, moves, play_rng(game, self.seed, game.ply(state) + 1))
            out.append(state)
        return out


def playout(
    game: Game[Any, Any],
    seed: str,
    n_seats: int | None = None,
    options: dict[str, Any] | None = None,
) -> Playout:
    """Random legal moves (through the checked path) until the game ends."""
    n = n_seats or game.min_seats
    opts = game.check_options(options or {})
    rng = random.Random(seed)
    p = Playout(game, seed, n, opts)
    state = game.new(opts, n, turn_rng(seed, 0))
    p.states.append(state)
    while game.to_act(state):
        assert len(p.turns) < PLY_CAP, f"{game.name}: no end after {PLY_CAP} turns"
        moves = {s: rng.choice(game.legal_moves(state, s)) for s in sorted(game.to_act(state))}
        p.turns.append({s: str(m) for s, m in moves.items()})
        state = game.play(state, moves, play_rng(game, seed, game.ply(state) + 1))
        p.states.append(state)
    return p


def check_ends(p: Playout) -> None:
    """The last state has an outcome with a rank and a score per seat; no earlier one has."""
    game = p.game
    for state in p.states[:-1]:
        assert game.outcome(state) is None, f"{game.name}: an outcome while seats still act"
    out = game.outcome(p.states[-1])
    assert out is not None, f"{game.name}: nobody to act but no outcome"
    assert len(out.ranks) == len(out.scores) == p.n_seats
    assert out.reason and out.reason.replace("_", "").isalpha(), out.reason
    assert all(0.0 <= s <= 1.0 for s in out.scores)


def check_deterministic(p: Playout) -> None:
    """Seed + move texts rebuild every state exactly (same encoding, same views)."""
    game = p.game
    try:
        again = p.replay()
    except EngineError as e:
        raise AssertionError(f"{game.name}: the recorded moves do not replay: {e}") from None
    assert len(again) == len(p.states)
    for i, (a, b) in enumerate(zip(p.states, again, strict=True)):
        assert game.encode_state(a) == game.encode_state(b), f"{game.name}: replay differs at {i}"
        assert game.view(a, None) == game.view(b, None), f"{game.name}: view differs at {i}"


def check_snapshots(p: Playout, every: int = 1) -> None:
    """``decode(encode(s))`` is the same state: it encodes, views, moves and ends alike, and
    the encoding is JSON."""
    game = p.game
    for state in p.states[::every]:
        data = game.encode_state(state)
        text = json.dumps(data, sort_keys=True)
        back = game.decode_state(json.loads(text))
        assert json.dumps(game.encode_state(back), sort_keys=True) == text, game.name
        for seat in [None, *range(p.n_seats)]:
            assert game.view(back, seat) == game.view(state, seat), f"{game.name}: view {seat}"
        assert game.to_act(back) == game.to_act(state)
        for seat in game.to_act(state):
            assert game.legal_texts(back, seat) == game.legal_texts(state, seat)
        assert game.outcome(back) == game.outcome(state)
        assert game.ply(back) == game.ply(state)


def check_views(p: Playout, every: int = 1) -> None:
    """Views are JSON-ready and deterministic; a game without hidden parts shows every seat
    what it shows a spectator; a grid game's view describes its board; every description is
    well-formed and its legal moves are gestures on it."""
    game = p.game
    for state in p.states[::every]:
        public = game.view(state, None)
        for seat in [None, *range(p.n_seats)]:
            view = game.view(state, seat)
            assert json.loads(json.dumps(view)) == view, f"{game.name}: view is not JSON"
            assert game.view(state, seat) == view, f"{game.name}: view is not deterministic"
            if not game.hidden_information:
                assert view == public, f"{game.name}: a public game shows seat {seat} more"
            if game.board == "grid":
                assert "grid" in view, f"{game.name}: a grid game's view has no board description"
            if "grid" in view:  # any board described, whatever the game calls its board
                try:
                    grid_contract.check(view["grid"], p.n_seats)
                    if seat is not None and seat in game.to_act(state):
                        grid_contract.check_gestures(view["grid"], game.legal_texts(state, seat))
                except grid_contract.BadBoard as e:
                    raise AssertionError(f"{game.name}: {e}") from None


def check_no_hidden_leak(p: Playout, worlds: int = 2, positions: int = 6) -> None:
    """For a game with hidden parts and a ``determinize`` hook: every world the hook deals
    from a seat's view shows that seat the very same view (so the view holds nothing of
    the hidden truth beyond what every consistent world shares)."""
    game = p.game
    determinize = getattr(game, "determinize", None)
    if not game.hidden_information or determinize is None:
        return
    rng = random.Random(p.seed)
    states = p.states[:-1]
    for state in states[:: max(1, len(states) // positions)]:
        for seat in range(p.n_seats):
            view = game.view(state, seat)
            for _ in range(worlds):
                try:
                    world = determinize([view], seat, rng)
                except (ValueError, NotImplementedError):
                    break  # the hook needs the whole view history: the leak harness covers it
                assert game.view(world, seat) == view, f"{game.name}: seat {seat}'s view leaks"


def check_rebuild(p: Playout, every: int = 1) -> None:
    """Bots rebuild a state from a seat's views (the ``determinize`` hook): every game has
    one, and for a game with nothing hidden the rebuilt state is the state itself."""
    game = p.game
    determinize = getattr(game, "determinize", None)
    assert determinize is not None, f"{game.name}: no determinize hook: bots cannot play it"
    if game.hidden_information:
        return  # a sample of the hidden part: check_no_hidden_leak covers it
    rng = random.Random(p.seed)
    views: dict[int, list[Any]] = {s: [] for s in range(p.n_seats)}
    for i, state in enumerate(p.states):
        for seat in range(p.n_seats):
            views[seat].append(game.view(state, seat))
        if i % every or not game.to_act(state):
            continue
        for seat in game.to_act(state):
            world = determinize(views[seat], seat, rng)
            assert game.encode_state(world) == game.encode_state(state), (
                f"{game.name}: seat {seat} rebuilds another state at turn {i}"
            )


def check_moves(p: Playout, every: int = 1) -> None:
    """Every legal move is taken by the checked path; texts parse back to the same move;
    garbage is refused as ``bad_move``, a move from a seat not to act and a legal-looking
    move not legal now as ``illegal_move``, each with a message, and nothing changes."""
    game = p.game
    for i, state in enumerate(p.states[:-1]):
        if i % every:
            continue
        before = json.dumps(game.encode_state(state), sort_keys=True)
        acting = sorted(game.to_act(state))
        combos = joint_moves(game, state)
        for moves in combos if len(combos) <= 400 else combos[:: len(combos) // 400 + 1]:
            for s, m in moves.items():
                assert game.parse_move(state, s, str(m)) == m, (
                    f"{game.name}: {m} does not parse back"
                )
            game.play(state, moves, play_rng(game, p.seed, game.ply(state) + 1))
        seat = acting[0]
        for text in ("", "zz", "pass pass", "a1-a2 ", " a1-a2", "e2e4\n", "\x00", "a" * 300):
            try:
                move = game.parse_move(state, seat, text)
            except (InvalidMove, IllegalMove) as e:  # chess reads SAN against the position
                assert str(e), f"{game.name}: an empty error for {text!r}"
                continue
            if move in game.legal_moves(state, seat):
                raise AssertionError(f"{game.name}: {text!r} is read as a legal move")
        later = [t for turn in p.turns[i + 1 :] for t in turn.values()]
        legal = set(game.legal_texts(state, seat))
        for text in later[:20]:
            if text in legal:
                continue
            try:
                move = game.parse_move(state, seat, text)
            except (InvalidMove, IllegalMove):
                continue
            moves = {s: game.legal_moves(state, s)[0] for s in acting}
            moves[seat] = move
            try:
                game.play(state, moves, play_rng(game, p.seed, game.ply(state) + 1))
            except IllegalMove as e:
                assert str(e), f"{game.name}: an empty error for {text!r}"
            else:
                raise AssertionError(f"{game.name}: {text!r} was played though not legal")
            break
        others = [s for s in range(p.n_seats) if s not in acting]
        if others:
            moves = {s: game.legal_moves(state, s)[0] for s in acting}
            wrong = {**moves, others[0]: moves[seat]}
            try:
                game.play(state, wrong, play_rng(game, p.seed, game.ply(state) + 1))
            except EngineError as e:
                assert isinstance(e, IllegalMove) and str(e), game.name
            else:
                raise AssertionError(f"{game.name}: a seat not to act was let move")
        after = json.dumps(game.encode_state(state), sort_keys=True)
        assert after == before, f"{game.name}: a refused or trial move changed the state"
