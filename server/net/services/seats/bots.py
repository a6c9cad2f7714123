"""Bots in seats: they think in worker processes and act through the room like anyone.

When a room changes, the runner looks for bot seats that owe a move and hands each one's
search to a process pool, so a thinking bot never stalls the event loop that serves people
(the workers also run in the idle CPU scheduling class). A bot gets only what its seat may know:
the history of its seat's views (``game.view(state, seat)`` after every turn, rebuilt from
the room's log when needed, e.g. after a restart) and its legal moves — never the state.
Its answer goes through ``Room.move`` with the room version it was computed at, so a
move for a position that changed meanwhile (take-back, resignation) is simply dropped.

The workers are shared fairly between the owners of the games (:class:`FairShare`): one
player's many games with a bot wait their turn, and never take every worker, so they cannot
stall another player's bot.

A seat of a UCI engine (``kibitz serve --engine``) is run the same way from the same views,
but its move comes from the engine's process pool (:mod:`server.net.services.seats.engines`) instead
of a worker; an engine that fails during a move plays no more in that game (it loses on time).
"""

from __future__ import annotations

import asyncio
import concurrent.futures
import contextlib
import ctypes
import ctypes.util
import hashlib
import logging
import multiprocessing
import os
import random
import signal
import time
from collections import Counter, deque
from collections.abc import AsyncIterator, Callable, Sequence
from dataclasses import dataclass, field
from typing import Any

from ....bots import make_bot, uci
from ....bots.evaluator import evaluator_for
from ....bots.uci import EngineLevel
from ....engine import EngineError, get_game, turn_rng
from ....rooms.errors import RoomError
from ....rooms.room import BOT, Room
from ...node.hub import Hosted, Hub
from ...transport.errors import ProtocolError
from .engines import EngineFailed, EnginePool, Engines

log = logging.getLogger("kibitz.bots")

DEFAULT_BUDGET = 1.0
#: a bot accepts a draw when its evaluation gives it less than this (0.5: level)
DRAW_ACCEPT_BELOW = 0.35
#: seconds an engine seat may think past its budget when no clock bounds it (then it loses)
ENGINE_GRACE = 5.0
#: a bot move refused (the room moved meanwhile, the store failed) is planned again after
#: this many seconds, doubling, at most ``RETRIES`` times for one position: a bot's first
#: move has no clock behind it, so a refusal not tried again would stall the game for good
RETRY_AFTER = 0.5
RETRIES = 6

# -- the worker side (runs in the pool's processes) -------------------------------------------

_BOTS: dict[tuple[str, str], Any] = {}


def worker_init(parent: int, idle: bool = True) -> None:
    """A worker process's start: it yields the CPU to the server that serves people (``idle``:
    the idle scheduling class runs it only on CPU time nobody else wants; else, or where that
    class is missing, the lowest priority), and dies with the server."""
    try:
        if not idle:
            raise OSError("the lowest priority asked for")
        os.sched_setscheduler(0, os.SCHED_IDLE, os.sched_param(0))
    except (AttributeError, OSError):
        with contextlib.suppress(OSError):
            os.nice(19)
    # die with the server, even when it is killed with SIGKILL (Linux: PR_SET_PDEATHSIG)
    with contextlib.suppress(OSError, AttributeError):
        libc = ctypes.CDLL(ctypes.util.find_library("c") or "libc.so.6", use_errno=True)
        libc.prctl(1, signal.SIGKILL)  # 1 = PR_SET_PDEATHSIG
    if os.getppid() != parent:  # the server died before we got here
        os._exit(0)


def think(
    game_name: str,
    strength: str,
    seat: int,
    views: Sequence[dict[str, Any]],
    legal: Sequence[str],
    budget: float,
    seed: str,
) -> tuple[str, float]:
    """Choose a move (in a worker process). Returns the move text and the seconds spent."""
    key = (game_name, strength)
    bot = _BOTS.get(key)
    if bot is None:
        bot = _BOTS[key] = make_bot(game_name, strength)
    t0 = time.perf_counter()
    move = bot.choose(get_game(game_name), seat, views, legal, budget, random.Random(seed))
    return str(move), time.perf_counter() - t0


def bot_seed(room_seed: str, seat: int, version: int) -> str:
    """The bot's randomness for one move: a one-way digest of the room's seed, so the bot
    cannot recover the seed (which would tell the face-down pieces or the hare deck)."""
    return hashlib.sha256(f"{room_seed}/bot/{seat}/{version}".encode()).hexdigest()


def bot_budget(game_name: str, strength: str) -> float:
    """The think time a named strength is meant to get."""
    return float(getattr(make_bot(game_name, strength), "think_time", DEFAULT_BUDGET))


def view_history(room: Room, seat: int) -> list[dict[str, Any]]:
    """The views ``seat`` has had in this game, one per position, from the room's own log
    (the initial position, then after every turn)."""
    game = room.game
    state = game.new(room.options, room.n_seats, turn_rng(room.seed, 0))
    views = [game.view(state, seat)]
    for i, turn in enumerate(room.turns):
        moves = {int(s): game.parse_move(state, int(s), t) for s, t in turn.played}
        state = game.play(state, moves, turn_rng(room.seed, i + 1), check=False)
        views.append(game.view(state, seat))
    return views


# -- the server side ------------------------------------------------------------------------------


class FairShare:
    """The bot workers shared between owners (:meth:`Admission.owner_of
    <server.net.transport.admission.Admission.owner_of>`): at most ``slots`` searches at once, of
    which one owner's at most ``slots - 1`` (at least one), so that one player's many games always
    leave a worker to everybody else's; owners who wait are served in turn."""

    def __init__(self, slots: int) -> None:
        self.slots = slots
        self.per_owner = max(1, slots - 1)
        self.running = 0
        self.busy: Counter[str] = Counter()
        #: owners waiting, in turn order, each with its waiters in order
        self.waiting: dict[str, deque[asyncio.Future[None]]] = {}

    @contextlib.asynccontextmanager
    async def slot(self, owner: str) -> AsyncIterator[None]:
        """Hold one of the workers for ``owner`` (waiting for its turn)."""
        granted: asyncio.Future[None] = asyncio.get_running_loop().create_future()
        self.waiting.setdefault(owner, deque()).append(granted)
        self._grant()
        try:
            await granted
        except asyncio.CancelledError:
            if granted.done() and not granted.cancelled():  # granted as it was cancelled
                self._release(owner)
            else:
                queue = self.waiting.get(owner)
                if queue is not None and granted in queue:
                    queue.remove(granted)
                    if not queue:
                        del self.waiting[owner]
            raise
        try:
            yield
        finally:
            self._release(owner)

    def _grant(self) -> None:
        while self.running < self.slots:
            owner = next((o for o in self.waiting if self.busy[o] < self.per_owner), None)
            if owner is None:
                return
            queue = self.waiting.pop(owner)
            granted = queue.popleft()
            if queue:  # its next search waits behind the others' (round robin)
                self.waiting[owner] = queue
            if granted.cancelled():
                continue
            granted.set_result(None)
            self.running += 1
            self.busy[owner] += 1

    def _release(self, owner: str) -> None:
        self.running -= 1
        self.busy[owner] -= 1
        if self.busy[owner] <= 0:
            del self.busy[owner]
        self._grant()


@dataclass
class _SeatMind:
    """What the runner remembers of one bot seat: its view history, built incrementally."""

    views: list[dict[str, Any]] = field(default_factory=list)
    turns: int = -1  # len(room.turns) the views are up to date with
    undo_seen: int = 0


class BotRunner:
    """Schedules bot moves for every room of a hub (call :meth:`attach` once)."""

    def __init__(
        self,
        hub: Hub,
        *,
        workers: int | None = None,
        engines: Engines | None = None,
        owner_of: Callable[[str], str] = lambda room: room,
    ) -> None:
        self.hub = hub
        #: who owns a room's bots (the server's: ``Admission.owner_of``): the workers'
        #: fair share is by owner
        self.owner_of = owner_of
        #: UCI engines as seats (``kibitz serve --engine``; server/net/services/seats/engines.py)
        self.engines = engines
        #: engine seats whose engine failed in this game: they play no more moves in it
        self.failed: set[tuple[str, int]] = set()
        self.workers = workers or max(1, os.cpu_count() or 1)
        self.share = FairShare(self.workers)
        self.pool: concurrent.futures.ProcessPoolExecutor | None = None
        self.thinking: set[tuple[str, int]] = set()
        self.minds: dict[tuple[str, int], _SeatMind] = {}
        #: seats whose move was refused: (the room version it was for, refusals so far)
        self.refused: dict[tuple[str, int], tuple[int, int]] = {}
        self._budgets: dict[tuple[str, str], float] = {}

    def start(self) -> None:
        ctx = multiprocessing.get_context("spawn")
        self.pool = concurrent.futures.ProcessPoolExecutor(
            self.workers, mp_context=ctx, initializer=worker_init, initargs=(os.getpid(),)
        )
        self.hub.on_change.append(self.poke)

    async def close(self) -> None:
        if self.pool is not None:
            pool, self.pool = self.pool, None
            await asyncio.to_thread(pool.shutdown, wait=True, cancel_futures=True)

    def poke(self, hosted: Hosted) -> None:
        """A room changed: start thinking for each bot seat that owes a move."""
        if self.pool is None:
            return
        room = hosted.room
        if room.status == "over":  # nothing more to think about here
            for seat in range(room.n_seats):
                self.minds.pop((room.id, seat), None)
                self.refused.pop((room.id, seat), None)
                self.failed.discard((room.id, seat))
                if self.engines is not None:
                    self.engines.unseat(room.id, seat)
            return
        if self.engines is not None:
            self.engines.seat_all(room.id, [s.bot if s.kind == "bot" else "" for s in room.seats])
        for seat, holder in enumerate(room.seats):
            if holder.kind == "bot" and room.status == "playing":
                self.history(room, seat)  # one view per turn, as the turns happen
        offer = room.draw_offer
        if offer is not None and room.n_seats == 2 and room.seats[1 - offer].kind == "bot":
            self.hub.spawn(self._answer_draw(hosted, 1 - offer), f"bot draw {room.id}")
        for seat in room.bot_seats_to_act():
            key = (hosted.room.id, seat)
            if key not in self.thinking and key not in self.failed:
                self.thinking.add(key)
                self.hub.spawn(self._play(hosted, seat), f"bot {key[0]}/{seat}")

    async def _answer_draw(self, hosted: Hosted, seat: int) -> None:
        """A bot answers a draw offer by policy: it accepts when its evaluation of the
        position (a game that hides nothing: the evaluation may read the position) says it
        stands worse, and declines otherwise — always in a hidden-information game, where
        only a search over its views could tell, and the bot does not search for this."""
        room = hosted.room
        accept = False
        if not room.game.hidden_information and room.outcome is None:
            try:
                accept = evaluator_for(room.game).values(room.state)[seat] < DRAW_ACCEPT_BELOW
            except Exception:  # no evaluator for this game: decline
                accept = False
        try:
            await self.hub.run(hosted, lambda r: r.answer_draw(seat, BOT, accept, self.hub.clock()))
        except (RoomError, ProtocolError) as exc:  # answered meanwhile, or the room moved
            log.info("bot %s/%d: draw answer not taken: %s", room.id, seat, exc)

    def budget(self, room: Room, seat: int) -> float:
        strength = room.seats[seat].bot
        key = (room.game.name, strength)
        engine = self.engines.find(strength) if self.engines is not None else None
        if engine is not None:
            budget = engine[1].movetime
        else:
            if key not in self._budgets:
                self._budgets[key] = bot_budget(*key)
            budget = self._budgets[key]
        if room.clock is not None:  # never flag: spend at most a slice of what is left
            budget = min(budget, max(0.05, room.clock.left[seat] / 20))
        return budget

    def history(self, room: Room, seat: int) -> list[dict[str, Any]]:
        """The seat's views so far: extended by one view per new turn, rebuilt from the
        log only when turns were missed (a restart, a takeover) or taken back."""
        mind = self.minds.setdefault((room.id, seat), _SeatMind())
        undos = room.undos
        if mind.turns == len(room.turns) - 1 and mind.undo_seen == undos:
            mind.views.append(room.game.view(room.state, seat))
        elif mind.turns != len(room.turns) or mind.undo_seen != undos:
            mind.views = view_history(room, seat)
        mind.turns, mind.undo_seen = len(room.turns), undos
        return mind.views

    async def _play(self, hosted: Hosted, seat: int) -> None:
        key = (hosted.room.id, seat)
        version = hosted.room.version
        try:
            room = hosted.room
            if seat not in room.bot_seats_to_act() or self.pool is None:
                self.thinking.discard(key)
                return
            views = self.history(room, seat)
            legal = room.snapshot(seat).get("legal", [])
            seed = bot_seed(room.seed, seat, version)
            engine = self.engines.find(room.seats[seat].bot) if self.engines is not None else None
            if engine is not None:
                played = await self._engine_move(hosted, seat, engine, views, legal)
                if played is None:
                    self.thinking.discard(key)
                    return
                move = played
            else:
                loop = asyncio.get_running_loop()
                async with self.share.slot(self.owner_of(room.id)):
                    pool = self.pool  # closed while this search waited its turn: none
                    if pool is None:
                        self.thinking.discard(key)
                        return
                    move, spent = await loop.run_in_executor(
                        pool,
                        think,
                        room.game.name,
                        room.seats[seat].bot,
                        seat,
                        views,
                        legal,
                        self.budget(room, seat),
                        seed,
                    )
                self.hub.metrics.bot_think.observe(spent)
            if hosted.room.version != version:
                self.thinking.discard(key)
                self.poke(hosted)  # the room moved on while we thought: plan again
                return
            await self.hub.run(
                hosted,
                lambda r: r.move(seat, BOT, move, self.hub.clock(), expect_version=version),
            )
        except (RoomError, EngineError, ProtocolError) as exc:
            # not retried at once (a bug would spin): in a while, a few times
            log.warning("bot %s/%d: move refused: %s", key[0], seat, exc)
            self.thinking.discard(key)
            self._retry_later(key, version)
            return
        except (concurrent.futures.process.BrokenProcessPool, RuntimeError) as exc:
            log.error("bot %s/%d: worker failed: %s", key[0], seat, exc)
            self.thinking.discard(key)
            return
        self.thinking.discard(key)
        self.refused.pop(key, None)
        self.poke(hosted)  # the room may owe another bot move (or this one, re-planned)

    def _retry_later(self, key: tuple[str, int], version: int) -> None:
        """Plan a refused move again in a while (the room as hosted then, if still here)."""
        last, count = self.refused.get(key, (version, 0))
        count = count if last == version else 0
        if count >= RETRIES:
            log.error("bot %s/%d: move refused %d times; it waits for a change", *key, count)
            return
        self.refused[key] = (version, count + 1)
        asyncio.get_running_loop().call_later(RETRY_AFTER * 2**count, self._repoke, key)

    def _repoke(self, key: tuple[str, int]) -> None:
        hosted = self.hub.rooms.get(key[0])
        if hosted is None:  # not hosted here any more: its host's bots play it
            self.refused.pop(key, None)
        else:
            self.poke(hosted)

    async def _engine_move(
        self,
        hosted: Hosted,
        seat: int,
        engine: tuple[EnginePool, EngineLevel],
        views: Sequence[dict[str, Any]],
        legal: Sequence[str],
    ) -> str | None:
        """An engine seat's move: the engine is told the position its views describe and
        its answer is read back as a legal move. If the engine dies, hangs or answers
        nonsense, the seat plays no more in this game (None) and loses it at once: on time
        with the clocks running (as its flag would, later), else by resigning. The room
        lives on either way."""
        pool, level = engine
        room = hosted.room
        budget = self.budget(room, seat)
        clock = room.clock
        timing = clock is not None and clock.running
        timeout = budget * 2 + ENGINE_GRACE
        if clock is not None and timing:  # its flag falls first; then the process is killed
            timeout = clock.left[seat] + 1.0
        started = time.perf_counter()
        try:
            position = uci.position(room.game, seat, views)
            best = await pool.best_move(room.id, position, level, budget, timeout)
            move = uci.read_move(room.game.name, best, legal)
        except (EngineFailed, ValueError) as exc:
            log.error(
                "engine seat %s/%d (%s): %s; it plays no more in this game",
                room.id,
                seat,
                room.seats[seat].bot,
                exc,
            )
            self.failed.add((room.id, seat))
            if hosted.room.status == "playing":  # it loses now: on time if the clocks run
                why = "timeout" if timing else "resignation"
                with contextlib.suppress(RoomError, ProtocolError):
                    await self.hub.run(hosted, lambda r: r.resign(seat, BOT, self.hub.clock(), why))
            return None
        self.hub.metrics.bot_think.observe(time.perf_counter() - started)
        return move
